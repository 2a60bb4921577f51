"""The kernel's one-box path (``play_one_box``, taken for one box, counted or not) deals the
game of its general path (``play_block``'s loop over boxes) on the same seed: the same shoes,
the same nets on every wager, the same totals and squares, and with a count the same bets,
bet-weighted sums, figures by true count and bankroll sessions. The general path is taken by
setting ``P_GENERAL_LOOP``, which changes nothing in the game. Both paths are also replayed
against the engine, card for card (tests/consistency/test_simulator_blackjack_matches_engine.py);
this check covers many more rounds (splits, re-splits and exhausted shoes included) in a
second or two."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from croupier.counting import load_counting_system, load_index_set
from croupier.rules import BlackjackRules, load_profile
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation import blackjack_sim
from croupier.simulation.blackjack_sim import (
    BlackjackStrategy,
    Counting,
    parse_ramp,
    simulate_blackjack,
)
from croupier.simulation.runner import FOR_GAME_FROM, SimulationOptions, run_simulation

PROFILES = ("peru-2016", "spain-1979", "veintiuno-real")


def _figures(tally: blackjack_sim.BlackjackTally) -> tuple[Any, ...]:
    counted: tuple[Any, ...] = ()
    if tally.counting is not None:
        c = tally.counting
        counted = (
            c.bet,
            c.bet_net,
            c.bet_net_squared,
            c.rounds_played,
            c.by_count.tolist(),
            c.segment_low.tolist(),
            c.segment_end.tolist(),
            c.paths.tolist(),
        )
    return (
        tally.rounds,
        tally.hands,
        tally.shoes,
        tally.exhausted,
        tally.total_net,
        tally.total_net_squared,
        tally.net.tolist(),
        tally.net_squared.tolist(),
        tally.hits.tolist(),
        tally.played.tolist(),
        *counted,
    )


def _both_paths(
    name: str,
    rounds: int,
    counting: Counting | None,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    profile = load_profile(name)
    assert isinstance(profile, BlackjackRules)
    strategy = BlackjackStrategy.basic(profile)
    fast = simulate_blackjack(profile, rounds, np.random.SeedSequence(4), 1, strategy, counting)
    original = blackjack_sim.parameters

    def general_loop(*args: Any, **kwargs: Any) -> Any:
        p = original(*args, **kwargs)
        p[kernel.P_GENERAL_LOOP] = 1
        return p

    with monkeypatch.context() as patch:
        patch.setattr(blackjack_sim, "parameters", general_loop)
        general = simulate_blackjack(
            profile, rounds, np.random.SeedSequence(4), 1, strategy, counting
        )
    assert fast.played[0] == rounds
    return _figures(fast), _figures(general)


@pytest.mark.parametrize("name", PROFILES)
def test_one_box_path_deals_the_general_path_game(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, general = _both_paths(name, 300_000, None, monkeypatch)
    assert fast == general


def _hi_lo_counter() -> Counting:
    """Hi-Lo with the Illustrious 18 (insurance by the count), a 1-8 ramp, wonging in at +1
    and out below -1 and sessions of 5,000 rounds: every part of the counter's game."""
    return Counting(
        load_counting_system("hi-lo"),
        ramp=parse_ramp("1:1,2:2,3:4,4:8"),
        indices=load_index_set("illustrious-18"),
        wong_in=1,
        wong_out=-1,
        horizon=5_000,
    )


