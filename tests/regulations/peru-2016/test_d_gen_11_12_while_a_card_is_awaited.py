"""Peru 2016 at a physical shoe, while the round waits for the dealer's next card: a card
found face up in the shoe is burnt in view (docs/rules.md#D-GEN-11, the text being silent:
``corrections.face_up_in_shoe = "burnt"``), a card dealt in error is burnt in view
(#D-GEN-12); each is recorded with where the awaited card goes, and the round waits for
that same card. Art. 13 deals box, dealer, box, hole card."""

from __future__ import annotations

import pytest

from croupier.cards import Card, parse_cards
from croupier.errors import CardNeeded, IllegalActionError
from croupier.games.base import Action, commands_of, deal_on, replay
from croupier.games.blackjack import BlackjackRound
from croupier.games.commands import DealtInError, FaceUp
from croupier.rules import load_profile
from croupier.shoe import PhysicalShoe, SetAside

RULES = load_profile("peru-2016")


def _dealt_on(game: BlackjackRound, cards: str, why: SetAside | None = None) -> BlackjackRound:
    """The dealer's ``cards`` entered one by one (``why``: each set aside as it says), the
    round dealt on from its start after each."""
    for card in parse_cards(cards):
        shoe = game.shoe
        assert isinstance(shoe, PhysicalShoe)
        shoe.enter(card, set_aside=why)
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
    game = _dealt_on(game, "Ks", SetAside.FOUND_FACE_UP)
    game = _dealt_on(game, "4d", SetAside.DEALT_IN_ERROR)
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
    commands = list(commands_of(game.events))
    assert not any(isinstance(c, FaceUp | DealtInError) for c in commands)
    assert replay(game.events).events == game.events


def test_d_gen_12_nothing_set_aside_without_a_card_awaited_or_a_card_named() -> None:
    """The engine's check (``verify_set_aside``) refuses a set-aside between commands (the
    correction is then an ordinary command) and one that names no card; nothing changes."""
    game = BlackjackRound(RULES, PhysicalShoe(decks=6))
    game.place_bet(1, "main", 10)
    with pytest.raises(CardNeeded):
        game.deal()
    game = _dealt_on(game, "Th 9c 7d 8h")
    assert game.card_needed is None
    before = list(game.events)
    for command, code in (
        (FaceUp(Card.parse("Ks")), "no_card_needed"),
        (DealtInError(Card.parse("Ks")), "no_card_needed"),
    ):
        with pytest.raises(IllegalActionError) as refused:
            game.verify_set_aside(command)
        assert refused.value.code == code
    waiting = BlackjackRound(RULES, PhysicalShoe(decks=6))
    waiting.place_bet(1, "main", 10)
    with pytest.raises(CardNeeded):
        waiting.deal()
    with pytest.raises(IllegalActionError) as unnamed:
        waiting.verify_set_aside(FaceUp())
    assert unnamed.value.code == "card_to_name"
    assert game.events == before
