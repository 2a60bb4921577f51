"""The Casino Hold'em simulator's kernel against the reference engine, game for game.

The kernel deals games from a seed and records each deck, the meter it opened with, box 1's
decision and nets; every recorded game then goes through ``CasinoHoldemRound`` on that deck
as a stacked ``Shoe``, with every box staking one Ante and the progressive, the meter the
kernel had, and box 1 deciding by the same strategy worked out on the engine's side. Box 1's
Ante + Bet net must be the engine's exactly, its progressive net the engine's to the kernel's
unit (a meter share rounded down: see ``casino_holdem_sim``), the decision the same, and the
meter carried to the next game the engine's but for those remainders.

Then the simulated returns must fall inside the 99% interval of ``analyze``'s exact figures:
the progressive at the mean meter box 1 met (its return is linear in the meter) in CI; the
Ante + Bet game under the optimal and the always-call strategies at 10^7 games (slow: they
need the exact table, which ``analyze`` computes in minutes).
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis.casino_holdem import analyse_progressive
from croupier.analysis.casino_holdem_exact import (
    flop_classes,
    hole_row,
    load_or_compute_table,
    qualifier_threshold,
    tally,
)
from croupier.analysis.casino_holdem_game import analyse_ante_game
from croupier.cards import FULL_DECK, Rank
from croupier.games.casino_holdem import CALL, FOLD, CasinoHoldemRound, MeterReseeded
from croupier.hands.poker import evaluate
from croupier.rules.casino_holdem import CasinoHoldemRules, PokerCategory, ProgressivePrize
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe
from croupier.simulation.casino_holdem_sim import (
    CasinoHoldemSetup,
    run_kernel,
    simulate_casino_holdem,
)
from croupier.simulation.casino_holdem_strategy import is_cached

Z99 = 2.5758293035489004
NAMES = ("casino-holdem-peru-2007", "casino-holdem-standard")


def profile_of(name: str) -> CasinoHoldemRules:
    loaded = load_profile_of("casino-holdem", name)
    assert isinstance(loaded, CasinoHoldemRules)
    return loaded


class Seed:
    def __init__(self, *words: int) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: type) -> npt.NDArray[np.uint64]:
        return np.array(self.words[:n_words], dtype=dtype)


@pytest.fixture
def exact_table_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """The exact table's disk cache: the one in use if it holds the table already, else the
    session's fresh one (``casino_holdem_cache``, which computes it once)."""
    if is_cached(profile_of("casino-holdem-standard")):
        yield
        return
    directory: Path = request.getfixturevalue("casino_holdem_cache")
    previous = os.environ.get("CROUPIER_CACHE_DIR")
    os.environ["CROUPIER_CACHE_DIR"] = str(directory)
    try:
        yield
    finally:
        if previous is None:
            del os.environ["CROUPIER_CACHE_DIR"]
        else:
            os.environ["CROUPIER_CACHE_DIR"] = previous


@cache
def class_index() -> dict[tuple[int, ...], int]:
    flops, _ = flop_classes()
    return {tuple(int(card) for card in flop): row for row, flop in enumerate(flops)}


def reference_optimal_call(
    calls: npt.NDArray[np.bool_], hole: tuple[int, int], flop: tuple[int, int, int]
) -> bool:
    """The exact decision read the slow way: the flop's smallest image under the suit
    permutations (``flop_classes``'s definition), the hole carried along, ``hole_row``."""
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for permutation in itertools.permutations(range(4)):
        image = tuple(sorted((card & ~3) | permutation[card & 3] for card in flop))
        if best is None or image < best[0]:
            best = (image, tuple((card & ~3) | permutation[card & 3] for card in hole))
    assert best is not None
    return bool(calls[class_index()[best[0]], hole_row(best[0], best[1])])


def engine_decides(
    game: CasinoHoldemRound, strategy: str, calls: npt.NDArray[np.bool_] | None
) -> bool:
    """Box 1's call by ``strategy``, worked out from the engine's view of the round."""
    hole = game.hole_cards[1]
    if strategy == "always-call":
        return True
    if strategy == "computer":
        made = evaluate([*hole, *game.board]).category is not PokerCategory.HIGH_CARD
        return made or any(card.rank >= Rank.KING for card in hole)
    assert calls is not None
    flop = tuple(card.index for card in game.board[:3])
    return reference_optimal_call(calls, (hole[0].index, hole[1].index), flop)  # type: ignore[arg-type]


