"""Veintiuno Real sheet item 10c: split Aces receive 'una carta cubierta' each; item 12: a
double receives 'solo una carta tapada'. Those cards reach no view until the dealer turns them
after the players (R6); the money is the same as face up."""

from __future__ import annotations

from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.rules import load_profile
from croupier.shoe import Shoe

RULES = "veintiuno-real"


def _hand_view(
    game: BlackjackRound, viewer: int | None, seat: int
) -> list[tuple[list[str], object]]:
    box = next(box for box in game.view(viewer)["seats"] if box["seat"] == seat)
    return [(hand["cards"], hand["total"]) for hand in box["hands"]]


def test_item12_the_double_card_is_face_down_until_the_dealer_plays():
    # Seat 1: 5s 6d doubles and draws Ts face down; seat 2 still to play; dealer 9c 7h.
    game = BlackjackRound(load_profile(RULES), Shoe.parse("5s 8h 9c 6d 9s 7h Ts 2c", decks=6))
    game.place_bet(1, "main", 10)
    game.place_bet(2, "main", 10)
    game.deal()
    game.act(1, Action("double"))
    for viewer in (1, 2, None):
        assert _hand_view(game, viewer, 1) == [(["5s", "6d", "??"], None)]
        assert "Ts" not in str(game.view(viewer))
    game.act(2, Action("stand"))  # 17; the dealer's 16 draws 2c: 18
    assert _hand_view(game, 1, 1) == [(["5s", "6d", "Ts"], 21)]
    assert [(w.seat, w.result, w.payout) for w in game.results().wagers] == [
        (2, "lose", 0),
        (1, "win", 40),
    ]


def test_item10c_split_aces_cards_are_face_down_and_ace_ten_still_pays_as_blackjack():
    game = BlackjackRound(load_profile(RULES), Shoe.parse("As 8h 9c Ad 9s 7h Kd 5c 2d", decks=6))
    game.place_bet(1, "main", 10)
    game.place_bet(2, "main", 10)
    game.deal()
    game.act(1, Action("split"))
    assert _hand_view(game, 2, 1) == [(["As", "??"], None), (["Ad", "??"], None)]
    assert "Kd" not in str(game.view(2)) and "5c" not in str(game.view(1))
    game.act(2, Action("stand"))  # 17 against the dealer's 9 7 2 = 18
    assert _hand_view(game, 1, 1) == [(["As", "Kd"], 21), (["Ad", "5c"], 16)]
    payouts = {(w.seat, w.hand): (w.result, w.payout) for w in game.results().wagers}
    assert payouts == {(1, 0): ("blackjack", 25), (1, 1): ("lose", 0), (2, 0): ("lose", 0)}
