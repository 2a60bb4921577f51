"""docs/rules.md §6, every game, for Casino Hold'em: "A wager of 0 is no wager (a settle file may
list it); a negative or fractional-unit amount is refused"; "A shoe ... never holds more
copies of a card than the profile's decks"; "Every round is an ordered record of events
(bets, every card drawn including burns, decisions, payouts) from which the round can be
replayed and audited"."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.errors import AmountError, ReplayError, ShoeError
from croupier.games.casino_holdem import stacked_deck
from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.settle import settle_document

DECK = stacked_deck({1: "Ah Kd", 2: "9s 9d"}, "Qs Jd", "3h 4c 8s Tc 5d", burns="6h 6c")


def settle(seats: list[dict[str, Any]], shoe: list[str] | None = None) -> dict[str, Any]:
    return settle_document(
        {
            "game": "casino-holdem",
            "rules": "casino-holdem-peru-2007",
            "shoe": shoe if shoe is not None else str(DECK).split(),
            "seats": seats,
        }
    )


def test_rules6_a_wager_of_0_is_no_wager() -> None:
    out = settle(
        [
            {"seat": 1, "bets": {"ante": 10, "progressive": 0}, "actions": ["call"]},
            {"seat": 2, "bets": {"ante": 10}, "actions": ["fold"]},
            {"seat": 3, "bets": {"ante": 0}, "actions": []},
        ]
    )
    assert [seat["seat"] for seat in out["seats"]] == [1, 2]
    assert out["seats"][0]["bets"]["progressive"] == {"bet": 0, "payout": 0}
    assert not any(e["kind"] == "Settled" and e["wager"] == "progressive" for e in out["events"])
    assert not any(e.get("seat") == 3 and e["kind"] == "CardDrawn" for e in out["events"])


@pytest.mark.parametrize(
    ("amount", "why"), [(-5, "negative"), (10.5, "not a whole number"), ("10", "not a number")]
)
def test_rules6_negative_or_fractional_amounts_are_refused(amount: object, why: str) -> None:
    with pytest.raises(AmountError, match=why):
        settle(
            [
                {"seat": 1, "bets": {"ante": amount}, "actions": ["call"]},
                {"seat": 2, "bets": {"ante": 10}, "actions": ["fold"]},
            ]
        )


def test_rules6_a_deck_holding_a_card_twice_is_refused() -> None:
    with pytest.raises(ShoeError, match="2 copies of Ah but 1 deck allows 1"):
        settle(
            [{"seat": 1, "bets": {"ante": 10}, "actions": []}],
            shoe=["Ah", *str(DECK).split()],
        )


def test_rules6_the_record_holds_every_bet_card_decision_and_payout_and_replays() -> None:
    out = settle(
        [
            {"seat": 1, "bets": {"ante": 10, "progressive": 1}, "actions": ["call"]},
            {"seat": 2, "bets": {"ante": 5}, "actions": ["fold"]},
        ]
    )
    events = out["events"]
    drawn = [(e["card"], e["purpose"]) for e in events if e["kind"] == "CardDrawn"]
    assert [card for card, _ in drawn] == str(DECK).split()
    assert [card for card, purpose in drawn if purpose == "burn"] == ["6h", "6c"]
    assert [(e["seat"], e["kind"]) for e in events if e["kind"] in ("Called", "Folded")] == [
        (1, "Called"),
        (2, "Folded"),
    ]
    assert [(e["seat"], e["wager"], e["amount"]) for e in events if e["kind"] == "BetPlaced"] == [
        (1, "ante", 10),
        (1, "progressive", 1),
        (2, "ante", 5),
    ]
    assert [(e["seat"], e["amount"]) for e in events if e["kind"] == "Called"] == [(1, 20)]
    settled = [e for e in events if e["kind"] == "Settled"]
    for seat in out["seats"]:
        mine = [e for e in settled if e["seat"] == seat["seat"]]
        assert sum(e["stake"] for e in mine) == seat["staked"]
        assert sum(e["payout"] for e in mine) == seat["returned"]
    record = [Event.from_json(e) for e in events]
    assert [e.to_json() for e in replay(record).events] == events


def test_rules6_a_tampered_record_does_not_replay() -> None:
    """Audit: a record whose payout was edited no longer replays to itself."""
    out = settle(
        [
            {"seat": 1, "bets": {"ante": 10}, "actions": ["call"]},
            {"seat": 2, "bets": {"ante": 5}, "actions": ["fold"]},
        ]
    )
    record = [Event.from_json(e) for e in out["events"]]
    edited = [e.to_json() for e in record]
    index = next(i for i, e in enumerate(edited) if e["kind"] == "Settled")
    edited[index]["payout"] = 1_000
    with pytest.raises(ReplayError, match=f"event {index}"):
        replay([Event.from_json(e) for e in edited])
