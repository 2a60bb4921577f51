"""Veintiuno Real sheet, item 10c (docs/rules.md §3): an Ace split that receives a ten-valued card
is paid as a blackjack (3:2) and counts as a blackjack for every purpose; a split ten that
draws an Ace is a plain 21; Aces are not re-split; up to four hands."""

from __future__ import annotations

RULES = "veintiuno-real"


def test_item10c_split_ace_and_ten_pays_as_a_blackjack(settle):
    out = settle(
        RULES, "As 9c Ad 7h Kd 5c 2d", [{"seat": 1, "bets": {"main": 10}, "actions": ["split"]}]
    )
    assert settle.hands(out) == [("As Kd", 10, "blackjack", 25), ("Ad 5c", 10, "lose", 0)]
    assert out["dealer"]["cards"] == ["9c", "7h", "2d"]


def test_item10c_split_ace_and_ten_pushes_a_dealer_blackjack(settle):
    """'counts as a blackjack for every purpose': it pushes; the other split hand is returned
    under OBO (docs/rules.md §3), so the box loses nothing."""
    out = settle(
        RULES, "As Kc Ad Ah Qd 5c", [{"seat": 1, "bets": {"main": 10}, "actions": ["split"]}]
    )
    assert out["dealer"]["blackjack"] is True
    assert settle.hands(out) == [("As Qd", 10, "push", 10), ("Ad 5c", 10, "push", 10)]
    assert settle.money(out) == (20, 20, 0)


def test_decision_a_split_ten_that_draws_an_ace_is_a_plain_21(settle):
    out = settle(
        RULES,
        "Kc 9c Kd 7h As 9h 2d",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "stand"]}],
    )
    assert settle.hands(out) == [("Kc As", 10, "win", 20), ("Kd 9h", 10, "win", 20)]
