"""The compiled blackjack analysis against the one-composition code it stands for.

``dealer_outcomes_many`` must give ``dealer_outcomes``'s figures bit for bit (the analysis'
JSON output was byte-identical before and after the kernel; this keeps it so), including on
shoes short of some rank, where the vectorised walk meets sequences a composition cannot
deal."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.analysis.dealer import dealer_outcomes, dealer_outcomes_many, full_shoe


def _compositions(decks: int, up: int, seed: int, most_removed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(120):
        counts = full_shoe(decks)
        counts[up] -= 1
        for _ in range(int(rng.integers(0, most_removed + 1))):
            rank = int(rng.integers(0, 10))
            if counts[rank] > 0:
                counts[rank] -= 1
        rows.append(counts)
    return np.array(rows, dtype=np.int64)


@pytest.mark.parametrize("hits_soft_17", [False, True])
@pytest.mark.parametrize(("decks", "most_removed"), [(1, 40), (2, 20), (6, 12)])
def test_many_compositions_are_each_one_bit_for_bit(
    decks: int, most_removed: int, hits_soft_17: bool
) -> None:
    for up in range(10):
        rows = _compositions(decks, up, seed=decks * 10 + up, most_removed=most_removed)
        many = dealer_outcomes_many(rows, up, hits_soft_17)
        for row, outcomes in zip(rows, many, strict=True):
            assert outcomes.tobytes() == dealer_outcomes(row, up, hits_soft_17).tobytes()


def test_many_on_shoes_missing_ranks() -> None:
    """Shoes of one or two ranks only (the dealer's draw tree is mostly impossible there),
    beside a full one in the same call."""
    rows = np.zeros((4, 10), dtype=np.int64)
    rows[0, 9] = 1  # a single ten: up 7 makes 17
    rows[1, 0] = 3  # three Aces
    rows[2, [1, 9]] = (2, 1)  # two 2s and a ten
    rows[3] = full_shoe(1)
    rows[3, 6] -= 1
    many = dealer_outcomes_many(rows, 6, False)
    assert list(many[0]) == [1, 0, 0, 0, 0, 0, 0]
    for row, outcomes in zip(rows, many, strict=True):
        assert outcomes.tobytes() == dealer_outcomes(row, 6, False).tobytes()
        assert outcomes.sum() == pytest.approx(1.0, abs=1e-12)
