"""Where chance comes from.

Live play draws from the operating system's cryptographic source (``secrets``), RELIABILITY
R1. Tests, simulation and replay draw from a seeded SHA-256 counter-mode generator so that a
shoe can be rebuilt from its seed, which is also what the fairness commitment (R18) reveals.
Nothing here, nor anywhere that deals, touches ``random`` or ``numpy.random``.

Every draw below ``n`` is by rejection (R2): take ``k`` bits with ``2**k >= n`` and try again
when the result is ``n`` or more, so that every outcome has exactly one pre-image per try.

>>> source = SeededRandomSource(b"example")
>>> [uniform_below(source, 6) for _ in range(5)]
[4, 4, 2, 5, 5]
>>> deck = list(range(10))
>>> shuffle_in_place(deck, SeededRandomSource(b"example"))
>>> deck
[5, 7, 8, 0, 4, 3, 6, 2, 1, 9]
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Protocol, TypeVar

T = TypeVar("T")


class RandomSource(Protocol):
    """A source of uniformly random bits."""

    def randbits(self, k: int) -> int:
        """A uniformly random integer of ``k`` bits (``0 <= r < 2**k``)."""
        ...


class SystemRandomSource:
    """The OS cryptographic source: the only source allowed to decide live outcomes (R1)."""

    def randbits(self, k: int) -> int:
        return secrets.randbits(k)


class SeededRandomSource:
    """A reproducible source: SHA-256 over ``seed || block counter``, read bit by bit.

    Its output is fixed by the seed alone (no platform or library version enters), so a
    revealed seed lets anyone rebuild the shoe dealt from it.
    """

    def __init__(self, seed: bytes | str | int) -> None:
        self.seed = seed_bytes(seed)
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0

    def _refill(self) -> None:
        block = hashlib.sha256(self.seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool = (self._pool << 256) | int.from_bytes(block, "big")
        self._pool_bits += 256

    def randbits(self, k: int) -> int:
        if k < 0:
            raise ValueError(f"number of bits must be non-negative, not {k}")
        while self._pool_bits < k:
            self._refill()
        self._pool_bits -= k
        value = self._pool >> self._pool_bits
        self._pool &= (1 << self._pool_bits) - 1
        return value


def seed_bytes(seed: bytes | str | int) -> bytes:
    """The bytes a seed stands for: bytes as given, text as UTF-8, an int as 32 big-endian bytes."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, str):
        return seed.encode()
    if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0:
        return seed.to_bytes(max(32, (seed.bit_length() + 7) // 8), "big")
    raise ValueError(f"a seed is bytes, text or a non-negative int, not {seed!r}")


def new_seed() -> bytes:
    """32 bytes from the OS cryptographic source."""
    return secrets.token_bytes(32)


def uniform_below(source: RandomSource, n: int) -> int:
    """A uniform integer in ``range(n)`` by rejection sampling (R2: never ``% n``)."""
    if n < 1:
        raise ValueError(f"cannot draw below {n}")
    bits = (n - 1).bit_length()
    while True:
        candidate = source.randbits(bits)
        if candidate < n:
            return candidate


def shuffle_in_place(items: list[T], source: RandomSource) -> None:
    """Fisher-Yates (Durstenfeld): each position swaps with a uniform one at or below it."""
    for i in range(len(items) - 1, 0, -1):
        j = uniform_below(source, i + 1)
        items[i], items[j] = items[j], items[i]
