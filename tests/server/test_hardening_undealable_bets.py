"""Issue 10, item 2: one player's bet that can never be dealt does not freeze a table.

A 21+3 bet without a main bet (peru-2016, Arts. 18-20; croupier's decision: a side bet
rides on a main bet on the same box) and a Casino Hold'em progressive bet without an Ante
(casino-holdem-peru-2007 Art. 9 e: "Para participar los jugadores deben colocar el Ante")
used to be accepted; ``ready`` then refused the round, the round stayed in betting for ever,
and the deadline loop logged the same error many times a second. Now such a bet is refused
when placed; a box left undealable (a round recorded before this rule) has its bets returned
at the deadline, recorded as ``BetsReturned``, and the round goes on without it; a deadline
that fails is retried with back-off and logged once.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from server_support import OPERATOR_TOKEN, Api, Table, make_api
from sqlalchemy import insert
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from croupier.errors import LedgerError
from croupier.games.commands import Bet
from croupier.service import tables
from croupier.service.accounts import Principal
from croupier.service.tables import PLAYERS, LiveTable

CREDIT = 100_000


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    """The test alone runs the deadlines: the server's clock thread first ticks in an hour."""
    yield from make_api(database_url, tick_seconds=3600)


SIDE_BETS = [
    # (profile, the side bet, what it needs, the side bet's amount, the main wager's amount)
    pytest.param(("peru-2016", "21+3", "main", 5, 10), id="peru-2016 21+3"),
    pytest.param(("casino-holdem-peru-2007", "progressive", "ante", 1, 10), id="peru-2007 prog"),
    pytest.param(("casino-holdem-standard", "progressive", "ante", 1, 10), id="standard prog"),
]
Case = tuple[str, str, str, int, int]


def bet(api: Api, table: Table, name: str, wager: str, amount: int) -> Any:
    return api.post(
        f"/tables/{table.id}/bets",
        table.tokens[name],
        {"seat": table.seat_of[name], "wager": wager, "amount": amount},
    )


@pytest.mark.parametrize("case", SIDE_BETS)
def test_a_side_bet_without_its_main_wager_is_refused_when_placed(api: Api, case: Case) -> None:
    profile, side, main, side_amount, main_amount = case
    table = Table(api, profile, ["ana", "ben"], credit_minor=CREDIT)
    refused = bet(api, table, "ana", side, side_amount)
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"] == "BetError"
    assert "refused" in refused.json()["detail"]
    assert table.state()["round"]["stakes"] == {}
    assert api.balance(table.tokens["ana"]) == CREDIT
    live = api.server.casino.table(table.id)
    assert live.durable_state() == api.server.casino.rebuilt(table.id).durable_state()
    # In the order a table takes them: the main wager, then the side bet on it.
    assert bet(api, table, "ana", main, main_amount).status_code == 200
    assert bet(api, table, "ana", side, side_amount).status_code == 200
    withdrawn = bet(api, table, "ana", main, 0)  # would leave the side bet on nothing
    assert withdrawn.status_code == 422, withdrawn.text
    assert table.state()["round"]["stakes"] == {"1": (main_amount + side_amount) * 100}
    assert bet(api, table, "ben", main, main_amount).status_code == 200
    round_id = table.state()["round"]["id"]
    table.ready_all()
    table.play_out(round_id)
    assert table.recall(round_id)["status"] == "complete"
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0


def test_a_baccarat_pair_bet_alone_is_a_bet_that_deals(api: Api) -> None:
    """The class ends here: Dragon Six's pair bets stand alone (Art. 8), so a zone with only a
    Player Pair is dealt and settled."""
    table = Table(api, "dragon-six-peru-2016", ["ana"], credit_minor=CREDIT)
    assert bet(api, table, "ana", "player_pair", 5).status_code == 200
    round_id = table.state()["round"]["id"]
    table.ready_all()
    assert table.recall(round_id)["status"] == "complete"


def test_consent_to_a_back_bet_on_a_box_without_a_bet_is_refused(api: Api) -> None:
    """spain-1979: a back bet shares its box's fortune; on a box with no bet of its own it
    could never be dealt, so the owner's consent is refused until the box has one."""
    table = Table(api, "spain-1979", ["ana"], credit_minor=CREDIT)
    ben = api.player("ben", CREDIT)
    asked = api.post(f"/tables/{table.id}/back-bets", ben, {"seat": 1, "amount": 5})
    assert asked.status_code == 200, asked.text
    consent = f"/tables/{table.id}/back-bets/{asked.json()['back_bet']}/consent"
    refused = api.post(consent, table.tokens["ana"], {"accept": True})
    assert refused.status_code == 422 and refused.json()["error"] == "BetError", refused.text
    assert api.balance(ben) == CREDIT
    assert bet(api, table, "ana", "main", 10).status_code == 200
    assert api.post(consent, table.tokens["ana"], {"accept": True}).status_code == 200
    assert api.balance(ben) == CREDIT - 500


