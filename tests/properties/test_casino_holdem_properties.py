"""Casino Hold'em over seeded decks and random legal decisions (R5, R6, R14, docs/rules.md §6).

Conservation, defined: every unit a round moves goes between three accounts, the players, the
house and the progressive meter. Players' net = sum of (payout - stake) over their settled
wagers; the meter's change = shares fed - prizes paid out of it + seeds the house put in; the
house net is counted by the engine from its own flows. Their sum is 0, exactly.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.games.base import Action, random_round
from croupier.games.casino_holdem import (
    CasinoHoldemRound,
    MeterFed,
    MeterReseeded,
    ProgressivePrizeWon,
    new_shoe,
)
from croupier.games.events import CardDrawn, Event, Settled
from croupier.games.replay import replay
from croupier.randomness import SeededRandomSource, SystemRandomSource
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import load_profile_of

PROFILES = [
    load_profile_of("casino-holdem", name)
    for name in ("casino-holdem-peru-2007", "casino-holdem-standard")
]
assert all(isinstance(profile, CasinoHoldemRules) for profile in PROFILES)


@st.composite
def rounds(draw: st.DrawFn) -> tuple[CasinoHoldemRound, list[dict[int, list[str]]]]:
    profile = draw(st.sampled_from(PROFILES))
    assert isinstance(profile, CasinoHoldemRules)
    seed = draw(st.binary(min_size=1, max_size=8))
    zones = draw(st.sets(st.integers(1, profile.zones), min_size=2, max_size=profile.zones))
    meter = draw(st.fractions(min_value=0, max_value=20_000, max_denominator=20))
    game = CasinoHoldemRound(profile, new_shoe(SeededRandomSource(seed)), meter=meter)
    for zone in sorted(zones):
        game.place_bet(zone, "ante", draw(st.integers(1, 10_000)))
        if draw(st.booleans()):
            game.place_bet(zone, "progressive", 1)
    views = [visible_cards(game)]
    game.deal()
    views.append(visible_cards(game))
    while (decision := game.pending()) is not None:
        game.act(decision.seat, draw(st.sampled_from(decision.legal)))
        views.append(visible_cards(game))
    return game, views


def visible_cards(game: CasinoHoldemRound) -> dict[int, list[str]]:
    """Every card string each zone's view shows, to be checked against what it may see."""
    shown = {}
    for zone in game.players:
        view = game.view(zone)
        cards = list(view["board"]) + list(view["dealer"]["cards"])
        for entry in view["seats"]:
            for hand in entry["hands"]:
                cards += hand["cards"]
        shown[zone] = [card for card in cards if card != "??"]
    return shown


@given(rounds())
def test_money_and_the_meter_are_conserved(
    case: tuple[CasinoHoldemRound, list[dict[int, list[str]]]],
) -> None:
    game, _ = case
    result = game.results()
    settled = [e for e in game.events if isinstance(e, Settled)]
    players = sum((e.payout - e.stake for e in settled), Fraction(0))
    assert players == sum((result.net(seat) for seat in result.seats()), Fraction(0))
    fed = sum((e.amount for e in game.events if isinstance(e, MeterFed)), Fraction(0))
    won = sum(
        (e.amount for e in game.events if isinstance(e, ProgressivePrizeWon) and e.from_meter),
        Fraction(0),
    )
    seeds = sum((e.seed for e in game.events if isinstance(e, MeterReseeded)), Fraction(0))
    meter_change = result.details["meter_after"] - result.details["meter_before"]
    assert meter_change == fed - won + seeds
    assert players + result.details["house_net"] + meter_change == 0
    assert game.meter >= 0
    # Every zone's every wager is settled once: Ante always, Bet on a call, the progressive.
    for seat in game.players:
        wagers = sorted(w.wager for w in result.wagers if w.seat == seat)
        expected = ["ante"] + (["bet"] if game.decisions[seat] == Action("call") else [])
        expected += ["progressive"] if seat in game.progressive_bets else []
        assert wagers == sorted(expected)


@given(rounds())
def test_each_card_once_in_the_regulation_order(
    case: tuple[CasinoHoldemRound, list[dict[int, list[str]]]],
) -> None:
    game, _ = case
    drawn = [e for e in game.events if isinstance(e, CardDrawn)]
    cards = [e.card for e in drawn]
    assert len(set(cards)) == len(cards) == 2 * (len(game.players) + 1) + 9 - 2
    assert cards == list(game.shoe.peek_order()[: len(cards)])
    purposes = [e.purpose for e in drawn]
    n = len(game.players)
    assert (
        purposes
        == (["player"] * n + ["dealer"]) * 2 + ["burn"] + ["board"] * 3 + ["burn"] + ["board"] * 2
    )


