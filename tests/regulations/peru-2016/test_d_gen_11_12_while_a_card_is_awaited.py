"""Peru 2016 at a physical shoe, while the round waits for the dealer's next card: a card
found face up in the shoe is burnt in view (docs/rules.md#D-GEN-11, the text being silent:
``corrections.face_up_in_shoe = "burnt"``), a card dealt in error is burnt in view
(#D-GEN-12); each is a command of the round, given while it waits and recorded with where
the awaited card goes, and the round waits for that same card. Art. 13 deals box, dealer,
box, hole card."""

from __future__ import annotations

import pytest

from croupier.cards import Card, parse_cards
from croupier.errors import CardNeeded, CardRefused, IllegalActionError
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.games.commands import Deal, DealtInError, Exposed, FaceUp
from croupier.games.record import commands_of
from croupier.games.replay import deal_on, replay, steps
from croupier.rules import load_profile
from croupier.shoe import PhysicalShoe

RULES = load_profile("peru-2016")


def _dealt_on(game: BlackjackRound, cards: str) -> BlackjackRound:
    """The dealer's ``cards`` entered one by one, the round dealt on from its start after
    each."""
    for card in parse_cards(cards):
        shoe = game.shoe
        assert isinstance(shoe, PhysicalShoe)
        shoe.enter(card)
        dealt = deal_on(game.events, shoe.at(0), RULES)
        assert isinstance(dealt, BlackjackRound)
        game = dealt
    return game


def _awaited(game: BlackjackRound) -> tuple[str | None, int | None]:
    assert game.card_needed is not None
    return game.card_needed.purpose, game.card_needed.seat


def test_d_gen_11_and_12_cards_set_aside_while_the_boxs_second_card_is_awaited() -> None:
    game = BlackjackRound(RULES, PhysicalShoe(decks=6))
    game.place_bet(1, "main", 10)
    with pytest.raises(CardNeeded):
        game.deal()
    game = _dealt_on(game, "Th 9c")
    assert _awaited(game) == ("player", 1)
    assert game.can_correct(FaceUp(Card.parse("Ks")))
    game.correct(FaceUp(Card.parse("Ks")))
    game.correct(DealtInError(Card.parse("4d")))
    assert [e.to_json() for e in game.events[-4:]] == [
        {"kind": "CardDrawn", "card": "Ks", "purpose": "shown-burn"},
        {
            "kind": "CardFoundFaceUp",
            "card": "Ks",
            "disposal": "burnt",
            "awaited": "player, box 1, hand 0",
        },
        {"kind": "CardDrawn", "card": "4d", "purpose": "shown-burn"},
        {"kind": "CardDealtInError", "card": "4d", "awaited": "player, box 1, hand 0"},
    ]
    assert _awaited(game) == ("player", 1), "the same card is still awaited"
    # Box Th 7d = 17 against 9c and a hole 8h = 17: a push; neither burnt card was dealt.
    game = _dealt_on(game, "7d 8h")
    assert game.boxes[1].hands[0].cards == list(parse_cards("Th 7d"))
    game.act(1, Action("stand"))
    assert [(w.seat, w.result, w.payout) for w in game.results().wagers] == [(1, "push", 10)]
    # Every viewer saw both cards: the view shows the corrections to all.
    assert [c["card"] for c in game.view(1)["corrections"]] == ["Ks", "4d"]
    # Both are commands of the round, given right after the deal that stopped for the card;
    # the replay gives them again there, inside the deal's draw of the box's second card.
    commands = [str(c) for c in commands_of(game.events)]
    assert commands == ["bet 1 main 10", "deal", "face-up Ks", "dealt-in-error 4d", "act 1 stand"]
    assert replay(game.events).events == game.events
    recalled = [step.command for step in steps(game.events, None)]
    assert isinstance(recalled[2], Deal) and len(recalled) == 4, "the deal's step holds both"


def test_d_gen_11_12_a_correction_while_a_card_is_awaited_is_checked_first() -> None:
    """The engine's checks (``verify_face_up``, ``verify_dealt_in_error``, ``verify_exposed``)
    while the box's second card is awaited: a card not named, a card the six decks cannot hold
    any more, and an exposed card (none lies face down yet to show) are refused; nothing
    changes, and the same card is still awaited."""
    game = BlackjackRound(RULES, PhysicalShoe(decks=6))
    game.place_bet(1, "main", 10)
    with pytest.raises(CardNeeded):
        game.deal()
    game = _dealt_on(game, "Th 9c")
    for card in parse_cards("Th Th Th Th Th"):
        game.correct(DealtInError(card))  # five more tens of hearts burnt: all six are out
    before, shoe_before = list(game.events), game.shoe.entered
    for command, error, code in (
        (FaceUp(), IllegalActionError, "card_to_name"),
        (DealtInError(), IllegalActionError, "card_to_name"),
        (FaceUp(Card.parse("Th")), CardRefused, "card_not_in_shoe"),
        (Exposed("hole"), IllegalActionError, "card_needed_first_correction"),
    ):
        assert not game.can_correct(command)
        with pytest.raises(error) as refused:
            game.correct(command)
        assert refused.value.code == code, command
    assert game.events == before and game.shoe.entered == shoe_before
    assert _awaited(game) == ("player", 1), "the same card is still awaited"
