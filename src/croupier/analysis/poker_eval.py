"""A compiled best-of-seven poker hand evaluator for the Casino Hold'em analysis (Art. 10-11).

``score7`` returns an integer that orders hands as Art. 11 does (higher is better; equal
scores are equal hands): the category in bits 20-23 (``HIGH_CARD`` 1 ... ``STRAIGHT_FLUSH``
9) and up to five tie-breaking ranks, 4 bits each. Cards are indices ``rank * 4 + suit``
with rank 0..12 for 2..A (``croupier.cards.Card.index``). A-2-3-4-5 is the lowest straight
(RULES.md §5 decision). Checked against ``phevaluator`` in the tests.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

HIGH_CARD = 1
PAIR = 2
TWO_PAIR = 3
THREE_OF_A_KIND = 4
STRAIGHT = 5
FLUSH = 6
FULL_HOUSE = 7
FOUR_OF_A_KIND = 8
STRAIGHT_FLUSH = 9


@numba.njit(cache=True, inline="always")
def _straight_high(mask: int) -> int:
    """The top rank (0..12) of the best straight in a 13-bit rank mask, or -1."""
    for high in range(12, 3, -1):
        run = (mask >> (high - 4)) & 0x1F
        if run == 0x1F:
            return high
    # A-2-3-4-5: ranks 12, 0, 1, 2, 3.
    if (mask & 0x100F) == 0x100F:
        return 3
    return -1


@numba.njit(cache=True)
def score7(cards: npt.NDArray[np.int64]) -> int:
    counts = np.zeros(13, dtype=np.int64)
    suit_masks = np.zeros(4, dtype=np.int64)
    suit_counts = np.zeros(4, dtype=np.int64)
    mask = 0
    for card in cards:
        rank = card // 4
        suit = card % 4
        counts[rank] += 1
        suit_counts[suit] += 1
        suit_masks[suit] |= 1 << rank
        mask |= 1 << rank
    for suit in range(4):
        if suit_counts[suit] >= 5:
            high = _straight_high(suit_masks[suit])
            if high >= 0:
                return (STRAIGHT_FLUSH << 20) | (high << 16)
            score = FLUSH << 20
            shift = 16
            taken = 0
            for rank in range(12, -1, -1):
                if (suit_masks[suit] >> rank) & 1:
                    score |= rank << shift
                    shift -= 4
                    taken += 1
                    if taken == 5:
                        break
            return score
    quad = -1
    trips1 = -1
    trips2 = -1
    pair1 = -1
    pair2 = -1
    for rank in range(12, -1, -1):
        c = counts[rank]
        if c == 4 and quad < 0:
            quad = rank
        elif c == 3:
            if trips1 < 0:
                trips1 = rank
            elif trips2 < 0:
                trips2 = rank
        elif c == 2:
            if pair1 < 0:
                pair1 = rank
            elif pair2 < 0:
                pair2 = rank
    if quad >= 0:
        kicker = -1
        for rank in range(12, -1, -1):
            if rank != quad and counts[rank] > 0:
                kicker = rank
                break
        return (FOUR_OF_A_KIND << 20) | (quad << 16) | (kicker << 12)
    if trips1 >= 0 and (trips2 >= 0 or pair1 >= 0):
        partner = max(trips2, pair1)
        return (FULL_HOUSE << 20) | (trips1 << 16) | (partner << 12)
    high = _straight_high(mask)
    if high >= 0:
        return (STRAIGHT << 20) | (high << 16)
    if trips1 >= 0:
        score = (THREE_OF_A_KIND << 20) | (trips1 << 16)
        shift = 12
        for rank in range(12, -1, -1):
            if rank != trips1 and counts[rank] > 0:
                score |= rank << shift
                shift -= 4
                if shift < 8:
                    break
        return score
    if pair1 >= 0 and pair2 >= 0:
        kicker = -1
        for rank in range(12, -1, -1):
            if rank != pair1 and rank != pair2 and counts[rank] > 0:  # noqa: PLR1714
                kicker = rank
                break
        return (TWO_PAIR << 20) | (pair1 << 16) | (pair2 << 12) | (kicker << 8)
    if pair1 >= 0:
        score = (PAIR << 20) | (pair1 << 16)
        shift = 12
        for rank in range(12, -1, -1):
            if rank != pair1 and counts[rank] > 0:
                score |= rank << shift
                shift -= 4
                if shift < 4:
                    break
        return score
    score = HIGH_CARD << 20
    shift = 16
    for rank in range(12, -1, -1):
        if counts[rank] > 0:
            score |= rank << shift
            shift -= 4
            if shift < 0:
                break
    return score
