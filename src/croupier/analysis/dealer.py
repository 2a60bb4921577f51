"""The dealer's final-total probabilities over a finite shoe, by rank composition (numba).

Ranks are indexed 0..9 for A, 2, ..., 9 and ten-valued cards (value = index + 1). Given the
cards left in the shoe (the dealer's up card and every seen card already removed), the
dealer's hole card or second card is the next card drawn: by exchangeability of the unseen
cards, the probabilities are the same whether that card was dealt face down before the
players drew (``hole_card = dealt``/``peek``) or is drawn after them (``none``).

The result is a vector of seven probabilities: final 17, 18, 19, 20, 21, bust, and a dealer
blackjack (index 6, only possible under an Ace or a ten-valued up card). The recursion walks
every ordered sequence of draws (each path's probability is exact for that composition).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

ACE = 0
TEN = 9
OUTCOMES = 7
BUST = 5
BLACKJACK = 6
OUTCOME_LABELS = ("17", "18", "19", "20", "21", "bust", "blackjack")


@numba.njit(cache=True)
def _draw(  # noqa: PLR0917
    counts: npt.NDArray[np.int64],
    remaining: int,
    hard_sum: int,
    has_ace: bool,
    probability: float,
    hits_soft_17: bool,
    out: npt.NDArray[np.float64],
) -> int:
    for rank in range(10):
        count = counts[rank]
        if count == 0:
            continue
        p = probability * count / remaining
        hard = hard_sum + rank + 1
        ace = has_ace or rank == ACE
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            out[BUST] += p
        elif total >= 17 and not (total == 17 and soft and hits_soft_17):
            out[total - 17] += p
        else:
            counts[rank] -= 1
            _draw(counts, remaining - 1, hard, ace, p, hits_soft_17, out)
            counts[rank] += 1
    return 0


@numba.njit(cache=True)
def dealer_outcomes(
    counts: npt.NDArray[np.int64], up: int, hits_soft_17: bool
) -> npt.NDArray[np.float64]:
    """Probabilities of the dealer's final result; ``counts`` excludes the up card."""
    out = np.zeros(OUTCOMES)
    work = counts.copy()
    remaining = work.sum()
    for rank in range(10):
        count = work[rank]
        if count == 0:
            continue
        p = count / remaining
        if (up == ACE and rank == TEN) or (up == TEN and rank == ACE):
            out[BLACKJACK] += p
            continue
        hard = up + rank + 2
        ace = up == ACE or rank == ACE  # noqa: PLR1714 - numba
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            out[BUST] += p
        elif total >= 17 and not (total == 17 and soft and hits_soft_17):
            out[total - 17] += p
        else:
            work[rank] -= 1
            _draw(work, remaining - 1, hard, ace, p, hits_soft_17, out)
            work[rank] += 1
    return out


@numba.njit(cache=True, parallel=True)
def dealer_outcomes_batch(
    shoe: npt.NDArray[np.int64],
    removed: npt.NDArray[np.int64],
    ups: npt.NDArray[np.int64],
    hits_soft_17: bool,
) -> npt.NDArray[np.float64]:
    """``dealer_outcomes`` for many compositions at once (``shoe - removed[i] - ups[i]``)."""
    out = np.empty((removed.shape[0], OUTCOMES))
    for i in numba.prange(removed.shape[0]):
        counts = shoe - removed[i]
        counts[ups[i]] -= 1
        out[i] = dealer_outcomes(counts, ups[i], hits_soft_17)
    return out


def full_shoe(decks: int) -> npt.NDArray[np.int64]:
    counts = np.full(10, 4 * decks, dtype=np.int64)
    counts[TEN] = 16 * decks
    return counts


DEALER_DEPTH = 24
"""More cards than a dealer can draw after the up card (at most 16: hard totals rise by one
card at a time from 1 to 16, and one more)."""


def _results(
    up: int,
    hard: npt.NDArray[np.int64],
    has_ace: npt.NDArray[np.bool_],
    first: npt.NDArray[np.int64] | None,
    hits_soft_17: bool,
) -> npt.NDArray[np.int64]:
    """The dealer's result (an index of ``OUTCOME_LABELS``) holding ``up`` and cards of a
    ``hard`` total in all, each (``first``: the one card drawn, None after more), or -1
    while the dealer draws on."""
    soft = has_ace & (hard + 10 <= 21)
    total = np.where(soft, hard + 10, hard)
    stands = (total >= 17) & ~((total == 17) & soft & hits_soft_17)
    result = np.where(total > 21, BUST, np.where(stands, total - 17, -1))
    if first is not None:  # a natural is the first card only
        natural = ((up == ACE) & (first == TEN)) | ((up == TEN) & (first == ACE))
        result = np.where(natural, BLACKJACK, result)
    return result


