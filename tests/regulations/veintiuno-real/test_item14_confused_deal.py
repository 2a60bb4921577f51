"""Veintiuno Real sheet, item 14: "Si se produce alguna confusión en la distribución de las
cartas, las mismas serán «quemadas». En el caso de ser quemadas una o más cartas, o un pase,
queda prohibida su reconstrucción y no se aceptará reclamo alguno." docs/rules.md#D-GEN-13:
the cards on the table are burnt and the round is void, every stake still in play returned.
Item 12's double card lies face down ("solo una carta tapada"): exposed in error, it is burnt
and replaced (docs/rules.md#D-BJ-31)."""

from __future__ import annotations

from croupier.cards import parse_cards
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.games.events import DealConfused, RoundVoided
from croupier.games.replay import replay
from croupier.rules import load_profile
from croupier.shoe import Shoe

RULES = load_profile("veintiuno-real")


def _two_boxes(cards: str) -> BlackjackRound:
    game = BlackjackRound(RULES, Shoe.parse(cards, decks=6))
    game.place_bet(1, "main", 10)
    game.place_bet(2, "main", 10)
    game.deal()
    return game


def _results(game: BlackjackRound) -> list[tuple[int, str, object, object]]:
    return [(w.seat, w.result, w.stake, w.payout) for w in game.results().wagers]


def test_item14_a_confused_deal_burns_the_cards_and_returns_every_stake():
    game = _two_boxes("5s 8h 9c 6d 9s 7h Ts 2c 4d")
    events = game.confused_deal()
    assert events[0] == DealConfused(cards=parse_cards("5s 8h 9c 6d 9s 7h"))
    assert events[1] == RoundVoided(reason="confused deal")
    assert game.is_done
    # From the dealer's right, each box's stake comes back whole.
    assert _results(game) == [(2, "void", 10, 10), (1, "void", 10, 10)]
    assert game.results().house_net == 0
    assert replay(game.events).events == game.events


def test_item14_a_confused_deal_after_a_double_returns_the_doubled_stake():
    # Box 1 (5s 6d) doubles for 10 and gets Ts face down; then the deal is found confused.
    game = _two_boxes("5s 8h 9c 6d 9s 7h Ts 2c 4d")
    game.act(1, Action("double"))
    game.confused_deal()
    assert _results(game) == [(2, "void", 10, 10), (1, "void", 20, 20)]
    confused = next(e for e in game.events if isinstance(e, DealConfused))
    assert confused.cards == parse_cards("5s 8h 9c 6d 9s 7h Ts")
    assert replay(game.events).events == game.events


def test_item12_d_bj_31_an_exposed_double_card_is_replaced_and_the_hand_goes_on():
    # Box 1 (5s 6d) doubles: Ts face down, exposed in error: replaced by 2c (13). Box 2
    # stands on 17; the dealer's 9c 7h draws 4d: 20. Both boxes lose; box 1 had 20 at stake.
    game = _two_boxes("5s 8h 9c 6d 9s 7h Ts 2c 4d")
    game.act(1, Action("double"))
    assert game.face_down_places() == {
        "hole": parse_cards("7h")[0],
        "seat 1 hand 0": parse_cards("Ts")[0],
    }
    game.exposed("seat 1 hand 0")
    box = next(box for box in game.view(2)["seats"] if box["seat"] == 1)
    assert box["hands"][0]["cards"] == ["5s", "6d", "??"]  # the new card is face down too
    game.act(2, Action("stand"))
    assert [str(card) for card in game.boxes[1].hands[0].cards] == ["5s", "6d", "2c"]
    assert game.dealer_cards == ["9c", "7h", "4d"]
    assert _results(game) == [(2, "lose", 10, 0), (1, "lose", 20, 0)]
    assert replay(game.events).events == game.events
