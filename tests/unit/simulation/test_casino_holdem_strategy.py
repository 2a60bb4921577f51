"""The optimal call/fold lookup finds, for any dealt hole and flop, the cell of the exact
table that holds the same situation up to a permutation of the suits."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from croupier.analysis.casino_holdem_exact import (
    flop_classes,
    flop_table,
    hole_row,
    qualifier_threshold,
)
from croupier.randomness import SeededRandomSource, shuffle_in_place
from croupier.rules import CasinoHoldemRules, load_profile
from croupier.simulation.casino_holdem_strategy import OptimalCalls, flop_symmetries

_RULES = load_profile("casino-holdem-standard")
assert isinstance(_RULES, CasinoHoldemRules)
THRESHOLD = qualifier_threshold(_RULES)
"""Art. 13 g: the dealer qualifies with a pair of 4s."""


def test_the_symmetries_are_analyzes_flop_classes() -> None:
    flops, weights = flop_classes()
    symmetries = flop_symmetries()
    assert (symmetries.canonical == flops).all()
    assert (np.bincount(symmetries.flop_class, minlength=len(flops)) == weights).all()


def deals(count: int) -> list[tuple[tuple[int, int], tuple[int, int, int]]]:
    source = SeededRandomSource("optimal-lookup")
    result = []
    for _ in range(count):
        cards = list(range(52))
        shuffle_in_place(cards, source)
        result.append(((cards[0], cards[1]), (cards[2], cards[3], cards[4])))
    return result


@pytest.mark.parametrize(("hole", "flop"), deals(8))
def test_the_lookup_reads_the_cell_of_the_same_situation(
    hole: tuple[int, int], flop: tuple[int, int, int]
) -> None:
    symmetries = flop_symmetries()
    row_class = None
    for permutation in itertools.permutations(range(4)):
        image = sorted((card & ~3) | permutation[card & 3] for card in flop)
        if image == symmetries.canonical[symmetries.flop_class[_colex(flop)]].tolist():
            row_class = int(symmetries.flop_class[_colex(flop)])
            moved = [(card & ~3) | permutation[card & 3] for card in hole]
            break
    assert row_class is not None
    canonical = [int(card) for card in symmetries.canonical[row_class]]
    row = hole_row(canonical, moved)
    # The cell holds the same completions, bin for bin, as the dealt hole beside the dealt flop.
    dealt = flop_table(np.array(sorted(flop), dtype=np.int64), THRESHOLD)[
        hole_row(sorted(flop), hole)
    ]
    cell = flop_table(np.array(canonical, dtype=np.int64), THRESHOLD)[row]
    assert dealt.tolist() == cell.tolist()
    # And the kernel's lookup reads exactly that cell, whatever the order the cards came in.
    calls = np.zeros((len(symmetries.canonical), 1176), dtype=np.bool_)
    calls[row_class, row] = True
    lookup = OptimalCalls.from_calls(calls)
    assert lookup.calls_with(hole, flop)
    assert lookup.calls_with((hole[1], hole[0]), (flop[2], flop[0], flop[1]))
    calls[row_class, row] = False
    assert not OptimalCalls.from_calls(calls).calls_with(hole, flop)


def _colex(flop: tuple[int, int, int]) -> int:
    a, b, c = sorted(flop)
    return a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6
