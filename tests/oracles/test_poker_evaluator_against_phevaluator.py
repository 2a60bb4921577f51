"""The compiled seven-card evaluator orders hands exactly as ``phevaluator`` (Apache-2.0, a
test oracle only) does, on random seven-card pairs, and finds every category (Art. 10)."""

from __future__ import annotations

import numpy as np
from phevaluator import evaluate_cards

from croupier.analysis.poker_eval import score7
from croupier.cards import Card
from croupier.randomness import SeededRandomSource, shuffle_in_place


def _names(indices: list[int]) -> list[str]:
    return [str(Card.from_index(i)) for i in indices]


def test_order_matches_phevaluator_on_random_pairs_of_hands() -> None:
    source = SeededRandomSource("poker-eval-oracle")
    categories = set()
    for _ in range(3000):
        deck = list(range(52))
        shuffle_in_place(deck, source)
        board = deck[:5]
        first = board + deck[5:7]
        second = board + deck[7:9]
        ours = score7(np.array(first, dtype=np.int64)), score7(np.array(second, dtype=np.int64))
        theirs = evaluate_cards(*_names(first)), evaluate_cards(*_names(second))
        # phevaluator: lower is better.
        assert (ours[0] > ours[1]) == (theirs[0] < theirs[1]), (_names(first), _names(second))
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1]), (_names(first), _names(second))
        categories.add(ours[0] >> 20)
    assert categories >= {1, 2, 3, 4, 5, 6, 7}


def test_wheel_and_royal() -> None:
    wheel = [Card.parse(c).index for c in ["As", "2d", "3c", "4h", "5s", "9d", "Kc"]]
    six_high = [Card.parse(c).index for c in ["6s", "2d", "3c", "4h", "5s", "9d", "Kc"]]
    royal = [Card.parse(c).index for c in ["As", "Ks", "Qs", "Js", "Ts", "2d", "3c"]]
    assert score7(np.array(wheel)) >> 20 == 5
    assert score7(np.array(wheel)) < score7(np.array(six_high))
    assert score7(np.array(royal)) == (9 << 20) | (12 << 16)
