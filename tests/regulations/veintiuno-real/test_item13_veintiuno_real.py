"""Veintiuno Real sheet, item 13: a box dealt two 7s that draws a third 7 as its third card is
Veintiuno Real: paid 5:1, losing only to a dealer blackjack. docs/rules.md §3 decision: only the
unsplit original hand qualifies."""

from __future__ import annotations

RULES = "veintiuno-real"


def test_item13_three_sevens_pay_five_to_one(settle):
    out = settle(RULES, "7h Tc 7d 9s 7c", [{"seat": 1, "bets": {"main": 10}, "actions": ["hit"]}])
    assert settle.hands(out) == [("7h 7d 7c", 10, "veintiuno-real", 60)]
    assert settle.money(out) == (10, 60, 50)


def test_item13_veintiuno_real_beats_a_dealer_21(settle):
    out = settle(
        RULES, "7h Tc 7d 5s 7c 6h", [{"seat": 1, "bets": {"main": 10}, "actions": ["hit"]}]
    )
    assert out["dealer"] == {"cards": ["Tc", "5s", "6h"], "total": 21, "blackjack": False}
    assert settle.hands(out) == [("7h 7d 7c", 10, "veintiuno-real", 60)]


def test_item13_veintiuno_real_loses_to_a_dealer_blackjack(settle):
    out = settle(
        RULES,
        "7h Ac 7d Kh 7c",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["no-insurance", "hit"]}],
    )
    assert settle.hands(out) == [("7h 7d 7c", 10, "lose", 0)]


def test_decision_only_the_unsplit_hand_qualifies(settle):
    out = settle(
        RULES,
        "7h Tc 7d 9s 7c 7s Ts",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "hit", "stand"]}],
    )
    # Hand 1 is 7h 7c, hits 7s: 21 of three 7s, but formed by a split: paid 1:1.
    assert settle.hands(out) == [("7h 7c 7s", 10, "win", 20), ("7d Ts", 10, "lose", 0)]


def test_item13_the_third_card_must_be_the_third_seven(settle):
    out = settle(
        RULES, "7h Tc 7d 9s 2c 5c", [{"seat": 1, "bets": {"main": 10}, "actions": ["hit", "hit"]}]
    )
    assert settle.hands(out) == [("7h 7d 2c 5c", 10, "win", 20)]
