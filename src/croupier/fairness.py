"""Provable fairness with a finite shoe (R18): commit before the deal, reveal after.

Before a shoe deals its first card the server publishes ``commitment``: the SHA-256 of a
canonical JSON document holding the seed (32 bytes from the OS, hex), the whole order the
shoe deals in, the number of decks, the cut card's place and the rules version. When the
shoe ends the server reveals the document. Anyone can then check that (1) it hashes to the
commitment, (2) ``Shoe.shuffled(decks, SeededRandomSource(seed), ...)`` rebuilds exactly that
order, and (3) every card the rounds of that shoe drew, in order, is the next card of it.

The export ``croupier verify`` reads (``GET /shoes/{id}/export``)::

    {"shoe": 7, "table": "blackjack-peru-2016", "commitment": "<64 hex>",
     "revealed": {"seed": "<64 hex>", "order": ["As", "Kd", ...], "decks": 8,
                  "cut_card_from_bottom": 78, "rules_version": "peru-2016@..."},
     "rounds": [{"round": 12, "start_position": 5, "events": [{"kind": "CardDrawn", ...}]}],
     "opening": [{"kind": "CardDrawn", "purpose": "burn", ...}]}

>>> doc = revealed_document(b"\\x01" * 32, 1, None, "demo")
>>> verify_export({"commitment": commitment(doc), "revealed": doc, "rounds": []})
[]
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from croupier.randomness import SeededRandomSource
from croupier.shoe import Shoe


def revealed_document(
    seed: bytes, decks: int, cut_card_from_bottom: int | None, rules_version: str
) -> dict[str, Any]:
    """What a shoe's commitment hashes, and what is revealed when the shoe ends."""
    shoe = Shoe.shuffled(decks, SeededRandomSource(seed), cut_card_from_bottom=cut_card_from_bottom)
    return {
        "seed": seed.hex(),
        "order": [str(card) for card in shoe.peek_order()],
        "decks": decks,
        "cut_card_from_bottom": cut_card_from_bottom,
        "rules_version": rules_version,
    }


def canonical(document: dict[str, Any]) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode()


def commitment(document: dict[str, Any]) -> str:
    """The SHA-256 (hex) published before the shoe is dealt."""
    return hashlib.sha256(canonical(document)).hexdigest()


def _drawn_cards(events: list[dict[str, Any]]) -> list[str]:
    return [str(event["card"]) for event in events if event.get("kind") == "CardDrawn"]


def verify_export(export: dict[str, Any]) -> list[str]:
    """Every way a revealed shoe fails its commitment or its rounds; empty when it verifies."""
    problems: list[str] = []
    revealed = export.get("revealed")
    if not isinstance(revealed, dict):
        return ["the shoe is not revealed yet (no 'revealed' document)"]
    if commitment(revealed) != export.get("commitment"):
        problems.append("the revealed document does not hash to the commitment")
    try:
        seed = bytes.fromhex(str(revealed["seed"]))
        rebuilt = revealed_document(
            seed,
            int(revealed["decks"]),
            revealed["cut_card_from_bottom"],
            str(revealed["rules_version"]),
        )
    except (KeyError, ValueError, TypeError) as error:
        return [*problems, f"the revealed document is malformed: {error}"]
    if rebuilt["order"] != revealed.get("order"):
        problems.append("the seed does not rebuild the revealed order")
    order = rebuilt["order"]
    position = 0
    opening = _drawn_cards(list(export.get("opening", [])))
    if opening != order[: len(opening)]:
        problems.append("the new-shoe procedure did not draw the first cards of the order")
    position = len(opening)
    for dealt in sorted(export.get("rounds", []), key=lambda r: int(r["start_position"])):
        start = int(dealt["start_position"])
        if start != position:
            problems.append(f"round {dealt.get('round')}: starts at card {start}, not {position}")
        cards = _drawn_cards(list(dealt.get("events", [])))
        if cards != order[start : start + len(cards)]:
            problems.append(f"round {dealt.get('round')}: its cards are not the shoe's next cards")
        position = start + len(cards)
    return problems