_HAND_KEY = 32 ** np.arange(10, dtype=np.int64)
"""A multiset of drawn cards as one integer (counts by rank in base 32: a dealer draws at
most 16 of a rank)."""


@dataclass(frozen=True)
class DealerHands:
    """Every hand the dealer can finish with under ``up`` (the cards drawn after it, as a
    multiset), laid out as a tree for ``dealer_outcomes_many``.

    Every ordered draw of the same cards has the same chance from any shoe (the product of
    each rank's falling counts over the falling number of cards), so the dealer's outcomes
    are a sum over finished multisets of that chance times ``ways``: how many of the
    multiset's orders the dealer actually draws (each card drawn while the cards before it
    left the dealer drawing; a natural ends at the first card). These ways depend on the up
    card and the soft-17 rule only, not on the shoe. Under a 2 up there are 2,037 finished
    multisets (2,454 nodes below) against 18,721 draw sequences (20,800 draws), which the
    walk by sequence it replaced took for every composition: the command's dealer outcomes
    cost a seventh of what they did, and are closer to the exact fractions (the rounded
    ratios multiplied along a 16-card path had drifted by up to 4.5e-15).

    The multisets are the leaves and inner nodes of a tree in depth-first order, each node
    one card more than its parent (ranks in rising order): ``rank[node]`` that card,
    ``repeat[node]`` how many of that rank the parent already holds, ``depth[node]`` the
    node's cards less one; ``result[node]`` the dealer's result on a finished multiset (-1
    at a node that only leads to others) and ``ways[node]`` its orders."""

    rank: npt.NDArray[np.int64]
    repeat: npt.NDArray[np.float64]
    depth: npt.NDArray[np.int64]
    result: npt.NDArray[np.int64]
    ways: npt.NDArray[np.float64]


@functools.cache
def dealer_hands(up: int, hits_soft_17: bool) -> DealerHands:
    """The tree of ``DealerHands`` for this up card and soft-17 rule."""
    # Orders by which the dealer draws a multiset and is still drawing after it, one more
    # card at a time, from the empty one: an order of a multiset is one of the multiset less
    # its last card, then that card. A dealer still drawing holds a hard total of at most 16.
    # Each level's multisets (counts by rank) in arrays, with their orders, hard total and
    # whether they hold an Ace (the up card too): numpy, since the same walk over Python
    # tuples and dictionaries was 45 ms of a warm command, under the interpreter's lock.
    drawing = np.zeros((1, 10), dtype=np.int64)
    orders = np.ones(1, dtype=np.int64)
    hard = np.array([up + 1], dtype=np.int64)
    has_ace = np.array([up == ACE])
    done_cards, done_orders, done_results = [], [], []
    level = 0
    while drawing.size:
        card = np.tile(np.arange(10, dtype=np.int64), len(drawing))
        more = np.repeat(drawing, 10, axis=0)
        more[np.arange(len(more)), card] += 1
        more_orders = np.repeat(orders, 10)
        more_hard = np.repeat(hard, 10) + card + 1
        more_ace = np.repeat(has_ace, 10) | (card == ACE)
        ends = _results(up, more_hard, more_ace, card if level == 0 else None, hits_soft_17)
        keys = more @ _HAND_KEY
        for finished in (True, False):
            chosen = (ends >= 0) == finished
            _, first, inverse = np.unique(keys[chosen], return_index=True, return_inverse=True)
            summed = np.zeros(first.size, dtype=np.int64)
            np.add.at(summed, inverse, more_orders[chosen])
            if finished:
                done_cards.append(more[chosen][first])
                done_orders.append(summed)
                done_results.append(ends[chosen][first])
            else:
                drawing, orders = more[chosen][first], summed
                hard, has_ace = more_hard[chosen][first], more_ace[chosen][first]
        level += 1
    return _tree(
        np.concatenate(done_cards), np.concatenate(done_orders), np.concatenate(done_results)
    )


