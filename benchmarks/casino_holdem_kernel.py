"""Casino Hold'em games per second: the compiled kernel against the reference engine.

Run: ``uv run python benchmarks/casino_holdem_kernel.py [games]``. Both play the same seeded
decks with two players who always call (``croupier.simulation.casino_holdem``); the engine
is the reference measured in the same run. Times are CPU time (shared machines).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from croupier.games.casino_holdem import CALL, CasinoHoldemRound, new_shoe
from croupier.randomness import SeededRandomSource
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe
from croupier.simulation.casino_holdem import ALWAYS_CALL, Paytable, play_decks

PLAYERS = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=2_000, help="decks played by both")
    games = parser.parse_args().games
    profile = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
    assert isinstance(profile, CasinoHoldemRules)
    source = SeededRandomSource("benchmark")
    decks = [new_shoe(source).peek_order() for _ in range(games)]
    array = np.array([[card.index for card in deck] for deck in decks], dtype=np.int64)
    table = Paytable.of(profile)
    play_decks(array[:2], PLAYERS, ALWAYS_CALL, table)  # compile outside the timing

    start = time.process_time()
    for deck in decks:
        game = CasinoHoldemRound(profile, Shoe.stacked(deck, decks=1))
        for zone in range(1, PLAYERS + 1):
            game.place_bet(zone, "ante", 1)
        game.deal()
        while (decision := game.pending()) is not None:
            game.act(decision.seat, CALL)
    engine = games / (time.process_time() - start)

    repeat = max(1, 2_000_000 // games)
    many = np.tile(array, (repeat, 1))
    start = time.process_time()
    play_decks(many, PLAYERS, ALWAYS_CALL, table)
    kernel = len(many) / (time.process_time() - start)

    print(f"Casino Hold'em, {PLAYERS} players calling, seeded decks; reference: the engine")
    print(f"{'reference engine (CasinoHoldemRound)':<40} {engine:>14,.0f} games/s {1:>8.2f}x")
    print(
        f"{'compiled kernel (play_decks, 1 core)':<40} {kernel:>14,.0f} games/s {kernel / engine:>8.0f}x"
    )


if __name__ == "__main__":
    main()
