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
