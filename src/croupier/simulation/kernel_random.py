"""The simulator's random stream inside compiled kernels: xoroshiro128++ seeded from a
``SeedSequence``.

Simulation only: a live outcome never comes from here (R1; live shoes use the OS source in
``croupier.randomness``). A block's stream is two 64-bit words drawn from the block's
``SeedSequence`` (``generate_state(2, uint64)``), so that a block's result depends only on
its seed. ``uniform_below`` is exact (Lemire's multiply-and-shift on 32 bits with its
rejection step), so the kernels' Fisher-Yates shuffles are unbiased.

xoroshiro128++ is Blackman and Vigna's generator ("Scrambled linear pseudorandom number
generators", ACM TOMS 47, 2021; https://prng.di.unimi.it/), written here from its published
recurrence.

>>> class Seed:  # anything with ``generate_state`` will do (a ``SeedSequence`` in practice)
...     def generate_state(self, n_words: int, dtype: type) -> npt.NDArray[np.uint64]:
...         return np.arange(1, n_words + 1, dtype=dtype)
>>> state = state_of(Seed())
>>> draws = [uniform_below(state, 6) for _ in range(1000)]
>>> min(draws), max(draws)
(0, 5)
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from numba import njit


class SeedStream(Protocol):
    """What the kernels need of a ``numpy.random.SeedSequence`` (named structurally: the
    package never imports ``numpy.random``, R1)."""

    def generate_state(self, n_words: int, dtype: Any) -> npt.NDArray[Any]: ...


def state_of(seed: SeedStream) -> npt.NDArray[np.uint64]:
    """The generator's two words from ``seed`` (never both zero: that state is a fixed point)."""
    words = np.asarray(seed.generate_state(2, np.uint64), dtype=np.uint64).copy()
    if not words.any():
        words[0] = np.uint64(1)
    return words


@njit(cache=True, inline="always")
def _rotl(x: np.uint64, k: int) -> np.uint64:  # pragma: no cover - compiled
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def next_word(state: npt.NDArray[np.uint64]) -> np.uint64:  # pragma: no cover - compiled
    """The next 64 bits of xoroshiro128++."""
    s0 = state[0]
    s1 = state[1]
    result = _rotl(s0 + s1, 17) + s0
    s1 ^= s0
    state[0] = _rotl(s0, 49) ^ s1 ^ (s1 << np.uint64(21))
    state[1] = _rotl(s1, 28)
    return result  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def uniform_below(state: npt.NDArray[np.uint64], n: int) -> int:  # pragma: no cover - compiled
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (exact: biased draws rejected)."""
    bound = np.uint64(n)
    product = (next_word(state) >> np.uint64(32)) * bound
    low = product & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            product = (next_word(state) >> np.uint64(32)) * bound
            low = product & np.uint64(0xFFFFFFFF)
    return int(product >> np.uint64(32))


@njit(cache=True, inline="always")
def shuffle(
    state: npt.NDArray[np.uint64], cards: npt.NDArray[np.int64]
) -> None:  # pragma: no cover
    """Fisher-Yates over the whole array, in place."""
    for i in range(cards.shape[0] - 1, 0, -1):
        j = uniform_below(state, i + 1)
        held = cards[i]
        cards[i] = cards[j]
        cards[j] = held
