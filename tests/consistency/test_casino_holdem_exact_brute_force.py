"""The exact Casino Hold'em Ante + Bet kernel against a direct enumeration (the short form CI
runs; the whole game is in ``tests/oracles/test_casino_holdem_published.py``, slow).

``flop_table`` counts, for every player hole beside a flop, how many of the 1,070,190 turn +
river + dealer completions end in each bin, by sorting the dealer's hands once per board and
inclusion-exclusion (``croupier.analysis.casino_holdem_exact``). Here each count is redone the
plain way: every turn and river, every dealer hand of the 45 cards left, both hands valued
and compared one by one, the qualifier applied as docs/rules.md §5 states it (pair of 4s or
better, Art. 13).
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis.casino_holdem_exact import (
    BINS,
    COMPLETIONS,
    LOSE,
    NOT_QUALIFIED_BASE,
    PUSH,
    WIN_BASE,
    bin_values,
    call_value,
    decide,
    flop_classes,
    flop_symmetries,
    flop_table,
    hole_row,
    qualifier_threshold,
)
from croupier.cards import parse_cards
from croupier.games.casino_holdem import CALL, FOLD, CasinoHoldemRound, new_shoe
from croupier.hands.poker import evaluate_many
from croupier.randomness import SeededRandomSource
from croupier.rules import CasinoHoldemRules, load_profile
from croupier.shoe import Shoe


def _rules(name: str) -> CasinoHoldemRules:
    rules = load_profile(name)
    assert isinstance(rules, CasinoHoldemRules)
    return rules


STANDARD = _rules("casino-holdem-standard")
THRESHOLD = qualifier_threshold(STANDARD)


def brute_force_row(flop: list[int], hole: list[int]) -> npt.NDArray[np.int64]:
    """Every turn, river and dealer hand after ``hole`` + ``flop``, valued one by one."""
    rest = [card for card in range(52) if card not in flop and card not in hole]
    boards = list(itertools.combinations(rest, 2))
    player = evaluate_many(np.array([[*hole, *flop, t, r] for t, r in boards]))
    rows = []
    player_of_row = []
    for board, (t, r) in enumerate(boards):
        left = [card for card in rest if card not in (t, r)]
        for d1, d2 in itertools.combinations(left, 2):
            rows.append([d1, d2, *flop, t, r])
            player_of_row.append(board)
    dealer = evaluate_many(np.array(rows))
    return bins_of(player[np.array(player_of_row)], dealer)


def bins_of(mine: npt.NDArray[np.int64], dealer: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """How many (player, dealer) strength pairs fall in each bin, docs/rules.md §5 read plainly."""
    category = 9 - (mine >> 20)  # PokerCategory order: 0 royal flush ... 9 high card
    qualified = dealer >= THRESHOLD
    result = np.zeros(BINS, dtype=np.int64)
    result[LOSE] = np.count_nonzero(qualified & (dealer > mine))
    result[PUSH] = np.count_nonzero(qualified & (dealer == mine))
    np.add.at(result, WIN_BASE + category[qualified & (dealer < mine)], 1)
    np.add.at(result, NOT_QUALIFIED_BASE + category[~qualified], 1)
    return result


CASES = [
    # a rainbow flop; a monotone flop that allows a royal flush; a paired flop (full houses,
    # quads and a qualifier on the board itself for the 4s)
    ("2c 7d Ks", ["Ah Kd", "7c 7h", "3s 4s", "2d 8h"]),
    ("Qh Jh Th", ["Ah Kh", "9h 8c", "2c 3d", "Qs Qc"]),
    ("4s 4d 9c", ["4h 4c", "9d 9s", "Ac Kc", "2h 3h"]),
]


@pytest.mark.parametrize(
    ("flop_text", "holes"),
    # Each flop's first two hands in CI (the royal flush, the quads, a pair on a rainbow), the
    # other two in the slow form: each hand is a whole enumeration of about 1.7 s.
    [
        *((flop, holes[:2]) for flop, holes in CASES),
        *(pytest.param(flop, holes[2:], marks=pytest.mark.slow) for flop, holes in CASES),
    ],
)
def test_kernel_counts_equal_a_direct_enumeration(flop_text: str, holes: list[str]) -> None:
    """docs/rules.md §5: not qualified below a pair of 4s (Art. 13); the better hand wins; equal
    hands push. Every bin of every tested hole, exactly."""
    flop = sorted(card.index for card in parse_cards(flop_text))
    table = flop_table(np.array(flop, dtype=np.int64), THRESHOLD)
    assert table.shape == (1176, BINS)
    assert (table.sum(axis=1) == COMPLETIONS).all()  # every completion lands in one bin
    for hole_text in holes:
        hole = [card.index for card in parse_cards(hole_text)]
        expected = brute_force_row(flop, hole)
        assert table[hole_row(flop, hole)].tolist() == expected.tolist(), hole_text


def test_a_suit_permuted_flop_gives_the_same_counts_to_the_permuted_holes() -> None:
    """The reason one flop per suit class is enough (the game treats no suit differently)."""
    flop = sorted(card.index for card in parse_cards("Ah 9h 2c"))
    permutation = [2, 0, 3, 1]  # s->d, h->s, d->c, c->h

    def permuted(card: int) -> int:
        return (card & ~3) | permutation[card & 3]

    other = sorted(permuted(card) for card in flop)
    table = flop_table(np.array(flop, dtype=np.int64), THRESHOLD)
    other_table = flop_table(np.array(other, dtype=np.int64), THRESHOLD)
    rest = [card for card in range(52) if card not in flop]
    for hole in itertools.combinations(rest, 2):
        moved = [permuted(card) for card in hole]
        assert (table[hole_row(flop, hole)] == other_table[hole_row(other, moved)]).all()


def test_flop_classes_weigh_every_flop_once() -> None:
    flops, weights = flop_classes()
    assert len(flops) == 1755
    assert int(weights.sum()) == 22_100
    assert set(weights.tolist()) <= {4, 12, 24}  # orbit sizes of the 24 suit permutations


def test_the_decision_calls_only_when_calling_beats_the_folded_ante() -> None:
    """Art. 12: fold (lose the Ante) or Bet 2x the Ante; the optimal player calls iff the
    expected net of calling is above -1, and folds when it is exactly -1 (no gain)."""
    values = [
        call_value(STANDARD, parse_cards(text))
        for text in ("Ah Kd 2c 7d Ks", "2d 3h 8c Tc Qs", "7c 2h 9d Ts Qc")
    ]
    assert values[0] > -1 > values[1]  # top pair calls; seven-high beside a dead flop folds
    flops, _ = flop_classes()
    table = np.zeros((len(flops), 1176, BINS), dtype=np.int32)
    table[:, :, PUSH] = COMPLETIONS  # every called hand pushes: net 0 > -1, always call
    standard = bin_values(STANDARD)
    calls, counts, folds = decide(table, standard)
    assert calls.all() and folds == 0 and counts[PUSH] == 22_100 * 1176 * COMPLETIONS
    # a net of exactly -1: a third of the completions lose the Ante + Bet (-3), the rest push
    table[:, :, PUSH] = COMPLETIONS - COMPLETIONS // 3
    table[:, :, LOSE] = COMPLETIONS // 3
    calls, counts, folds = decide(table, standard)
    assert not calls.any() and sum(counts) == 0 and folds == 22_100 * 1176 * COMPLETIONS


@pytest.mark.parametrize("name", ["casino-holdem-peru-2007", "casino-holdem-standard"])
def test_each_bins_value_is_what_the_engine_pays_a_caller(name: str) -> None:
    """The bins' nets (``bin_values``) against the reference engine (``croupier settle``'s),
    deal by deal on seeded decks: Art. 13g (Peru: Ante 1:1, Bet returned, when the dealer
    does not qualify) or the common game's paytable; a win pays the Ante by the paytable and
    the Bet 1:1; a loss loses both; a tie pushes."""
    rules = _rules(name)
    values = bin_values(rules)
    source = SeededRandomSource(f"bins-{name}")
    seen = set()
    for _ in range(400):
        deck = new_shoe(source).peek_order()
        game = CasinoHoldemRound(rules, Shoe.stacked(deck, decks=1))
        for seat in (1, 2):  # Art. 9: at least two players
            game.place_bet(seat, "ante", 1)
        game.deal()
        while (decision := game.pending()) is not None:
            game.act(decision.seat, CALL if decision.seat == 1 else FOLD)
        board = [card.index for card in game.board]
        mine = evaluate_many(np.array([[*(c.index for c in game.hole_cards[1]), *board]]))
        dealer = evaluate_many(np.array([[*(c.index for c in game.dealer_cards), *board]]))
        (index,) = np.flatnonzero(bins_of(mine, dealer))
        seen.add(int(index))
        assert game.results().net(1) == values[index]
    assert {LOSE, PUSH, WIN_BASE + 8, NOT_QUALIFIED_BASE + 9} <= seen  # the common outcomes


@pytest.mark.parametrize("name", ["casino-holdem-peru-2007", "casino-holdem-standard"])
def test_the_qualifier_is_the_engines(name: str) -> None:
    """Art. 13 g: "un par de cuatros '4' o más"; a pair of 4s with the lowest kickers is the
    weakest qualifying hand, a pair of 3s with the highest does not qualify."""
    rules = _rules(name)
    threshold = qualifier_threshold(rules)
    game = CasinoHoldemRound(rules, new_shoe(SeededRandomSource("qualifier")))
    assert threshold == game.qualifying_strength
    weakest = evaluate_many(np.array([[c.index for c in parse_cards("4s 4d 2c 3h 5d")]]))
    best_threes = evaluate_many(np.array([[c.index for c in parse_cards("3s 3d Ac Kh Qd")]]))
    assert best_threes[0] < threshold <= weakest[0]


@pytest.mark.parametrize(
    ("flop_text", "symmetries"),
    [("2c 7d Ks", 1), ("Ah 9h 2c", 2), ("4s 4d 9c", 2), ("Qh Jh Th", 6), ("7c 7d 7h", 6)],
)
def test_kernel_equals_the_previous_kernel_bit_for_bit(flop_text: str, symmetries: int) -> None:
    """The kernel values one turn + river per orbit of the suit permutations that fix the
    flop (and sorts by radix); every count of every hole must be what the kernel it replaced
    (``benchmarks/casino_holdem_previous.py``, no symmetry) counted."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from casino_holdem_previous import previous_flop_table

    flop = np.array(sorted(card.index for card in parse_cards(flop_text)), dtype=np.int64)
    rest = np.array([card for card in range(52) if card not in flop], dtype=np.int64)
    assert flop_symmetries(flop, rest)[1] == symmetries
    assert (flop_table(flop, THRESHOLD) == previous_flop_table(flop, THRESHOLD)).all()
