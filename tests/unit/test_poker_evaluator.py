"""The poker evaluator against the established ``phevaluator`` and against exhaustive counts.

phevaluator (Apache-2.0) ranks a hand 1 (royal flush) to 7462 (7-5-4-3-2), lower is better;
ours returns a strength, higher is better. They agree when the strength determines the rank
and the rank the strength, in opposite order: then every pair of hands compares alike.
"""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import numpy.typing as npt
import pytest
from numba import njit
from phevaluator import evaluate_cards

from croupier.cards import FULL_DECK, Card, parse_cards
from croupier.errors import NotationError
from croupier.hands.poker import (
    CATEGORY_OF_CODE,
    HandValue,
    category_of,
    compare,
    evaluate,
    evaluate_many,
    strength,
    strength_of,
)
from croupier.rules.casino_holdem import PokerCategory

# phevaluator's rank boundaries per class (the Cactus Kev numbering it follows): the worst
# rank of each class, best class first.
PHEVALUATOR_WORST_RANK = (
    (1, PokerCategory.ROYAL_FLUSH),
    (10, PokerCategory.STRAIGHT_FLUSH),
    (166, PokerCategory.FOUR_OF_A_KIND),
    (322, PokerCategory.FULL_HOUSE),
    (1599, PokerCategory.FLUSH),
    (1609, PokerCategory.STRAIGHT),
    (2467, PokerCategory.THREE_OF_A_KIND),
    (3325, PokerCategory.TWO_PAIR),
    (6185, PokerCategory.PAIR),
    (7462, PokerCategory.HIGH_CARD),
)


def phevaluator_id(index: int) -> int:
    """Our index is rank * 4 + (s h d c); phevaluator's is rank * 4 + (c d h s)."""
    return (index & ~3) | (3 - (index & 3))


def phevaluator_category(rank: int) -> PokerCategory:
    for worst, category in PHEVALUATOR_WORST_RANK:
        if rank <= worst:
            return category
    raise AssertionError(rank)


def random_hands(count: int, size: int, seed: int) -> npt.NDArray[np.int64]:
    generator = np.random.default_rng(seed)  # tests only: sampling hands, not dealing
    return np.argsort(generator.random((count, 52)), axis=1)[:, :size].astype(np.int64)


def assert_same_order(ours: npt.NDArray[np.int64], theirs: npt.NDArray[np.int64]) -> None:
    """Every pair of hands compares alike: strength <-> rank is a strictly decreasing bijection."""
    pairs = np.unique(np.stack([ours, -theirs], axis=1), axis=0)  # sorted by our strength
    assert len(pairs) == len(np.unique(ours)) == len(np.unique(theirs))
    assert np.all(np.diff(pairs[:, 1]) > 0), "a better strength has a worse phevaluator rank"


@pytest.mark.parametrize(("size", "count"), [(7, 200_000), (6, 50_000), (5, 50_000)])
def test_order_and_category_agree_with_phevaluator(size: int, count: int) -> None:
    hands = random_hands(count, size, seed=20070307 + size)
    ours = evaluate_many(hands)
    ids = np.vectorize(phevaluator_id)(hands).tolist()
    theirs = np.array([evaluate_cards(*row) for row in ids], dtype=np.int64)
    assert_same_order(ours, theirs)
    our_categories = [CATEGORY_OF_CODE[code] for code in (ours >> 20).tolist()]
    their_categories = [phevaluator_category(rank) for rank in theirs.tolist()]
    assert our_categories == their_categories


def test_python_api_agrees_with_the_batch() -> None:
    hands = random_hands(2_000, 7, seed=7)
    batch = evaluate_many(hands)
    for row, expected in zip(hands.tolist(), batch.tolist(), strict=True):
        cards = [Card.from_index(index) for index in row]
        value = evaluate(cards)
        assert value.strength == expected
        assert len(set(value.best_five)) == 5 and set(value.best_five) <= set(cards)
        # The best five alone are worth exactly what the seven are worth.
        assert strength(value.best_five) == expected


PARALLEL_CHECK = """
import numpy as np
from croupier.hands.poker import evaluate_many, strengths_of_parallel
hands = np.argsort(np.random.default_rng(11).random((10_000, 52)), axis=1)[:, :7]
hands = np.ascontiguousarray(hands, dtype=np.int64)
assert np.array_equal(strengths_of_parallel(hands), evaluate_many(hands))
print("same")
"""


