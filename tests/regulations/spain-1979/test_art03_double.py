"""Spain 1979, Art. 03 V: double only on a two-card 9, 10 or 11, for the full original bet, one
card; allowed on split hands. docs/rules.md §2 decision: hard totals only (A+8 is a soft 19)."""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError

RULES = "spain-1979"


@pytest.mark.parametrize(("first", "second"), [("5h", "4d"), ("6h", "4d"), ("7h", "4d")])
def test_art03_double_on_a_hard_9_10_or_11(settle, first, second):
    """9, 10 and 11 draw a ten to 19, 20, 21 against the dealer's 9+8 = 17: each wins 1:1
    on the doubled bet."""
    out = settle(
        RULES,
        f"{first} 9c {second} Ts 8c",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["double"]}],
    )
    assert settle.hands(out) == [(f"{first} {second} Ts", 20, "win", 40)]
    assert out["dealer"]["cards"] == ["9c", "8c"]


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        ("As 9c 8d", "hard 9, 10 or 11"),  # A+8 is a soft 19, not a 9
        ("5s 9c 3d", "hard 9, 10 or 11"),  # 8
        ("7s 9c 5d", "hard 9, 10 or 11"),  # 12
        ("Ac 9c Ad", "hard 9, 10 or 11"),  # A+A is a soft 12
    ],
)
def test_decision_no_double_outside_hard_9_to_11(settle, cards, why):
    with pytest.raises(IllegalActionError, match=why):
        settle(RULES, f"{cards} Ts 7c", [{"seat": 1, "bets": {"main": 10}, "actions": ["double"]}])


def test_art03_double_for_the_full_bet_only(settle):
    with pytest.raises(IllegalActionError, match="spain-1979 doubles for the full bet only"):
        settle(
            RULES, "6h 9c 4d Ts 7c", [{"seat": 1, "bets": {"main": 10}, "actions": ["double 5"]}]
        )


def test_art03_double_after_a_split(settle):
    out = settle(
        RULES,
        "5s 6c 5h 5d 2d Tc Kd 9h",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "double", "stand"]}],
    )
    # Hand 1: 5s 5d = 10, doubled, draws 2d; hand 2: 5h Tc = 15 stands; dealer 6+K+9 = 25.
    assert settle.hands(out) == [("5s 5d 2d", 20, "win", 40), ("5h Tc", 10, "win", 20)]
    assert out["dealer"]["cards"] == ["6c", "Kd", "9h"]
