"""Counting systems and index plays as data, and the counter's figures.

Published figures reproduced: each shipped system's betting correlation, computed from its
tags against Griffin's effects of removal (The Theory of Blackjack, ch. 4), equals the one
printed in the count tables (Wong, Professional Blackjack; Snyder; the Wizard of Odds'
reprint) to the two decimals printed: Hi-Lo 0.97, KO 0.98, Hi-Opt II 0.91, Omega II 0.92,
Zen 0.96, Wong Halves 0.99.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from croupier.counting import (
    GRIFFIN_SINGLE_DECK_EOR,
    WIZARD_SIX_DECK_S17_EOR,
    CountingError,
    betting_correlation,
    load_counting_system,
    load_index_set,
    shipped_systems,
)
from croupier.rules import BlackjackRules, load_profile
from croupier.simulation.advantage import counter_moments, risk_of_ruin_formula
from croupier.simulation.blackjack_sim import (
    TC_LOW,
    BlackjackStrategy,
    Counting,
    SimulationError,
    parse_ramp,
    simulate_blackjack,
)

PUBLISHED_SYSTEMS = ("hi-lo", "ko", "hi-opt-ii", "omega-ii", "zen", "wong-halves")


def test_the_six_systems_are_shipped_with_their_tags() -> None:
    systems = shipped_systems()
    assert set(PUBLISHED_SYSTEMS) <= set(systems)
    assert [float(t) for t in systems["wong-halves"].tags] == [
        -1, 0.5, 1, 1, 1.5, 1, 0.5, 0, -0.5, -1
    ]  # fmt: skip
    assert systems["wong-halves"].tag_scale == 2
    assert not systems["ko"].balanced and systems["ko"].initial_running_count(8) == -28


@pytest.mark.parametrize("name", PUBLISHED_SYSTEMS)
def test_betting_correlation_reproduces_the_published_figure(name: str) -> None:
    system = load_counting_system(name)
    assert system.betting_correlation is not None
    computed = betting_correlation(system, GRIFFIN_SINGLE_DECK_EOR)
    assert abs(computed - system.betting_correlation) <= 0.005, (name, computed)
    # The six-deck effects (Wizard of Odds) agree within 0.02 too.
    assert abs(betting_correlation(system, WIZARD_SIX_DECK_S17_EOR) - computed) <= 0.02


def test_illustrious_18_as_published() -> None:
    """Schlesinger's Illustrious 18: insurance at +3, 16 v T stand at 0, 15 v T at +4, T,T
    split v 5 at +5 and v 6 at +4, ... 13 v 3 stand at -2."""
    i18 = load_index_set("illustrious-18")
    assert i18.system == "hi-lo" and i18.insurance == 3 and len(i18.plays) == 17
    cells = {(p.kind, p.hand, p.up): (p.count, p.at_or_above) for p in i18.plays}
    assert cells[("hard", "16", "T")] == (0, "S")
    assert cells[("hard", "15", "T")] == (4, "S")
    assert cells[("pair", "T", "5")] == (5, "P")
    assert cells[("hard", "13", "3")] == (-2, "S")
    fab4 = load_index_set("fab-4")
    assert {p.at_or_above for p in fab4.plays} == {"R"}


def test_a_users_system_file(tmp_path: Path) -> None:
    path = tmp_path / "red.toml"
    path.write_text(
        "[mine]\ntags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, "
        "T = -1 }\nbalanced = true\n"
    )
    assert load_counting_system(path).name == "mine"
    path.write_text("[bad]\ntags = { A = 1 }\nbalanced = true\n")
    with pytest.raises(CountingError, match="tags"):
        load_counting_system(path)
    path.write_text(
        "[unbalanced]\ntags = { A = 0, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, "
        "9 = 0, T = -1 }\nbalanced = true\n"
    )
    with pytest.raises(CountingError, match="add up"):
        load_counting_system(path)
    with pytest.raises(CountingError, match="unknown"):
        load_counting_system("no-such")


def test_ramp_notation() -> None:
    assert parse_ramp("1:1,2:2,3:4,4:8")[-1] == (Fraction(4), 8)
    assert parse_ramp("-1:0, 1:1")[0] == (Fraction(-1), 0)
    for bad in ("1", "1:x", "2:1,1:2", "1:-1"):
        with pytest.raises(SimulationError):
            parse_ramp(bad)


def _profile() -> BlackjackRules:
    profile = load_profile("peru-2016")
    assert isinstance(profile, BlackjackRules)
    return profile


def test_a_flat_bet_counter_plays_the_game_itself() -> None:
    """A one-unit ramp at every count with no index plays is basic strategy: the counter's
    bet-weighted figures are the game's own, to the last unit."""
    profile = _profile()
    strategy = BlackjackStrategy.basic(profile)
    flat = Counting(load_counting_system("zen"), ramp=parse_ramp("0:1"), horizon=1_000)
    seed = np.random.SeedSequence(8)
    counted = simulate_blackjack(profile, 50_000, seed, 1, strategy, flat)
    plain = simulate_blackjack(profile, 50_000, np.random.SeedSequence(8), 1, strategy, None)
    assert counted.counting is not None
    main = int(plain.net[0])  # the counter's game is the main bet (21+3 stays flat, apart)
    assert counted.counting.bet_net == main
    assert counted.counting.by_count[:, 0].sum() == 50_000
    assert counted.counting.by_count[:, 1].sum() == main
    assert counted.counting.segment_end.sum() == main
    ev, _sd = counter_moments(counted)
    assert ev == pytest.approx(plain.figures()["main"]["ev_per_round"])


