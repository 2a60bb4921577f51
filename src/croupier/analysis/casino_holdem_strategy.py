"""Casino Hold'em: a short call/fold strategy a person can follow, and what it costs.

The optimal player calls exactly when calling loses less than the folded Ante, which takes
the exact table of ``croupier.analysis.casino_holdem_exact`` to know. A person at the table
needs a few rules about the five cards seen instead. Each rule is a test on the two hole
cards and the flop (``hand_features``: a numba pass over every flop class and hole), so the
short strategy is a call/fold choice for each (flop class, hole) row of the exact table, and
its figures are exact: the same table, tallied under the short strategy's choices
(``casino_holdem_exact.tally``), against the optimal one's.

The rules (first that applies):

1. Call with a pair or better that uses a hole card (a pocket pair, a hole card pairing the
   flop), a straight or a flush.
2. Call with four to a flush or four to a straight (open-ended or inside).
3. Call with a hole card higher than every flop card.
4. Call with a Ten or higher in the hole.
5. Fold anything else.

It folds about 15.8% of hands where the optimal player folds 18.0%, and decides as the
optimal player does on 93.4% of them; its cost, about 0.92 points of house edge, is
printed exactly by ``croupier analyze``. No rule on ranks alone does much better: the best
call/fold choice for each combination of hole ranks, flop ranks and the draws above still
costs about 0.21 points (the suits and the dealer's qualifying chances make the rest).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.casino_holdem_exact import (
    DEALS,
    bin_values,
    expected_net,
    flop_classes,
    load_or_compute_table,
    qualifier_threshold,
    tally,
)
from croupier.cards import Card
from croupier.errors import NotationError
from croupier.rules.casino_holdem import CasinoHoldemRules

MADE = 1
"""A pair or better using a hole card (a pocket pair, a hole card pairing the flop), a
straight or a flush."""
FLUSH_DRAW = 2
"""Four cards of one suit among the five (and no flush)."""
STRAIGHT_DRAW = 4
"""Four of five ranks in a row among the five, open-ended or inside (and no straight)."""
OVERCARD = 8
"""A hole card higher than every flop card."""

RULES = (
    "Call with a pair or better that uses a hole card (a pocket pair, a hole card pairing the "
    "flop), a straight or a flush.",
    "Call with four to a flush or four to a straight (open-ended or inside).",
    "Call with a hole card higher than every flop card.",
    "Call with a Ten or higher in the hole.",
    "Fold anything else.",
)
TEN = 8
"""Rank index of a Ten (0 = 2 ... 12 = Ace)."""


@numba.njit(cache=True, nogil=True)
def _features_of(cards: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """Flags of the five cards ``hole (2) + flop (3)``; ranks are ``card >> 2`` (0 = 2 ...
    12 = Ace), suits ``card & 3``."""
    ranks = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    for card in cards:
        ranks[card >> 2] += 1
        suits[card & 3] += 1
    flags = 0
    first, second = cards[0] >> 2, cards[1] >> 2
    pairs_flop = False
    highest_on_flop = 0
    for k in range(2, 5):
        highest_on_flop = max(highest_on_flop, cards[k] >> 2)
        if cards[k] >> 2 == first or cards[k] >> 2 == second:
            pairs_flop = True
    flush = False
    four_flush = False
    for s in range(4):
        if suits[s] == 5:
            flush = True
        elif suits[s] == 4:
            four_flush = True
    # Each window of five ranks in a row (the Ace also low): all five, or four of them.
    straight = False
    four_to_straight = False
    for low in range(-1, 9):
        run = 0
        for r in range(low, low + 5):
            if ranks[r if r >= 0 else 12] > 0:
                run += 1
        if run == 5:
            straight = True
        elif run == 4:
            four_to_straight = True
    if first == second or pairs_flop or straight or flush:
        flags |= MADE
    if four_flush and not flush:
        flags |= FLUSH_DRAW
    if four_to_straight and not straight:
        flags |= STRAIGHT_DRAW
    if max(first, second) > highest_on_flop:
        flags |= OVERCARD
    return flags


@numba.njit(cache=True, nogil=True)
def _hand_features(
    flops: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:  # pragma: no cover - compiled
    flags = np.zeros((flops.shape[0], 1176), dtype=np.int64)
    high = np.zeros((flops.shape[0], 1176), dtype=np.int64)
    cards = np.empty(5, dtype=np.int64)
    rest = np.empty(49, dtype=np.int64)
    for f in range(flops.shape[0]):
        k = 0
        for card in range(52):
            if card != flops[f, 0] and card != flops[f, 1] and card != flops[f, 2]:
                rest[k] = card
                k += 1
        cards[2] = flops[f, 0]
        cards[3] = flops[f, 1]
        cards[4] = flops[f, 2]
        for i in range(49):
            for j in range(i + 1, 49):
                row = i * (97 - i) // 2 + j - i - 1
                cards[0] = rest[i]
                cards[1] = rest[j]
                flags[f, row] = _features_of(cards)
                high[f, row] = max(rest[i] >> 2, rest[j] >> 2)
    return flags, high


@cache
def hand_features() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per (flop class, hole row) of the exact table: the flags above and the hole's higher
    rank (0 = 2 ... 12 = Ace)."""
    flops, _ = flop_classes()
    return _hand_features(flops)