def _tree(
    counts: npt.NDArray[np.int64], orders: npt.NDArray[np.int64], results: npt.NDArray[np.int64]
) -> DealerHands:
    """The finished multisets (``counts`` by rank, with their orders and results) as the
    tree of ``DealerHands``: each multiset as its cards in rising rank order, these
    sequences in lexicographic order, each sequence's nodes from where it leaves the one
    before it."""
    levels = np.arange(DEALER_DEPTH)
    ends_at = counts.cumsum(axis=1)
    size = ends_at[:, -1]
    # ranks + 1 along each sequence, 0 past its end: a shorter sequence sorts first
    code = (ends_at[:, :, None] <= levels).sum(axis=1) + 1
    code[levels >= size[:, None]] = 0
    order = np.lexsort(code.T[::-1])
    code, size = code[order], size[order]
    shared = np.zeros(len(code), dtype=np.int64)
    shared[1:] = (code[1:] != code[:-1]).argmax(axis=1)
    row, level = np.nonzero((levels >= shared[:, None]) & (levels < size[:, None]))
    # the ranks rise along the path: the same rank held is the run just before
    run_starts = np.ones(code.shape, dtype=np.bool_)
    run_starts[:, 1:] = code[:, 1:] != code[:, :-1]
    run_start = np.maximum.accumulate(np.where(run_starts, levels, 0), axis=1)
    last = np.cumsum(size - shared) - 1
    result = np.full(row.size, -1, dtype=np.int64)
    result[last] = results[order]
    ways = np.zeros(row.size)
    ways[last] = orders[order]
    return DealerHands(
        rank=code[row, level] - 1,
        repeat=(level - run_start[row, level]).astype(np.float64),
        depth=level.astype(np.int64),
        result=result,
        ways=ways,
    )


_LANES = 256
"""Compositions walked together through the tree: their counts, the chances along the
tree's path and their sums stay in the core's cache (about 300 KB)."""


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _hands_block(  # noqa: PLR0917
    counts: npt.NDArray[np.int64],
    start: int,
    stop: int,
    rank: npt.NDArray[np.int64],
    repeat: npt.NDArray[np.float64],
    depth: npt.NDArray[np.int64],
    result: npt.NDArray[np.int64],
    ways: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> int:
    """``out[start:stop]``: the dealer's outcomes for those rows of ``counts``, one pass over
    the tree of finished hands for all of them (the inner loops vectorised).

    ``error_model="numpy"``: no check per division (there are only ``DEALER_DEPTH`` per row)."""
    lanes = stop - start
    work = np.empty((10, lanes))
    inverse = np.zeros((DEALER_DEPTH, lanes))
    for lane in range(lanes):
        cards = 0.0
        for card in range(10):
            work[card, lane] = counts[start + lane, card]
            cards += counts[start + lane, card]
        # 1 / (cards (cards - 1) ... (cards - size)): an ordered draw of size + 1 cards
        falling = 1.0
        for size in range(DEALER_DEPTH):
            falling *= cards - size
            if falling > 0.0:
                inverse[size, lane] = 1.0 / falling
    # path[level]: the product of the falling counts of the node's cards at that level
    path = np.empty((DEALER_DEPTH, lanes))
    sums = np.zeros((OUTCOMES, lanes))
    for node in range(rank.size):
        level = depth[node]
        left = work[rank[node]]
        taken = repeat[node]
        here = path[level]
        if level == 0:
            for lane in range(lanes):
                here[lane] = left[lane]
        else:
            parent = path[level - 1]
            for lane in range(lanes):
                # a count run out gives 0 (then the path's product stays 0, never negative)
                here[lane] = parent[lane] * (left[lane] - taken)
        final = result[node]
        if final >= 0:
            orders = ways[node]
            total = sums[final]
            chance = inverse[level]
            for lane in range(lanes):
                total[lane] += orders * here[lane] * chance[lane]
    for lane in range(lanes):
        for outcome in range(OUTCOMES):
            out[start + lane, outcome] = sums[outcome, lane]
    return 0


@numba.njit(cache=True, nogil=True)
def _hands_many(  # noqa: PLR0917
    counts: npt.NDArray[np.int64],
    rank: npt.NDArray[np.int64],
    repeat: npt.NDArray[np.float64],
    depth: npt.NDArray[np.int64],
    result: npt.NDArray[np.int64],
    ways: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    rows = counts.shape[0]
    out = np.empty((rows, OUTCOMES))
    for start in range(0, rows, _LANES):
        stop = min(start + _LANES, rows)
        _hands_block(counts, start, stop, rank, repeat, depth, result, ways, out)
    return out


def dealer_outcomes_many(
    counts: npt.NDArray[np.int64], up: int, hits_soft_17: bool
) -> npt.NDArray[np.float64]:
    """``dealer_outcomes(counts[i], up, hits_soft_17)`` for every row ``i``, summed by the
    dealer's finished hands (``DealerHands``) instead of by draw sequence: the same exact
    sum of products in another order and grouping, so equal to ``dealer_outcomes`` to a few
    units in the last place (within 1e-14; the Farmer oracles hold to 1e-9), and each row's
    figures do not depend on the other rows of the call (the dealer table's batches)."""
    hands = dealer_hands(up, bool(hits_soft_17))
    return _hands_many(counts, hands.rank, hands.repeat, hands.depth, hands.result, hands.ways)
