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


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _lanes(  # noqa: PLR0917
    target: npt.NDArray[np.float64],
    accumulate: bool,
    before: npt.NDArray[np.float64],
    counts: npt.NDArray[np.float64],
    drawn: float,
    remaining: npt.NDArray[np.float64],
    removed: float,
) -> int:
    """One draw for every composition (lane): ``before * count / left`` where the rank is
    left (0 elsewhere), added to or stored in ``target``; how many lanes are alive.

    ``error_model="numpy"``: a dead lane may divide by zero, its result is then discarded;
    without it numba checks each division, which stops it vectorising the loop."""
    alive = 0
    for lane in range(target.size):
        count = counts[lane] - drawn
        left = remaining[lane] - removed
        probability = before[lane]
        value = probability * count / left
        live = (count > 0.0) & (probability > 0.0)
        value = value if live else 0.0
        if accumulate:
            target[lane] += value
        else:
            target[lane] = value
        alive += live
    return alive


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _first_lanes(
    target: npt.NDArray[np.float64],
    accumulate: bool,
    counts: npt.NDArray[np.float64],
    remaining: npt.NDArray[np.float64],
) -> int:
    """The dealer's second card for every lane: ``count / remaining`` (see ``_lanes``)."""
    alive = 0
    for lane in range(target.size):
        count = counts[lane]
        value = count / remaining[lane]
        live = count > 0.0
        value = value if live else 0.0
        if accumulate:
            target[lane] += value
        else:
            target[lane] = value
        alive += live
    return alive


@numba.njit(cache=True, nogil=True, error_model="numpy")
def dealer_outcomes_many(
    counts: npt.NDArray[np.int64], up: int, hits_soft_17: bool
) -> npt.NDArray[np.float64]:
    """``dealer_outcomes(counts[i], up, hits_soft_17)`` for every row ``i``, bit for bit.

    The rows (lanes) are walked together, one draw sequence at a time over all of them, so
    the inner loop is vectorised. The counts are held as floats (exact integers): a card's
    count on a path is the lane's count less the cards of that rank the path has drawn, the
    same for every lane. A lane that has run out of a rank on the path gets probability 0
    there, which adds +0.0 to its sums and so leaves them exactly as the one-row recursion
    leaves them; every other term is the same product and quotient in the same order.
    """
    lanes = counts.shape[0]
    work = np.empty((10, lanes))
    remaining = np.zeros(lanes)
    for lane in range(lanes):
        for rank in range(10):
            work[rank, lane] = counts[lane, rank]
            remaining[lane] += counts[lane, rank]
    out = np.zeros((OUTCOMES, lanes))
    probability = np.empty((DEALER_DEPTH, lanes))
    frame_hard = np.empty(DEALER_DEPTH, dtype=np.int64)
    frame_ace = np.empty(DEALER_DEPTH, dtype=np.bool_)
    frame_rank = np.empty(DEALER_DEPTH, dtype=np.int64)
    drawn = np.zeros(10)
    for first in range(10):
        if (up == ACE and first == TEN) or (up == TEN and first == ACE):
            _first_lanes(out[BLACKJACK], True, work[first], remaining)
            continue
        hard = up + first + 2
        ace = up == ACE or first == ACE  # noqa: PLR1714 - numba
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            _first_lanes(out[BUST], True, work[first], remaining)
            continue
        if total >= 17 and not (total == 17 and soft and hits_soft_17):
            _first_lanes(out[total - 17], True, work[first], remaining)
            continue
        if _first_lanes(probability[0], False, work[first], remaining) == 0:
            continue
        drawn[first] += 1
        cards = 1.0
        depth = 0
        frame_hard[0] = hard
        frame_ace[0] = ace
        frame_rank[0] = 0
        while depth >= 0:
            rank = frame_rank[depth]
            if rank == 10:
                depth -= 1
                if depth >= 0:
                    drawn[frame_rank[depth]] -= 1
                    cards -= 1
                    frame_rank[depth] += 1
                continue
            frame_rank[depth] = rank + 1
            hard = frame_hard[depth] + rank + 1
            ace = frame_ace[depth] or rank == ACE
            soft = ace and hard + 10 <= 21
            total = hard + 10 if soft else hard
            before = probability[depth]
            if total > 21:
                _lanes(out[BUST], True, before, work[rank], drawn[rank], remaining, cards)
            elif total >= 17 and not (total == 17 and soft and hits_soft_17):
                _lanes(out[total - 17], True, before, work[rank], drawn[rank], remaining, cards)
            elif (
                _lanes(
                    probability[depth + 1], False, before, work[rank], drawn[rank], remaining, cards
                )
                > 0
            ):
                # Draw on: the child's probabilities are in place; resume here after it.
                frame_rank[depth] = rank
                drawn[rank] += 1
                cards += 1
                depth += 1
                frame_hard[depth] = hard
                frame_ace[depth] = ace
                frame_rank[depth] = 0
        drawn[first] -= 1
    result: npt.NDArray[np.float64] = out.T.copy()
    return result
