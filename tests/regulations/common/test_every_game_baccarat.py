"""docs/rules.md §6, every game, for baccarat (profile ``dragon-six-peru-2016``): 0 is no wager; a
negative or fractional amount is refused; a shoe never holds more copies of a card than the
profile's decks; every round is an ordered record of events (bets, every card drawn, payouts)
from which it is replayed."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.errors import AmountError, ShoeError
from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.settle import settle_document


def settle(shoe: str, *seats: dict[str, Any]) -> dict[str, Any]:
    document = {
        "game": "baccarat",
        "rules": "dragon-six-peru-2016",
        "shoe": shoe.split(),
        "seats": list(seats),
    }
    return settle_document(document)


def test_a_wager_of_0_is_no_wager() -> None:
    out = settle(
        "9s 7h Ts Kh",
        {"seat": 1, "bets": {"player": 10, "banker": 0, "tie": 0}},
        {"seat": 2, "bets": {"banker": 0}},
    )
    assert out["seats"][0]["bets"] == {"player": {"bet": 10, "payout": 20, "result": "win"}}
    assert out["seats"][1] == {"seat": 2, "bets": {}, "staked": 0, "returned": 0, "net": 0}
    assert [e["wager"] for e in out["events"] if e["kind"] in ("BetPlaced", "Settled")] == [
        "player",
        "player",
    ]


@pytest.mark.parametrize(
    ("amount", "why"), [(-5, "negative"), (10.5, "not a whole number"), ("10", "not a number")]
)
def test_negative_or_fractional_amounts_are_refused(amount: object, why: str) -> None:
    with pytest.raises(AmountError, match=why):
        settle("9s 7h Ts Kh", {"seat": 1, "bets": {"tie": amount}})


def test_a_shoe_with_more_copies_than_the_decks_is_refused() -> None:
    with pytest.raises(ShoeError, match="9 copies of As but 8 decks allow 8"):
        settle("As " * 9 + "Kd", {"seat": 1, "bets": {"tie": 1}})


def test_events_record_every_bet_card_and_payout_and_replay() -> None:
    out = settle(
        "Ks Kh 2d 2c 5s 7h",
        {"seat": 1, "bets": {"banker": 10, "banker_pair": 1}},
        {"seat": 5, "bets": {"player": 3, "tie": 1}},
    )
    assert [e["kind"] for e in out["events"]] == [
        "RoundStarted",
        *["BetPlaced"] * 4,
        "BetsClosed",
        *["CardDrawn"] * 6,
        "CoupDecided",
        *["Settled"] * 4,
        "RoundEnded",
    ]
    events = [Event.from_json(item) for item in out["events"]]
    assert [item.to_json() for item in replay(events).events] == out["events"]
