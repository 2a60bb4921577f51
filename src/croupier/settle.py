"""``croupier settle``: settle one round described in JSON (the dispute and recall tool).

The document names the game and its rules, lists the shoe in the order its cards leave it,
and each seat's bets and decisions; the game's round deals it through the same
engine as the live table and answers with every card, hand and payout, plus the events.
"""

from __future__ import annotations

import json
from typing import Any

from croupier.errors import SettleInputError
from croupier.games import settle_document as contract
from croupier.games.base import round_class_of
from croupier.rules.registry import load_profile_of


def settle_document(document: Any) -> dict[str, Any]:
    """Settle a parsed round description; every bad input raises a ``CroupierError``."""
    if not isinstance(document, dict):
        raise SettleInputError("a round is a JSON object with 'game', 'rules', 'shoe' and 'seats'")
    game = document.get("game")
    rules = document.get("rules")
    if not isinstance(game, str):
        raise SettleInputError(f"'game' must be a game name, not {game!r}")
    if not isinstance(rules, str):
        raise SettleInputError(f"'rules' must be a profile name or .toml path, not {rules!r}")
    round_class_of(game)  # an unknown game is named before its rules are looked for
    return contract.settle_document(document, load_profile_of(game, rules))


def settle_text(text: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SettleInputError(f"malformed JSON: {error}") from None
    return settle_document(document)