def _calls(flags: npt.NDArray[np.int64], high: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """``RULES`` as array logic (True: call)."""
    calls: npt.NDArray[np.bool_] = (
        (flags & (MADE | FLUSH_DRAW | STRAIGHT_DRAW | OVERCARD)) != 0
    ) | (high >= TEN)
    return calls


def short_strategy_calls() -> npt.NDArray[np.bool_]:
    """The short strategy's choice (True: call) per (flop class, hole row)."""
    return _calls(*hand_features())


def short_strategy_calls_with(hole_and_flop: Sequence[Card]) -> bool:
    """The short strategy's choice for two hole cards and a flop (True: call)."""
    indices = [card.index for card in hole_and_flop]
    if len(indices) != 5 or len(set(indices)) != 5:
        raise NotationError("two hole cards and a three-card flop, all different, are needed")
    flags = _features_of(np.array(indices, dtype=np.int64))
    high = max(indices[0] >> 2, indices[1] >> 2)
    return bool(_calls(np.array([flags]), np.array([high]))[0])


@dataclass(frozen=True)
class ShortStrategy:
    """The short strategy's exact figures beside the optimal one's."""

    rules: tuple[str, ...]
    house_edge: Fraction
    optimal_house_edge: Fraction
    fold_frequency: Fraction
    agreement: Fraction
    """The share of deals (hole + flop) on which it decides as the optimal player does."""

    @property
    def cost(self) -> Fraction:
        return self.house_edge - self.optimal_house_edge

    def as_json(self) -> dict[str, Any]:
        return {
            "rules": list(self.rules),
            "house_edge": float(self.house_edge),
            "house_edge_exact": str(self.house_edge),
            "cost_against_optimal": float(self.cost),
            "cost_against_optimal_exact": str(self.cost),
            "fold_frequency": float(self.fold_frequency),
            "agrees_with_optimal": float(self.agreement),
        }


def analyse_short_strategy(
    rules: CasinoHoldemRules,
    optimal_calls: npt.NDArray[np.bool_],
    optimal_house_edge: Fraction,
    table: npt.NDArray[np.int32] | None = None,
) -> ShortStrategy:
    """The short strategy's house edge per initial Ante, exactly, from the exact table."""
    if table is None:
        table, _ = load_or_compute_table(qualifier_threshold(rules))
    calls = short_strategy_calls()
    counts, folds = tally(table, calls)
    house_edge = -expected_net(counts, folds, bin_values(rules))
    _, weights = flop_classes()
    agree = int((weights[:, None] * (calls == optimal_calls)).sum())
    return ShortStrategy(
        rules=RULES,
        house_edge=house_edge,
        optimal_house_edge=optimal_house_edge,
        fold_frequency=Fraction(folds, DEALS),
        agreement=Fraction(agree, int(weights.sum()) * calls.shape[1]),
    )
