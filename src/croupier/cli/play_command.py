"""``croupier play GAME --rules NAME``: a terminal game for one player with a balance.

Each game's terminal table lives in ``croupier.cli.play.<game module>`` and exposes
``play(profile, balance, seed)``; this command only finds it.
"""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from croupier import resident
from croupier.errors import SettleInputError
from croupier.games import GAME_MODULES

DEFAULT_RULES = {
    "blackjack": "peru-2016",
    "baccarat": "dragon-six-peru-2016",
    "casino-holdem": "casino-holdem-peru-2007",
}


def command(
    game: Annotated[str, typer.Argument(help="blackjack, baccarat or casino-holdem")],
    rules: Annotated[
        str | None, typer.Option("--rules", help="A profile name or .toml file.")
    ] = None,
    balance: Annotated[int, typer.Option(help="Starting balance in units.")] = 1000,
    seed: Annotated[
        str | None,
        typer.Option(help="Shuffle from this seed (replayable); default: the OS source."),
    ] = None,
) -> None:
    """Play a game in the terminal."""
    # The rules' models load here: ``croupier --help`` need not build them.
    with resident.loading():
        from croupier.rules.registry import load_profile_of

    if game not in GAME_MODULES:
        raise SettleInputError(f"unknown game {game!r} (known: {', '.join(GAME_MODULES)})")
    profile = load_profile_of(game, rules or DEFAULT_RULES[game])
    module = importlib.import_module(f"croupier.cli.play.{game.replace('-', '_')}")
    module.play(profile, balance, seed)
