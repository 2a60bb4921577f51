"""Exact expected values of a blackjack round, split hands included (numba), under a fixed
strategy (the total-dependent chart) or the composition-dependent one (CDZ-).

Every hand is valued **by composition**: a hand's value depends only on the multiset of its
cards (the dealer draws from the shoe less those cards and the up card), so the hands are
the multisets of ranks with a hard total of at most 21 (a few thousand), each valued once
from the values of the hands one card larger. ``CDZ-`` (Eric Farmer's name) plays each hand,
split or not, by the action that is best for an *unsplit* hand of the same cards: the
composition-dependent strategy of the unsplit hand reused after a split. ``CDP1`` (his name
too) plays a split hand by the action that is best for it as the split's *first* hand, the
pair's other card out of the shoe, the same play for every hand of the split
(``UpCard.first_hand_play``); the recursion below values any such fixed play exactly.

**Split hands, exactly.** A pair of rank ``X`` is split into hands played one after the other;
a hand whose second card is another ``X`` splits again while the box may hold more hands
(``max_hands``; Aces only if ``resplit_aces``). Three facts make the expected value exact
without enumerating the hands jointly (the strategy of a hand depends only on its own cards):

1. The cards a hand draws after its second card can be ignored by the hands after it and by
   the dealer: for any function ``f`` of the cards still to come, ``E[f | cards so far]`` is
   a martingale as cards are drawn, so at the moment a hand is finished (a stopping time) the
   rest of the round is worth, on average, what it is worth from the shoe as it stood after
   that hand's second card.
2. A card removed at random is no card removed: ``f(C) = sum_s (c_s / N) f(C - s)``. So the
   shoe less an unknown card that is *not* an ``X`` is worth
   ``f(C) - (a / N) f(C - X)`` in ``f``'s sums (``a`` the ``X`` left, ``N`` the cards left).
3. Hence the round's value needs only shoes less ``j`` more ``X`` (``C_j``) and, for each,
   ``A_j``: a split hand's value summed over its second cards other than ``X``, weighted by
   their chances from ``C_j``, and ``B_j``: the same over every second card (a hand that may
   not split again). With ``R(j, n, p)`` the value of ``p`` hands still to play from ``C_j``
   when the box holds ``n``::

       R(j, n, p) = A_j + R(j, n, p - 1) + (a_j / N_j) (R(j + 1, n + 1, p + 1) - R(j + 1, n, p - 1))
       R(j, n, p) = B_j + R(j, n, p - 1)          (no further split)
       R(j, n, 0) = 0,   the split's value R(0, 2, 2).

The dealer's hole card is exchangeable with the cards the player draws, so each final hand
meets a dealer blackjack with the chance of the cards left (``blackjack_kernel``'s worlds).
A dealer who peeks ends the round at once on a blackjack: the split hands are then valued
without that world and the split round adds ``-P(dealer blackjack)`` once; under OBO with an
unchecked hole card the first hand carries the original stake (Peru Art. 13) and its values
are computed separately (``first`` below); when every bet is lost all hands are alike.

The expected amount wagered (for the element of risk) is summed the same way, a dealer who
peeks taking only the original stake.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.dealer import ACE, BLACKJACK, BUST, TEN, dealer_outcomes_many, full_shoe

HIT = 0
STAND = 1
DOUBLE = 2
PAID = 3
"""A hand paid at a fixed ratio unless the dealer has blackjack (a split Ace + ten counted as
a blackjack; Veintiuno Real)."""

_KEY_BASE = 64
"""Removed-card counts are encoded in base 64 (at most 21 Aces plus five split cards)."""

_KEY_WEIGHTS = _KEY_BASE ** np.arange(10, dtype=np.int64)
"""A composition's counts by rank as one integer key (``counts @ _KEY_WEIGHTS``)."""


@dataclass(frozen=True)
class Compositions:
    """Every hand of 1 or more cards with a hard total of at most 21, larger totals first (so
    that ``child[i, rank]``, the hand with one more card of ``rank`` or -1 for a bust, comes
    before ``i``)."""

    counts: npt.NDArray[np.int64]
    hard: npt.NDArray[np.int64]
    cards: npt.NDArray[np.int64]
    child: npt.NDArray[np.int64]
    index: dict[tuple[int, ...], int]
    pairs: tuple[tuple[int, ...], ...]
    """``pairs[first][second]``: the two-card hand, which the analysis looks up thousands of
    times (``of``)."""

    def of(self, *ranks: int) -> int:
        """The hand of these cards (ranks 0 = Ace .. 9 = ten-valued)."""
        if len(ranks) == 2:
            return self.pairs[ranks[0]][ranks[1]]
        key = [0] * 10
        for rank in ranks:
            key[rank] += 1
        return self.index[tuple(key)]


