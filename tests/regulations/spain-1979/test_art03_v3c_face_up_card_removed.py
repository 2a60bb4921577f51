"""Spain 1979, Art. 03 V.3.c: "Si apareciera una carta con la cara hacia arriba en el
distribuidor, se eliminará" (docs/rules.md#D-GEN-11, ``corrections.face_up_in_shoe =
"removed"``). The card leaves the game as its own recorded correction; the round goes on with
the card after it. Every card is dealt face up (V.3.c), so none can be exposed in error."""

from __future__ import annotations

import pytest

from croupier.cards import Card, parse_cards
from croupier.errors import CardNeeded, IllegalActionError
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.games.commands import FaceUp
from croupier.games.events import CardDrawn, Purpose
from croupier.games.record import commands_of
from croupier.games.replay import deal_on, replay
from croupier.rules import load_profile
from croupier.shoe import PhysicalShoe, Shoe

RULES = load_profile("spain-1979")


def _results(game: BlackjackRound) -> list[tuple[int, str, object, object]]:
    return [(w.seat, w.result, w.stake, w.payout) for w in game.results().wagers]


def test_v3c_a_card_face_up_in_the_shoe_before_the_deal_is_removed():
    # Kh is found face up: removed. The deal then takes Ts (box), 7d (dealer), 9c (box).
    game = BlackjackRound(RULES, Shoe.parse("Kh Ts 7d 9c Th", decks=6))
    game.place_bet(1, "main", 10)
    events = game.face_up()
    assert [event.to_json() for event in events] == [
        {"kind": "CardDrawn", "card": "Kh", "purpose": "removed"},
        {"kind": "CardFoundFaceUp", "card": "Kh", "disposal": "removed"},
    ]
    game.deal()
    assert game.boxes[1].hands[0].cards == list(parse_cards("Ts 9c"))
    game.act(1, Action("stand"))  # 19 against the dealer's 7 Th = 17
    assert _results(game) == [(1, "win", 10, 20)]
    assert replay(game.events).events == game.events


def test_v3c_a_card_face_up_found_mid_round_is_removed_and_the_dealer_draws_the_next():
    # Box Ts 9c = 19 against the dealer's 7d; Kh turns up face up: removed; the dealer then
    # draws 5h (12) and Th: 22, bust. Without the correction he would have drawn Kh: 17.
    game = BlackjackRound(RULES, Shoe.parse("Ts 7d 9c Kh 5h Th", decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    game.face_up()
    game.act(1, Action("stand"))
    assert game.dealer_cards == ["7d", "5h", "Th"]
    assert _results(game) == [(1, "win", 10, 20)]
    removed = [e for e in game.events if isinstance(e, CardDrawn) and e.purpose is Purpose.REMOVED]
    assert [str(e.card) for e in removed] == ["Kh"]
    # Every viewer sees the correction: the whole table saw the card.
    for viewer in (1, None):
        assert game.view(viewer)["corrections"] == [
            {"kind": "CardFoundFaceUp", "card": "Kh", "disposal": "removed"}
        ]
    assert replay(game.events).events == game.events


def test_v3c_every_card_face_up_so_none_can_be_exposed_and_the_refusal_changes_nothing():
    game = BlackjackRound(RULES, Shoe.parse("Ts 7d 9c Kh 5h Th", decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    before, position = list(game.events), game.shoe.position
    with pytest.raises(IllegalActionError) as refused:
        game.exposed("hole")
    assert refused.value.code == "nothing_face_down"
    assert not game.can_exposed("seat 1 hand 0")
    assert game.events == before and game.shoe.position == position


def _dealt_on(game: BlackjackRound, shoe: PhysicalShoe, cards: str) -> BlackjackRound:
    """The dealer enters ``cards`` one by one, the round dealt on after each (a physical shoe)."""
    for card in parse_cards(cards):
        shoe.enter(card)
        dealt = deal_on(game.events, shoe.at(0), RULES)
        assert isinstance(dealt, BlackjackRound)
        game, shoe = dealt, dealt.shoe  # type: ignore[assignment]
    return game


def test_v3c_a_card_found_face_up_while_the_dealer_draws_one_is_removed():
    """V.3.c at a physical shoe, the card turning up face up just as the round waits for the
    dealer's card (docs/rules.md#D-GEN-11): the correction, a command given while the round
    waits, names Kh; Kh is removed, recorded with where the awaited
    card goes, and the round waits for the same card; then it deals on as if Kh never was."""
    shoe = PhysicalShoe(decks=6)
    game = BlackjackRound(RULES, shoe)
    game.place_bet(1, "main", 10)
    with pytest.raises(CardNeeded):
        game.deal()
    game = _dealt_on(game, shoe, "Ts")
    assert game.card_needed is not None and game.card_needed.purpose == "dealer"
    game.correct(FaceUp(Card.parse("Kh")))
    assert [e.to_json() for e in game.events[-2:]] == [
        {"kind": "CardDrawn", "card": "Kh", "purpose": "removed"},
        {"kind": "CardFoundFaceUp", "card": "Kh", "disposal": "removed", "awaited": "dealer"},
    ]
    assert game.card_needed is not None and game.card_needed.purpose == "dealer"
    game = _dealt_on(game, game.shoe, "7d 9c")  # type: ignore[arg-type]
    with pytest.raises(CardNeeded):  # 19 stands; the dealer's 7 draws (Spain: no hole card)
        game.act(1, Action("stand"))
    game = _dealt_on(game, game.shoe, "5h Th")  # type: ignore[arg-type]
    assert game.dealer_cards == ["7d", "5h", "Th"] and game.boxes[1].hands[0].cards == list(
        parse_cards("Ts 9c")
    )
    assert _results(game) == [(1, "win", 10, 20)]
    # The record replays card for card (recall, settle, disputes): the removal is a command
    # of its own, given where it was, which the draw that awaited the dealer's card makes again.
    assert [str(c) for c in commands_of(game.events)][1:3] == ["deal", "face-up Kh"]
    assert replay(game.events).events == game.events