def test_a_ramp_turns_the_count_into_an_edge() -> None:
    """Hi-Lo, 1-16 spread with wonging out below TC 0, Illustrious 18: the counter wins (the
    main bet alone; 21+3 off by wonging makes no difference to it) while the flat player
    loses, and the EV at one unit rises with the true count, about 0.5% a count (the rule of
    thumb for Hi-Lo in shoe games, Schlesinger, Blackjack Attack, ch. 10)."""
    profile = load_profile("spain-1979")
    assert isinstance(profile, BlackjackRules)
    counting = Counting(
        load_counting_system("hi-lo"),
        ramp=parse_ramp("1:1,2:4,3:8,4:16"),
        indices=load_index_set("illustrious-18"),
        wong_in=0,
        wong_out=0,
        horizon=0,
    )
    strategy = BlackjackStrategy.basic(profile)
    tally = simulate_blackjack(profile, 2_000_000, np.random.SeedSequence(5), 1, strategy, counting)
    ev, _sd = counter_moments(tally)
    assert ev > 0 > tally.total()["ev_per_round"]
    sums = tally.counting
    assert sums is not None
    # A weighted straight line through the EV by true count from -3 to +6 (single bins at the
    # ends are too noisy on 2 x 10**6 rounds to read a slope from).
    counts, evs, weights = [], [], []
    for tc in range(-3, 7):
        rounds, net, squares = sums.by_count[tc - TC_LOW].tolist()
        mean = net / tally.denominator / rounds
        variance = squares / tally.denominator**2 / rounds - mean * mean
        counts.append(tc)
        evs.append(mean)
        weights.append(math.sqrt(rounds / variance))
    slope = float(np.polyfit(counts, evs, 1, w=weights)[0])
    assert 0.003 < slope < 0.008


def test_risk_of_ruin_formula() -> None:
    """exp(-2 ev B / var) without end; finite horizons below it, and rising with the horizon."""
    assert risk_of_ruin_formula(0.02, 3.0, 100, None) == pytest.approx(math.exp(-4 / 9))
    short = risk_of_ruin_formula(0.02, 3.0, 100, 1_000)
    long = risk_of_ruin_formula(0.02, 3.0, 100, 100_000)
    assert short < long < risk_of_ruin_formula(0.02, 3.0, 100, None)
    assert risk_of_ruin_formula(-0.01, 1.0, 100, None) == 1.0
