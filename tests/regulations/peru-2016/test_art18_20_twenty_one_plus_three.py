"""Peru 2016, Arts. 18-20: the 21+3 side bet. The player's first two cards and the dealer's up
card as a three-card hand, settled right after the deal and before insurance. Paytable:
straight flush 30:1, three of a kind 20:1, straight 10:1, flush 5:1, anything else loses.
docs/rules.md §1 decisions: A-2-3 and Q-K-A are straights, K-A-2 is not; suited trips pay as three
of a kind (the single best category pays)."""

from __future__ import annotations

import pytest

from croupier.cards import parse_cards
from croupier.errors import BetError
from croupier.hands.three_card import classify_three_card
from croupier.rules.blackjack import ThreeCardHand
from round_support import is_decision

RULES = "peru-2016"


@pytest.mark.parametrize(
    ("cards", "actions", "category", "payout"),
    [
        ("9h Jh Th", ["stand"], "straight_flush", 155),  # 30:1 on 5
        ("7h 7c 7d", ["stand"], "three_of_a_kind", 105),  # 20:1
        ("7h 7h 7h", ["stand"], "three_of_a_kind", 105),  # suited trips: not 30:1
        ("4h 5c 6d", ["stand"], "straight", 55),  # 10:1
        ("2h 3c Ad", ["stand"], "straight", 55),  # A-2-3
        ("Qh Kc Ad", [], "straight", 55),  # Q-K-A (the player's blackjack is not asked)
        ("2h 9h Kh", ["stand"], "flush", 30),  # 5:1
        ("Kh Ac 2d", ["no-insurance", "stand"], "none", 0),  # K-A-2 is no straight
        ("2h 9c Kh", ["stand"], "none", 0),
    ],
)
def test_art20_paytable(settle, cards, actions, category, payout):
    """Art. 20: 'Si la mano del jugador califica, se le pagará según el cuadro de pagos'.
    The shoe deals player, up card, player: the three cards are read in that order."""
    out = settle(
        RULES,
        f"{cards} 5s Tc Th",
        [{"seat": 1, "bets": {"main": 10, "21+3": 5}, "actions": actions}],
    )
    assert settle.seat(out, 1)["side_bets"]["21+3"] == {
        "bet": 5,
        "result": category,
        "payout": payout,
    }


def test_art19_settled_right_after_the_deal_before_insurance(settle):
    """Art. 19: 'Si la carta del dealer es un "As", éste terminará con el pago o recojo de la
    apuesta adicional antes de preguntar por seguros'."""
    out = settle(
        RULES,
        "2h Ah 3h 7c",
        [{"seat": 1, "bets": {"main": 10, "21+3": 5}, "actions": ["no-insurance", "stand"]}],
    )
    kinds = settle.kinds(out)
    side = next(
        i for i, e in enumerate(out["events"]) if e["kind"] == "Settled" and e["wager"] == "21+3"
    )
    first_decision = next(i for i, e in enumerate(out["events"]) if is_decision(e))
    assert kinds.index("CardDrawn") < side < first_decision
    assert settle.seat(out, 1)["side_bets"]["21+3"] == {
        "bet": 5,
        "result": "straight_flush",
        "payout": 155,
    }
    assert settle.money(out) == (15, 155, 140)  # 2+3 = 5 against A7 = 18: the main bet loses


def test_art18_21_plus_3_reads_the_first_two_cards_even_after_a_split(settle):
    out = settle(
        RULES,
        "8h 9h 8c 7c 3d 2s Ts",
        [{"seat": 1, "bets": {"main": 10, "21+3": 5}, "actions": ["split", "stand", "stand"]}],
    )
    assert settle.seat(out, 1)["side_bets"]["21+3"] == {"bet": 5, "result": "none", "payout": 0}
    assert settle.hands(out) == [("8h 3d", 10, "win", 20), ("8c 2s", 10, "win", 20)]


def test_art19_the_side_bet_rides_on_a_main_bet(settle):
    """Decision (croupier): 21+3 needs a main bet on the same box."""
    with pytest.raises(BetError, match="seat 1: 21\\+3 needs a main bet"):
        settle(RULES, "2h Ah 3h 7c", [{"seat": 1, "bets": {"21+3": 5}, "actions": []}])


def test_art19_side_bet_limits(settle):
    """docs/rules.md §6 decision: 1 to 10,000 units."""
    with pytest.raises(BetError, match="10001 is outside the limits 1 to 10000"):
        settle(
            RULES,
            "2h 9h 3h 7c",
            [{"seat": 1, "bets": {"main": 10, "21+3": 10001}, "actions": ["stand"]}],
        )


def test_art20_classification_single_best_category():
    assert (
        classify_three_card(parse_cards("Ah 2h 3h"), ace_low_straight=True)
        is ThreeCardHand.STRAIGHT_FLUSH
    )
    assert (
        classify_three_card(parse_cards("Ah 2h 3h"), ace_low_straight=False) is ThreeCardHand.FLUSH
    )
    assert classify_three_card(parse_cards("Ah 2c 3h"), ace_low_straight=False) is None
