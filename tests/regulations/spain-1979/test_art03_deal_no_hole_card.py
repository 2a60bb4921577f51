"""Spain 1979, Art. 03 V: one card to each box from the dealer's left, one to the dealer, a
second card to each box; the dealer has no hole card and draws after the players."""

from __future__ import annotations

from croupier.games.blackjack import BlackjackRound
from croupier.rules import load_profile
from croupier.shoe import Shoe
from round_support import is_decision

RULES = "spain-1979"


def test_art03_the_dealers_second_card_is_drawn_after_the_players(settle):
    out = settle(
        RULES,
        "Th 8h 9c 8d 7d 7s Kd",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": ["stand"]},
            {"seat": 2, "bets": {"main": 10}, "actions": ["stand"]},
        ],
    )
    events = out["events"]
    dealer_cards = [
        i for i, e in enumerate(events) if e["kind"] == "CardDrawn" and e["purpose"] == "dealer"
    ]
    last_decision = max(i for i, e in enumerate(events) if is_decision(e))
    assert dealer_cards[0] < last_decision < dealer_cards[1]
    assert out["dealer"] == {"cards": ["9c", "7s", "Kd"], "total": 26, "blackjack": False}
    assert "HoleCardRevealed" not in settle.kinds(out)
    assert settle.hands(out, 1) == [("Th 8d", 10, "win", 20)]
    assert settle.hands(out, 2) == [("8h 7d", 10, "win", 20)]


def test_art03_with_every_box_bust_the_dealer_draws_not_even_a_second_card(settle):
    """Profile decision ``dealer_draws_when_no_hand_remains = false`` (the text is silent)."""
    out = settle(RULES, "Th 9c 6d Kd 5s", [{"seat": 1, "bets": {"main": 10}, "actions": ["hit"]}])
    assert settle.hands(out) == [("Th 6d Kd", 10, "bust", 0)]
    assert out["dealer"] == {"cards": ["9c"], "total": 9, "blackjack": False}


def test_art03_a_seat_sees_only_the_dealers_first_card():
    game = BlackjackRound(load_profile(RULES), Shoe.parse("Th 9c 6d Kd", decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    assert game.view(1)["dealer"]["cards"] == ["9c"]
    assert "Kd" not in str(game.view(1))


def test_art03_dealer_stands_on_soft_17(settle):
    """Art. 03 V: 'an Ace counts 11 if that makes 17-21'."""
    out = settle(RULES, "Th 6c 9d As 5s", [{"seat": 1, "bets": {"main": 10}, "actions": ["stand"]}])
    assert out["dealer"] == {"cards": ["6c", "As"], "total": 17, "blackjack": False}
    assert settle.hands(out) == [("Th 9d", 10, "win", 20)]


def test_decision_with_every_box_bust_an_open_insurance_still_gets_the_second_card(settle):
    """Croupier decision: the insurance bet waits on the dealer's second card, so he draws it
    (and no more) even when every box is bust."""
    out = settle(
        RULES,
        "9s Ac 7d Kc Kh 5s",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 5", "hit"]}],
    )
    assert settle.hands(out) == [("9s 7d Kc", 10, "bust", 0)]
    assert out["dealer"] == {"cards": ["Ac", "Kh"], "total": 21, "blackjack": True}
    assert settle.seat(out, 1)["insurance"] == {"bet": 5, "payout": 15}
    assert settle.money(out) == (15, 15, 0)
