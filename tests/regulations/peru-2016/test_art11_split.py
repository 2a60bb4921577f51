"""Peru 2016, Art. 11: splitting two cards of the same value."""

from __future__ import annotations

import copy

import pytest

from croupier.errors import IllegalActionError, SettleInputError
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.games.events import Settled
from croupier.rules import load_profile
from croupier.shoe import Shoe

RULES = "peru-2016"


def test_art11_cards_of_the_same_value_split_king_and_queen(settle):
    """Art. 11: 'si las primeras dos cartas ... tienen el mismo valor, podrá considerarlas como
    manos separadas'; the original bet stays on hand 1 and an equal bet goes on hand 2."""
    out = settle(
        RULES,
        "Kh 6c Qd 7s 9c 8h Td",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "stand", "stand"]}],
    )
    assert settle.hands(out) == [("Kh 9c", 10, "win", 20), ("Qd 8h", 10, "win", 20)]
    assert out["dealer"]["cards"] == ["6c", "7s", "Td"]
    assert settle.money(out) == (20, 40, 20)


def test_art11_hands_played_in_order_a_resplit_hand_right_after_its_parent(settle):
    """Art. 11: hand 1 receives its second card and is played out, then hand 2; docs/rules.md §1:
    a hand formed by a re-split is played right after the hand it came from."""
    out = settle(
        RULES,
        "8s 7c 8h Td 8d 2c 9c Kd",
        [
            {
                "seat": 1,
                "bets": {"main": 10},
                "actions": ["split", "split", "stand", "stand", "stand"],
            }
        ],
    )
    # 8s draws 8d and re-splits: the new hand (8d) is played before the first split hand (8h).
    assert [hand["hand"] for hand in settle.seat(out, 1)["hands"]] == [0, 2, 1]
    assert settle.hands(out) == [
        ("8s 2c", 10, "lose", 0),
        ("8d 9c", 10, "push", 10),
        ("8h Kd", 10, "win", 20),
    ]
    assert settle.money(out) == (30, 30, 0)


def _split_three_times() -> BlackjackRound:
    profile = load_profile(RULES)
    game = BlackjackRound(profile, Shoe.parse("8s 7c 8h Td 8d 8c 8s 3c 3d 3h 3s", decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    for _ in range(3):
        game.act(1, Action("split"))
    return game


def test_art11_at_most_four_hands_per_box():
    """Art. 11: 'Cada explotador determinará el máximo de separación'; docs/rules.md §1 decision: 4."""
    game = _split_three_times()
    assert [hand.number for hand in game.boxes[1].hands] == [0, 3, 2, 1]
    assert [str(card) for card in game.boxes[1].hands[0].cards] == ["8s", "8s"]
    assert "split" not in [action.name for action in game.legal_actions()]
    before = (list(game.events), copy.deepcopy(game.boxes), game.shoe.position)
    with pytest.raises(
        IllegalActionError, match="seat 1: split refused: a box may split into at most 4"
    ):
        game.act(1, Action("split"))
    assert (game.events, game.boxes, game.shoe.position) == before


def test_art11_split_aces_get_one_card_each_and_are_not_asked(settle):
    """Art. 11: 'Si la separación de cartas involucra ases, el jugador sólo recibirá una carta
    adicional por cada mano separada'. docs/rules.md §1: 21 on a split hand is not a blackjack (1:1)."""
    out = settle(
        RULES, "As 9c Ad 7h Kd 5c 2d", [{"seat": 1, "bets": {"main": 10}, "actions": ["split"]}]
    )
    assert settle.hands(out) == [("As Kd", 10, "win", 20), ("Ad 5c", 10, "lose", 0)]
    assert out["dealer"]["cards"] == ["9c", "7h", "2d"]


def test_art11_split_aces_are_not_resplit(settle):
    """docs/rules.md §1 decision: no re-split of Aces; the Ace drawn to a split Ace stands as 12."""
    out = settle(
        RULES, "As 9c Ad 7h Ah 5c 2d", [{"seat": 1, "bets": {"main": 10}, "actions": ["split"]}]
    )
    assert settle.hands(out) == [("As Ah", 10, "lose", 0), ("Ad 5c", 10, "lose", 0)]
    # The split Ace is not asked again, so a second 'split' is an action left over.
    with pytest.raises(SettleInputError, match="left over, from 'split'"):
        settle(
            RULES,
            "As 9c Ad 7h Ah 5c 2d",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "split"]}],
        )


def test_art11_a_split_hand_that_busts_loses_at_once_whatever_the_dealer_does(settle):
    """Art. 11: 'si ... vuela en alguna de sus manos adicionales, el jugador perderá su apuesta
    en esa mano sin considerar el resultado de la mano del dealer'."""
    out = settle(
        RULES,
        "Th 6c Td 6d 5c Kc 9h Ts",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "hit", "stand"]}],
    )
    assert out["dealer"] == {"cards": ["6c", "6d", "Ts"], "total": 22, "blackjack": False}
    assert settle.hands(out) == [("Th 5c Kc", 10, "bust", 0), ("Td 9h", 10, "win", 20)]
    kinds = settle.kinds(out)
    bust = next(
        i for i, e in enumerate(out["events"]) if e["kind"] == "Settled" and e["result"] == "bust"
    )
    assert bust < kinds.index("HoleCardRevealed")


def test_art11_only_a_pair_may_split():
    """Art. 11: only two cards of the same value; the refusal names the action and the seat."""
    profile = load_profile(RULES)
    game = BlackjackRound(profile, Shoe.parse("9s 7c 8h Td", decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    with pytest.raises(IllegalActionError, match=r"seat 1: split refused: .* is not a pair"):
        game.act(1, Action("split"))
    assert not any(isinstance(e, Settled) for e in game.events)
