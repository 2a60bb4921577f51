"""Peru 2016 deals the hole card face down (Art. 13, "su carta cubierta"). docs/rules.md
#D-BJ-31: a face-down card exposed in error is burnt in view and the next card of the shoe
takes its place; #D-GEN-11: a card found face up in the shoe is burnt (the text is silent);
#D-GEN-12: a card dealt in error is burnt and the round goes on as it stood. Each is its own
event after the ones before it, which stay as they were."""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.games.events import CardDrawn
from croupier.games.record import commands_of
from croupier.games.replay import replay
from croupier.rules import load_profile
from croupier.shoe import Shoe

RULES = load_profile("peru-2016")


def _dealt(cards: str) -> BlackjackRound:
    game = BlackjackRound(RULES, Shoe.parse(cards, decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    return game


def _results(game: BlackjackRound) -> list[tuple[int, str, object, object]]:
    return [(w.seat, w.result, w.stake, w.payout) for w in game.results().wagers]


def test_d_bj_31_an_exposed_hole_card_is_replaced_by_the_next_card():
    # Box Th 7d = 17; dealer 9c, hole 5s exposed: replaced by 8h. The dealer stands on 17:
    # a push. Left in play, 5s would have made 14, then 2c 3d: 19, and the box would lose.
    game = _dealt("Th 9c 7d 5s 8h 2c 3d")
    events = game.exposed("hole")
    assert [event.to_json() for event in events] == [
        {"kind": "CardExposed", "place": "hole", "card": "5s", "outcome": "replaced"},
        {"kind": "CardDrawn", "card": "8h", "purpose": "hole"},
    ]
    # The new hole card is as secret as the first was (R6); the exposed one is public.
    for viewer in (1, None):
        view = game.view(viewer)
        assert view["dealer"]["cards"] == ["9c", "??"]
        assert "8h" not in str(view)
        assert view["corrections"] == [events[0].to_json()]
    game.act(1, Action("stand"))
    assert game.dealer_cards == ["9c", "8h"]
    assert _results(game) == [(1, "push", 10, 10)]
    # The first deal of the hole card is not rewritten: both draws are in the record.
    holes = [str(e.card) for e in game.events if isinstance(e, CardDrawn) and e.purpose == "hole"]
    assert holes == ["5s", "8h"]
    assert [str(c) for c in commands_of(game.events)] == [
        "bet 1 main 10",
        "deal",
        "exposed hole",
        "act 1 stand",
    ]
    assert replay(game.events).events == game.events


def test_d_gen_11_a_card_face_up_in_the_shoe_is_burnt_and_the_hit_takes_the_next():
    # Box Th 4d = 14 hits: Kh is found face up and burnt in view; the hit draws 6c: 20.
    # Dealer 9c 8s = 17: the box wins 1:1.
    game = _dealt("Th 9c 4d 8s Kh 6c")
    assert [e.to_json() for e in game.face_up()] == [
        {"kind": "CardDrawn", "card": "Kh", "purpose": "shown-burn"},
        {"kind": "CardFoundFaceUp", "card": "Kh", "disposal": "burnt"},
    ]
    game.act(1, Action("hit"))
    game.act(1, Action("stand"))
    assert [str(card) for card in game.boxes[1].hands[0].cards] == ["Th", "4d", "6c"]
    assert _results(game) == [(1, "win", 10, 20)]
    assert replay(game.events).events == game.events


def test_d_gen_12_a_card_dealt_in_error_is_burnt_and_the_round_goes_on_as_it_stood():
    # After the deal a card (Kh) leaves the shoe where none was called for: burnt. The box
    # (Th 4d) doubles and gets 7c: 21 for 20 staked; dealer 9c 8s = 17.
    game = _dealt("Th 9c 4d 8s Kh 7c")
    assert [e.to_json() for e in game.dealt_in_error()] == [
        {"kind": "CardDrawn", "card": "Kh", "purpose": "shown-burn"},
        {"kind": "CardDealtInError", "card": "Kh"},
    ]
    game.act(1, Action("double", 10))
    assert _results(game) == [(1, "win", 20, 40)]
    assert replay(game.events).events == game.events


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda g: g.exposed("seat 1 hand 0"), "not_face_down"),
        (lambda g: g.face_up(Shoe.parse("Ah", 6).draw()), "not_the_next_card"),
    ],
)
def test_d_bj_31_refused_corrections_change_nothing(make, code):
    game = _dealt("Th 9c 7d 5s 8h 2c 3d")
    before, position = list(game.events), game.shoe.position
    with pytest.raises(IllegalActionError) as refused:
        make(game)
    assert refused.value.code == code
    assert "8h" not in str(refused.value)  # a refusal names no card of the shoe (R6)
    assert game.events == before and game.shoe.position == position


def test_d_gen_12_no_card_is_dealt_in_error_before_the_deal_nor_after_the_round():
    game = BlackjackRound(RULES, Shoe.parse("Th 9c 7d 5s 8h 2c 3d", decks=6))
    game.place_bet(1, "main", 10)
    for correction in (game.dealt_in_error, lambda: game.exposed("hole"), game.confused_deal):
        with pytest.raises(IllegalActionError) as refused:
            correction()
        assert refused.value.code == "nothing_dealt_yet"
    game.deal()
    game.act(1, Action("stand"))
    for correction in (game.dealt_in_error, game.face_up, game.confused_deal):
        with pytest.raises(IllegalActionError) as refused:
            correction()
        assert refused.value.code == "round_over"


def test_d_gen_14_legal_corrections_come_from_the_same_checks():
    game = BlackjackRound(RULES, Shoe.parse("Th 9c 7d 5s 8h 2c 3d", decks=6))
    game.place_bet(1, "main", 10)
    assert [str(c) for c in game.legal_corrections()] == ["face-up"]
    game.deal()
    assert [str(c) for c in game.legal_corrections()] == [
        "face-up",
        "dealt-in-error",
        "exposed hole",
        "confused-deal",
    ]
    game.act(1, Action("stand"))
    assert game.legal_corrections() == []