def replay_through_engine(
    profile: CasinoHoldemRules,
    strategy: str,
    games: int,
    players: int,
    seed: Seed,
    *,
    only_meter_prizes: bool = False,
) -> tuple[int, int]:
    """Deal ``games`` in the kernel and check them in the engine: how many were checked, and
    in how many the engine reseeded the meter."""
    setup = CasinoHoldemSetup.of(profile, strategy)
    run = run_kernel(setup, games, seed, players, trace=True)
    unit = setup.denominator
    calls = setup.lookup.calls if strategy == "optimal" else None
    checked = reseeded = 0
    rows = run.trace_rows
    assert (rows[1:, 0] == rows[:-1, 4]).all(), "the meter carries from game to game"
    fed = players * profile.progressive.meter_contribution * profile.progressive.bet
    games_checked: Sequence[int] = range(games)
    if only_meter_prizes:  # the games whose meter moved by more than the stakes fed it
        moved = rows[:, 4] - rows[:, 0] != int(fed * unit)
        games_checked = [int(g) for g in np.flatnonzero(moved)]
    for g in games_checked:
        before, ante, progressive, called, after = (int(x) for x in rows[g])
        deck = [FULL_DECK[int(i)] for i in run.trace_decks[g]]
        game = CasinoHoldemRound(profile, Shoe.stacked(deck, decks=1), meter=Fraction(before, unit))
        for zone in range(1, players + 1):
            game.place_bet(zone, "ante", 1)
            game.place_bet(zone, "progressive", profile.progressive.bet)
        game.deal()
        while (decision := game.pending()) is not None:
            calls_here = decision.seat != 1 or engine_decides(game, strategy, calls)
            game.act(decision.seat, CALL if calls_here else FOLD)
        nets = {w.wager: w.payout - w.stake for w in game.results().wagers if w.seat == 1}
        assert bool(called) == (game.decisions[1] == CALL), f"game {g}: the decision"
        assert Fraction(ante, unit) == nets["ante"] + nets.get("bet", 0), f"game {g}: Ante+Bet"
        assert progressive == math.floor(nets["progressive"] * unit), f"game {g}: progressive"
        remainder = Fraction(after, unit) - game.meter
        assert 0 <= remainder < Fraction(players, unit), f"game {g}: the meter"
        checked += 1
        reseeded += any(isinstance(item, MeterReseeded) for item in game.events)
    return checked, reseeded


@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_plays_the_engines_games(name: str) -> None:
    """2 x 10^4 games of two boxes (Art. 9's minimum) per profile, about 3 s of CPU each, in
    CI (every category of hand and both qualifier outcomes come up thousands of times);
    10^5 in the slow form below."""
    checked, _ = replay_through_engine(profile_of(name), "always-call", 20_000, 2, Seed(7, 1))
    assert checked == 20_000


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_plays_the_engines_games_at_length(name: str) -> None:
    """10^5 games of two boxes per profile: about 16 s of CPU each."""
    checked, _ = replay_through_engine(profile_of(name), "always-call", 100_000, 2, Seed(7, 1))
    assert checked == 100_000


@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_plays_the_computer_rule_as_the_engine(name: str) -> None:
    checked, _ = replay_through_engine(profile_of(name), "computer", 10_000, 3, Seed(7, 2))
    assert checked == 10_000


@pytest.mark.parametrize("name", NAMES)
def test_meter_shares_and_resets_match_the_engine(name: str) -> None:
    """Every game in which a share of the meter was won (or the meter was reseeded), among
    400,000 games of seven boxes: the engine's prize, the kernel's rounded down to its unit."""
    checked, reseeded = replay_through_engine(
        profile_of(name), "always-call", 400_000, 7, Seed(2007, 5), only_meter_prizes=True
    )
    # 2.8 million boxes: about 39 straight flushes and 4 royal flushes expected.
    assert checked >= 20 and reseeded >= 1