def test_parallel_batch_matches_serial() -> None:
    """In its own process: a process forked after numba's threads started would crash
    (STACK.md), so the parallel kernel never runs inside the test process."""
    completed = subprocess.run(
        [sys.executable, "-c", PARALLEL_CHECK], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "same"


def test_every_five_card_hand_counted_by_class() -> None:
    """All C(52,5) = 2,598,960 hands: the textbook class counts and 7,462 distinct values."""
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int64)
    strengths = evaluate_many(hands)
    codes, counts = np.unique(strengths >> 20, return_counts=True)
    by_class = {CATEGORY_OF_CODE[c]: int(n) for c, n in zip(codes, counts, strict=True)}
    assert by_class == {
        PokerCategory.ROYAL_FLUSH: 4,
        PokerCategory.STRAIGHT_FLUSH: 36,
        PokerCategory.FOUR_OF_A_KIND: 624,
        PokerCategory.FULL_HOUSE: 3_744,
        PokerCategory.FLUSH: 5_108,
        PokerCategory.STRAIGHT: 10_200,
        PokerCategory.THREE_OF_A_KIND: 54_912,
        PokerCategory.TWO_PAIR: 123_552,
        PokerCategory.PAIR: 1_098_240,
        PokerCategory.HIGH_CARD: 1_302_540,
    }
    assert len(np.unique(strengths)) == 7_462


@njit(cache=False)
def _count_all_seven_card_hands() -> tuple[npt.NDArray[np.int64], int]:  # pragma: no cover
    counts = np.zeros(10, dtype=np.int64)
    seen = np.zeros(10 << 20, dtype=np.bool_)
    hand = np.empty(7, dtype=np.int64)
    for a in range(46):
        hand[0] = a
        for b in range(a + 1, 47):
            hand[1] = b
            for c in range(b + 1, 48):
                hand[2] = c
                for d in range(c + 1, 49):
                    hand[3] = d
                    for e in range(d + 1, 50):
                        hand[4] = e
                        for f in range(e + 1, 51):
                            hand[5] = f
                            for g in range(f + 1, 52):
                                hand[6] = g
                                value = strength_of(hand)
                                counts[value >> 20] += 1
                                seen[value] = True
    return counts, int(seen.sum())


@pytest.mark.slow
def test_every_seven_card_hand_counted_by_class() -> None:
    """All C(52,7) = 133,784,560 hands: the published class counts and 4,824 distinct values
    (e.g. Wikipedia, "Poker probability", 7-card table)."""
    counts, distinct = _count_all_seven_card_hands()
    assert counts.tolist()[::-1] == [
        4_324,
        37_260,
        224_848,
        3_473_184,
        4_047_644,
        6_180_020,
        6_461_620,
        31_433_400,
        58_627_800,
        23_294_460,
    ]
    assert distinct == 4_824


def test_hand_value_compares_by_strength_and_is_frozen() -> None:
    spades = evaluate(parse_cards("As Ks Qs Js 9s 2d 3c"))
    hearts = evaluate(parse_cards("Ah Kh Qh Jh 9h 2c 3d"))
    assert spades == hearts and hash(spades) == hash(hearts)
    assert spades.best_five != hearts.best_five
    assert isinstance(spades, HandValue) and category_of(spades.strength) is PokerCategory.FLUSH
    with pytest.raises(AttributeError):
        spades.strength = 0  # type: ignore[misc]
    assert str(spades) == "flush (As Ks Qs Js 9s)"


def test_compare_is_antisymmetric() -> None:
    better = parse_cards("9s 9d 4c 5h 7s Kd 2c")
    worse = parse_cards("8s 8d 4d 5c 7h Kc 2d")
    assert compare(better, worse) == 1
    assert compare(worse, better) == -1
    assert compare(better, better) == 0


@pytest.mark.parametrize("text", ["As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s"])
def test_wrong_number_of_cards_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="5 to 7 cards"):
        evaluate(parse_cards(text))


def test_a_card_twice_is_refused() -> None:
    with pytest.raises(NotationError, match="each card once"):
        evaluate(parse_cards("As As Qs Js Ts"))


def test_evaluate_many_refuses_bad_shapes_and_indices() -> None:
    with pytest.raises(NotationError, match="shape"):
        evaluate_many(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(NotationError, match=r"0\.\.51"):
        evaluate_many(np.array([[0, 1, 2, 3, 52]]))


def test_the_deck_order_matches_the_kernel_encoding() -> None:
    """``Card.index`` is rank-major, which the kernel reads as ``rank = index >> 2``."""
    for card in FULL_DECK:
        assert card.index >> 2 == card.rank.value - 2
