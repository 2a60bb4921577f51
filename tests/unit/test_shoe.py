"""The shoe (docs/rules.md §6): never more copies of a card than the decks; cards leave once."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.cards import FULL_DECK, parse_cards
from croupier.errors import ShoeError
from croupier.randomness import SeededRandomSource
from croupier.shoe import Shoe


def test_a_stacked_shoe_deals_in_the_given_order() -> None:
    shoe = Shoe.stacked(parse_cards("As Kd 7c"), decks=1)
    assert shoe.draw_many(3) == parse_cards("As Kd 7c")
    assert shoe.remaining == 0


def test_an_empty_shoe_refuses_to_deal() -> None:
    shoe = Shoe.stacked(parse_cards("As"), decks=1)
    shoe.draw()
    with pytest.raises(ShoeError, match="empty after 1 cards"):
        shoe.draw()


def test_rules_6_a_stacked_shoe_with_too_many_copies_is_refused() -> None:
    """docs/rules.md §6: 'a stacked shoe that does [hold more copies than the decks] is refused'."""
    Shoe.stacked(parse_cards("As " * 6), decks=6)
    with pytest.raises(ShoeError, match="7 copies of As but 6 decks allow 6"):
        Shoe.stacked(parse_cards("As " * 7), decks=6)


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_a_shuffled_shoe_holds_each_card_exactly_decks_times(decks: int) -> None:
    shoe = Shoe.shuffled(decks, SeededRandomSource(b"shoe"), cut_card_from_bottom=52)
    assert Counter(shoe.peek_order()) == Counter({card: decks for card in FULL_DECK})
    assert shoe.cut_card_at == 52 * decks - 52


def test_the_same_seed_gives_the_same_shoe_and_another_seed_another() -> None:
    first = Shoe.shuffled(6, SeededRandomSource(b"a")).peek_order()
    assert Shoe.shuffled(6, SeededRandomSource(b"a")).peek_order() == first
    assert Shoe.shuffled(6, SeededRandomSource(b"b")).peek_order() != first


def test_the_cut_card_signals_the_last_round() -> None:
    shoe = Shoe(FULL_DECK, decks=1, cut_card_at=50)
    shoe.draw_many(49)
    assert not shoe.is_cut_card_out
    shoe.draw()
    assert shoe.is_cut_card_out


def test_a_shoe_without_a_cut_card_never_signals() -> None:
    shoe = Shoe.stacked(FULL_DECK, decks=1)
    shoe.draw_many(52)
    assert not shoe.is_cut_card_out


@pytest.mark.parametrize("decks", [0, 9])
def test_deck_counts_outside_one_to_eight_are_refused(decks: int) -> None:
    with pytest.raises(ShoeError, match=f"not {decks}"):
        Shoe([], decks)
