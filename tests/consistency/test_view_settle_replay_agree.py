"""One round, three readings that must agree (issue 11): the engine's last view of a round,
``croupier settle`` on the document the round's record makes, and ``replay`` of its events.

For seeded random rounds of every shipped profile (``random_round``: random seats, bets and
legal decisions): the replay records the identical events; the settle output has the same
cards, totals, results and money as the round's final view (the inspector's, every card
shown), seat by seat; the recall as the server serves it (``history.recall_steps``, from the
stored JSON record) ends on that same final view, for the inspector and, every card it may
see, for a player; and no step shows a player another seat's private card (R6, Casino
Hold'em Art. 9d). CI runs a short form; ``-m slow`` runs 1,000 rounds per profile.
"""

from __future__ import annotations

from typing import Any

import pytest

from croupier.games.base import GameRound, random_round
from croupier.games.events import CardDrawn
from croupier.games.replay import replay, views
from croupier.games.settle_document import document_of
from croupier.randomness import SeededRandomSource
from croupier.rules import load_profile, shipped_profile_names
from croupier.service.history import recall_steps
from croupier.settle import settle_document
from croupier.shoe import Shoe

PROFILES = shipped_profile_names()


def _rounds(name: str, count: int) -> list[GameRound]:
    profile = load_profile(name)
    source = SeededRandomSource(f"view-settle-replay {name}".encode())
    rounds = []
    for _ in range(count):
        shoe = Shoe.shuffled(profile.decks, source)
        rounds.append(random_round(profile, shoe, source))
    return rounds


def _money(results: list[dict[str, Any]], seat: int) -> tuple[float, float, float]:
    staked = sum(w["stake"] for w in results if w["seat"] == seat)
    returned = sum(w["payout"] for w in results if w["seat"] == seat)
    return staked, returned, returned - staked


def _agree(
    game: GameRound, out: dict[str, Any], view: dict[str, Any], seen_by: int | None = None
) -> None:
    """``view`` shows what ``out`` (the settle output) says, every card, total and result;
    ``seen_by``: a player's view, where another zone's private cards stay face down."""
    seats = {entry["seat"]: entry for entry in view["seats"]}
    for seat in out["seats"]:
        number = seat["seat"]
        assert (seat["staked"], seat["returned"], seat["net"]) == _money(view["results"], number)
        mine = seats[number]["hands"]
        if game.private_card_purposes and seen_by is not None and number != seen_by:
            assert [(h["cards"], h["total"]) for h in mine] == [(["??", "??"], None)]
            assert [h["result"] for h in mine] == [seat["result"]]
        elif game.game == "blackjack":
            assert [(h["cards"], h["total"], h["result"], h["payout"], h["bet"]) for h in mine] == [
                (h["cards"], h["total"], h["result"], h["payout"], h["bet"]) for h in seat["hands"]
            ]
        elif game.game == "casino-holdem":
            assert [(h["total"], h["result"]) for h in mine] == [(seat["hand"], seat["result"])]
        else:
            assert {
                w["wager"]: (w["stake"], w["payout"], w["result"])
                for w in view["results"]
                if w["seat"] == number
            } == {
                wager: (bet["bet"], bet["payout"], bet["result"])
                for wager, bet in seat["bets"].items()
            }
    if game.game == "baccarat":
        assert (view["player"], view["banker"]) == (out["player"], out["banker"])
        assert view["winner"] == out["winner"]
    elif game.game == "blackjack":
        dealer = out["dealer"]
        assert (view["dealer"]["cards"], view["dealer"]["total"]) == (
            dealer["cards"],
            dealer["total"],
        )
    else:
        assert view["dealer"]["cards"] == out["dealer"]["cards"]
        assert (view["dealer"]["total"], view["board"]) == (out["dealer"]["hand"], out["board"])


def _check(game: GameRound) -> None:
    assert replay(game.events).events == game.events
    out = settle_document(document_of(game.events))
    final = game.view(None, everything=True)
    _agree(game, out, final)
    # Settled in the table's wager order, the record is the round's own from the deal on.
    closed = next(i for i, e in enumerate(out["events"]) if e["kind"] == "BetsClosed")
    assert out["events"][closed:] == [e.to_json() for e in game.events][closed:]
    assert list(views(game.events, None, everything=True))[-1] == final
    record = [e.to_json() for e in game.events]
    served = recall_steps(type(game), game.events, viewer=None, seats=None, shoe_revealed=False)
    assert served is not None and served[-1]["view"] == final
    assert [e for step in served for e in step["events"]] == record
    for player in sorted(seat["seat"] for seat in out["seats"])[:1]:
        seen = recall_steps(
            type(game), game.events, viewer=player, seats={player}, shoe_revealed=False
        )
        assert seen is not None
        _agree(game, out, seen[-1]["view"], seen_by=player)


def _no_private_card_leaks(game: GameRound) -> None:
    private = {
        str(e.card)
        for e in game.events
        if isinstance(e, CardDrawn) and e.purpose in game.private_card_purposes and e.seat != 1
    }
    for view in views(game.events, 1):
        shown = {
            card
            for seat in view["seats"]
            if seat["seat"] != 1
            for h in seat["hands"]
            for card in h["cards"]
        }
        assert not shown & private
    # The recall's record, masked by the engine as seat 1 may read it, neither (R6).
    recalled = recall_steps(type(game), game.events, viewer=1, seats={1}, shoe_revealed=True)
    assert recalled is not None
    read = [e for step in recalled for e in step["events"]]
    whole = type(game).record_seen_by(game.events, {1}, shoe_revealed=True)
    for events in (read, whole):
        cards = {e["card"] for e in events if e["kind"] == "CardDrawn" and e.get("seat") != 1}
        assert not cards & private


@pytest.mark.parametrize("name", PROFILES)
def test_the_last_view_is_the_settle_output_and_the_replay_is_the_record(name: str) -> None:
    for game in _rounds(name, 60):
        _check(game)
        _no_private_card_leaks(game)


@pytest.mark.slow
@pytest.mark.parametrize("name", PROFILES)
def test_a_thousand_rounds_per_profile_agree(name: str) -> None:
    for game in _rounds(name, 1000):
        _check(game)
