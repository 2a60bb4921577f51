"""Blackjack hand arithmetic as plain functions (docs/rules.md §1-3).

Kept outside the round class so that the analysis and the simulator use the very same rules.

>>> from croupier.cards import parse_cards
>>> hand_value(parse_cards("As 6d"))
HandValue(total=17, soft=True)
>>> hand_total(parse_cards("As 6d Td"))
17
>>> is_natural(parse_cards("Kh As")), is_natural(parse_cards("7h 7s 7d"))
(True, False)
>>> is_pair(parse_cards("Kh Qs"), SplitBy.VALUE), is_pair(parse_cards("Kh Qs"), SplitBy.RANK)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from croupier.cards import Card, Rank
from croupier.rules.blackjack import BlackjackRules, SplitBy

BLACKJACK = 21
DEALER_STANDS_ON = 17


class HandValue(NamedTuple):
    """The best total of a hand and whether an Ace is counted as 11 in it (a soft total)."""

    total: int
    soft: bool


_VALUE_OF_RANK: tuple[int, ...] = tuple(
    Rank(number).blackjack_value if number >= Rank.TWO else 0 for number in range(Rank.ACE + 1)
)
"""Each rank's value indexed by the rank itself (an ``IntEnum``): the hot path of every
engine, kept free of enum property lookups."""


def hand_value(cards: Sequence[Card]) -> HandValue:
    """Aces count 1, and one of them 11 when that does not pass 21."""
    total = 0
    has_ace = False
    for card in cards:
        value = _VALUE_OF_RANK[card.rank]
        total += value
        has_ace = has_ace or value == 1
    if has_ace and total + 10 <= BLACKJACK:
        return HandValue(total + 10, True)
    return HandValue(total, False)


def hand_total(cards: Sequence[Card]) -> int:
    return hand_value(cards).total


def is_soft(cards: Sequence[Card]) -> bool:
    return hand_value(cards).soft


def is_bust(cards: Sequence[Card]) -> bool:
    return hand_total(cards) > BLACKJACK


def is_natural(cards: Sequence[Card]) -> bool:
    """An Ace and a ten-valued card as the first two cards (Peru Art. 13). Whether a split
    hand's natural counts as a blackjack is the profile's business (``split_ace_ten_is_blackjack``)."""
    return (
        len(cards) == 2
        and any(card.rank is Rank.ACE for card in cards)
        and any(card.rank.is_ten_valued for card in cards)
    )


def is_pair(cards: Sequence[Card], split_by: SplitBy) -> bool:
    """Two cards that may be split: same value (Peru Art. 11, K+Q) or same rank."""
    if len(cards) != 2:
        return False
    first, second = cards
    if split_by is SplitBy.RANK:
        return first.rank is second.rank
    return first.rank.blackjack_value == second.rank.blackjack_value


def is_hard_total_in(cards: Sequence[Card], low: int, high: int) -> bool:
    """A hard total within ``low..high`` (Spain Art. 03 V: A+8 is a soft 19, not a 9)."""
    value = hand_value(cards)
    return not value.soft and low <= value.total <= high


def dealer_should_draw(cards: Sequence[Card], profile: BlackjackRules) -> bool:
    """The dealer draws on 16 or less and stands on 17 or more; soft 17 by the profile
    (Peru Art. 14 S17; Spain Art. 03 V: an Ace counts 11 if that makes 17-21)."""
    value = hand_value(cards)
    if value.total < DEALER_STANDS_ON:
        return True
    return value.total == DEALER_STANDS_ON and value.soft and profile.dealer_hits_soft_17


def is_veintiuno_real(cards: Sequence[Card]) -> bool:
    """Three 7s as the first three cards (the Veintiuno Real sheet, item 13)."""
    return len(cards) >= 3 and all(card.rank is Rank.SEVEN for card in cards[:3])
