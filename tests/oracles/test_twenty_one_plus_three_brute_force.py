"""21+3 (Peru Arts. 18-20) against an independent brute force over explicit cards.

The brute force lists every unordered 3-card combination of an explicit shoe (each physical
card distinct) with ``itertools.combinations`` and classifies it with plain Python; the
kernel counts ordered draws of card kinds. Both must agree exactly.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from croupier.analysis.three_card import category_probabilities
from croupier.rules.blackjack import ThreeCardHand


def _classify(cards: tuple[tuple[int, int], ...], ace_low: bool) -> ThreeCardHand | None:
    ranks = sorted(rank for rank, _ in cards)  # 2..14
    suited = len({suit for _, suit in cards}) == 1
    distinct = len(set(ranks)) == 3
    straight = distinct and (ranks[2] - ranks[0] == 2 or (ace_low and ranks == [2, 3, 14]))
    if straight and suited:
        return ThreeCardHand.STRAIGHT_FLUSH
    if ranks[0] == ranks[2]:
        return ThreeCardHand.THREE_OF_A_KIND
    if straight:
        return ThreeCardHand.STRAIGHT
    if suited:
        return ThreeCardHand.FLUSH
    return None


def _brute_force(decks: int, ace_low: bool) -> dict[ThreeCardHand | None, Fraction]:
    shoe = [(rank, suit) for _ in range(decks) for rank in range(2, 15) for suit in range(4)]
    tally: Counter[ThreeCardHand | None] = Counter()
    for combo in combinations(shoe, 3):
        tally[_classify(combo, ace_low)] += 1
    total = sum(tally.values())
    return {category: Fraction(count, total) for category, count in tally.items()}


@pytest.mark.parametrize(("decks", "ace_low"), [(1, True), (2, True), (1, False)])
def test_kernel_matches_brute_force_over_every_three_card_combination(
    decks: int, ace_low: bool
) -> None:
    expected = _brute_force(decks, ace_low)
    got = category_probabilities(decks, ace_low)
    assert {k: v for k, v in got.items() if v} == expected


def test_one_deck_counts_match_the_textbook_three_card_poker_frequencies() -> None:
    """Three-card poker, one deck, 22,100 hands: SF 48, trips 52, straight 720, flush 1,096
    (Wizard of Odds, Three Card Poker, "Pair Plus" probabilities)."""
    got = category_probabilities(1, True)
    assert got[ThreeCardHand.STRAIGHT_FLUSH] == Fraction(48, 22100)
    assert got[ThreeCardHand.THREE_OF_A_KIND] == Fraction(52, 22100)
    assert got[ThreeCardHand.STRAIGHT] == Fraction(720, 22100)
    assert got[ThreeCardHand.FLUSH] == Fraction(1096, 22100)