def leave(api: Api, table: Table, name: str) -> Any:
    return api.client.request(
        "DELETE",
        f"/tables/{table.id}/seats/{table.seat_of[name]}",
        json={},
        headers=api.headers(table.tokens[name], api.key()),
    )


def bet_as_recorded_before(
    casino: tables.Casino, live: LiveTable, who: Principal, *, seat: int, wager: str, units: int
) -> None:
    """A bet taken the way the table took it before this rule (no refusal): the record a
    database of that time holds."""

    def work(session: Session, table: LiveTable) -> None:
        table.game_round.apply(Bet(seat, wager, units))
        casino.money.collect_stakes(session, table, "bet")
        if table.deadline is None:
            table.deadline = casino.clock.now() + table.betting_seconds
        casino.rounds.save(session, table)
        session.connection().execute(
            insert(PLAYERS).values(round_id=table.round_id, seat=seat, user_id=who.user_id)
        )
        table.players.add((seat, who.user_id))

    casino.run(live.id, work)


@pytest.mark.parametrize("case", SIDE_BETS)
def test_at_the_deadline_an_undealable_box_is_returned_and_the_round_goes_on(
    api: Api, case: Case
) -> None:
    profile, side, main, side_amount, main_amount = case
    players = ["ana", "ben", "cid"]
    table = Table(api, profile, players, credit_minor=CREDIT)
    casino = api.server.casino
    live = casino.table(table.id)
    ana = casino_principal(api, live, "ana")
    bet_as_recorded_before(
        casino, live, ana, seat=table.seat_of["ana"], wager=side, units=side_amount
    )
    for name in ("ben", "cid"):  # Casino Hold'em needs two players with an Ante (Art. 9)
        assert bet(api, table, name, main, main_amount).status_code == 200
    round_id = table.state()["round"]["id"]
    refused = leave(api, table, "ana")
    assert refused.status_code == 409, refused.text  # her stake is held: she cannot leave
    assert api.balance(table.tokens["ana"]) == CREDIT - side_amount * 100

    api.clock.advance(61)
    casino.tick(wait=True)
    state = table.state()
    if state["round"]["id"] == round_id:  # else the deal settled it at once
        assert state["round"]["status"] == "playing"  # dealt without ana's box
        table.play_out(round_id)
    record = table.recall(round_id)
    returned = [e for e in record["events"] if e["kind"] == "BetsReturned"]
    assert returned == [
        {
            "kind": "BetsReturned",
            "seat": table.seat_of["ana"],
            "reason": returned[0]["reason"],
        }
    ]
    assert "the betting deadline passed" in returned[0]["reason"]
    assert not any(
        e["kind"] == "Settled" and e["seat"] == table.seat_of["ana"] for e in record["events"]
    )
    assert api.balance(table.tokens["ana"]) == CREDIT  # every unit of it came back
    assert leave(api, table, "ana").status_code == 200
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0


def casino_principal(api: Api, live: LiveTable, name: str) -> Principal:
    seat = next(
        seat for seat, user in live.seats.items() if api.server.casino.usernames[user] == name
    )
    return Principal(live.seats[seat], name, "player")


FAULTS = {
    "engine": lambda: LedgerError("injected: the engine refuses the deal"),
    "database": lambda: OperationalError("UPDATE rounds", {}, Exception("disk I/O error")),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_failing_deadline_is_retried_with_back_off_and_logged_once(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, fault: str
) -> None:
    table = Table(api, "peru-2016", ["ana"], credit_minor=CREDIT)
    casino = api.server.casino
    assert bet(api, table, "ana", "main", 10).status_code == 200
    round_id = table.state()["round"]["id"]
    attempts = []
    original = casino.rounds.deal

    def failing_deal(session: Session, live: LiveTable) -> None:
        attempts.append(casino.clock.now())
        raise FAULTS[fault]()

    monkeypatch.setattr(casino.rounds, "deal", failing_deal)
    api.clock.advance(61)
    caplog.set_level(logging.WARNING, logger="croupier")
    for _ in range(2_000):  # 100 s of a 0.05 s deadline clock
        casino.tick(wait=True)
        api.clock.advance(0.05)
    failing = [r for r in caplog.records if "deadline failed" in r.getMessage()]
    assert len(failing) == 1, [r.getMessage() for r in caplog.records]
    # Tried after 0, 1, 2, 4, 8, 16, 32 s (and not again before 60 s more): 7 of 2,000 ticks.
    gaps = [round(b - a) for a, b in itertools.pairwise(attempts)]
    assert gaps == [1, 2, 4, 8, 16, 32], gaps
    assert table.state()["round"]["status"] == "betting"  # nothing half done
    monkeypatch.setattr(casino.rounds, "deal", original)
    api.clock.advance(60)
    casino.tick(wait=True)
    assert table.state()["round"]["id"] != round_id or table.state()["round"]["status"] == "playing"
    recovered = [r for r in caplog.records if "applied after 7 failed" in r.getMessage()]
    assert len(recovered) == 1
    assert len(caplog.records) == 2, [r.getMessage() for r in caplog.records]
    assert api.get("/operator/audit", OPERATOR_TOKEN).json()["sum"] == 0
