"""R2 (GLI-19 3.2.3(a)): draws are scaled by rejection, never by ``% n`` or ``floor(f*n)``.

Every bit pattern the draw can consume is fed to it, for n = 2..416 (a card out of an 8-deck
shoe at most): each outcome must have exactly as many pre-images as every other, and every
pattern that maps to no outcome must be rejected (drawn again), not folded onto one.
"""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.randomness import uniform_below


class ScriptedBits:
    """Returns the given patterns in order; running out means the draw asked for more."""

    def __init__(self, patterns: list[int]) -> None:
        self.patterns = patterns
        self.widths: list[int] = []

    def randbits(self, k: int) -> int:
        self.widths.append(k)
        if not self.patterns:
            raise LookupError("asked for another pattern")
        return self.patterns.pop(0)


@pytest.mark.parametrize("n", range(2, 417))
def test_r2_every_outcome_has_equally_many_pre_images(n: int) -> None:
    bits = (n - 1).bit_length()
    pre_images: Counter[int] = Counter()
    rejected = 0
    for pattern in range(2**bits):
        source = ScriptedBits([pattern])
        try:
            outcome = uniform_below(source, n)
        except LookupError:
            rejected += 1
            continue
        assert source.widths == [bits]
        pre_images[outcome] += 1
    assert set(pre_images) == set(range(n))
    assert set(pre_images.values()) == {1}
    assert rejected == 2**bits - n


def test_r2_a_rejected_pattern_is_followed_by_a_fresh_draw() -> None:
    source = ScriptedBits([6, 7, 3])  # n = 5 takes 3 bits; 6 and 7 are out of range
    assert uniform_below(source, 5) == 3
    assert source.widths == [3, 3, 3]
