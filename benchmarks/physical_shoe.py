"""What entering a card costs at a physical-shoe table: the round carried on from the command
that stopped (``GameRound.enter``) against the round rebuilt from its whole record after every
card (``games.replay.deal_on``, what the table did before).

    uv run python benchmarks/physical_shoe.py [--rounds N] [--repeats R]

For every shipped profile, ``N`` seeded random rounds are dealt from a random shoe; their
commands are then given again to a round on an empty ``PhysicalShoe``, the recorded cards
entered one at a time as the round stops for each, once by each path. Both paths must give
the identical events (checked). Each figure is the best of ``R`` repeats of the process's CPU
time; the ratio (rebuilt / carried on) is measured in the same run, so it holds on a loaded
machine where the seconds do not.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable

from croupier.errors import CardNeeded
from croupier.games.base import ROUND_CLASSES, GameRound, random_round
from croupier.games.events import CardDrawn, Event
from croupier.games.record import commands_of
from croupier.games.replay import deal_on
from croupier.randomness import SeededRandomSource
from croupier.rules import load_profile, shipped_profile_names
from croupier.service import engines
from croupier.shoe import PhysicalShoe

Carry = Callable[[GameRound, "PhysicalShoe", CardDrawn], GameRound]


def rebuilt(game: GameRound, shoe: PhysicalShoe, card: CardDrawn) -> GameRound:
    start = shoe.at(0)
    start.enter(card.card)
    return deal_on(game.events, start, game.profile)


def carried_on(game: GameRound, shoe: PhysicalShoe, card: CardDrawn) -> GameRound:
    return game.enter(card.card)


def card_by_card(stacked: GameRound, carry: Carry) -> list[Event]:
    profile = stacked.profile
    drawn = [item for item in stacked.events if isinstance(item, CardDrawn)]
    shoe = PhysicalShoe(decks=profile.table.decks)
    game: GameRound = ROUND_CLASSES[profile.game](profile, shoe)
    for command in commands_of(stacked.events):
        with contextlib.suppress(CardNeeded):
            game.apply(command)
        while game.card_needed is not None:
            game = carry(game, shoe, drawn[len(shoe.entered)])
            assert isinstance(game.shoe, PhysicalShoe)
            shoe = game.shoe
    return game.events


def timed(rounds: list[GameRound], carry: Carry, repeats: int) -> tuple[float, list[list[Event]]]:
    best, events = float("inf"), []
    for _ in range(repeats):
        start = time.process_time()
        events = [card_by_card(stacked, carry) for stacked in rounds]
        best = min(best, time.process_time() - start)
    return best, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    header = (
        f"{'profile':<26} {'cards':>6} {'rebuilt ms/card':>16} {'carried ms/card':>16} {'ratio':>7}"
    )
    print(header)
    print("-" * len(header))
    for name in shipped_profile_names():
        profile = load_profile(name)
        rounds = []
        for index in range(args.rounds):
            seed = f"physical shoe benchmark {name} {index}".encode()
            rounds.append(
                random_round(profile, engines.open_shoe(profile, seed), SeededRandomSource(seed))
            )
        cards = sum(isinstance(item, CardDrawn) for game in rounds for item in game.events)
        old, old_events = timed(rounds, rebuilt, args.repeats)
        new, new_events = timed(rounds, carried_on, args.repeats)
        assert old_events == new_events == [game.events for game in rounds], name
        print(
            f"{name:<26} {cards:>6} {1000 * old / cards:>16.3f} {1000 * new / cards:>16.3f} "
            f"{old / new:>7.2f}"
        )


if __name__ == "__main__":
    main()
