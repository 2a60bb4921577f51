"""Peru 2016, Art. 10: insurance when the dealer's up card is an Ace, on original hands only,
up to half the original bet; it loses unless the hole card is ten-valued, then pays 2:1
(docs/rules.md §1 decision). An insured hand may be split."""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError
from round_support import action_of, is_decision

RULES = "peru-2016"


def test_art10_insurance_pays_two_to_one_on_a_ten_in_the_hole(settle):
    """'...pays 2:1 otherwise' (decision): 5 insured on 10 returns 15; the hand loses to the
    dealer's blackjack (its original bet only)."""
    out = settle(
        RULES,
        "9h As 9d Kc",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 5", "stand"]}],
    )
    assert out["dealer"] == {"cards": ["As", "Kc"], "total": 21, "blackjack": True}
    assert settle.seat(out, 1)["insurance"] == {"bet": 5, "payout": 15}
    assert settle.hands(out) == [("9h 9d", 10, "lose", 0)]
    assert settle.money(out) == (15, 15, 0)


def test_art10_insurance_loses_when_the_hole_card_is_not_ten_valued(settle):
    """Art. 10: 'las apuestas colocadas en la sección de seguros se considerarán perdedoras'."""
    out = settle(
        RULES,
        "9h As 9d 7c",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 5", "stand"]}],
    )
    assert out["dealer"]["cards"] == ["As", "7c"]  # soft 18 stands
    assert settle.seat(out, 1)["insurance"] == {"bet": 5, "payout": 0}
    assert settle.hands(out) == [("9h 9d", 10, "push", 10)]
    assert settle.money(out) == (15, 10, -5)


def test_art10_insurance_up_to_half_the_original_bet(settle):
    """Art. 10: 'sólo podrán efectuarse hasta por la mitad de la apuesta original'; half of 15
    is 7.5, so 7 whole units is the most."""
    out = settle(
        RULES,
        "9h As 9d 7c",
        [{"seat": 1, "bets": {"main": 15}, "actions": ["insurance 7", "stand"]}],
    )
    assert settle.seat(out, 1)["insurance"] == {"bet": 7, "payout": 0}
    with pytest.raises(IllegalActionError, match="insurance 8"):
        settle(
            RULES,
            "9h As 9d 7c",
            [{"seat": 1, "bets": {"main": 15}, "actions": ["insurance 8", "stand"]}],
        )


def test_art10_no_insurance_unless_the_up_card_is_an_ace(settle):
    """Art. 10: offered when the dealer's up card is an Ace only."""
    with pytest.raises(IllegalActionError, match="insurance"):
        settle(
            RULES,
            "9h Ks 9d 7c",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 5", "stand"]}],
        )


def test_art10_each_seat_asked_once_in_seat_order_before_play(settle):
    """Art. 10 with Art. 14: insurance on original hands only, so every seat answers before
    the first player draws."""
    out = settle(
        RULES,
        "9h Th As 9d 8d 7c",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": ["no-insurance", "stand"]},
            {"seat": 2, "bets": {"main": 10}, "actions": ["insurance 5", "stand"]},
        ],
    )
    decided = [(e["seat"], action_of(e)) for e in out["events"] if is_decision(e)]
    assert decided == [(1, "no-insurance"), (2, "insurance 5"), (1, "stand"), (2, "stand")]
    assert settle.hands(out, 1) == [("9h 9d", 10, "push", 10)]  # 18 against A7 = 18
    assert settle.money(out, 2) == (15, 10, -5)


def test_art10_an_insured_hand_may_be_split(settle):
    """Art. 10: 'Está permitida la separación de cartas de igual valor de una apuesta asegurada'."""
    out = settle(
        RULES,
        "8h As 8d 6c Tc Ts",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 5", "split", "stand", "stand"]}],
    )
    # The dealer's A6 is a soft 17 and stands (Art. 14, S17).
    assert settle.hands(out) == [("8h Tc", 10, "win", 20), ("8d Ts", 10, "win", 20)]
    assert settle.seat(out, 1)["insurance"] == {"bet": 5, "payout": 0}
    assert settle.money(out) == (25, 40, 15)