def distinct(keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``np.unique(keys)``, the integers sorted, each once (flattened), by a sort: numpy's
    ``unique`` hashes instead (numpy 2.3 on), 7 to 17 times slower on these arrays of
    composition keys (0.5k to 50k of them), a few milliseconds of every blackjack command."""
    ordered = np.sort(keys, axis=None)
    first = np.ones(ordered.size, dtype=np.bool_)
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    found: npt.NDArray[np.int64] = ordered[first]
    return found


@functools.cache
def compositions() -> Compositions:
    found: list[tuple[int, ...]] = []
    totals: list[int] = []

    def extend(counts: list[int], lowest: int, hard: int) -> None:
        for rank in range(lowest, 10):
            total = hard + rank + 1
            if total > 21:
                break
            counts[rank] += 1
            found.append(tuple(counts))
            totals.append(total)
            extend(counts, rank, total)
            counts[rank] -= 1

    extend([0] * 10, 0, 0)
    # Larger totals first, hands of the same total in the order found (a stable sort). The
    # lookups over arrays: the same in Python, a hand at a time, were 14 ms of every
    # command, under the interpreter's lock.
    order = np.argsort(-np.array(totals), kind="stable")
    found = [found[i] for i in order]
    counts = np.array(found, dtype=np.int64)
    index = {c: i for i, c in enumerate(found)}
    keys = counts @ _KEY_WEIGHTS
    by_key = np.argsort(keys)
    sorted_keys = keys[by_key]
    bigger = keys[:, None] + _KEY_WEIGHTS
    at = np.minimum(np.searchsorted(sorted_keys, bigger), len(keys) - 1)
    child = np.where(sorted_keys[at] == bigger, by_key[at], -1).astype(np.int64)
    pairs = tuple(
        tuple(index[tuple(int(first == rank) + int(second == rank) for rank in range(10))]
              for second in range(10))
        for first in range(10)
    )  # fmt: skip
    return Compositions(
        counts=counts,
        hard=counts @ np.arange(1, 11),
        cards=counts.sum(axis=1),
        child=child,
        index=index,
        pairs=pairs,
    )


# --------------------------------------------------------------------------------------------
# Leaves: a hand standing, busting, paid; the chance of a dealer blackjack from the cards left.
# --------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _blackjack_chance(left: npt.NDArray[np.int64], cards: int, up: int) -> float:
    if cards <= 0:
        return 0.0
    if up == ACE:
        return float(left[TEN]) / cards
    if up == TEN:
        return float(left[ACE]) / cards
    return 0.0


@numba.njit(cache=True, nogil=True)
def _stand(  # noqa: PLR0917
    total: int,
    bet: float,
    original: float,
    dealer: npt.NDArray[np.float64],
    peek: bool,
    all_bets_lost: bool,
) -> float:
    """A hand of ``total`` (at most 21) standing with ``bet`` on it (``blackjack_kernel``)."""
    world = -original if peek else (-bet if all_bets_lost else -original)
    value: float = dealer[BUST] * bet + dealer[BLACKJACK] * world
    for index in range(5):
        final = 17 + index
        if total > final:
            value += dealer[index] * bet
        elif total < final:
            value -= dealer[index] * bet
    return value


@numba.njit(cache=True, nogil=True)
def _bust(bet: float, original: float, blackjack: float, peek: bool) -> float:
    """A busted hand: lost, but in a peek game the round ended on a dealer blackjack."""
    world = -original if peek else -bet
    return (1 - blackjack) * -bet + blackjack * world


@numba.njit(cache=True, nogil=True)
def _wagered(bet: float, original: float, blackjack: float, peek: bool) -> float:
    """What a finished hand put at risk: in a peek game a dealer blackjack takes the round
    before any double or split, leaving the original stake only."""
    if peek:
        return (1 - blackjack) * bet + blackjack * original
    return bet


@numba.njit(cache=True, nogil=True)
def _total(hard: int, has_ace: bool) -> tuple[int, bool]:
    if has_ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


# --------------------------------------------------------------------------------------------
# The unsplit hand's best play by composition (CDZ-'s strategy).
# --------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def optimal_values(  # noqa: PLR0917
    base: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    hard: npt.NDArray[np.int64],
    cards: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    dealer: npt.NDArray[np.float64],
    up: int,
    peek: bool,
    all_bets_lost: bool,
    sevens_pays: float,
) -> npt.NDArray[np.float64]:
    """``[what, hand]`` for every hand the shoe ``base`` (less the up card) can hold, one
    original stake on it: 0 stand, 1 hit (then the best of hit and stand), 2 double, 3 the
    best of stand and hit, 4 its expected amount wagered under that best, 5 a double's amount
    wagered. ``dealer[hand]`` is the dealer's outcomes for ``base`` less the hand.
    ``sevens_pays`` > 0: Veintiuno Real, three 7s pay that (losing to a dealer blackjack)."""
    size = counts.shape[0]
    values = np.zeros((6, size))
    total_cards = base.sum()
    left = np.empty(10, dtype=np.int64)
    for i in range(size):
        possible = True
        for rank in range(10):
            left[rank] = base[rank] - counts[i, rank]
            possible = possible and left[rank] >= 0
        if not possible or cards[i] < 2:
            continue
        remaining = total_cards - cards[i]
        total, _ = _total(hard[i], counts[i, ACE] > 0)
        stand = _stand(total, 1.0, 1.0, dealer[i], peek, all_bets_lost)
        blackjack = _blackjack_chance(left, remaining, up)
        stand_wagered = _wagered(1.0, 1.0, blackjack, peek)
        if sevens_pays > 0 and cards[i] == 3 and counts[i, 6] == 3:
            stand = (1 - blackjack) * sevens_pays - blackjack
        hit = 0.0
        hit_wagered = 0.0
        double = 0.0
        double_wagered = 0.0
        for rank in range(10):
            if left[rank] == 0:
                continue
            p = left[rank] / remaining
            after = child[i, rank]
            if after < 0:
                left[rank] -= 1
                chance = _blackjack_chance(left, remaining - 1, up)
                left[rank] += 1
                hit += p * _bust(1.0, 1.0, chance, peek)
                hit_wagered += p * _wagered(1.0, 1.0, chance, peek)
                double += p * _bust(2.0, 1.0, chance, peek)
                double_wagered += p * _wagered(2.0, 1.0, chance, peek)
            else:
                hit += p * values[3, after]
                hit_wagered += p * values[4, after]
                after_total, _ = _total(hard[after], counts[after, ACE] > 0)
                double += p * _stand(after_total, 2.0, 1.0, dealer[after], peek, all_bets_lost)
                left[rank] -= 1
                chance = _blackjack_chance(left, remaining - 1, up)
                left[rank] += 1
                double_wagered += p * _wagered(2.0, 1.0, chance, peek)
        values[0, i] = stand
        values[1, i] = hit
        values[2, i] = double
        values[5, i] = double_wagered
        if total == 21 or stand >= hit:
            values[3, i] = stand
            values[4, i] = stand_wagered
        else:
            values[3, i] = hit
            values[4, i] = hit_wagered
    return values


# --------------------------------------------------------------------------------------------
# A split hand under a fixed play.
# --------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def reached(
    base: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    action: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Which hands the play ``action`` reaches from the hands ``seeds`` (drawing from
    ``base``), and which of them need the dealer's outcomes (a stand, or a double's card)."""
    size = counts.shape[0]
    reach = np.zeros(size, dtype=np.bool_)
    needs = np.zeros(size, dtype=np.bool_)
    for seed in seeds:
        reach[seed] = True
    for i in range(size - 1, -1, -1):  # smaller totals first: parents before children
        if not reach[i]:
            continue
        if action[i] in (STAND, PAID):
            needs[i] = True
        elif action[i] in (HIT, DOUBLE):
            for rank in range(10):
                after = child[i, rank]
                if after < 0 or base[rank] - counts[i, rank] <= 0:
                    continue
                if action[i] == HIT:
                    reach[after] = True
                else:
                    needs[after] = True
    return reach, needs


@numba.njit(cache=True, nogil=True)
def fixed_values(  # noqa: PLR0917
    base: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    hard: npt.NDArray[np.int64],
    cards: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    action: npt.NDArray[np.int64],
    reach: npt.NDArray[np.bool_],
    slot: npt.NDArray[np.int64],
    dealers: npt.NDArray[np.float64],
    up: int,
    original: float,
    peek: bool,
    all_bets_lost: bool,
    paid: float,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each reached hand's value and amount wagered under the play ``action`` (``PAID`` pays
    ``paid``, pushing against a dealer blackjack, but losing the original stake in a peek
    game where the round ends first); ``dealers[slot[hand]]`` the dealer's outcomes for
    ``base`` less the hand."""
    size = counts.shape[0]
    value = np.zeros(size)
    wagered = np.zeros(size)
    total_cards = base.sum()
    left = np.empty(10, dtype=np.int64)
    for i in range(size):
        if not reach[i]:
            continue
        for rank in range(10):
            left[rank] = base[rank] - counts[i, rank]
        remaining = total_cards - cards[i]
        blackjack = _blackjack_chance(left, remaining, up)
        what = action[i]
        if what == STAND:
            total, _ = _total(hard[i], counts[i, ACE] > 0)
            value[i] = _stand(total, 1.0, original, dealers[slot[i]], peek, all_bets_lost)
            wagered[i] = _wagered(1.0, original, blackjack, peek)
            continue
        if what == PAID:
            world = -original if peek else 0.0
            value[i] = (1 - blackjack) * paid + blackjack * world
            wagered[i] = _wagered(1.0, original, blackjack, peek)
            continue
        bet = 2.0 if what == DOUBLE else 1.0
        for rank in range(10):
            if left[rank] == 0:
                continue
            p = left[rank] / remaining
            after = child[i, rank]
            if after < 0:
                left[rank] -= 1
                chance = _blackjack_chance(left, remaining - 1, up)
                left[rank] += 1
                value[i] += p * _bust(bet, original, chance, peek)
                wagered[i] += p * _wagered(bet, original, chance, peek)
            elif what == HIT:
                value[i] += p * value[after]
                wagered[i] += p * wagered[after]
            else:
                after_total, _ = _total(hard[after], counts[after, ACE] > 0)
                value[i] += p * _stand(
                    after_total, 2.0, original, dealers[slot[after]], peek, all_bets_lost
                )
                left[rank] -= 1
                chance = _blackjack_chance(left, remaining - 1, up)
                left[rank] += 1
                wagered[i] += p * _wagered(2.0, original, chance, peek)
    return value, wagered


# --------------------------------------------------------------------------------------------
# A hand's outcomes jointly with the dealer's (for the round's distribution).
# --------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _put(
    matrix: npt.NDArray[np.float64], row: int, net: float, p: float, grid: npt.NDArray[np.int64]
) -> None:
    """``p`` at the net ``net`` of dealer outcome ``row``; a net between two grid points (a
    world's share of a stake) is split between them as its mean requires."""
    if p == 0.0:
        return
    scale, offset = grid[0], grid[1]
    below = np.floor(net * scale)
    if below == net * scale:
        matrix[row, int(below) + offset] += p
        return
    above = below + 1
    matrix[row, int(below) + offset] += p * (above - net * scale)
    matrix[row, int(above) + offset] += p * (net * scale - below)


@numba.njit(cache=True, nogil=True)
def hand_matrices(  # noqa: PLR0917
    base: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int64],
    hard: npt.NDArray[np.int64],
    cards: npt.NDArray[np.int64],
    child: npt.NDArray[np.int64],
    action: npt.NDArray[np.int64],
    reach: npt.NDArray[np.bool_],
    slot: npt.NDArray[np.int64],
    dealers: npt.NDArray[np.float64],
    up: int,
    original: float,
    peek: bool,
    all_bets_lost: bool,
    top: npt.NDArray[np.float64],
    paid: npt.NDArray[np.float64],
    grid: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Each reached hand's probabilities ``[dealer outcome, net]`` (nets on the grid
    ``index = net * grid[0] + grid[1]``, ``grid[2]`` points) under ``action``, as
    ``blackjack_kernel`` builds them: a busted hand's dealer outcomes are ``top`` (off the
    deal, given no blackjack) below the chance of a blackjack from the cards left.
    ``paid[hand]`` is a ``PAID`` hand's pay and ``paid[size + hand]`` its net against a
    dealer blackjack. Returns each hand's row in the matrices (-1: not reached) and the
    matrices."""
    size = counts.shape[0]
    row_of = np.full(size, -1, dtype=np.int64)
    rows = 0
    for i in range(size):
        if reach[i]:
            row_of[i] = rows
            rows += 1
    matrices = np.zeros((rows, 7, grid[2]))
    total_cards = base.sum()
    left = np.empty(10, dtype=np.int64)
    for i in range(size):
        if not reach[i]:
            continue
        matrix = matrices[row_of[i]]
        for rank in range(10):
            left[rank] = base[rank] - counts[i, rank]
        remaining = total_cards - cards[i]
        what = action[i]
        if what == STAND:
            total, _ = _total(hard[i], counts[i, ACE] > 0)
            _stand_matrix(matrix, 1.0, dealers[slot[i]], total, 1.0, original, peek,
                          all_bets_lost, grid)  # fmt: skip
            continue
        if what == PAID:
            dealer = dealers[slot[i]]
            for outcome in range(BLACKJACK):
                _put(matrix, outcome, paid[i], dealer[outcome], grid)
            _put(matrix, BLACKJACK, paid[size + i], dealer[BLACKJACK], grid)
            continue
        bet = 2.0 if what == DOUBLE else 1.0
        for rank in range(10):
            if left[rank] == 0:
                continue
            p = left[rank] / remaining
            after = child[i, rank]
            if after < 0:
                left[rank] -= 1
                chance = _blackjack_chance(left, remaining - 1, up)
                left[rank] += 1
                for outcome in range(BLACKJACK):
                    _put(matrix, outcome, -bet, p * (1 - chance) * top[outcome], grid)
                world = -original if peek else -bet
                _put(matrix, BLACKJACK, world, p * chance, grid)
            elif what == HIT:
                matrix += p * matrices[row_of[after]]
            else:
                after_total, _ = _total(hard[after], counts[after, ACE] > 0)
                _stand_matrix(matrix, p, dealers[slot[after]], after_total, 2.0, original,
                              peek, all_bets_lost, grid)  # fmt: skip
    return row_of, matrices


@numba.njit(cache=True, nogil=True)
def _stand_matrix(  # noqa: PLR0917
    matrix: npt.NDArray[np.float64],
    p: float,
    dealer: npt.NDArray[np.float64],
    total: int,
    bet: float,
    original: float,
    peek: bool,
    all_bets_lost: bool,
    grid: npt.NDArray[np.int64],
) -> None:
    for outcome in range(5):
        final = 17 + outcome
        net = bet if total > final else (-bet if total < final else 0.0)
        _put(matrix, outcome, net, p * dealer[outcome], grid)
    _put(matrix, BUST, bet, p * dealer[BUST], grid)
    world = -original if peek else (-bet if all_bets_lost else -original)
    _put(matrix, BLACKJACK, world, p * dealer[BLACKJACK], grid)


# --------------------------------------------------------------------------------------------
# The dealer's outcomes, each composition computed once per up card.
# --------------------------------------------------------------------------------------------


_SORTED_LOOKUP = 1000
"""``DealerTable``: a batch of more composition keys than this is sorted before its lookup
(below it, the sort costs more than it saves)."""


class DealerTable:
    """The dealer's outcomes for the shoe less ``removed`` cards (up card excluded), computed
    in batches (``dealer_outcomes_many``) and kept for the up card: ``table[row]``, the rows
    found by their keys (the removed counts in base 64) in a sorted array."""

    def __init__(self, shoe: npt.NDArray[np.int64], up: int, hits_soft_17: bool) -> None:
        self.shoe = shoe
        self.up = up
        self.hits_soft_17 = hits_soft_17
        self.table = np.zeros((0, 7))
        self._keys = np.zeros(0, dtype=np.int64)
        self._rows = np.zeros(0, dtype=np.int64)
        self._lock = threading.Lock()

    def _find(
        self, keys: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        position = np.searchsorted(self._keys, keys)
        if not self._keys.size:
            return position, np.zeros(keys.shape, dtype=np.bool_)
        known = self._keys[np.minimum(position, self._keys.size - 1)] == keys
        return position, known

    def slots(self, removed: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The table's row for each row of ``removed`` (computing the new ones)."""
        # Rule sets sharing the table (``up_card``) may be analysed on different threads.
        with self._lock:
            return self._slots(removed)

    def _slots(self, removed: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        # Most calls ask only for known compositions (``UpCard.prepare`` computed them in
        # one batch): those are looked up as they come, and only the unknown ones are made
        # unique and merged into the sorted keys (no re-sort of the whole table), what had
        # cost CDP1 as much as its new dealer outcomes themselves.
        keys = removed @ _KEY_WEIGHTS
        # A batch of thousands (``prepare``, the optimal values) is looked up in key order:
        # 20k keys in 18k took 1.3-1.7 ms unsorted, 0.4-0.6 ms sorted first (the sort
        # included), and these few batches were three quarters of peru-2016's lookup time.
        order = np.argsort(keys) if keys.size > _SORTED_LOOKUP else None
        ordered = keys if order is None else keys[order]
        position, known = self._find(ordered)
        if not known.all():
            missing = distinct(ordered[~known])
            counts = self.shoe - (missing[:, None] // _KEY_WEIGHTS) % _KEY_BASE
            found = dealer_outcomes_many(counts, self.up, self.hits_soft_17)
            rows = np.arange(len(self.table), len(self.table) + missing.size, dtype=np.int64)
            self.table = np.concatenate([self.table, found])
            at = np.searchsorted(self._keys, missing)
            self._keys = np.insert(self._keys, at, missing)
            self._rows = np.insert(self._rows, at, rows)
            position, _ = self._find(ordered)
        slots: npt.NDArray[np.int64] = self._rows[position]
        if order is not None:
            slots[order] = slots.copy()
        return slots

    def outcomes(self, removed: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The dealer's outcomes for each row of ``removed``."""
        slots = self.slots(removed)
        found: npt.NDArray[np.float64] = self.table[slots]
        return found


# --------------------------------------------------------------------------------------------
# The round, per up card.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """What the exact values read from a ``blackjack.Game``."""

    decks: int
    hits_soft_17: bool
    peek: bool
    all_bets_lost: bool
    blackjack_pays: float
    double_any_two: bool
    double_after_split: bool
    max_hands: int
    resplit_aces: bool
    ace_ten_is_blackjack: bool
    sevens_pays: float
    """Veintiuno Real's three 7s on the unsplit hand (0: not played)."""


@dataclass(frozen=True)
class Play:
    """A fixed play by composition: ``unsplit[hand]`` for an unsplit hand (its first
    decision on two cards, HIT or STAND after), ``split[hand]`` for a hand formed by a split
    (its first decision on its two cards); ``splits[rank]`` whether a pair of ``rank`` is
    split. The composition-dependent play is built from the values instead."""

    unsplit: npt.NDArray[np.int64]
    split: npt.NDArray[np.int64]
    splits: tuple[bool, ...]


@dataclass(frozen=True)
class UpCardValues:
    """Values of the initial hands against one up card, one original unit bet:
    ``hand[first, second]`` (first <= second) and its amount wagered; ``split[rank]`` the
    pair's value when split (NaN where not computed) and its amount wagered; ``unsplit``
    the pair's value when not split."""

    hand: npt.NDArray[np.float64]
    hand_wagered: npt.NDArray[np.float64]
    split: npt.NDArray[np.float64]
    split_wagered: npt.NDArray[np.float64]
    splits: tuple[bool, ...]


def composition_play(
    rules: Rules, values: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """CDZ-: each hand's best action as an unsplit hand of the same cards (``values`` from
    ``optimal_values``), the actions a split hand may not take left out."""
    # Vectorised over the compositions (a loop here, called per up card and, for CDP1, per
    # pair too, was a fifth of a warm CDP1 analysis): comparisons only, no arithmetic.
    table = compositions()
    is_soft = (table.counts[:, ACE] > 0) & (table.hard + 10 <= 21)
    total = np.where(is_soft, table.hard + 10, table.hard)
    stand, hit, double = values[0], values[1], values[2]
    best_single = np.where(hit > stand, HIT, STAND)
    may_double = table.cards == 2
    if not rules.double_any_two:
        may_double &= ~is_soft & (table.hard >= 9) & (table.hard <= 11)
    doubles = may_double & (double > np.where(hit > stand, hit, stand)) & (total != 21)
    unsplit = np.where(total == 21, STAND, np.where(doubles, DOUBLE, best_single))
    split = np.where(total == 21, STAND, best_single)
    if rules.double_after_split:
        split = np.where(doubles, DOUBLE, split)
    unsplit, split = unsplit.astype(np.int64), split.astype(np.int64)
    return unsplit, split


@functools.lru_cache(maxsize=256)
def _split_levels(hands: int, may_resplit: bool, pair_cards: int) -> tuple[int, ...]:
    """``UpCard._levels``: the ``j`` that ``_split_value``'s recursion visits, for a shoe
    (less the up card) holding ``pair_cards`` of the pair's rank. The same for every up card
    and strategy of the same rules, so found once (the recursion had been walked afresh
    about 150 times an analysis)."""
    found: set[int] = set()

    @functools.cache
    def visit(j: int, n: int, p: int) -> None:
        if p == 0:
            return
        found.add(j)
        visit(j, n, p - 1)
        if n < hands and may_resplit and pair_cards - (j + 2) > 0:
            visit(j + 1, n + 1, p + 1)
            visit(j + 1, n, p - 1)

    visit(0, 2, 2)
    return tuple(sorted(found))


class UpCard:
    """The computations for one up card."""

    def __init__(
        self,
        rules: Rules,
        up: int,
        shoe: npt.NDArray[np.int64] | None = None,
        dealer: DealerTable | None = None,
    ) -> None:
        """``shoe``: the cards before the up card is dealt (default: ``rules.decks`` full
        decks); ``dealer``: a table to share with another up card's computations for the
        same shoe, up card and dealer rule (``up_card``)."""
        self.rules = rules
        self.up = up
        self.table = compositions()
        self.shoe = (full_shoe(rules.decks) if shoe is None else shoe).copy()
        self.shoe[up] -= 1
        self.dealer = DealerTable(self.shoe, up, rules.hits_soft_17) if dealer is None else dealer
        self._splits: dict[tuple[int, bytes], tuple[float, float]] = {}
        self._optimal: npt.NDArray[np.float64] | None = None

    def optimal(
        self,
        base: npt.NDArray[np.int64] | None = None,
        *,
        sevens_pays: float | None = None,
        holding: int | None = None,
    ) -> npt.NDArray[np.float64]:
        """``optimal_values`` of every hand drawing from ``base`` (default: the shoe less the
        up card); ``sevens_pays`` defaults to the rules' (0: three 7s are not paid).
        ``holding``: only the hands holding a card of that rank are valued (the others are
        left at 0): a hand's value reads only the hands one card larger, which hold it too,
        so theirs are the same figures, and the dealer's outcomes are computed for fewer
        compositions."""
        if base is None and sevens_pays is None and holding is None:
            # The chart's derivation and CDZ-/CDP1's evaluation both ask for these.
            if self._optimal is None:
                self._optimal = self._optimal_values(None, None, None)
                self._optimal.setflags(write=False)
            return self._optimal
        return self._optimal_values(base, sevens_pays, holding)

    def _optimal_values(
        self,
        base: npt.NDArray[np.int64] | None,
        sevens_pays: float | None,
        holding: int | None,
    ) -> npt.NDArray[np.float64]:
        table = self.table
        shoe = self.shoe if base is None else base
        possible = np.all(table.counts <= shoe, axis=1) & (table.cards >= 2)
        if holding is not None:
            possible &= table.counts[:, holding] > 0
        dealers = np.zeros((len(table.cards), 7))
        dealers[possible] = self.dealer.outcomes(table.counts[possible] + (self.shoe - shoe))
        sevens = self.rules.sevens_pays if sevens_pays is None else sevens_pays
        values: npt.NDArray[np.float64] = optimal_values(
            shoe, table.counts, table.hard, table.cards, table.child, dealers, self.up,
            self.rules.peek, self.rules.all_bets_lost, sevens,
        )  # fmt: skip
        if holding is not None:
            values[:, ~possible] = 0.0
        return values

    def first_hand_play(self, pair: int) -> npt.NDArray[np.int64]:
        """CDP1 (Eric Farmer's name): the play of every hand split from a pair of ``pair``,
        each hand's best action for its cards as the *first* hand of the split, that is as a
        hand drawing from the shoe less the up card and the pair's other card (the next
        hand's first card); the same play for every split hand of the round, the actions a
        split hand may not take left out (a double without double after split; three 7s
        are paid only on an unsplit hand)."""
        base = self.shoe.copy()
        base[pair] -= 1
        values = self.optimal(base, sevens_pays=0.0, holding=pair)  # a split hand holds one
        _, split = composition_play(self.rules, values)
        return split

    def reach(
        self, bases: Sequence[npt.NDArray[np.int64]], action: npt.NDArray[np.int64],
        seeds: Sequence[npt.NDArray[np.int64]],
    ) -> list[tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]]:  # fmt: skip
        """For each shoe ``bases[i]`` and its hands ``seeds[i]``: which hands ``action``
        reaches, and the dealer table's row of each that needs one (0 elsewhere). The rows
        of every shoe are found in one lookup: a split's values ask for a shoe per level,
        and a lookup per level and stake had made 740 of them in peru-2016 (now 100)."""
        table = self.table
        found = []
        for base, seed in zip(bases, seeds, strict=True):
            reach, needs = reached(base, table.counts, table.child, action, seed)
            found.append((reach, np.flatnonzero(needs)))
        removed = [
            table.counts[wanted] + (self.shoe - base)
            for base, (_, wanted) in zip(bases, found, strict=True)
        ]
        rows = self.dealer.slots(np.concatenate(removed))
        result = []
        start = 0
        for reach, wanted in found:
            slot = np.zeros(len(table.cards), dtype=np.int64)
            slot[wanted] = rows[start : start + wanted.size]
            start += wanted.size
            result.append((reach, slot))
        return result

    def fixed(
        self, base: npt.NDArray[np.int64], action: npt.NDArray[np.int64],
        reach: npt.NDArray[np.bool_], slot: npt.NDArray[np.int64], original: float,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:  # fmt: skip
        """Values of the hands drawing from ``base`` under ``action`` (``reach``, ``slot``:
        as ``reach`` found them)."""
        table = self.table
        return fixed_values(
            base, table.counts, table.hard, table.cards, table.child, action, reach, slot,
            self.dealer.table, self.up, original, self.rules.peek, self.rules.all_bets_lost,
            self.rules.blackjack_pays,
        )  # fmt: skip

    def matrices(  # noqa: PLR0917
        self, base: npt.NDArray[np.int64], action: npt.NDArray[np.int64],
        seeds: npt.NDArray[np.int64], originals: Sequence[float],
        paids: Sequence[npt.NDArray[np.float64]], grid: npt.NDArray[np.int64],
    ) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]]:  # fmt: skip
        """``hand_matrices`` of the hands ``seeds`` drawing from ``base``, for each original
        stake ``originals[i]`` and paid hands ``paids[i]`` (a split hand's with and without
        the original stake share the hands reached): (row of each hand, the matrices, each
        hand's amount wagered)."""
        table = self.table
        [(reach, slot)] = self.reach([base], action, [seeds])
        top = self.dealer.outcomes(np.zeros((1, 10), dtype=np.int64))[0]
        no_blackjack = 1 - top[BLACKJACK]
        top = top / no_blackjack if no_blackjack > 0 else top
        found = []
        for original, paid in zip(originals, paids, strict=True):
            rows, matrices = hand_matrices(
                base, table.counts, table.hard, table.cards, table.child, action, reach, slot,
                self.dealer.table, self.up, original, self.rules.peek,
                self.rules.all_bets_lost, top, paid, grid,
            )  # fmt: skip
            _, wagered = self.fixed(base, action, reach, slot, original)
            found.append((rows, matrices, wagered))
        return found

    def _levels(self, card: int) -> tuple[int, ...]:
        """The ``j`` (more pair cards out) whose shoes the split of ``card`` needs."""
        may_resplit = card != ACE or self.rules.resplit_aces
        return _split_levels(self.rules.max_hands, may_resplit, int(self.shoe[card]))

    def prepare(self, cards: Sequence[int], action: npt.NDArray[np.int64]) -> None:
        """Compute at once the dealer's outcomes that splitting each of ``cards`` will need
        (one batch runs much faster than many small ones)."""
        self.prepare_plays(dict.fromkeys(cards, action))

    def prepare_plays(self, plays: dict[int, npt.NDArray[np.int64]]) -> None:
        """``prepare`` with each pair's split hands played their own way."""
        table = self.table
        wanted = []
        for card, action in plays.items():
            if (card, action.tobytes()) in self._splits:
                # Valued already (the chart's derivation, then the round under that chart):
                # its dealer's outcomes are in the table, their lookup would find nothing new.
                continue
            played = self.split_action(card, action)
            seeds = np.array([table.of(card, rank) for rank in range(10)], dtype=np.int64)
            for j in self._levels(card):
                base = self.shoe.copy()
                base[card] -= j + 1
                if base[card] < 1:
                    continue
                _, needs = reached(base, table.counts, table.child, played, seeds)
                wanted.append(table.counts[needs] + (self.shoe - base))
        if wanted:
            self.dealer.slots(np.concatenate(wanted))

    def split_action(self, card: int, action: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        if card != ACE:
            return action
        # Split Aces take one card each (Peru Art. 11); Ace + ten may be a blackjack.
        table = self.table
        aces = np.full(len(table.cards), STAND, dtype=np.int64)
        if self.rules.ace_ten_is_blackjack:
            aces[table.of(ACE, TEN)] = PAID
        return aces

    def split_value(self, card: int, split_action: npt.NDArray[np.int64]) -> tuple[float, float]:
        """The exact value and amount wagered of splitting a pair of ``card`` (module
        docstring), each split hand played by ``split_action`` (kept for the next call)."""
        key = (card, split_action.tobytes())
        if key not in self._splits:
            self._splits[key] = self._split_value(card, split_action)
        return self._splits[key]

    def _split_value(self, card: int, split_action: npt.NDArray[np.int64]) -> tuple[float, float]:
        rules = self.rules
        table = self.table
        may_resplit = card != ACE or rules.resplit_aces
        hands = rules.max_hands
        action = self.split_action(card, split_action)
        # Only OBO with an unchecked hole card tells the first hand from the others.
        distinct_first = not rules.peek and not rules.all_bets_lost
        seeds = np.array([table.of(card, rank) for rank in range(10)], dtype=np.int64)

        # Every level's shoe and hands at once (``reach``), whichever stakes its hands carry.
        levels = self._levels(card)
        bases, shoes = [], []
        for j in levels:
            base = self.shoe.copy()
            base[card] -= j + 1
            shoe = base.copy()
            shoe[card] -= 1
            bases.append(base)
            shoes.append(shoe)
        reaches = self.reach(bases, action, [seeds[shoe > 0] for shoe in shoes])
        at_level = dict(zip(levels, zip(bases, shoes, reaches, strict=True), strict=True))

        @functools.cache
        def second_cards(j: int, first: bool) -> tuple[float, float, float, float]:
            """(A_j, B_j) and their amounts wagered."""
            base, shoe, (reach, slot) = at_level[j]
            cards = shoe.sum()
            original = 1.0 if first else 0.0
            value, wagered = self.fixed(base, action, reach, slot, original)
            other = other_wagered = every = every_wagered = 0.0
            for rank in range(10):
                if shoe[rank] <= 0:
                    continue
                p = shoe[rank] / cards
                v, w = p * value[seeds[rank]], p * wagered[seeds[rank]]
                every += v
                every_wagered += w
                if rank != card:
                    other += v
                    other_wagered += w
            return other, every, other_wagered, every_wagered

        @functools.cache
        def rest(j: int, n: int, p: int, first: bool) -> tuple[float, float]:
            if p == 0:
                return 0.0, 0.0
            later_value, later_wagered = rest(j, n, p - 1, False)
            other, every, other_wagered, every_wagered = second_cards(j, first and distinct_first)
            if n < hands and may_resplit:
                shoe = self.shoe.copy()
                shoe[card] -= j + 2
                pair = shoe[card] / shoe.sum() if shoe[card] > 0 else 0.0
                value = other + later_value
                wagered = other_wagered + later_wagered
                if pair > 0:
                    split_value, split_wagered = rest(j + 1, n + 1, p + 1, first)
                    closed_value, closed_wagered = rest(j + 1, n, p - 1, False)
                    value += pair * (split_value - closed_value)
                    wagered += pair * (split_wagered - closed_wagered)
                return value, wagered
            return every + later_value, every_wagered + later_wagered

        value, wagered = rest(0, 2, 2, True)
        if rules.peek:
            shoe = self.shoe.copy()
            shoe[card] -= 2
            blackjack = _chance(shoe, self.up)
            value -= blackjack
            wagered += blackjack
        return value, wagered


@functools.lru_cache(maxsize=64)
def up_card(rules: Rules, up: int) -> UpCard:
    """The computations for one up card, kept (with their dealer table) while the same rules
    are analysed. The dealer's outcomes depend only on the shoe, the up card and whether the
    dealer hits a soft 17, so every set of rules sharing those shares one dealer table (that
    of ``_dealer_rules``): Veintiuno Real's chart is derived without the three 7s' bonus
    and valued with it, and recomputed each of the few thousand compositions a second time
    (a fifth of its analysis) while its tables were apart; ``--rule-effects`` analyses
    sixteen rule sets on the same shoe."""
    dealer_rules = _dealer_rules(rules)
    if rules == dealer_rules:
        return UpCard(rules, up)
    return UpCard(rules, up, dealer=up_card(dealer_rules, up).dealer)


def _dealer_rules(rules: Rules) -> Rules:
    """The one set of rules that stands for every set with the same dealer (``up_card``)."""
    return Rules(
        decks=rules.decks,
        hits_soft_17=rules.hits_soft_17,
        peek=False,
        all_bets_lost=False,
        blackjack_pays=1.5,
        double_any_two=True,
        double_after_split=True,
        max_hands=1,
        resplit_aces=False,
        ace_ten_is_blackjack=False,
        sevens_pays=0.0,
    )


def _chance(shoe: npt.NDArray[np.int64], up: int) -> float:
    cards = int(shoe.sum())
    if up == ACE:
        return float(shoe[TEN]) / cards
    if up == TEN:
        return float(shoe[ACE]) / cards
    return 0.0


ProgressCallback = Callable[[], None]


def chart_split_play(
    rules: Rules, hard: npt.NDArray[np.int64], soft: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """A split hand's play by the total-dependent chart: ``hard[total]``/``soft[total]`` as
    ``blackjack_kernel`` codes (HIT, STAND, DOUBLE = double else hit, DOUBLE_ELSE_STAND = 3),
    doubling on two cards only and only if the rules allow it after a split."""
    table = compositions()
    is_soft = (table.counts[:, ACE] > 0) & (table.hard + 10 <= 21)
    total = np.where(is_soft, table.hard + 10, table.hard)
    letter = np.where(is_soft, soft[np.minimum(total, 21)], hard[np.clip(total, 5, 21)])
    doubles = (table.cards == 2) & rules.double_after_split
    if not rules.double_any_two:
        doubles &= ~is_soft & (table.hard >= 9) & (table.hard <= 11)
    wants_double = (letter == DOUBLE) | (letter == 3)
    # A double not allowed here: "D" hits, "Ds" stands.
    action = np.where(letter == DOUBLE, HIT, np.where(letter == 3, STAND, letter))
    action = np.where(wants_double & doubles, DOUBLE, action)
    action = np.where(total >= 21, STAND, action)
    result: npt.NDArray[np.int64] = action.astype(np.int64)
    return result


@dataclass(frozen=True)
class ExactRound:
    """A round's exact expected net per initial unit and expected amount wagered."""

    expected_value: float
    expected_wagered: float
    split_probability: float


def initial_hands(shoe: npt.NDArray[np.int64], up: int) -> list[tuple[int, int, float]]:
    """Each initial two-card hand (first <= second) with ``up``, and its probability."""
    total_cards = int(shoe.sum())
    hands = []
    for first in range(10):
        for second in range(first, 10):
            counts = shoe.copy()
            weight = float(counts[first])
            counts[first] -= 1
            weight *= counts[up]
            counts[up] -= 1
            weight *= counts[second]
            if weight == 0:
                continue
            probability = weight / (total_cards * (total_cards - 1) * (total_cards - 2))
            if first != second:
                probability *= 2
            hands.append((first, second, probability))
    return hands


def composition_up_card(rules: Rules, up: int) -> tuple[float, float, float]:
    """Against ``up``: the sum over initial hands of probability times value, times amount
    wagered, and the probability of a split, under CDZ-."""
    card = up_card(rules, up)
    values = card.optimal()
    unsplit, split = composition_play(rules, values)
    if rules.max_hands >= 2:
        card.prepare(range(10), split)
    table = card.table
    full = full_shoe(rules.decks)
    value_sum = wagered_sum = split_probability = 0.0
    for first, second, probability in initial_hands(full, up):
        hand = table.of(first, second)
        if first == ACE and second == TEN:
            left = card.shoe.copy()
            left[ACE] -= 1
            left[TEN] -= 1
            blackjack = _chance(left, up)
            value, wagered = (1 - blackjack) * rules.blackjack_pays, 1.0
        else:
            if unsplit[hand] == DOUBLE:
                value, wagered = values[2, hand], values[5, hand]
            else:
                value, wagered = values[3, hand], values[4, hand]
            if first == second and rules.max_hands >= 2:
                split_value, split_wagered = card.split_value(first, split)
                if split_value > value:
                    value, wagered = split_value, split_wagered
                    split_probability += probability
        value_sum += probability * value
        wagered_sum += probability * wagered
    return value_sum, wagered_sum, split_probability


def composition_round(rules: Rules) -> ExactRound:
    """The round off the top under the composition-dependent strategy CDZ-."""
    value = wagered = splits = 0.0
    for up in range(10):
        v, w, s = composition_up_card(rules, up)
        value += v
        wagered += w
        splits += s
    return ExactRound(value, wagered, splits)


def chart_split_values(
    rules: Rules,
    up: int,
    hard: npt.NDArray[np.int64],
    soft: npt.NDArray[np.int64],
    cards: tuple[int, ...],
) -> dict[int, tuple[float, float]]:
    """The exact value and amount wagered of splitting each pair of ``cards`` against ``up``,
    the split hands played by the chart."""
    card = UpCard(rules, up)
    action = chart_split_play(rules, hard, soft)
    return {pair: card.split_value(pair, action) for pair in cards}