def test_a_progressive_of_other_fractions_matches_the_engine() -> None:
    """A meter fed a third of each stake, a straight flush taking a quarter of it and a royal
    flush two thirds (so the meter is never emptied, never reseeded): the kernel's unit
    becomes 1/36 (3 x lcm(4, 3)) and every prize still matches the engine's to that unit."""
    standard = profile_of("casino-holdem-standard")
    paytable = dict(standard.progressive.paytable)
    paytable[PokerCategory.STRAIGHT_FLUSH] = ProgressivePrize(meter_share=Fraction(1, 4))
    paytable[PokerCategory.ROYAL_FLUSH] = ProgressivePrize(meter_share=Fraction(2, 3))
    progressive = standard.progressive.model_copy(
        update={"meter_contribution": Fraction(1, 3), "paytable": paytable}
    )
    variant = standard.model_copy(update={"name": "variant", "progressive": progressive})
    assert CasinoHoldemSetup.of(variant, "always-call").denominator == 36
    checked, reseeded = replay_through_engine(
        variant, "always-call", 400_000, 7, Seed(2007, 6), only_meter_prizes=True
    )
    assert checked >= 20 and reseeded == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_plays_the_computer_rule_at_length(name: str) -> None:
    assert replay_through_engine(profile_of(name), "computer", 100_000, 4, Seed(9, 9))[0] == 100_000


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_plays_the_optimal_strategy_as_the_engine(
    name: str, exact_table_cache: None
) -> None:
    assert replay_through_engine(profile_of(name), "optimal", 100_000, 2, Seed(3, 1))[0] == 100_000


def test_a_block_depends_only_on_its_seed() -> None:
    profile = profile_of("casino-holdem-standard")
    first = simulate_casino_holdem(profile, 20_000, Seed(1, 2), 2, "always-call").figures()
    assert first == simulate_casino_holdem(profile, 20_000, Seed(1, 2), 2, "always-call").figures()
    assert first != simulate_casino_holdem(profile, 20_000, Seed(1, 3), 2, "always-call").figures()


def assert_inside(simulated: dict[str, object], expected: float, rounds: int) -> None:
    mean, sd = simulated["ev_per_round"], simulated["sd"]
    assert isinstance(mean, float) and isinstance(sd, float)
    assert abs(mean - expected) < Z99 * sd / math.sqrt(rounds), (mean, expected)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("meter", ["long-run", "seed"])
def test_the_progressive_agrees_with_the_exact_analysis(name: str, meter: str) -> None:
    profile = profile_of(name)
    games = 1_000_000
    run = run_kernel(
        CasinoHoldemSetup.of(profile, "always-call"),
        games,
        Seed(5, 5),
        3,
        meter=meter,  # type: ignore[arg-type]
    )
    expected = analyse_progressive(profile, run.mean_meter).expected_value
    assert_inside(run.tally.figures()["progressive"], expected, games)
    if meter == "seed":  # the meter starts at its seed and grows by 3/2 a game
        assert run.mean_meter > profile.progressive.meter_seed


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_progressive_agrees_with_the_exact_analysis_at_length(name: str) -> None:
    profile = profile_of(name)
    run = run_kernel(CasinoHoldemSetup.of(profile, "always-call"), 10_000_000, Seed(6, 6), 1)
    expected = analyse_progressive(profile, run.mean_meter).expected_value
    assert_inside(run.tally.figures()["progressive"], expected, 10_000_000)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_ante_game_agrees_with_the_exact_analysis(name: str, exact_table_cache: None) -> None:
    """10^7 games of the optimal player against ``analyze``'s exact Ante + Bet figure, and of
    a player who always calls against the same exact table's count for that strategy."""
    profile = profile_of(name)
    games = 10_000_000
    optimal = simulate_casino_holdem(profile, games, Seed(8, 1), 1, "optimal")
    exact = analyse_ante_game(profile).figures.expected_value
    assert_inside(optimal.figures()["ante"], exact, games)
    from croupier.analysis.casino_holdem_exact import DEALS, bin_values, expected_net

    table, _ = load_or_compute_table(qualifier_threshold(profile))
    counts, folds = tally(table, np.ones(table.shape[:2], dtype=np.bool_))
    assert folds == 0 and sum(counts) == DEALS
    always = simulate_casino_holdem(profile, games, Seed(8, 2), 1, "always-call")
    assert_inside(
        always.figures()["ante"], float(expected_net(counts, folds, bin_values(profile))), games
    )
