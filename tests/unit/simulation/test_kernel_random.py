"""The simulator's in-kernel stream: reproducible from its seed and uniform where it draws."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit
from scipy.stats import chisquare

from croupier.simulation.kernel_random import next_word, shuffle, state_of, uniform_below


class Seed:
    def __init__(self, *words: int) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: type) -> npt.NDArray[np.uint64]:
        return np.array(self.words[:n_words], dtype=dtype)


@njit(cache=True)
def _draws(state: npt.NDArray[np.uint64], n: int, count: int) -> npt.NDArray[np.int64]:
    out = np.empty(count, dtype=np.int64)
    for i in range(count):
        out[i] = uniform_below(state, n)
    return out


@njit(cache=True)
def _words(state: npt.NDArray[np.uint64], count: int) -> npt.NDArray[np.uint64]:
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i] = next_word(state)
    return out


@njit(cache=True)
def _first_positions(state: npt.NDArray[np.uint64], n: int, count: int) -> npt.NDArray[np.int64]:
    seen = np.zeros((n, n), dtype=np.int64)
    cards = np.arange(n)
    for _ in range(count):
        shuffle(state, cards)
        for position in range(n):
            seen[position, cards[position]] += 1
    return seen


def test_xoroshiro128_plus_plus_published_recurrence() -> None:
    """From state (1, 2): s0 + s1 = 3, rotl(3, 17) + 1 = 393217 (Blackman and Vigna)."""
    assert int(_words(state_of(Seed(1, 2)), 1)[0]) == (3 << 17) + 1


def test_a_zero_seed_is_moved_off_the_fixed_point() -> None:
    assert state_of(Seed(0, 0)).tolist() == [1, 0]
    assert len(set(_words(state_of(Seed(0, 0)), 100).tolist())) == 100


def test_the_same_seed_gives_the_same_stream() -> None:
    assert _draws(state_of(Seed(5, 9)), 416, 50).tolist() == (
        _draws(state_of(Seed(5, 9)), 416, 50).tolist()
    )
    assert _draws(state_of(Seed(5, 9)), 416, 50).tolist() != (
        _draws(state_of(Seed(5, 10)), 416, 50).tolist()
    )


def test_uniform_below_is_uniform() -> None:
    draws = _draws(state_of(Seed(3, 4)), 13, 260_000)
    counts = np.bincount(draws, minlength=13)
    assert counts.sum() == 260_000 and draws.min() == 0 and draws.max() == 12
    assert chisquare(counts).pvalue > 1e-4


def test_the_shuffle_puts_every_card_anywhere_evenly() -> None:
    seen = _first_positions(state_of(Seed(8, 8)), 8, 80_000)
    assert chisquare(seen.ravel()).pvalue > 1e-4
