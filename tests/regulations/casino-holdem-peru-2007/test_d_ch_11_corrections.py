"""Casino Hold'em (El Peruano, 7 Mar 2007): every card is dealt face down (Art. 12) and a
player's cards are shown to nobody (Art. 9 d). docs/rules.md#D-CH-11: a hole card exposed in
error voids the game, every stake still in play returned (a progressive already settled after
the flop stands, D-GEN-6); #D-GEN-11: a card found face up in the deck is burnt."""

from __future__ import annotations

import pytest

from croupier.cards import parse_cards
from croupier.errors import IllegalActionError
from croupier.games.base import Action
from croupier.games.casino_holdem import CasinoHoldemRound
from croupier.games.replay import replay
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe

PROFILE = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
assert isinstance(PROFILE, CasinoHoldemRules)

# Zones 1 and 2, then the dealer, twice; a burn, the flop; a burn, turn and river.
DECK = "Ah 2c 9s Qs Kh 7d 9d Jd 6h 3h 4c 8s 6c Tc 5d"


def _dealt(deck: str = DECK) -> CasinoHoldemRound:
    game = CasinoHoldemRound(PROFILE, Shoe.parse(deck, decks=1), meter=1000)
    game.place_bet(1, "ante", 10)
    game.place_bet(1, "progressive", 1)
    game.place_bet(2, "ante", 10)
    game.deal()
    return game


def _results(game: CasinoHoldemRound) -> dict[tuple[int, str], tuple[str, object, object]]:
    return {(w.seat, w.wager): (w.result, w.stake, w.payout) for w in game.results().wagers}


@pytest.mark.parametrize("place", ["dealer 1", "seat 2 card 2"])
def test_d_ch_11_an_exposed_hole_card_voids_the_game(place):
    game = _dealt()
    game.act(1, Action("call"))  # zone 1 has called (20 more) when the card is exposed
    events = game.exposed(place)
    assert events[0].to_json()["outcome"] == "void"
    assert game.is_done
    results = _results(game)
    assert results[(1, "ante")] == ("void", 10, 10)
    assert results[(1, "bet")] == ("void", 20, 20)
    assert results[(2, "ante")] == ("void", 10, 10)
    # Settled after the flop (Ah Qs Jd 6h 3h wins nothing): it stands.
    assert results[(1, "progressive")] == ("lose", 1, 0)
    assert replay(game.events).events == game.events


def test_d_ch_11_no_exposed_card_where_none_lies_face_down():
    game = _dealt()
    assert set(game.face_down_places()) == {
        "dealer 1",
        "dealer 2",
        "seat 1 card 1",
        "seat 1 card 2",
        "seat 2 card 1",
        "seat 2 card 2",
    }
    before = list(game.events)
    with pytest.raises(IllegalActionError) as refused:
        game.exposed("dealer 3")
    assert refused.value.code == "not_face_down"
    assert game.events == before


def test_d_gen_11_a_card_face_up_in_the_deck_before_the_deal_is_burnt():
    game = CasinoHoldemRound(PROFILE, Shoe.parse("Ks " + DECK, decks=1), meter=1000)
    game.place_bet(1, "ante", 10)
    game.place_bet(2, "ante", 10)
    game.face_up()
    game.deal()
    # The deal starts with the card after Ks, exactly as from DECK.
    assert game.hole_cards == {1: parse_cards("Ah Qs"), 2: parse_cards("2c Kh")}
    assert game.dealer_cards == parse_cards("9s 7d")
    assert game.board == parse_cards("Jd 6h 3h")  # after the burn of 9d
    assert replay(game.events).events == game.events
