"""Baccarat and Casino Hold'em simulation, rounds per second per core, against the reference
engine measured in the same run.

The kernels (``croupier.simulation.baccarat_sim``, ``casino_holdem_sim``) are timed as
``croupier simulate`` times them: the simulation's own time with every shoe or deck shuffled
inside the kernel, compilation and set-up excluded (one warm call first). The reference is
the engine dealing the same game from shoes it shuffles itself (``Shoe.shuffled`` with a
seeded source): ``BaccaratRound`` with one unit on every wager, coups to the cut card and a
new shoe with its burn; ``CasinoHoldemRound`` with two boxes (Art. 9) calling, a fresh deck
each game. Both are single-threaded. Rates are CPU time (this process's, so the other
helpers' load counts less) and wall time; read the ratios, and the load printed beside them.
(``benchmarks/simulate.py``, sim-core's, times blackjack; this file is kept apart.)

Run: ``uv run python benchmarks/simulate_games.py [--rounds N] [--engine-rounds N]``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

from croupier.games.baccarat import BaccaratRound
from croupier.games.casino_holdem import CALL, CasinoHoldemRound
from croupier.games.casino_holdem import new_shoe as new_deck
from croupier.randomness import SeededRandomSource
from croupier.rules.baccarat import BaccaratRules, BaccaratWager
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe
from croupier.simulation.baccarat_counting import SYSTEM
from croupier.simulation.baccarat_sim import simulate_baccarat
from croupier.simulation.casino_holdem_sim import simulate_casino_holdem
from croupier.simulation.game_tally import TimedTally

Rate = tuple[float, float]
"""Rounds per second: by CPU time, by wall time."""


def engine_baccarat(profile: BaccaratRules, rounds: int) -> Rate:
    source = SeededRandomSource("benchmark-baccarat")
    wall, cpu = time.perf_counter(), time.process_time()
    shoe: Shoe | None = None
    for _ in range(rounds):
        fresh = shoe is None
        if shoe is None:
            shoe = Shoe.shuffled(
                profile.decks, source, cut_card_from_bottom=profile.shoe.cut_card_from_bottom
            )
        coup = BaccaratRound(profile, shoe, new_shoe=fresh)
        for wager in (BaccaratWager.PLAYER, BaccaratWager.TIE, BaccaratWager.PLAYER_PAIR):
            coup.place_bet(1, wager.value, 1)
        coup.place_bet(1, BaccaratWager.BANKER_PAIR.value, 1)
        coup.place_bet(2, BaccaratWager.BANKER.value, 1)
        coup.deal()
        if coup.is_last_round_of_shoe:
            shoe = None
    return rounds / (time.process_time() - cpu), rounds / (time.perf_counter() - wall)


def engine_casino_holdem(profile: CasinoHoldemRules, games: int) -> Rate:
    source = SeededRandomSource("benchmark-casino-holdem")
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        game = CasinoHoldemRound(profile, new_deck(source))
        for zone in (1, 2):
            game.place_bet(zone, "ante", 1)
            game.place_bet(zone, "progressive", 1)
        game.deal()
        while (decision := game.pending()) is not None:
            game.act(decision.seat, CALL)
    return games / (time.process_time() - cpu), games / (time.perf_counter() - wall)


def kernel(run: Callable[[int, np.random.SeedSequence], TimedTally], rounds: int) -> Rate:
    run(1_000, np.random.SeedSequence(1))  # compile (or load from the cache) first
    tally = run(rounds, np.random.SeedSequence(2))
    return rounds / tally.cpu_seconds, rounds / tally.seconds


def casino_holdem_run(
    profile: CasinoHoldemRules, players: int, strategy: str
) -> Callable[[int, np.random.SeedSequence], TimedTally]:
    def run(rounds: int, seed: np.random.SeedSequence) -> TimedTally:
        return simulate_casino_holdem(profile, rounds, seed, players, strategy)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=20_000_000, help="kernel rounds (baccarat)")
    parser.add_argument("--engine-rounds", type=int, default=20_000, help="engine rounds")
    options = parser.parse_args()
    baccarat = load_profile_of("baccarat", "dragon-six-peru-2016")
    assert isinstance(baccarat, BaccaratRules)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
    print(f"{'profile':<26} {'what':<48} {'M/s CPU':>9} {'M/s wall':>9} {'x engine':>9}")

    def row(name: str, what: str, rate: Rate, reference: Rate) -> None:
        print(
            f"{name:<26} {what:<48} {rate[0] / 1e6:>9.3f} {rate[1] / 1e6:>9.3f} "
            f"{rate[0] / reference[0]:>9,.0f}"
        )

    reference = engine_baccarat(baccarat, options.engine_rounds)
    row(baccarat.name, "engine (BaccaratRound), reference", reference, reference)
    row(
        baccarat.name,
        "kernel, every wager",
        kernel(lambda n, s: simulate_baccarat(baccarat, n, s, 1), options.rounds),
        reference,
    )
    row(
        baccarat.name,
        f"kernel, with --count {SYSTEM}",
        kernel(lambda n, s: simulate_baccarat(baccarat, n, s, 1, SYSTEM), options.rounds),
        reference,
    )
    games = max(1, options.rounds // 8)
    for name in ("casino-holdem-standard", "casino-holdem-peru-2007"):
        profile = load_profile_of("casino-holdem", name)
        assert isinstance(profile, CasinoHoldemRules)
        reference = engine_casino_holdem(profile, max(1, options.engine_rounds // 4))
        row(name, "engine, 2 boxes calling, reference", reference, reference)
        for strategy, players in (("optimal", 1), ("always-call", 1), ("optimal", 2)):
            rate = kernel(casino_holdem_run(profile, players, strategy), games)
            row(name, f"kernel, {strategy}, {players} box(es), progressive", rate, reference)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