@given(rounds())
def test_replay_rebuilds_the_identical_round_also_from_json(
    case: tuple[CasinoHoldemRound, list[dict[int, list[str]]]],
) -> None:
    game, _ = case
    assert replay(game.events).events == game.events
    from_json = [Event.from_json(e.to_json()) for e in game.events]
    rebuilt = replay(from_json)
    assert rebuilt.results() == game.results()
    assert rebuilt.meter == game.meter


@given(rounds())
def test_r6_views_show_a_zone_only_what_it_may_see(
    case: tuple[CasinoHoldemRound, list[dict[int, list[str]]]],
) -> None:
    game, views = case
    for moment, shown in enumerate(views):
        for zone, cards in shown.items():
            allowed = {str(c) for c in game.hole_cards.get(zone, [])} if moment else set()
            allowed |= {str(c) for c in game.board[: 3 if moment < len(views) - 1 else 5]}
            if moment == len(views) - 1:
                allowed |= {str(c) for c in game.dealer_cards}
            assert set(cards) <= allowed, (moment, zone, set(cards) - allowed)
    burns = {str(e.card) for e in game.events if isinstance(e, CardDrawn) and e.purpose == "burn"}
    for zone in game.players:
        assert not burns & set(str(game.view(zone)))
    assert all(isinstance(c, Card) for c in game.board)


@given(st.binary(min_size=1, max_size=8))
def test_random_rounds_are_legal_and_conserve(seed: bytes) -> None:
    """``random_round`` (benchmarks) seats at least two zones and plays to the end."""
    source = SeededRandomSource(seed)
    profile = PROFILES[0]
    assert isinstance(profile, CasinoHoldemRules)
    game = random_round(profile, new_shoe(source), source)
    assert game.is_done and len(game.players) >= 2
    result = game.results()
    meter_change = result.details["meter_after"] - result.details["meter_before"]
    players = sum((result.net(seat) for seat in result.seats()), Fraction(0))
    assert players + result.details["house_net"] + meter_change == 0
    assert replay(game.events).events == game.events


@given(
    st.binary(min_size=1, max_size=8),
    st.lists(
        st.tuples(
            st.integers(0, 8),
            st.sampled_from(["call", "fold", "raise", "check", "call 5", "bet:ante", "deal"]),
        ),
        max_size=40,
    ),
)
def test_r12_every_illegal_step_is_refused_and_changes_nothing(
    seed: bytes, steps: list[tuple[int, str]]
) -> None:
    """R12: out of turn, unknown actions, bets after the deal, a second deal: refused, and
    the record is exactly what it was."""
    profile = PROFILES[1]
    assert isinstance(profile, CasinoHoldemRules)
    game = CasinoHoldemRound(profile, new_shoe(SeededRandomSource(seed)))
    game.place_bet(2, "ante", 5)
    game.place_bet(6, "ante", 5)
    game.deal()
    for seat, step in steps:
        before = list(game.events)
        decision = game.pending()
        try:
            if step == "deal":
                game.deal()
            elif step.startswith("bet:"):
                game.place_bet(seat, step[4:], 5)
            else:
                game.act(seat, Action.parse(step))
        except CroupierError:
            assert game.events == before
            continue
        assert decision is not None and decision.seat == seat
        assert step in ("call", "fold")
    assert all(game.can_act(d.seat, a) for d in [game.pending()] if d for a in d.legal)


def play_live_rounds(count: int) -> None:
    """R1, the run half: live games (the OS source shuffles and decides); the callers ask for
    the ``insecure_random_refused`` fixture, which patches ``random`` and ``numpy.random``."""
    source = SystemRandomSource()
    meter = None
    for _ in range(count):
        for profile in PROFILES:
            assert isinstance(profile, CasinoHoldemRules)
            game = random_round(profile, new_shoe(source), source, meter=meter)
            assert game.is_done
            meter = game.meter


def test_r1_live_games_never_touch_random(insecure_random_refused: None) -> None:
    """RELIABILITY.md R1: "a run of 10k rounds of each game ... patched to raise": 5,000 games
    of each Casino Hold'em profile."""
    play_live_rounds(5_000)


@pytest.mark.slow
def test_r1_ten_thousand_live_games_never_touch_random(insecure_random_refused: None) -> None:
    """The slow form: 10,000 live games of each profile."""
    play_live_rounds(10_000)
