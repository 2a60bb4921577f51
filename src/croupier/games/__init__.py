"""One module per game; each registers its round class (``games.base.round_class_of``)."""

from __future__ import annotations

import importlib
from types import ModuleType

from croupier.errors import SettleInputError

GAME_MODULES = {
    "blackjack": "croupier.games.blackjack",
    "baccarat": "croupier.games.baccarat",
    "casino-holdem": "croupier.games.casino_holdem",
}


def game_module(game: str) -> ModuleType:
    """The module of ``game``, or ``SettleInputError`` naming the unknown game."""
    path = GAME_MODULES.get(game)
    if path is None:
        known = ", ".join(GAME_MODULES)
        raise SettleInputError(f"unknown game {game!r} (known: {known})")
    return importlib.import_module(path)
