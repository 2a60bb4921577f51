"""Counting Dragon Six's tie and pair bets: a count of their own, and their EV by count.

The tie count's tags are data (``TIE_COUNT``), derived by croupier from the tie's exact
effects of removal (``tie_effects_of_removal``: the change in the tie's expected value when
one card of a value leaves a full shoe, counted with the exact enumeration of
``croupier.analysis.baccarat``), the method of Thorp and Walden's and of Griffin's analyses
of baccarat (E. O. Thorp, *The Mathematics of Gambling*, 1984, ch. 5; P. Griffin, *The
Theory of Blackjack*, 6th ed., 1999, on baccarat's effects of removal): scaled and rounded
to a balanced level-4 count. At 8 decks removing a 6 or a 7 costs the tie about 0.11% each,
removing an 8, a 9 or a ten-value card gains 0.04-0.07%; the tags follow those signs.

The pair bets have no linear count: one card of any rank removed from a full shoe leaves
the chance of a pair exactly as it was (31/415 at 8 decks, before and after: every effect
of removal is zero). Their count is the exact pair probability of the unseen cards, the sum
over ranks of n (n - 1) / (N (N - 1)), a number a player can keep with a rank tally; the
simulator buckets it in steps of 1/400.

The counter sees what a player sees: the first card of a shoe (turned up to set the burn,
Art. 6 d)) and every card dealt; the burnt cards stay unseen. The true count is the running
count per 52 unseen cards, rounded to a whole number.

The kernel keeps the count with these tables (``count_tables``) and returns a
``BaccaratCounting``; ``baccarat_sim.counting_figures`` reads the EV by count off it.

>>> sorted(TIE_COUNT.items())
[(0, 2), (1, 0), (2, -1), (3, -1), (4, -1), (5, -1), (6, -4), (7, -4), (8, 2), (9, 2)]
>>> sum(TIE_COUNT[card.rank.baccarat_value] for card in FULL_DECK)  # balanced
0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from croupier.analysis.baccarat import RANK_VALUE, RANKS, banker_tableau, outcome_counts
from croupier.cards import FULL_DECK
from croupier.hands.baccarat import points
from croupier.rules.baccarat import BaccaratRules, PairBy

SYSTEM = "croupier-tie"
TIE_COUNT: Mapping[int, int] = MappingProxyType(
    {0: 2, 1: 0, 2: -1, 3: -1, 4: -1, 5: -1, 6: -4, 7: -4, 8: 2, 9: 2}
)
"""Point value -> tag (ten-value cards are 0). Derived from ``tie_effects_of_removal``."""
TRUE_COUNT_LIMIT = 30
PAIR_BUCKETS = 100
"""The pair probability in steps of 1/400 over [0, 1/4] (a full 8-deck shoe: 0.0747)."""


def tie_effects_of_removal(rules: BaccaratRules) -> dict[int, float]:
    """Per point value: the tie's exact expected value with one such card removed from a
    full shoe, minus the full shoe's (per unit staked)."""
    tie_pays = rules.paytable.tie.multiplier

    def tie_value(counts: npt.NDArray[np.int64]) -> Fraction:
        table = outcome_counts(counts, rules.pair_by is PairBy.VALUE, banker_tableau())
        n = int(counts.sum())
        denominator = 1
        for k in range(6):
            denominator *= n - k
        ties = sum(int(table[p, p].sum()) for p in range(10))
        p_tie = Fraction(ties, denominator)
        return p_tie * (tie_pays + 1) - 1

    full = np.full(RANKS, 4 * rules.decks, dtype=np.int64)
    base = tie_value(full)
    effects: dict[int, float] = {}
    for rank in range(RANKS):
        value = int(RANK_VALUE[rank])
        if value in effects:
            continue
        fewer = full.copy()
        fewer[rank] -= 1
        effects[value] = float(tie_value(fewer) - base)
    return effects


@dataclass(frozen=True)
class CountTables:
    """What the kernel needs to keep a count; ``None`` of it when counting is off."""

    tags: npt.NDArray[np.int64]
    """Per card index: the tie count's tag (``TIE_COUNT``)."""
    true_count_limit: int
    """True counts are rounded and clipped to ``[-limit, limit]``."""
    pair_buckets: int
    """The pair probability of the unseen cards in ``pair_buckets`` equal steps over [0, 1/4]."""


def count_tables() -> CountTables:
    tags = np.array([TIE_COUNT[points(card)] for card in FULL_DECK], dtype=np.int64)
    return CountTables(tags, TRUE_COUNT_LIMIT, PAIR_BUCKETS)


@dataclass(frozen=True)
class BaccaratCounting:
    """Coups counted by outcome per tie true count and per pair-probability bucket (blocks
    add up exactly, like a Tally)."""

    by_true_count: npt.NDArray[np.int64]
    """``[true count + TRUE_COUNT_LIMIT, outcome]``."""
    by_pair: npt.NDArray[np.int64]
    """``[pair bucket, player pair, banker pair]``."""
    when_positive: npt.NDArray[np.int64]
    """``[side, paired]``: coups where that side's pair bet had a positive expectation."""

    def __add__(self, other: BaccaratCounting) -> BaccaratCounting:
        return BaccaratCounting(
            self.by_true_count + other.by_true_count,
            self.by_pair + other.by_pair,
            self.when_positive + other.when_positive,
        )
