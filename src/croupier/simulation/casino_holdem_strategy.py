"""Casino Hold'em's exact optimal call/fold as a lookup a compiled kernel can read.

``croupier analyze`` values every (flop class, hole) of the game exactly
(``croupier.analysis.casino_holdem_exact``: 1,755 flop classes under the 24 suit
permutations, 1,176 holes beside each) and calls where calling loses less than the folded
Ante (``choose``). Those 2,063,880 decisions are all the optimal player needs. A kernel finds
a deal's decision in three steps: the flop's class and a suit permutation that carries the
flop onto its class's representative (both tabulated for the 22,100 flops, by the flop's
combinatorial index), the hole cards carried by the same permutation, and the hole's row
beside the representative flop (``hole_row``'s numbering). The game treats no suit
differently, so the permuted deal has the same call value as the dealt one.

The decisions come from the exact table, which ``analyze`` computes once (1.5-3 minutes on
2 cores) and caches on disk; ``optimal_calls`` loads it, or computes it the same way when it
is absent, then keeps the decisions alone (2 MB) in the same cache, keyed by the table and
the paytable, so that each simulation worker loads them in milliseconds.

>>> symmetries = flop_symmetries()
>>> symmetries.flop_class.shape, symmetries.canonical.shape
((22100,), (1755, 3))
"""

from __future__ import annotations

import hashlib
import itertools
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.analysis.casino_holdem_exact import (
    HOLES,
    bin_values,
    choose,
    load_or_compute_table,
    qualifier_threshold,
    table_key,
)
from croupier.analysis.result_cache import cache_directory
from croupier.rules.casino_holdem import CasinoHoldemRules

FLOPS = 22_100
"""C(52, 3)."""


@dataclass(frozen=True)
class FlopSymmetries:
    flop_class: npt.NDArray[np.int64]
    """By a flop's colex index (``flop_index``): its class (a row of the exact table)."""
    permutation: npt.NDArray[np.int64]
    """By colex index: the suit permutation (old suit -> new suit) onto the class's flop."""
    canonical: npt.NDArray[np.int64]
    """By class: the representative flop, sorted (``flop_classes``'s order)."""


