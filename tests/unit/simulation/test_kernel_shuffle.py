"""The simulator's in-kernel shuffle is uniform (RELIABILITY R3's chi-square, run on the
compiled Fisher-Yates that takes two positions from each 64-bit draw): every order of a
small deck (odd and even sizes, so that the pairing and its last odd step are both seen)
and the position x card table of a 52-card deck. Seeded, so each p-value is fixed; a biased
shuffle drives them to 0 (the naive shuffle fails the same check in
tests/reliability/test_r03_shuffle_uniformity.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit
from scipy.stats import chi2

from croupier.simulation.blackjack_kernel import shuffle


@njit  # not cached: a cached caller would keep an old shuffle (STACK.md pitfall)
def _orders(size: int, trials: int, state: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    out = np.empty((trials, size), dtype=np.int8)
    deck = np.empty(size, dtype=np.int8)
    for t in range(trials):
        for i in range(size):
            deck[i] = i
        shuffle(deck, state)
        out[t] = deck
    return out


def _state(seed: int) -> np.ndarray:  # type: ignore[type-arg]
    return np.random.SeedSequence(seed).generate_state(4, np.uint64)


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_every_order_equally_likely(size: int) -> None:
    trials = 2_000 * len(list(itertools.permutations(range(size))))
    orders = _orders(size, trials, _state(size))
    index = {order: i for i, order in enumerate(itertools.permutations(range(size)))}
    counts = np.zeros(len(index))
    for row in orders.tolist():
        counts[index[tuple(row)]] += 1
    expected = trials / len(index)
    statistic = ((counts - expected) ** 2 / expected).sum()
    assert chi2.sf(statistic, len(index) - 1) > 1e-3


def test_position_by_card_on_a_deck() -> None:
    trials = 100_000
    orders = _orders(52, trials, _state(52)).astype(np.int64)
    counts = np.zeros((52, 52))
    for position in range(52):
        counts[position] = np.bincount(orders[:, position], minlength=52)
    expected = trials / 52
    statistic = ((counts - expected) ** 2 / expected).sum()
    assert chi2.sf(statistic, 51 * 51) > 1e-3
