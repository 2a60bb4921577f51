"""The tie count's tags follow the tie's exact effects of removal; the pair bets' EV by the
exact pair probability of the unseen cards is what that probability says."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis.baccarat import RANKS, banker_tableau, outcome_counts
from croupier.cards import FULL_DECK
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of
from croupier.simulation.baccarat_counting import PAIR_BUCKETS, TIE_COUNT, tie_effects_of_removal
from croupier.simulation.baccarat_sim import (
    BaccaratTables,
    counting_figures,
    simulate_baccarat,
    simulate_baccarat_counting,
)

_LOADED = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(_LOADED, BaccaratRules)
PROFILE: BaccaratRules = _LOADED


class Seed:
    def __init__(self, *words: int) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: type) -> npt.NDArray[np.uint64]:
        return np.array(self.words[:n_words], dtype=dtype)


def test_the_tie_count_is_balanced_and_follows_the_effects_of_removal() -> None:
    effects = tie_effects_of_removal(PROFILE)
    assert sum(TIE_COUNT[card.rank.baccarat_value] for card in FULL_DECK) == 0
    assert math.isclose(sum(effects[c.rank.baccarat_value] for c in FULL_DECK), 0, abs_tol=1e-9)
    for value, tag in TIE_COUNT.items():
        assert tag == 0 or (tag > 0) == (effects[value] > 0), value
    # The betting correlation over one deck's 52 cards (tags against effects of removal).
    tags = np.array([TIE_COUNT[c.rank.baccarat_value] for c in FULL_DECK], dtype=float)
    eor = np.array([effects[c.rank.baccarat_value] for c in FULL_DECK])
    assert np.corrcoef(tags, eor)[0, 1] > 0.95


def test_the_pairs_have_no_linear_count() -> None:
    """One card of any rank removed from a full shoe leaves the pair bets' chance exactly as
    it was (31/415 at 8 decks, before and after): their effects of removal are all zero, so
    no tag can see them; only the spread of the ranks left (a quadratic count) does."""

    def player_pair(counts: npt.NDArray[np.int64]) -> Fraction:
        table = outcome_counts(counts, False, banker_tableau())
        n = int(counts.sum())
        return Fraction(int(table[:, :, 1, :].sum()), math.prod(range(n - 5, n + 1)))

    full = np.full(RANKS, 32, dtype=np.int64)
    without = []
    for rank in (0, 5, 12):
        fewer = full.copy()
        fewer[rank] -= 1
        without.append(player_pair(fewer))
    assert set(without) == {player_pair(full)} == {Fraction(31, 415)}


def test_counting_deals_the_same_coups() -> None:
    counted = simulate_baccarat_counting(PROFILE, 50_000, Seed(4, 4), players=1)
    plain = simulate_baccarat(PROFILE, 50_000, Seed(4, 4), players=1)
    tables = BaccaratTables.of(PROFILE)
    assert tables.tally(counted.by_true_count.sum(axis=0)).figures() == plain.figures()


def test_pair_ev_by_pair_probability() -> None:
    """In each well-filled bucket, the pair bets' simulated EV is within 4 sd of the range of
    EVs its probabilities give (12 P - 1 at 11:1), and the bet is worth making sometimes."""
    tables = BaccaratTables.of(PROFILE)
    figures = counting_figures(
        simulate_baccarat_counting(PROFILE, 1_000_000, Seed(5, 5), players=1), tables
    )
    rows = figures["by_pair_probability"]
    assert math.isclose(sum(row["frequency"] for row in rows), 1.0)
    filled = [row for row in rows if row["rounds"] >= 20_000]
    assert len(filled) >= 4
    for row in filled:
        low, high = (12 * p - 1 for p in row["pair_probability"])
        sd = 12 * math.sqrt(0.08 * 0.92 / row["rounds"])
        for wager in ("player_pair", "banker_pair"):
            assert low - 4 * sd < row["ev_per_round"][wager] < high + 4 * sd, (row, wager)
    positive = [row for row in rows if row["pair_probability"][0] >= 1 / 12]
    assert 0 < sum(row["frequency"] for row in positive) < 0.1
    assert len(rows) <= PAIR_BUCKETS


def test_tie_ev_rises_with_the_true_count() -> None:
    tables = BaccaratTables.of(PROFILE)
    figures = counting_figures(
        simulate_baccarat_counting(PROFILE, 1_000_000, Seed(6, 6), players=1), tables
    )
    rows = {row["true_count"]: row for row in figures["by_true_count"]}
    low = [rows[t]["ev_per_round"]["tie"] for t in range(-12, -4)]
    high = [rows[t]["ev_per_round"]["tie"] for t in range(5, 13)]
    assert sum(high) / len(high) > sum(low) / len(low) + 0.02


def test_pair_bets_only_when_the_count_says_so() -> None:
    """Betting a pair only when P(pair) x 12 > 1 (11:1) turns the bet from about -10.4% to
    better than -5% a bet (expected: positive; 1% of coups, so the sample is a wide one)."""
    tables = BaccaratTables.of(PROFILE)
    figures = counting_figures(
        simulate_baccarat_counting(PROFILE, 1_000_000, Seed(7, 7), players=1), tables
    )
    for wager in ("player_pair", "banker_pair"):
        chosen = figures["pairs_when_positive"][wager]
        assert 0.005 < chosen["frequency"] < 0.03
        assert chosen["ev_per_bet"] > -0.05
        assert chosen["ev_per_round_betting_only_then"] == pytest.approx(
            chosen["ev_per_bet"] * chosen["frequency"]
        )
