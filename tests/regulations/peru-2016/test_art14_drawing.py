"""Peru 2016, Art. 14: the voluntary draw, player by player from the dealer's left, then the
dealer reveals the hole card and draws to 17 (S17)."""

from __future__ import annotations

import copy

import pytest

from croupier.errors import IllegalActionError, SettleInputError
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound, Phase
from croupier.rules import load_profile
from croupier.shoe import Shoe
from round_support import action_of, is_decision

RULES = "peru-2016"


def test_art14_players_act_one_by_one_from_the_dealers_left(settle):
    """Art. 14: 'uno por uno, empezando por su izquierda. Sólo después de haber terminado su
    juego un jugador, podrá el dealer ofrecer cartas al jugador siguiente'."""
    out = settle(
        RULES,
        "5h 6h 9c 5d 6d 7s 4c 4d 8c Ts",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": ["hit", "hit", "stand"]},
            {"seat": 2, "bets": {"main": 10}, "actions": ["hit", "stand"]},
        ],
    )
    decided = [(e["seat"], action_of(e)) for e in out["events"] if is_decision(e)]
    assert decided == [(1, "hit"), (1, "hit"), (1, "stand"), (2, "hit"), (2, "stand")]
    assert settle.hands(out, 1) == [("5h 5d 4c 4d", 10, "win", 20)]
    assert settle.hands(out, 2) == [("6h 6d 8c", 10, "win", 20)]
    assert out["dealer"]["cards"] == ["9c", "7s", "Ts"]


def test_art14_out_of_turn_is_refused_and_changes_nothing():
    profile = load_profile(RULES)
    game = BlackjackRound(profile, Shoe.parse("5h 6h 9c 5d 6d 7s 4c", decks=6))
    game.place_bet(1, "main", 10)
    game.place_bet(2, "main", 10)
    game.deal()
    before = (list(game.events), copy.deepcopy(game.boxes), game.shoe.position, game.phase)
    with pytest.raises(IllegalActionError, match="seat 2: hit refused: it is seat 1's turn"):
        game.act(2, Action("hit"))
    assert (game.events, game.boxes, game.shoe.position, game.phase) == before


def test_art14_a_hand_at_21_stands_automatically(settle):
    """docs/rules.md §1 decision: a hand totalling 21 stands automatically (not asked again)."""
    out = settle(RULES, "7h 9c 4d 8s Th", [{"seat": 1, "bets": {"main": 10}, "actions": ["hit"]}])
    assert settle.hands(out) == [("7h 4d Th", 10, "win", 20)]
    with pytest.raises(SettleInputError, match="left over"):
        settle(
            RULES,
            "7h 9c 4d 8s Th",
            [{"seat": 1, "bets": {"main": 10}, "actions": ["hit", "stand"]}],
        )


def test_art14_a_bust_loses_at_once(settle):
    """Art. 14: 'Si vuela, el jugador pierde su apuesta, la cual es inmediatamente recogida'.
    With no hand left the dealer reveals and draws nothing (profile decision)."""
    out = settle(
        RULES, "Th 6c 6d Tc Ks 5h", [{"seat": 1, "bets": {"main": 10}, "actions": ["hit"]}]
    )
    assert settle.hands(out) == [("Th 6d Ks", 10, "bust", 0)]
    assert out["dealer"] == {"cards": ["6c", "Tc"], "total": 16, "blackjack": False}


def test_art14_dealer_draws_on_16_one_card_at_a_time_until_17_or_more(settle):
    """Art. 14: 'estará obligado a pedir cartas ... una a una hasta que su total llegue a 17'."""
    out = settle(
        RULES, "Th 2c 9d 3s 4h 5c 3d 9s", [{"seat": 1, "bets": {"main": 10}, "actions": ["stand"]}]
    )
    assert out["dealer"] == {
        "cards": ["2c", "3s", "4h", "5c", "3d"],
        "total": 17,
        "blackjack": False,
    }
    assert settle.hands(out) == [("Th 9d", 10, "win", 20)]


def test_art14_dealer_stands_on_soft_17(settle):
    """Art. 14: 'si tuviere un valor total de 17 o más puntos ... se plantará' (S17)."""
    out = settle(RULES, "Th 6c 9d As 5s", [{"seat": 1, "bets": {"main": 10}, "actions": ["stand"]}])
    assert out["dealer"] == {"cards": ["6c", "As"], "total": 17, "blackjack": False}
    assert settle.hands(out) == [("Th 9d", 10, "win", 20)]


def test_art14_hole_card_revealed_only_after_every_player():
    """docs/rules.md §1 decision: revealed after all players finish, never checked early; no seat
    sees it before (R6)."""
    profile = load_profile(RULES)
    game = BlackjackRound(profile, Shoe.parse("Th As 9d Kc", decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    assert game.phase is Phase.INSURANCE
    game.act(1, Action("no-insurance"))
    assert game.phase is Phase.PLAYER_TURNS  # dealer's blackjack not checked early
    for seat in (1, None):
        view = game.view(seat)
        assert view["dealer"]["cards"] == ["As", "??"]
        assert "Kc" not in str(view)
    game.act(1, Action("stand"))
    assert game.view(1)["dealer"]["cards"] == ["As", "Kc"]
