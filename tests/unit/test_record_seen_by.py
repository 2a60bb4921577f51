"""R6 in the recall: the round's record as a reader may read it afterwards, masked by the
engine's rule for views (``RoundViews.record_seen_by``), never by the service on raw JSON.

- A hole card the round never turned (peru-2016 Art. 14 deals it face down; the round was
  voided first) stays ``??`` until the shoe is revealed; a turned one shows.
- Burns stay ``??`` until the shoe is revealed.
- Casino Hold'em's hole cards are their zone's alone, during and after the game (Art. 9 d).
- The inspector (``seats=None``) reads every card as recorded.
"""

from __future__ import annotations

from croupier.games.blackjack import BlackjackRound
from croupier.games.casino_holdem import CALL, FOLD, CasinoHoldemRound, stacked_deck
from croupier.games.events import CardDrawn, Event, Purpose
from croupier.rules import BlackjackRules, CasinoHoldemRules, load_profile
from croupier.shoe import Shoe


def _cards(read: list[dict[str, object]], purpose: Purpose) -> list[object]:
    return [item["card"] for item in read if item.get("purpose") == purpose.value]


def _blackjack(shoe: str) -> BlackjackRound:
    profile = load_profile("peru-2016")
    assert isinstance(profile, BlackjackRules)
    game = BlackjackRound(profile, Shoe.parse(shoe, decks=profile.decks))
    game.place_bet(1, "main", 10)
    game.deal()
    return game


def test_peru_2016_art_14_a_hole_card_never_turned_waits_for_the_shoe_to_be_revealed() -> None:
    game = _blackjack("Th 9c 9d 7s Kd")
    game.void("the dealer cannot finish")
    hole = [str(e.card) for e in game.events if isinstance(e, CardDrawn) and e.purpose == "hole"]
    assert hole == ["7s"]
    assert _cards(game.record_seen_by(game.events, {1}, shoe_revealed=False), Purpose.HOLE) == [
        "??"
    ]
    assert _cards(game.record_seen_by(game.events, set(), shoe_revealed=True), Purpose.HOLE) == [
        "7s"
    ]
    assert _cards(game.record_seen_by(game.events, None, shoe_revealed=False), Purpose.HOLE) == [
        "7s"
    ]


def test_peru_2016_art_14_a_turned_hole_card_shows_to_everyone_afterwards() -> None:
    game = _blackjack("Th 9c 9d 7s Kd")
    game.act(1, game.legal_actions()[1])  # stand: the dealer turns the hole card and plays
    assert game.is_done
    assert _cards(game.record_seen_by(game.events, set(), shoe_revealed=False), Purpose.HOLE) == [
        "7s"
    ]


def _casino_holdem() -> CasinoHoldemRound:
    profile = load_profile("casino-holdem-peru-2007")
    assert isinstance(profile, CasinoHoldemRules)
    shoe = stacked_deck({1: "Ah Kh", 3: "2c 2d"}, "Qs Qd", "Jh Th 9h 8h 7h", "5s 5h")
    game = CasinoHoldemRound(profile, shoe)
    for seat in (1, 3):
        game.place_bet(seat, "ante", profile.table.wagers["ante"].minimum)
    game.deal()
    game.act(1, CALL)
    game.act(3, FOLD)
    assert game.is_done
    return game


def test_casino_holdem_art_9d_a_zones_hole_cards_are_its_own_after_the_game() -> None:
    game = _casino_holdem()
    read = game.record_seen_by(game.events, {1}, shoe_revealed=True)
    hole = [(e["seat"], e["card"]) for e in read if e.get("purpose") == "player"]
    assert hole == [(1, "Ah"), (3, "??"), (1, "Kh"), (3, "??")]
    everyone = game.record_seen_by(game.events, None, shoe_revealed=False)
    assert everyone == [item.to_json() for item in game.events]


def test_burns_wait_for_the_shoe_to_be_revealed() -> None:
    game = _casino_holdem()
    assert _cards(game.record_seen_by(game.events, {1}, shoe_revealed=False), Purpose.BURN) == [
        "??",
        "??",
    ]
    assert _cards(game.record_seen_by(game.events, {1}, shoe_revealed=True), Purpose.BURN) == [
        "5s",
        "5h",
    ]


def test_a_step_of_the_record_is_masked_by_what_the_whole_record_turned() -> None:
    game = _blackjack("Th 9c 9d 7s Kd")
    dealt: list[Event] = game.events[:]  # the deal: the hole card still face down
    game.act(1, game.legal_actions()[1])
    step = game.record_seen_by(dealt, set(), shoe_revealed=False, record=game.events)
    assert _cards(step, Purpose.HOLE) == ["7s"]  # turned later in the round: public now