@pytest.mark.parametrize("name", PROFILES)
def test_one_box_path_deals_the_general_path_game_with_hi_lo(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, general = _both_paths(name, 200_000, _hi_lo_counter(), monkeypatch)
    assert fast[-4] != [[0, 0, 0]] * blackjack_sim.TC_BINS  # the count moved the figures
    assert fast == general


@pytest.mark.parametrize(
    ("system", "estimation"),
    [("ko", "half-deck"), ("wong-halves", "whole-deck"), ("omega-ii", "exact")],
)
def test_one_box_path_deals_the_general_path_game_with_other_counts(
    system: str, estimation: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unbalanced count, fractional tags and a level-2 count, each deck estimation."""
    counting = Counting(
        load_counting_system(system),
        ramp=parse_ramp("-1:1,1:2,3:6"),
        estimation=estimation,
        horizon=2_000,
    )
    fast, general = _both_paths("spain-1979", 100_000, counting, monkeypatch)
    assert fast == general


def test_index_levels_cover_every_count_at_which_a_play_changes() -> None:
    """Floored true counts at or below ``lo`` play alike, and at or above ``hi``: an index at
    -0.5 changes at 0 and one at +4 at 4, so the tables run from -1 to 4."""
    hard = np.full((22, 10), np.inf)
    soft = np.full((22, 10), np.inf)
    pairs = np.full((10, 10), np.inf)
    assert kernel.index_levels(hard, soft, pairs) == (0, 0)
    hard[16, 9] = -0.5
    pairs[9, 4] = 4.0
    assert kernel.index_levels(hard, soft, pairs) == (-1, 4)


LATE_SURRENDER = Path(__file__).parents[2] / "oracles/six-deck-s17-das-peek-late-surrender.toml"


@pytest.mark.parametrize("counted", [False, True])
def test_one_box_path_deals_the_general_path_game_with_late_surrender(
    counted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md#D-BJ-32: surrender by the chart (``Rh``) and, counted, by the Fab 4's
    Hi-Lo indices: both paths surrender the same hands for the same half bets."""
    counting = (
        Counting(
            load_counting_system("hi-lo"),
            ramp=parse_ramp("1:1,2:2,3:4,4:8"),
            indices=load_index_set("fab-4"),
            horizon=2_000,
        )
        if counted
        else None
    )
    fast, general = _both_paths(str(LATE_SURRENDER), 100_000, counting, monkeypatch)
    assert fast == general


@pytest.fixture
def games_own_loops(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each game's own loop taken (``one_box_loop``), by whether it counts."""
    taken: list[bool] = []
    original = kernel.one_box_loop

    def one_box_loop(p: Any, counted: bool) -> Any:
        taken.append(counted)
        return original(p, counted)

    monkeypatch.setattr(kernel, "one_box_loop", one_box_loop)
    return taken


@pytest.mark.parametrize(
    ("name", "counted"),
    [
        ("peru-2016", False),
        pytest.param("veintiuno-real", True, marks=pytest.mark.slow),
        pytest.param("peru-2016", True, marks=pytest.mark.slow),
        pytest.param("spain-1979", False, marks=pytest.mark.slow),
        pytest.param("spain-1979", True, marks=pytest.mark.slow),
        pytest.param("veintiuno-real", False, marks=pytest.mark.slow),
    ],
)
def test_a_games_own_loop_deals_the_game_of_the_loop_for_every_game(
    name: str, counted: bool, games_own_loops: list[bool]
) -> None:
    """A long run's loop, compiled with the game's rules as constants (``one_box_loop``),
    deals the same shoes, nets and counter's figures as the loop compiled once for every
    game, on the same seed. (Each case compiles a loop of its own, about 10 s: the short form
    keeps the benchmark's game, the suite being near its fifteen minutes on an AMD EPYC.)"""
    profile = load_profile(name)
    assert isinstance(profile, BlackjackRules)
    strategy = BlackjackStrategy.basic(profile)
    counting = _hi_lo_counter() if counted else None
    seed = np.random.SeedSequence(9)
    shared = simulate_blackjack(profile, 200_000, seed, 1, strategy, counting)
    assert games_own_loops == []
    own = simulate_blackjack(profile, 200_000, seed, 1, strategy, counting, for_game=True)
    assert games_own_loops == [counted]
    assert _figures(own) == _figures(shared)


def test_a_run_of_ten_million_rounds_plays_its_games_own_loop(games_own_loops: list[bool]) -> None:
    """``croupier simulate`` compiles a loop for the game from ``FOR_GAME_FROM`` rounds on,
    where its compilation pays; a shorter run plays the loop compiled for every game."""
    profile = load_profile("peru-2016")
    run_simulation(profile, SimulationOptions(rounds=1_000_000, seed=3))
    assert games_own_loops == []
    result = run_simulation(profile, SimulationOptions(rounds=FOR_GAME_FROM, seed=3))
    assert result.tally.rounds == FOR_GAME_FROM
    assert games_own_loops and set(games_own_loops) == {False}  # every block, without a count
