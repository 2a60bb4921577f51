"""Veintiuno Real sheet items 2-12 and docs/rules.md §3 decisions, as loaded and as dealt."""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError, SettleInputError
from croupier.rules import load_profile
from croupier.rules.blackjack import DealerBlackjackTakes, DoubleOn, HoleCard

RULES = "veintiuno-real"


def test_item4_three_boxes_per_player_and_the_decisions_as_loaded():
    """Item 4: 'hasta en tres como máximo' (enforcing it is the table's business); decisions:
    6 decks, hole card revealed after the players, OBO, S17, up to four hands, no Ace re-split."""
    profile = load_profile(RULES)
    assert profile.boxes_per_player == 3
    assert profile.decks == 6
    assert profile.hole_card is HoleCard.DEALT
    assert profile.dealer_blackjack_takes is DealerBlackjackTakes.ORIGINAL_BET_ONLY
    assert profile.dealer_hits_soft_17 is False
    assert profile.max_hands == 4 and profile.resplit_aces is False
    assert profile.double_on is DoubleOn.HARD_9_TO_11 and profile.double_after_split is True
    assert str(profile.blackjack_pays) == "3:2" and str(profile.veintiuno_real.pays) == "5:1"


def test_item7_blackjack_wins_150_percent_at_settlement(settle):
    """Item 7: 'se gana el 150%'; not paid early (the sheet says nothing of it)."""
    out = settle(RULES, "As 9c Kd 7h 2s", [{"seat": 1, "bets": {"main": 10}, "actions": []}])
    assert settle.hands(out) == [("As Kd", 10, "blackjack", 25)]
    assert out["dealer"]["cards"] == ["9c", "7h", "2s"]


def test_item11_insurance_up_to_half_pays_two_for_one(settle):
    out = settle(
        RULES,
        "9h As 9d Kc",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 5", "stand"]}],
    )
    assert settle.seat(out, 1)["insurance"] == {"bet": 5, "payout": 15}
    assert settle.hands(out) == [("9h 9d", 10, "lose", 0)]
    with pytest.raises(IllegalActionError, match="insurance 6"):
        settle(
            RULES,
            "9h As 9d Kc",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["insurance 6", "stand"]}],
        )


def test_item12_double_a_hard_9_to_11_for_the_full_bet_also_after_a_split(settle):
    out = settle(
        RULES,
        "5s 6c 5h Td 6d 9h 2d 7c",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "double", "stand"]}],
    )
    # Hand 1: 5s 6d = 11 doubles and draws 9h; hand 2: 5h 2d = 7 stands; dealer 6 T 7 = 23.
    assert settle.hands(out) == [("5s 6d 9h", 20, "win", 40), ("5h 2d", 10, "win", 20)]
    with pytest.raises(IllegalActionError, match="veintiuno-real doubles only a hard 9, 10 or 11"):
        settle(RULES, "Ts 6c 2h Td 9h", [{"seat": 1, "bets": {"main": 10}, "actions": ["double"]}])
    with pytest.raises(IllegalActionError, match="doubles for the full bet only"):
        settle(
            RULES, "5s 6c 6h Td 9h", [{"seat": 1, "bets": {"main": 10}, "actions": ["double 5"]}]
        )


def test_item10b_up_to_three_splits_four_hands(settle):
    with pytest.raises(IllegalActionError, match="at most 4 hands"):
        settle(
            RULES,
            "8s 7c 8h Td 8d 8c 8s 3c 3d 3h 3s",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["split"] * 4}],
        )


def test_decision_aces_are_not_resplit(settle):
    """The split Ace that draws an Ace is not asked: a 'split' is an action left over."""
    out = settle(
        RULES, "As 9c Ad 7h Ah 5c 2d", [{"seat": 1, "bets": {"main": 10}, "actions": ["split"]}]
    )
    assert settle.hands(out) == [("As Ah", 10, "lose", 0), ("Ad 5c", 10, "lose", 0)]
    with pytest.raises(SettleInputError, match="left over"):
        settle(
            RULES,
            "As 9c Ad 7h Ah 5c 2d",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "split"]}],
        )
