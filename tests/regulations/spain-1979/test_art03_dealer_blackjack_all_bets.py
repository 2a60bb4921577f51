"""Spain 1979, Art. 03 V, docs/rules.md §2 decision: on a dealer blackjack every bet on the box
loses, doubles and splits included (the text grants no refund); a player blackjack pushes;
blackjack pays 3:2 and beats a three-or-more-card 21. Insurance pays 2:1; a seat holding a
blackjack may insure like any other (no even money)."""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError

RULES = "spain-1979"


def test_decision_dealer_blackjack_takes_split_and_doubled_bets(settle):
    out = settle(
        RULES,
        "8s Ac 8h 3c Th Td Kc",
        [
            {
                "seat": 1,
                "bets": {"main": 10},
                "actions": ["no-insurance", "split", "double", "stand"],
            }
        ],
    )
    assert out["dealer"] == {"cards": ["Ac", "Kc"], "total": 21, "blackjack": True}
    assert settle.hands(out) == [("8s 3c Th", 20, "lose", 0), ("8h Td", 10, "lose", 0)]
    assert settle.money(out) == (30, 0, -30)


def test_art03_player_blackjack_pushes_a_dealer_blackjack(settle):
    out = settle(
        RULES, "As Ac Kd Kc", [{"seat": 1, "bets": {"main": 10}, "actions": ["no-insurance"]}]
    )
    assert settle.hands(out) == [("As Kd", 10, "push", 10)]


def test_art03_blackjack_pays_three_to_two_at_settlement_and_beats_a_three_card_21(settle):
    """Art. 03 V: no early payment in the text (``blackjack_paid_at_once = false``)."""
    out = settle(RULES, "As 9c Kd 5s 7h", [{"seat": 1, "bets": {"main": 10}, "actions": []}])
    assert out["dealer"] == {"cards": ["9c", "5s", "7h"], "total": 21, "blackjack": False}
    assert settle.hands(out) == [("As Kd", 10, "blackjack", 25)]


def test_art03_insurance_pays_two_to_one_on_the_dealers_second_card(settle):
    out = settle(
        RULES, "As Ac Kd Kc", [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 5"]}]
    )
    assert settle.seat(out, 1)["insurance"] == {"bet": 5, "payout": 15}
    assert settle.hands(out) == [("As Kd", 10, "push", 10)]
    assert settle.money(out) == (15, 25, 10)


def test_art03_insurance_loses_without_a_dealer_blackjack(settle):
    out = settle(
        RULES,
        "9s Ac 9d 7c",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 5", "stand"]}],
    )
    assert out["dealer"]["cards"] == ["Ac", "7c"]
    assert settle.seat(out, 1)["insurance"] == {"bet": 5, "payout": 0}
    assert settle.money(out) == (15, 10, -5)


def test_art03_no_even_money(settle):
    with pytest.raises(IllegalActionError, match="spain-1979 offers no even money"):
        settle(RULES, "As Ac Kd Kc", [{"seat": 1, "bets": {"main": 10}, "actions": ["even-money"]}])
