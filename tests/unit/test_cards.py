"""Card notation (docs/rules.md, 'Card notation everywhere'): rank A 2-9 T J Q K (also 10), suit s h d c."""

from __future__ import annotations

import re

import pytest

from croupier.cards import FULL_DECK, Card, Rank, Suit, parse_cards
from croupier.errors import NotationError


@pytest.mark.parametrize("card", FULL_DECK)
def test_every_card_round_trips_through_its_notation(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card


def test_ten_may_be_written_10() -> None:
    assert Card.parse("10h") == Card.parse("Th") == Card(Rank.TEN, Suit.HEARTS)


def test_lower_case_rank_and_upper_case_suit_are_read() -> None:
    assert Card.parse("aS") == Card(Rank.ACE, Suit.SPADES)


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "11h", "Tdd", "10", "Zs", "  "])
def test_unknown_cards_are_refused_naming_the_text(text: str) -> None:
    with pytest.raises(NotationError, match=re.escape(f"unknown card {text!r}")):
        Card.parse(text)


def test_card_index_is_rank_major_and_covers_the_deck() -> None:
    assert [card.index for card in FULL_DECK] == list(range(52))
    assert Card.from_index(0) == Card.parse("2s")
    assert Card.from_index(51) == Card.parse("Ac")


def test_card_values_per_game() -> None:
    # Blackjack: faces ten, Ace one (soft totals are the hand's business).
    assert [Rank.parse(r).blackjack_value for r in "A23456789TJQK"] == [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10
    ]  # fmt: skip
    # Baccarat Art. 10: A=1, 2-9 face value, T/J/Q/K = 0.
    assert [Rank.parse(r).baccarat_value for r in "A23456789TJQK"] == [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0
    ]  # fmt: skip


def test_parse_cards_reads_strings_and_lists() -> None:
    assert parse_cards("As 10d") == parse_cards(["As", "Td"])
