"""The 21+3 side bet's three-card hands (Peru Arts. 18-20).

The player's first two cards and the dealer's up card are read as a three-card poker hand;
the single best category pays (docs/rules.md §1 decision: suited trips pay as three of a kind).
Straights run A-2-3 (where ``ace_low_straight``) up to Q-K-A; K-A-2 is never a straight.

>>> from croupier.cards import parse_cards
>>> classify_three_card(parse_cards("Qh Kh Ah"), ace_low_straight=True)
<ThreeCardHand.STRAIGHT_FLUSH: 'straight_flush'>
>>> classify_three_card(parse_cards("Kh As 2d"), ace_low_straight=True) is None
True
>>> classify_three_card(parse_cards("7h 7h 7h"), ace_low_straight=True)
<ThreeCardHand.THREE_OF_A_KIND: 'three_of_a_kind'>
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import Card, Rank
from croupier.rules.blackjack import ThreeCardHand

ACE_LOW_RANKS = frozenset({Rank.ACE, Rank.TWO, Rank.THREE})


def is_three_card_straight(cards: Sequence[Card], ace_low_straight: bool) -> bool:
    ranks = sorted(card.rank.value for card in cards)
    if len(set(ranks)) != 3:
        return False
    if ranks[2] - ranks[0] == 2:
        return True  # Ace plays high: Q-K-A
    return ace_low_straight and {card.rank for card in cards} == ACE_LOW_RANKS


def classify_three_card(cards: Sequence[Card], ace_low_straight: bool) -> ThreeCardHand | None:
    """The best 21+3 category of three cards, or ``None`` when none applies."""
    if len(cards) != 3:
        raise ValueError(f"21+3 reads exactly three cards, not {len(cards)}")
    flush = len({card.suit for card in cards}) == 1
    straight = is_three_card_straight(cards, ace_low_straight)
    if straight and flush:
        return ThreeCardHand.STRAIGHT_FLUSH
    if len({card.rank for card in cards}) == 1:
        return ThreeCardHand.THREE_OF_A_KIND
    if straight:
        return ThreeCardHand.STRAIGHT
    if flush:
        return ThreeCardHand.FLUSH
    return None