@cache
def flop_symmetries() -> FlopSymmetries:
    """Every flop's class and permutation, the smallest sorted image as in ``flop_classes``."""
    flops = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    permutations = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
    # mapped[f, p, k]: card k of flop f with its suit s replaced by permutation p's p[s].
    mapped = ((flops[None, :, :] & ~3) | permutations[:, flops & 3]).transpose(1, 0, 2)
    mapped = np.ascontiguousarray(mapped)
    mapped.sort(axis=2)
    keys = (mapped[:, :, 0] * 52 + mapped[:, :, 1]) * 52 + mapped[:, :, 2]
    best = keys.argmin(axis=1)
    canonical_keys = keys[np.arange(len(flops)), best]
    classes = np.unique(canonical_keys)
    canonical = np.stack([classes // 2704, classes // 52 % 52, classes % 52], axis=1)
    colex = flops[:, 0] + flops[:, 1] * (flops[:, 1] - 1) // 2
    colex = colex + flops[:, 2] * (flops[:, 2] - 1) * (flops[:, 2] - 2) // 6
    flop_class = np.empty(FLOPS, dtype=np.int64)
    permutation = np.empty((FLOPS, 4), dtype=np.int64)
    flop_class[colex] = np.searchsorted(classes, canonical_keys)
    permutation[colex] = permutations[best]
    return FlopSymmetries(flop_class, permutation, canonical.astype(np.int64))


@dataclass(frozen=True)
class OptimalCalls:
    """The optimal decisions and the symmetries that find them (empty: not in use)."""

    calls: npt.NDArray[np.bool_]
    """``[flop class, hole row]``: True where calling is optimal (``choose``)."""
    symmetries: FlopSymmetries

    @classmethod
    def from_calls(cls, calls: npt.NDArray[np.bool_]) -> OptimalCalls:
        symmetries = flop_symmetries()
        if calls.shape != (len(symmetries.canonical), HOLES):
            raise ValueError(f"decisions of shape {calls.shape}, not (1755, {HOLES})")
        return cls(np.ascontiguousarray(calls, dtype=np.bool_), symmetries)

    @classmethod
    def unused(cls) -> OptimalCalls:
        """Placeholder arrays for a strategy that needs no table."""
        empty = FlopSymmetries(
            np.zeros(0, dtype=np.int64),
            np.zeros((0, 4), dtype=np.int64),
            np.zeros((0, 3), dtype=np.int64),
        )
        return cls(np.zeros((0, 0), dtype=np.bool_), empty)

    def calls_with(self, hole: tuple[int, int], flop: tuple[int, int, int]) -> bool:
        """The decision for card indices (a slow path for tests and tools)."""
        s = self.symmetries
        return bool(
            optimal_call(
                self.calls, s.flop_class, s.permutation, s.canonical, hole[0], hole[1], *flop
            )
        )


def _decisions_path(rules: CasinoHoldemRules) -> Path:
    threshold = qualifier_threshold(rules)
    values = ",".join(str(value) for value in bin_values(rules))
    digest = hashlib.sha256(values.encode()).hexdigest()[:16]
    return cache_directory() / f"casino-holdem-calls-{table_key(threshold)}-{digest}.npy"


def is_cached(rules: CasinoHoldemRules) -> bool:
    """Whether the decisions (or the exact table they come from) are on disk already."""
    from croupier.analysis.casino_holdem_exact import table_path

    return _decisions_path(rules).exists() or table_path(qualifier_threshold(rules)).exists()


def optimal_calls(rules: CasinoHoldemRules) -> OptimalCalls:
    """The exact optimal decisions for ``rules``'s paytable, from the disk cache (computing
    the exact table first, as ``analyze`` does, when it is absent)."""
    path = _decisions_path(rules)
    calls: npt.NDArray[np.bool_] | None = None
    if path.exists():
        try:
            calls = np.load(path)
        except (OSError, ValueError):
            calls = None  # unreadable: derived again below
    if calls is None or calls.shape != (len(flop_symmetries().canonical), HOLES):
        table, _ = load_or_compute_table(qualifier_threshold(rules))
        calls = choose(table, bin_values(rules))
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial.npy")
        np.save(partial, calls)
        partial.replace(path)  # atomic: a worker never reads half a file
    return OptimalCalls.from_calls(calls)


@njit(cache=True, nogil=True, inline="always")
def _position_beside(card: int, flop: npt.NDArray[np.int64]) -> int:  # pragma: no cover
    """The card's place among the 49 cards not on ``flop``, in increasing order."""
    below = 0
    for k in range(3):
        if flop[k] < card:
            below += 1
    return card - below


@njit(cache=True, nogil=True)
def optimal_call(  # noqa: PLR0917 - numba takes positional arguments  # pragma: no cover
    calls: npt.NDArray[np.bool_],
    flop_class: npt.NDArray[np.int64],
    permutation: npt.NDArray[np.int64],
    canonical: npt.NDArray[np.int64],
    hole_first: int,
    hole_second: int,
    flop_first: int,
    flop_second: int,
    flop_third: int,
) -> bool:
    """Whether the optimal player calls with this hole beside this flop (card indices)."""
    a, b, c = flop_first, flop_second, flop_third
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    index = a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6
    row_class = flop_class[index]
    first = (hole_first & ~3) | permutation[index, hole_first & 3]
    second = (hole_second & ~3) | permutation[index, hole_second & 3]
    i = _position_beside(first, canonical[row_class])
    j = _position_beside(second, canonical[row_class])
    if i > j:
        i, j = j, i
    return calls[row_class, i * (97 - i) // 2 + j - i - 1]  # type: ignore[no-any-return]
