"""Casino Hold'em (RULES.md §5): the progressive bet, exactly, as a function of the meter.

The progressive pays on the player's best five cards from the two hole cards and the flop:
five cards dealt from one full deck (Art. 7, one deck shuffled before every game). The kernel
classifies all C(52, 5) = 2,598,960 five-card hands; a prize is either a share of the meter
or a fixed number of units (profile values, RULES.md §5 decision); the stake is always
collected (so a winning hand nets its prize minus the stake).

The Ante + Bet game with the optimal call/fold decision needs a far larger enumeration and is
not computed here (see the report).

>>> from croupier.rules import load_profile
>>> figures = analyse_progressive(load_profile("casino-holdem-peru-2007"))
>>> round(figures.house_edge, 4)
0.623
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.figures import WagerFigures
from croupier.rules.casino_holdem import CasinoHoldemRules, PokerCategory

CATEGORY_ORDER: tuple[PokerCategory, ...] = tuple(PokerCategory)
"""Index 0 = royal flush ... 9 = high card, as ``PokerCategory`` lists them."""


@numba.njit(cache=True)
def _category(cards: npt.NDArray[np.int64]) -> int:
    counts = np.zeros(13, dtype=np.int64)
    suit = cards[0] % 4
    flush = True
    for card in cards:
        counts[card // 4] += 1
        if card % 4 != suit:
            flush = False
    pairs = 0
    trips = 0
    quads = 0
    distinct = 0
    for rank in range(13):
        if counts[rank] > 0:
            distinct += 1
        if counts[rank] == 2:
            pairs += 1
        elif counts[rank] == 3:
            trips += 1
        elif counts[rank] == 4:
            quads += 1
    straight = False
    high = -1
    if distinct == 5:
        low = 0
        while counts[low] == 0:
            low += 1
        top = 12
        while counts[top] == 0:
            top -= 1
        if top - low == 4:
            straight = True
            high = top
        elif top == 12 and counts[0] + counts[1] + counts[2] + counts[3] == 4:
            # A-2-3-4-5, the lowest straight (RULES.md §5 decision).
            straight = True
            high = 3
    if straight and flush:
        return 0 if high == 12 else 1
    if quads:
        return 2
    if trips and pairs:
        return 3
    if flush:
        return 4
    if straight:
        return 5
    if trips:
        return 6
    if pairs == 2:
        return 7
    if pairs == 1:
        return 8
    return 9


@numba.njit(cache=True)
def five_card_category_counts() -> npt.NDArray[np.int64]:
    """How many of the 2,598,960 five-card hands fall in each category."""
    result = np.zeros(10, dtype=np.int64)
    hand = np.zeros(5, dtype=np.int64)
    for a in range(52):
        hand[0] = a
        for b in range(a + 1, 52):
            hand[1] = b
            for c in range(b + 1, 52):
                hand[2] = c
                for d in range(c + 1, 52):
                    hand[3] = d
                    for e in range(d + 1, 52):
                        hand[4] = e
                        result[_category(hand)] += 1
    return result


@cache
def _category_counts() -> tuple[int, ...]:
    return tuple(int(count) for count in five_card_category_counts())


def analyse_progressive(rules: CasinoHoldemRules, meter: int | None = None) -> WagerFigures:
    """The progressive bet per unit staked, with the meter at ``meter`` (default: its seed)."""
    progressive = rules.progressive
    meter_value = progressive.meter_seed if meter is None else meter
    counts = _category_counts()
    total = sum(counts)
    distribution: dict[Fraction, Fraction] = {}
    for index, category in enumerate(CATEGORY_ORDER):
        prize = progressive.paytable.get(category)
        if prize is None:
            won = Fraction(0)
        elif prize.meter_share is not None:
            won = prize.meter_share * meter_value
        else:
            won = Fraction(prize.units or 0)
        net = (won - progressive.bet) / progressive.bet
        distribution[net] = distribution.get(net, Fraction(0)) + Fraction(int(counts[index]), total)
    return WagerFigures.exact(
        "progressive",
        distribution,
        method=(
            f"exact over all 2,598,960 five-card hands, meter at {meter_value} units "
            f"(the profile's seed is {progressive.meter_seed})"
        ),
    )


def progressive_break_even_meter(rules: CasinoHoldemRules) -> Fraction | None:
    """The meter at which the progressive's expected return is zero (``None``: no meter line)."""
    low = analyse_progressive(rules, 0).exact_house_edge
    high = analyse_progressive(rules, 1).exact_house_edge
    if low is None or high is None or low == high:
        return None
    return low / (low - high)
