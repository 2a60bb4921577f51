"""The reference engines' speed: rounds per second for each profile of each game.

    uv run python benchmarks/engine.py [--rounds N] [--seed S]

Each game in ``croupier.games.GAME_MODULES``, through the one round factory
``games.base.random_round(profile, shoe, source, *, new_shoe)`` (a round of random legal
decisions), is timed on seeded shoes, a new shoe being shuffled when the cut card comes out (or, for a
one-deck game without a cut card such as Casino Hold'em, for every round). The reference
measured in the same run is the bare cost of shuffling the same shoes and drawing the same
cards from them: the ratio says how many times slower a round is than merely dealing its
cards, so it stays comparable across machines. Faster paths (compiled kernels) are measured against this.
Times are the process's CPU time, so that other work on a shared machine weighs less.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from croupier.games import GAME_MODULES
from croupier.games.base import random_round
from croupier.games.events import CardDrawn
from croupier.randomness import SeededRandomSource
from croupier.rules import load_profile, shipped_profile_names
from croupier.shoe import Shoe


def _new_shoe(profile: Any, source: SeededRandomSource) -> Shoe:
    cut = getattr(getattr(profile, "shoe", None), "cut_card_from_bottom", None)
    return Shoe.shuffled(profile.decks, source, cut_card_from_bottom=cut)


def time_engine(
    factory: Callable[..., Any], profile: Any, rounds: int, seed: str
) -> tuple[float, int, list[int]]:
    """Seconds for ``rounds`` rounds, how many cards they drew, and how many from each shoe
    (a one-deck game without a cut card, Casino Hold'em, shuffles for every round)."""
    source = SeededRandomSource(seed)
    shoe: Shoe | None = None
    new_shoe = True
    per_shoe: list[int] = []
    start = time.process_time()
    for _ in range(rounds):
        if shoe is None or shoe.is_cut_card_out or shoe.remaining < 60:
            shoe = _new_shoe(profile, source)
            new_shoe = True
            per_shoe.append(0)
        game = factory(profile, shoe, source, new_shoe=new_shoe)
        new_shoe = False
        per_shoe[-1] += sum(1 for item in game.events if isinstance(item, CardDrawn))
    return time.process_time() - start, sum(per_shoe), per_shoe


def time_draws(profile: Any, per_shoe: list[int], seed: str) -> float:
    """Seconds to draw as many cards from as many seeded shoes of the same profile as the
    engine did (the reference); shuffling is included, as it is in the engine's time."""
    source = SeededRandomSource(seed)
    start = time.process_time()
    for cards in per_shoe:
        shoe = _new_shoe(profile, source)
        for _ in range(cards):
            shoe.draw()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seed", default="benchmark")
    parser.add_argument(
        "--repeat", type=int, default=3, help="best of this many runs (as timeit does)"
    )
    arguments = parser.parse_args()
    header = f"{'game':<13} {'profile':<23} {'rounds/s':>10} {'cards/round':>12} {'draws/s':>11} {'round / its draws':>18}"
    print(
        f"reference engines, {arguments.rounds} rounds per profile, seed {arguments.seed!r}, "
        f"best of {arguments.repeat}"
    )
    print(header)
    print("-" * len(header))
    for game in GAME_MODULES:
        factory = random_round
        for name in shipped_profile_names():
            profile = load_profile(name)
            if profile.game != game:
                continue
            factory(
                profile,
                _new_shoe(profile, SeededRandomSource("warm-up")),
                SeededRandomSource("warm-up"),
                new_shoe=True,
            )
            runs = [
                time_engine(factory, profile, arguments.rounds, arguments.seed)
                for _ in range(arguments.repeat)
            ]
            seconds, cards, per_shoe = min(runs)
            draw_seconds = min(
                time_draws(profile, per_shoe, arguments.seed) for _ in range(arguments.repeat)
            )
            print(
                f"{game:<13} {name:<23} {arguments.rounds / seconds:>10,.0f} "
                f"{cards / arguments.rounds:>12.2f} {cards / draw_seconds:>11,.0f} "
                f"{seconds / draw_seconds:>17.1f}x"
            )


if __name__ == "__main__":
    main()
