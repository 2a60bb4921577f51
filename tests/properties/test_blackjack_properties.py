"""Properties of the blackjack engine over many seeded rounds with random legal decisions,
for every blackjack profile: money is conserved, every card comes from the shoe exactly once
(R5), replaying the events gives the identical round (R14), and no illegal action is ever
accepted (R12)."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import IllegalActionError
from croupier.games.base import Action, random_round
from croupier.games.blackjack import BlackjackRound
from croupier.games.events import BetPlaced, BetsClosed, CardDrawn, Event
from croupier.games.replay import replay
from croupier.money import json_number
from croupier.randomness import SeededRandomSource, uniform_below
from croupier.rules import load_profile, shipped_profile_names
from croupier.rules.blackjack import BlackjackRules
from croupier.shoe import Shoe
from round_support import operations

PROFILES = [name for name in shipped_profile_names() if load_profile(name).game == "blackjack"]


def _profile(name: str) -> BlackjackRules:
    profile = load_profile(name)
    assert isinstance(profile, BlackjackRules)
    return profile


def _check_round(game: BlackjackRound, shoe: Shoe, start: int) -> None:
    result = game.results()
    players = sum((result.net(seat) for seat in result.seats()), Fraction(0))
    assert players + result.house_net == 0
    # Every stake is settled exactly once: during betting a BetPlaced sets its wager (the
    # last one counts); after the deal each staking operation (Split, Doubled,
    # InsuranceTaken) adds its amount.
    closed = next(i for i, e in enumerate(game.events) if isinstance(e, BetsClosed))
    opening = {
        (e.seat, e.wager): e.amount for e in game.events[:closed] if isinstance(e, BetPlaced)
    }
    added = sum(
        (getattr(e, "amount") for e in operations(game.events) if e.adds_stake),  # noqa: B009
        Fraction(0),
    )
    staked = sum((w.stake for w in result.wagers), Fraction(0))
    assert staked == sum(opening.values(), Fraction(0)) + added
    drawn = tuple(e.card for e in game.events if isinstance(e, CardDrawn))
    assert drawn == shoe.peek_order()[start : shoe.position]
    again = replay(game.events)
    assert again.events == game.events
    assert again.results() == result
    assert [Event.from_json(e.to_json()) for e in game.events] == game.events


def _play_shoe(name: str, seed: int, rounds: int) -> int:
    profile = _profile(name)
    source = SeededRandomSource(seed)
    shoe = Shoe.shuffled(
        profile.decks, source, cut_card_from_bottom=profile.shoe.cut_card_from_bottom
    )
    played = 0
    new_shoe = True
    while played < rounds:
        if shoe.is_cut_card_out:
            shoe = Shoe.shuffled(
                profile.decks, source, cut_card_from_bottom=profile.shoe.cut_card_from_bottom
            )
            new_shoe = True
        start = shoe.position
        game = random_round(profile, shoe, source, new_shoe=new_shoe)
        burns = [e for e in game.events if isinstance(e, CardDrawn) and e.purpose == "burn"]
        assert len(burns) == (profile.shoe.burn_on_new_shoe if new_shoe else 0)
        _check_round(game, shoe, start)
        new_shoe = False
        played += 1
    return played


@pytest.mark.parametrize("name", PROFILES)
@given(seed=st.integers(min_value=0, max_value=2**64))
@settings(max_examples=20)
def test_money_conserved_cards_once_and_replay_identical(name: str, seed: int) -> None:
    assert _play_shoe(name, seed, rounds=60) == 60


@pytest.mark.slow
@pytest.mark.parametrize("name", PROFILES)
def test_many_rounds_slow(name: str) -> None:
    for seed in range(12):
        _play_shoe(name, seed, rounds=250)


# --- R12: random action streams, illegal ones raise and change nothing ----------------------

ACTION_NAMES = (
    "hit",
    "stand",
    "double",
    "split",
    "insurance",
    "no-insurance",
    "even-money",
    "fold",
)


def _snapshot(game: BlackjackRound) -> tuple[object, ...]:
    return (
        tuple(game.events),
        game.phase,
        copy.deepcopy(game.boxes),
        tuple(game.dealer),
        game.shoe.position,
        game.pending(),
    )


@pytest.mark.parametrize("name", PROFILES)
@given(data=st.data(), seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=30)
def test_no_illegal_action_is_ever_accepted(name: str, data: st.DataObject, seed: int) -> None:
    profile = _profile(name)
    source = SeededRandomSource(seed)
    game = BlackjackRound(profile, Shoe.shuffled(profile.decks, source))
    seats = data.draw(st.lists(st.integers(1, profile.boxes), min_size=1, max_size=3, unique=True))
    for seat in seats:
        game.place_bet(seat, "main", 10)
    game.deal()
    steps = 0
    while not game.is_done and steps < 60:
        steps += 1
        seat = data.draw(st.integers(0, profile.boxes + 1))
        name_ = data.draw(st.sampled_from(ACTION_NAMES))
        amount = data.draw(st.none() | st.integers(0, 25))
        action = Action(name_, amount)
        decision = game.pending()
        assert decision is not None
        legal = decision.seat == seat and decision.allows(action)
        before = _snapshot(game)
        if legal:
            game.act(seat, action)
        else:
            with pytest.raises(IllegalActionError, match=f"seat {seat}: {action} refused"):
                game.act(seat, action)
            assert _snapshot(game) == before
            # move the round on with a legal decision
            option = decision.legal[uniform_below(source, len(decision.legal))]
            game.act(decision.seat, option)


@pytest.mark.parametrize("name", PROFILES)
@given(seed=st.integers(min_value=0, max_value=2**32), steps=st.integers(0, 8))
@settings(max_examples=25)
def test_a_void_at_any_step_returns_what_is_in_play_and_replays(
    name: str, seed: int, steps: int
) -> None:
    profile = _profile(name)
    source = SeededRandomSource(seed)
    game = BlackjackRound(profile, Shoe.shuffled(profile.decks, source))
    game.place_bet(1, "main", 10)
    game.place_bet(2, "main", 20)
    game.deal()
    for _ in range(steps):
        decision = game.pending()
        if decision is None:
            break
        game.act(decision.seat, decision.legal[uniform_below(source, len(decision.legal))])
    if game.is_done:
        return
    game.void("interrupted")
    result = game.results()
    assert sum((result.net(seat) for seat in result.seats()), Fraction(0)) + result.house_net == 0
    assert all(w.payout == w.stake for w in result.wagers if w.result == "void")
    assert replay(game.events).events == game.events


# --- R6: nothing hidden reaches a view -------------------------------------------------------


@pytest.mark.parametrize("name", PROFILES)
@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=30)
def test_views_never_show_a_hidden_card(name: str, seed: int) -> None:
    """Before the dealer plays, every view shows the dealer's up card only and no face-down
    player card (``??`` in its place); nothing of the shoe."""
    profile = _profile(name)
    source = SeededRandomSource(seed)
    game = BlackjackRound(profile, Shoe.shuffled(profile.decks, source))
    for seat in (1, 3, 5):
        game.place_bet(seat, "main", 10)
    game.deal()
    while not game.is_done:
        for viewer in (None, 1, 3, 5):
            view = game.view(viewer)
            assert [card for card in view["dealer"]["cards"] if card != "??"] == [str(game.up_card)]
            shown = {
                (box["seat"], hand["hand"]): hand for box in view["seats"] for hand in box["hands"]
            }
            for box in game.boxes.values():
                for hand in box.hands:
                    seen = shown[(box.seat, hand.number)]
                    down = hand.face_down_card
                    assert seen["cards"] == [
                        "??" if index == down else str(card)
                        for index, card in enumerate(hand.cards)
                    ]
                    assert seen["total"] is None or down is None
        decision = game.pending()
        assert decision is not None
        game.act(decision.seat, decision.legal[uniform_below(source, len(decision.legal))])
    assert game.view(1)["dealer"]["cards"] == game.dealer_cards


# --- the settle contract deals the same rounds as the engine ---------------------------------


@pytest.mark.parametrize("name", PROFILES)
@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=40)
def test_settle_documents_written_from_rounds_settle_the_same(name: str, seed: int) -> None:
    """A random round, written as a ``croupier settle`` document (its cards as the shoe, each
    seat's bets and decisions in order), settles to the same payouts and the same events."""
    from croupier.games.events import Operation
    from croupier.settle import settle_document

    profile = _profile(name)
    source = SeededRandomSource(seed)
    game = random_round(profile, Shoe.shuffled(profile.decks, source), source)
    closed = next(i for i, e in enumerate(game.events) if isinstance(e, BetsClosed))
    seats: dict[int, dict[str, object]] = {}
    for item in game.events[:closed]:
        if isinstance(item, BetPlaced):
            entry = seats.setdefault(item.seat, {"seat": item.seat, "bets": {}, "actions": []})
            entry["bets"][item.wager] = int(item.amount)  # type: ignore[index]
    for item in game.events:
        if isinstance(item, Operation):
            seats[item.seat]["actions"].append(str(item.action))  # type: ignore[attr-defined]
    document = {
        "game": "blackjack",
        "rules": name,
        "shoe": [str(e.card) for e in game.events if isinstance(e, CardDrawn)],
        "seats": list(seats.values()),
    }
    out = settle_document(document)
    result = game.results()
    assert {s["seat"]: s["net"] for s in out["seats"]} == {
        seat: json_number(result.net(seat)) for seat in result.seats()
    }
    assert out["events"] == [e.to_json() for e in game.events]
