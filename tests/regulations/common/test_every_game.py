"""docs/rules.md §6, every game: 0 is no wager; negative or fractional amounts are refused; a shoe
never holds more copies of a card than the profile's decks; every round is an ordered record
of events from which it can be replayed and audited."""

from __future__ import annotations

import pytest

from croupier.errors import AmountError, ShoeError
from croupier.games.events import Event
from croupier.games.replay import replay
from round_support import action_of, is_decision

BLACKJACK_PROFILES = ["peru-2016", "spain-1979", "veintiuno-real"]


@pytest.mark.parametrize("rules", BLACKJACK_PROFILES)
def test_a_wager_of_0_is_no_wager(settle, rules):
    out = settle(
        rules,
        "Th 9h 9c 9d 8d 7s",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": ["stand"]},
            {"seat": 2, "bets": {"main": 0}, "actions": []},
        ],
    )
    assert settle.seat(out, 2) == {
        "seat": 2,
        "hands": [],
        "side_bets": {},
        "insurance": {"bet": 0, "payout": 0},
        "staked": 0,
        "returned": 0,
        "net": 0,
    }
    # Seat 2 gets no cards: seat 1, the dealer, seat 1 again.
    assert settle.hands(out, 1)[0][0] == "Th 9c"


def test_a_side_wager_of_0_is_no_wager(settle):
    out = settle(
        "peru-2016",
        "Th 9h 9c 7s Kd",
        [{"seat": 1, "bets": {"main": 10, "21+3": 0}, "actions": ["stand"]}],
    )
    assert settle.seat(out, 1)["side_bets"]["21+3"]["bet"] == 0
    assert settle.money(out) == (10, 20, 10)
    assert not any(e["kind"] == "Settled" and e["wager"] == "21+3" for e in out["events"])


@pytest.mark.parametrize(
    ("amount", "why"), [(-5, "negative"), (10.5, "not a whole number"), ("10", "not a number")]
)
def test_negative_or_fractional_amounts_are_refused(settle, amount, why):
    with pytest.raises(AmountError, match=why):
        settle(
            "peru-2016",
            "Th 9h 9c 7s",
            [{"seat": 1, "bets": {"main": amount}, "actions": ["stand"]}],
        )


@pytest.mark.parametrize("rules", BLACKJACK_PROFILES)
def test_a_shoe_with_more_copies_than_the_decks_is_refused(settle, rules):
    with pytest.raises(ShoeError, match="7 copies of As but 6 decks allow 6"):
        settle(rules, "As " * 7 + "Kd", [{"seat": 1, "bets": {"main": 10}, "actions": []}])


@pytest.mark.parametrize("rules", BLACKJACK_PROFILES)
def test_events_record_every_bet_card_decision_and_payout_and_replay(settle, rules):
    # Without a hole card (Spain) the Td below is the dealer's second card instead.
    shoe = (
        "8s 6c 8h 3c Kh 2d 9d 7d Td 5c"
        if rules == "spain-1979"
        else "8s 6c 8h Td 3c Kh 2d 9d 7d 5c 4c"
    )
    out = settle(
        rules,
        shoe,
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "double", "hit", "stand"]}],
    )
    events = out["events"]
    cards = [e["card"] for e in events if e["kind"] == "CardDrawn"]
    dealt = [c for hand in settle.seat(out, 1)["hands"] for c in hand["cards"]] + out["dealer"][
        "cards"
    ]
    assert sorted(cards) == sorted(dealt)
    assert [action_of(e) for e in events if is_decision(e)] == [
        "split",
        "double 10",
        "hit",
        "stand",
    ]
    assert [(e["wager"], e["amount"]) for e in events if e["kind"] == "BetPlaced"] == [
        ("main", 10),
    ]
    assert [(e["kind"], e["amount"]) for e in events if e["kind"] in ("Split", "Doubled")] == [
        ("Split", 10),
        ("Doubled", 10),
    ]
    settled = [e for e in events if e["kind"] == "Settled"]
    assert sum(e["payout"] for e in settled) == settle.money(out)[1]
    assert sum(e["stake"] for e in settled) == settle.money(out)[0]
    assert events[0] == {"kind": "RoundStarted", "game": "blackjack", "profile": rules}
    assert events[-1] == {"kind": "RoundEnded"}
    record = [Event.from_json(e) for e in events]
    assert [e.to_json() for e in replay(record).events] == events
