"""Peru 2016, Art. 12: 'incremento' — after the first two cards, on any total, by up to the
original bet (doubling for less), exactly one more card; allowed on split hands."""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError, SettleInputError

RULES = "peru-2016"


def test_art12_double_on_any_total_takes_one_card(settle):
    """Art. 12 (any total, here a 12): 'se le entregará sólo una carta descubierta'."""
    out = settle(
        RULES, "Th 9c 2d 7s 9h Ts", [{"seat": 1, "bets": {"main": 10}, "actions": ["double"]}]
    )
    assert settle.hands(out) == [("Th 2d 9h", 20, "win", 40)]
    assert out["dealer"]["cards"] == ["9c", "7s", "Ts"]
    assert settle.money(out) == (20, 40, 20)


def test_art12_double_for_less(settle):
    """Art. 12: 'hasta por un máximo de la apuesta original': 5 more on 10."""
    out = settle(
        RULES, "Th 9c 2d 7s 9h Ts", [{"seat": 1, "bets": {"main": 10}, "actions": ["double 5"]}]
    )
    assert settle.hands(out) == [("Th 2d 9h", 15, "win", 30)]
    assert settle.money(out) == (15, 30, 15)


def test_art12_double_more_than_the_original_bet_is_refused(settle):
    with pytest.raises(IllegalActionError, match="double 11 refused: a double is 1 to 10 units"):
        settle(
            RULES,
            "Th 9c 2d 7s 9h Ts",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["double 11"]}],
        )


def test_art12_a_doubled_hand_is_not_asked_again(settle):
    """Exactly one card: a 'stand' after a double is an action left over."""
    with pytest.raises(SettleInputError, match="left over"):
        settle(
            RULES,
            "Th 9c 2d 7s 9h Ts",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["double", "stand"]}],
        )


def test_art12_double_only_on_the_first_two_cards(settle):
    with pytest.raises(IllegalActionError, match="first two cards"):
        settle(
            RULES,
            "5h 9c 2d 7s 3h Ts",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["hit", "double"]}],
        )


def test_art12_hands_formed_by_a_split_may_double(settle):
    """Art. 12: 'Los jugadores que separen cartas, por las manos que esta separación origine
    podrán incrementar su apuesta' (and for less)."""
    out = settle(
        RULES,
        "8s 6c 8h Td 3c Kh 2d 9d 7d",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "double", "double 5"]}],
    )
    assert settle.hands(out) == [("8s 3c Kh", 20, "win", 40), ("8h 2d 9d", 15, "win", 30)]
    assert out["dealer"]["cards"] == ["6c", "Td", "7d"]
    assert settle.money(out) == (35, 70, 35)
