"""The Casino Hold'em exact kernel as it was before the suit-symmetry and radix-sort rewrite
(``croupier.analysis.casino_holdem_exact.flop_table``): the reference its speed is measured
against (``benchmarks/casino_holdem_exact.py``) and its counts are checked bit for bit
against (``tests/consistency/test_casino_holdem_exact_brute_force.py``). Kept as it was.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from croupier.hands.poker import strength_of


@numba.njit(cache=True, nogil=True)
def previous_flop_table(
    flop: npt.NDArray[np.int64], threshold: int
) -> npt.NDArray[np.int32]:  # pragma: no cover - compiled
    """Counts by bin (see the module docstring) for each player hole beside ``flop``.

    Row ``i * (97 - i) // 2 + j - i - 1`` is the hole made of the ``i``-th and ``j``-th
    (``i < j``) of the 49 cards not on the flop, in increasing card order.
    """
    rest = np.empty(49, dtype=np.int64)
    on_flop = np.zeros(52, dtype=np.bool_)
    for card in flop:
        on_flop[card] = True
    k = 0
    for card in range(52):
        if not on_flop[card]:
            rest[k] = card
            k += 1
    table = np.zeros((1176, 22), dtype=np.int32)
    seven = np.empty(7, dtype=np.int64)
    seven[0] = flop[0]
    seven[1] = flop[1]
    seven[2] = flop[2]
    hand_first = np.empty(1081, dtype=np.int64)  # positions among the 47 cards
    hand_second = np.empty(1081, dtype=np.int64)
    row_of_hand = np.empty(1081, dtype=np.int64)
    strength = np.empty(1081, dtype=np.int64)
    keys = np.empty(1081, dtype=np.int64)
    below = np.empty(1081, dtype=np.int64)  # among all hands: weaker than this one
    at_most = np.empty(1081, dtype=np.int64)  # among all hands: not stronger
    first_below = np.empty(1081, dtype=np.int64)  # among hands holding its first card
    first_at_most = np.empty(1081, dtype=np.int64)
    second_below = np.empty(1081, dtype=np.int64)
    second_at_most = np.empty(1081, dtype=np.int64)
    seen = np.zeros(47, dtype=np.int64)
    unqualified_with = np.zeros(47, dtype=np.int64)
    left = np.empty(47, dtype=np.int64)  # position among the 49 of each of the 47 cards
    for turn in range(49):
        for river in range(turn + 1, 49):
            seven[3] = rest[turn]
            seven[4] = rest[river]
            k = 0
            for i in range(49):
                if i != turn and i != river:  # noqa: PLR1714 - plain compares in the kernel
                    left[k] = i
                    k += 1
            hand = 0
            unqualified = 0
            for c in range(47):
                unqualified_with[c] = 0
                seen[c] = 0
            for a in range(47):
                seven[5] = rest[left[a]]
                ia = left[a]
                for b in range(a + 1, 47):
                    seven[6] = rest[left[b]]
                    ib = left[b]
                    value = strength_of(seven)
                    strength[hand] = value
                    hand_first[hand] = a
                    hand_second[hand] = b
                    row_of_hand[hand] = ia * (97 - ia) // 2 + ib - ia - 1
                    keys[hand] = (value << 11) | hand
                    if value < threshold:
                        unqualified += 1
                        unqualified_with[a] += 1
                        unqualified_with[b] += 1
                    hand += 1
            keys.sort()
            # One pass over the sorted order, a group of equal strengths at a time.
            start = 0
            while start < 1081:
                value = keys[start] >> 11
                end = start + 1
                while end < 1081 and (keys[end] >> 11) == value:
                    end += 1
                for g in range(start, end):
                    h = keys[g] & 2047
                    below[h] = start
                    at_most[h] = end
                    first_below[h] = seen[hand_first[h]]
                    second_below[h] = seen[hand_second[h]]
                for g in range(start, end):
                    h = keys[g] & 2047
                    seen[hand_first[h]] += 1
                    seen[hand_second[h]] += 1
                for g in range(start, end):
                    h = keys[g] & 2047
                    first_at_most[h] = seen[hand_first[h]]
                    second_at_most[h] = seen[hand_second[h]]
                start = end
            for h in range(1081):
                value = strength[h]
                a = hand_first[h]
                b = hand_second[h]
                category = 9 - (value >> 20)
                row = row_of_hand[h]
                # Dealer hands share no card with the player's hole: inclusion-exclusion.
                not_qualified = unqualified - unqualified_with[a] - unqualified_with[b]
                if value < threshold:
                    not_qualified += 1
                    table[row, 0] += 990 - not_qualified
                else:
                    weaker = below[h] - first_below[h] - second_below[h]
                    not_stronger = at_most[h] - first_at_most[h] - second_at_most[h] + 1
                    table[row, 2 + category] += weaker - not_qualified
                    table[row, 1] += not_stronger - weaker
                    table[row, 0] += 990 - not_stronger
                table[row, 12 + category] += not_qualified
    return table


@numba.njit(cache=True, nogil=True, parallel=True)
def previous_flop_tables(
    flops: npt.NDArray[np.int64], threshold: int
) -> npt.NDArray[np.int32]:  # pragma: no cover - compiled
    """``previous_flop_table`` for each row of ``flops``, spread over every core."""
    result = np.empty((flops.shape[0], 1176, 22), dtype=np.int32)
    for f in numba.prange(flops.shape[0]):
        result[f] = previous_flop_table(flops[f], threshold)
    return result
