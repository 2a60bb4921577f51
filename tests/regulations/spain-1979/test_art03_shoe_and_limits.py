"""Spain 1979, Art. 03: six decks; the cut card leaves at least one deck (52 cards) behind it;
the first five cards are burnt; when the cut card appears the round is the last of the shoe;
docs/rules.md §6 decision: limits 1 to 200 per box (200 times the minimum)."""

from __future__ import annotations

import pytest

from croupier.errors import BetError
from croupier.games.blackjack import BlackjackRound
from croupier.games.events import CardDrawn
from croupier.randomness import SeededRandomSource
from croupier.rules import load_profile
from croupier.shoe import Shoe

RULES = "spain-1979"


def test_art03_six_decks_and_a_cut_card_at_least_one_deck_from_the_bottom():
    profile = load_profile(RULES)
    assert profile.decks == 6
    assert profile.shoe.cut_card_from_bottom >= 52
    shoe = Shoe.shuffled(
        profile.decks, SeededRandomSource(1), cut_card_from_bottom=profile.shoe.cut_card_from_bottom
    )
    assert shoe.size - shoe.cut_card_at >= 52


def test_art03_the_first_five_cards_of_a_shoe_are_burnt():
    profile = load_profile(RULES)
    shoe = Shoe.parse("2c 3c 4c 5c 6c Th 9c 8d 7s", decks=6)
    game = BlackjackRound(profile, shoe, new_shoe=True)
    burns = [e for e in game.events if isinstance(e, CardDrawn) and e.purpose == "burn"]
    assert [str(e.card) for e in burns] == ["2c", "3c", "4c", "5c", "6c"]
    game.place_bet(1, "main", 10)
    game.deal()
    assert [str(card) for card in game.boxes[1].hands[0].cards] == ["Th", "8d"]
    assert game.dealer_cards == ["9c"]


def test_art03_the_round_in_which_the_cut_card_appears_is_the_last_of_the_shoe():
    profile = load_profile(RULES)
    cards = Shoe.parse("Th 9c 8d 7s 5h 4h 3h 2h", decks=6).undealt()
    shoe = Shoe(cards, decks=6, cut_card_at=3)
    game = BlackjackRound(profile, shoe)
    game.place_bet(1, "main", 10)
    assert not game.is_last_round_of_shoe
    game.deal()
    assert game.is_last_round_of_shoe


@pytest.mark.parametrize("amount", [1, 200])
def test_decision_limits_1_to_200_accepted(settle, amount):
    out = settle(
        RULES, "Th 9c 9d 8s", [{"seat": 1, "bets": {"main": amount}, "actions": ["stand"]}]
    )
    assert settle.hands(out) == [("Th 9d", amount, "win", 2 * amount)]


def test_decision_limits_201_refused(settle):
    with pytest.raises(BetError, match="seat 1 main: 201 is outside the limits 1 to 200"):
        settle(RULES, "Th 9c 9d 8s", [{"seat": 1, "bets": {"main": 201}, "actions": ["stand"]}])


def test_art03_up_to_seven_boxes(settle):
    with pytest.raises(Exception, match="boxes are numbered 1 to 7"):
        settle(RULES, "Th 9c 9d 8s", [{"seat": 8, "bets": {"main": 10}, "actions": ["stand"]}])
