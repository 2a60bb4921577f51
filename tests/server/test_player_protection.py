"""Issue 27, items 1 to 3: a player's limits, reality checks, breaks and self-exclusion.

AGCO Standards 2.23-2.24 and UKGC RTS 12 (a limit lowered binds at once, raised only after a
cooling period), UKGC RTS 13 and 58 Pa. Code 814a.1 (reality checks, at least hourly), AGCO
2.13-2.14 (breaks of a day to three months, self-exclusion of 6 months, 1 or 5 years).

The server's clock is a ``ManualClock`` starting Tuesday 2023-11-14 22:13 UTC; the house's
gaming day begins at 06:00 UTC, so the gaming day is the 14th, its week began Monday the 13th
at 06:00 and its month 1 November at 06:00.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from server_support import OPERATOR_TOKEN, Api, Table, make_api
from sqlalchemy import event, select
from starlette.websockets import WebSocketDisconnect

from croupier.audit.models import AuditEntry
from croupier.clock import ManualClock
from croupier.gaming_day import GamingDay
from croupier.rules.base import Profile
from croupier.server.protection_routes import RealityChecks
from croupier.server.sockets import PAUSED
from croupier.service import engines, protection
from croupier.shoe import Shoe

HOUSE_DAY = GamingDay.parse("06:00", "UTC")
START = ManualClock().now()  # Tuesday 2023-11-14 22:13:20 UTC
HOUR = 3600.0


def _at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'croupier.sqlite'}"


@pytest.fixture
def api(database: str) -> Iterator[Api]:
    yield from make_api(database, gaming_day=HOUSE_DAY, session_check_seconds=0.02)


def _limit(api: Api, token: str, kind: str, period: str, amount: int | None) -> dict[str, Any]:
    answer = api.post("/me/limits", token, {"kind": kind, "period": period, "amount": amount})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _credit(api: Api, name: str, minor: int) -> Any:
    return api.post(f"/operator/wallets/{name}/credit", OPERATOR_TOKEN, {"amount": minor})


def _keep_alive(api: Api, token: str, seconds: float) -> None:
    """Let ``seconds`` pass with a request every 10 minutes (a session idles out at 30)."""
    while seconds > 0:
        step = min(seconds, 600.0)
        api.clock.advance(step)
        seconds -= step
        assert api.get("/me", token).status_code == 200


def _applying(api: Api, token: str, kind: str, period: str) -> dict[str, Any]:
    state = api.get("/me/protection", token).json()
    return next(x for x in state["limits"] if x["kind"] == kind and x["period"] == period)


# --- deposit limits: each period, its boundary by the gaming day ------------------------------
NEXT_PERIOD = {
    # From Tuesday the 14th 22:13: the next gaming day, Monday's, and 1 December's.
    "day": _at("2023-11-15T06:00:00"),
    "week": _at("2023-11-20T06:00:00"),
    "month": _at("2023-12-01T06:00:00"),
}


@pytest.mark.parametrize("period", ["day", "week", "month"])
def test_a_credit_past_the_deposit_limit_is_refused_until_the_period_ends(
    api: Api, period: str
) -> None:
    ann = api.player("ann")
    assert _limit(api, ann, "deposit", period, 1_500) == {
        "kind": "deposit",
        "period": period,
        "amount": 1_500,
        "effective_at": START,
    }
    assert _credit(api, "ann", 1_000).status_code == 200
    refused = _credit(api, "ann", 1_000)
    assert refused.status_code == 409
    assert refused.json() == {
        "error": "Conflict",
        "detail": f"deposit limit per {period} of 1500 minor units reached: 500 left, 1000 asked",
        "code": "deposit_limit_reached",
        "params": {
            "period": period,
            "limit_minor": 1_500,
            "left_minor": 500,
            "amount_minor": 1_000,
        },
    }
    assert api.balance(ann) == 1_000  # nothing moved
    assert _credit(api, "ann", 500).status_code == 200  # exactly to the limit
    assert _applying(api, ann, "deposit", period) | {"resets_at": None} == {
        "kind": "deposit",
        "period": period,
        "amount": 1_500,
        "player_amount": 1_500,
        "operator_amount": None,
        "used": 1_500,
        "left": 0,
        "resets_at": None,
    }
    assert _applying(api, ann, "deposit", period)["resets_at"] == NEXT_PERIOD[period]
    api.clock.advance(NEXT_PERIOD[period] - api.clock.now() - 1)  # the period's last second
    assert _credit(api, "ann", 1).status_code == 409
    api.clock.advance(1)
    assert _credit(api, "ann", 1_000).status_code == 200
    assert (
        api.balance(
            api.post(
                "/auth/signin", None, {"username": "ann", "password": "password-of-ann"}, key=None
            ).json()["token"]
        )
        == 2_500
    )


# --- loss and wager limits: a bet, each period ------------------------------------------------
@pytest.mark.parametrize("kind", ["loss", "wager"])
@pytest.mark.parametrize("period", ["day", "week", "month"])
def test_a_bet_past_a_loss_or_wager_limit_is_refused_and_nothing_moves(
    api: Api, kind: str, period: str
) -> None:
    table = Table(api, "veintiuno-real", ["ann"], credit_minor=100_000)
    ann = table.tokens["ann"]
    _limit(api, ann, kind, period, 1_500)
    bet = {"seat": 1, "wager": table.wager, "amount": 10}
    assert api.post(f"/tables/{table.id}/bets", ann, bet).status_code == 200
    refused = api.post(f"/tables/{table.id}/bets", ann, {**bet, "amount": 20})  # 1,000 more
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == f"{kind}_limit_reached"
    assert refused.json()["params"] == {
        "period": period,
        "limit_minor": 1_500,
        "left_minor": 500,
        "amount_minor": 1_000,
    }
    assert api.balance(ann) == 99_000  # the first bet only
    assert table.state("ann")["round"]["stakes"] == {"1": 1_000}
    assert api.post(f"/tables/{table.id}/bets", ann, {**bet, "amount": 15}).status_code == 200
    assert api.balance(ann) == 98_500
    assert api.audit()["problems"] == []


# --- the cooling period --------------------------------------------------------------------------
def test_a_decrease_binds_at_once_a_raise_and_a_removal_only_after_24_hours(api: Api) -> None:
    ann = api.player("ann")
    assert _limit(api, ann, "deposit", "month", 2_000)["effective_at"] == START
    raised = _limit(api, ann, "deposit", "month", 5_000)
    assert raised["effective_at"] == START + 24 * HOUR
    state = api.get("/me/protection", ann).json()
    assert state["pending"] == [
        {"kind": "deposit", "period": "month", "amount": 5_000, "effective_at": START + 24 * HOUR}
    ]
    assert _applying(api, ann, "deposit", "month")["amount"] == 2_000
    assert _credit(api, "ann", 3_000).status_code == 409
    _keep_alive(api, ann, 24 * HOUR - 1)  # a second short of the 24 hours
    assert _credit(api, "ann", 3_000).status_code == 409
    _keep_alive(api, ann, 1)  # it applies by itself: nothing was asked again
    assert _applying(api, ann, "deposit", "month")["amount"] == 5_000
    assert api.get("/me/protection", ann).json()["pending"] == []
    assert _credit(api, "ann", 3_000).status_code == 200

    removed = _limit(api, ann, "deposit", "month", None)
    assert removed["effective_at"] == api.clock.now() + 24 * HOUR
    lowered = _limit(api, ann, "deposit", "month", 4_000)  # replaces the removal waiting
    assert lowered["effective_at"] == api.clock.now()
    _keep_alive(api, ann, 25 * HOUR)
    assert _applying(api, ann, "deposit", "month")["amount"] == 4_000
    assert _credit(api, "ann", 1_001).json()["params"]["left_minor"] == 1_000
    assert api.balance(ann) == 3_000


def test_the_lower_of_the_players_and_the_operators_limit_applies(api: Api) -> None:
    ann = api.player("ann")
    _limit(api, ann, "deposit", "week", 10_000)
    set_by_operator = api.post(
        "/operator/players/ann/limits",
        OPERATOR_TOKEN,
        {"kind": "deposit", "period": "week", "amount": 2_000},
    )
    assert set_by_operator.json() == {
        "kind": "deposit",
        "period": "week",
        "amount": 2_000,
        "effective_at": START,
    }
    seen = api.get("/operator/players/ann/protection", OPERATOR_TOKEN).json()
    weekly = next(x for x in seen["limits"] if (x["kind"], x["period"]) == ("deposit", "week"))
    assert (weekly["amount"], weekly["player_amount"], weekly["operator_amount"]) == (
        2_000,
        10_000,
        2_000,
    )
    assert _credit(api, "ann", 2_001).json()["code"] == "deposit_limit_reached"
    # The operator's raise applies at once; the player's own 10,000 still binds.
    api.post(
        "/operator/players/ann/limits",
        OPERATOR_TOKEN,
        {"kind": "deposit", "period": "week", "amount": None},
    )
    assert _credit(api, "ann", 10_001).json()["code"] == "deposit_limit_reached"
    assert _credit(api, "ann", 10_000).status_code == 200


# --- a decision that adds a stake ---------------------------------------------------------------
# spain-1979 (Art. 03 V.1.d: a double on a two-card 9, 10 or 11): the new shoe's five burns,
# the box's 5s, the dealer's 7d, the box's 6h: 11 against 7.
ELEVEN = "2c 2c 2c 2c 2c 5s 7d 6h Tc " + "9c 9d 9h 9s " * 5


def test_a_double_past_the_wager_limit_is_refused_and_the_hand_plays_on(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stacked(profile: Profile, seed: bytes) -> Shoe:
        return Shoe.parse(ELEVEN, decks=profile.table.decks)

    monkeypatch.setattr(engines, "open_shoe", stacked)
    for api in make_api(database, gaming_day=HOUSE_DAY):
        table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
        ann = table.tokens["ann"]
        _limit(api, ann, "wager", "day", 1_500)
        round_id = table.bet_all(10)
        table.ready_all()
        pending = table.state("ann")["round"]["pending"]
        assert pending["seat"] == 1 and "double" in pending["legal"], pending
        doubled = api.post(f"/tables/{table.id}/actions", ann, {"seat": 1, "action": "double"})
        assert doubled.status_code == 409, doubled.text
        assert doubled.json()["code"] == "wager_limit_reached"
        assert doubled.json()["params"]["left_minor"] == 500
        assert api.balance(ann) == 99_000
        assert table.state("ann")["round"]["pending"]["seat"] == 1  # still ann's to decide
        table.play_out(round_id, lambda pending: "stand")
        assert api.audit()["problems"] == []


# --- the session's time -----------------------------------------------------------------------
def test_a_bet_past_the_session_limit_is_refused(api: Api) -> None:
    first = Table(api, "veintiuno-real", ["ann"], credit_minor=100_000)
    ann = first.tokens["ann"]
    answer = _limit(api, ann, "session", "session", 30)
    assert answer == {"kind": "session", "period": "session", "amount": 30, "effective_at": START}
    bet = {"seat": 1, "wager": first.wager, "amount": 10}
    assert api.post(f"/tables/{first.id}/bets", ann, bet).status_code == 200
    # Withdrawn: no round of this table plays on while the clock moves (its deadlines would).
    assert api.post(f"/tables/{first.id}/bets", ann, {**bet, "amount": 0}).status_code == 200
    _keep_alive(api, ann, 30 * 60)
    later = Table(api, "veintiuno-real", ["ben"], credit_minor=100_000)
    assert api.post(f"/tables/{later.id}/seats/2", ann).status_code == 200
    balance = api.balance(ann)
    refused = api.post(f"/tables/{later.id}/bets", ann, {**bet, "seat": 2})
    assert refused.status_code == 409
    assert refused.json()["code"] == "session_limit_reached"
    assert refused.json()["params"] == {"limit_minutes": 30, "left_minutes": 0}
    assert api.balance(ann) == balance
    assert _applying(api, ann, "session", "session")["used"] == 30
    wrong = api.post("/me/limits", ann, {"kind": "session", "period": "day", "amount": 30})
    assert (wrong.status_code, wrong.json()["code"]) == (422, "limit_period")


# --- reality checks -------------------------------------------------------------------------------
@pytest.mark.timeout(120)
@pytest.mark.parametrize("start", ["prompt", "late"])
def test_a_reality_check_tells_each_open_page_the_sessions_time_net_and_wagered(
    api: Api, start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``late``: the socket's first read of the player's figures takes a while, so the page
    has its first state and the clock moves on before the check's clock would have started,
    had it started after the state went out (it did, and this test hung waiting: seen once
    in a run of the suite). The check must come all the same."""
    if start == "late":
        figures = RealityChecks._figures

        def slow_figures(self: RealityChecks) -> dict[str, Any]:
            time.sleep(0.5)
            return figures(self)

        monkeypatch.setattr(RealityChecks, "_figures", slow_figures)
    # A betting window longer than the 20 minutes: the round stays as bet (no deal, no
    # settlement racing the check's figures).
    created = api.post(
        "/operator/tables",
        OPERATOR_TOKEN,
        {"name": "long", "profile": "veintiuno-real", "betting_seconds": 3600},
    )
    table_id = created.json()["table"]
    ann = api.player("ann", 100_000)
    assert api.post(f"/tables/{table_id}/seats/1", ann).status_code == 200
    assert api.post("/me/reality-check", ann, {"minutes": 20}).json()["amount"] == 20
    assert api.get("/me/protection", ann).json()["reality_check_minutes"] == 20
    bet = {"seat": 1, "wager": "main", "amount": 10}
    assert api.post(f"/tables/{table_id}/bets", ann, bet).status_code == 200
    with api.client.websocket_connect(f"/tables/{table_id}/ws?token={ann}") as socket:
        assert socket.receive_json()["type"] == "state"
        _keep_alive(api, ann, 20 * 60)
        check = socket.receive_json()
        while check["type"] != "reality_check":
            check = socket.receive_json()
        assert check == {
            "type": "reality_check",
            "started_at": START,
            "played_seconds": 20 * 60,
            "net_minor": -1_000,  # the stake in play counts as lost until its round pays
            "wagered_minor": 1_000,
            "interval_minutes": 20,
        }
    refused = api.post("/me/reality-check", ann, {"minutes": 90})
    assert refused.status_code == 422  # at least hourly (58 Pa. Code 814a.1)


# --- breaks and self-exclusion ---------------------------------------------------------------
def _sign_in(api: Api, name: str) -> str:
    answer = api.post(
        "/auth/signin", None, {"username": name, "password": f"password-of-{name}"}, key=None
    )
    token: str = answer.json()["token"]
    return token


def _refusals(api: Api, table: Table, token: str) -> set[str]:
    bet = {"seat": 1, "wager": table.wager, "amount": 10}
    answers = [
        api.post(f"/tables/{table.id}/seats/3", token),
        api.post(f"/tables/{table.id}/bets", token, bet),
    ]
    assert {a.status_code for a in answers} == {409}
    return {a.json()["code"] for a in answers}


@pytest.mark.parametrize(
    ("route", "body", "code", "ends_at"),
    [
        ("/me/break", {"days": 7}, "on_break", START + 7 * 24 * HOUR),
        ("/me/self-exclusion", {"months": 6}, "self_excluded", _at("2024-05-14T22:13:20")),
    ],
)
def test_a_pause_holds_across_sign_out_restart_and_a_second_tab(
    database: str, route: str, body: dict[str, int], code: str, ends_at: float
) -> None:
    clock = ManualClock()
    for api in make_api(database, clock=clock, gaming_day=HOUSE_DAY, session_check_seconds=0.02):
        table = Table(api, "veintiuno-real", ["ann"], credit_minor=100_000)
        ann = table.tokens["ann"]
        second_tab = _sign_in(api, "ann")
        with api.client.websocket_connect(f"/tables/{table.id}/ws?token={second_tab}") as socket:
            assert socket.receive_json()["type"] == "state"
            taken = api.post(route, ann, body)
            assert taken.status_code == 200, taken.text
            assert taken.json() == {
                "kind": code.replace("on_", ""),
                "starts_at": START,
                "ends_at": ends_at,
            } | ({"kind": "self_exclusion"} if code == "self_excluded" else {})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    socket.receive_json()
            assert (closed.value.code, closed.value.reason) == (PAUSED, code)
        assert _refusals(api, table, ann) == {code}
        assert api.post("/auth/signout", ann, key=None).status_code == 200
        ann = _sign_in(api, "ann")
        assert _refusals(api, table, ann) == {code}
        with api.client.websocket_connect(f"/tables/{table.id}/ws?token={ann}") as socket:
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == PAUSED
        # No credit either (the same 409 as a stake), and nothing moves; a debit, below, may.
        credit = _credit(api, "ann", 5_000)
        assert (credit.status_code, credit.json()["code"]) == (409, code)
        assert api.balance(ann) == 100_000  # still the player's
        table_id = table.id
    clock.advance(24 * HOUR)
    for api in make_api(database, clock=clock, gaming_day=HOUSE_DAY):  # a restart
        ann = _sign_in(api, "ann")
        state = api.get("/me/protection", ann).json()
        assert state["pause"] == {
            "kind": "break" if code == "on_break" else "self_exclusion",
            "starts_at": START,
            "ends_at": ends_at,
        }
        seat = api.post(f"/tables/{table_id}/seats/3", ann)
        assert (seat.status_code, seat.json()["code"]) == (409, code)
        # Nobody lifts it: the operator's limits do not, and a shorter break does not.
        api.post("/me/break", ann, {"days": 1})
        clock.advance(2 * 24 * HOUR)
        ann = _sign_in(api, "ann")
        assert api.post(f"/tables/{table_id}/seats/3", ann).json()["code"] == code
        # The operator pays the balance out.
        paid = api.post("/operator/wallets/ann/debit", OPERATOR_TOKEN, {"amount": 100_000})
        assert paid.status_code == 200 and api.balance(ann) == 0
        with api.server.uow.engine.connect() as connection:
            entries = connection.execute(
                select(AuditEntry.actor, AuditEntry.kind).where(
                    AuditEntry.table_name == "player_pauses"
                )
            ).all()
        kind = "break" if code == "on_break" else "self_exclusion"
        assert ("player:ann", f"player {kind}") in entries
        assert ("player:ann", "player break") in entries


def test_a_break_ends_by_itself(api: Api) -> None:
    table = Table(api, "veintiuno-real", ["ann"], credit_minor=100_000)
    ann = table.tokens["ann"]
    assert api.post("/me/break", ann, {"days": 1}).status_code == 200
    assert api.post("/me/break", ann, {"days": 93}).status_code == 422
    assert api.post("/me/self-exclusion", ann, {"months": 3}).status_code == 422
    api.clock.advance(24 * HOUR)
    ann = _sign_in(api, "ann")
    bet = {"seat": 1, "wager": table.wager, "amount": 10}
    assert api.post(f"/tables/{table.id}/bets", ann, bet).status_code == 200
    assert api.get("/me/protection", ann).json()["pause"] is None


def test_every_setting_enters_the_audit_chain_with_who_and_when(api: Api) -> None:
    ann = api.player("ann")
    _limit(api, ann, "loss", "month", 9_000)
    api.post(
        "/operator/players/ann/limits",
        OPERATOR_TOKEN,
        {"kind": "loss", "period": "month", "amount": 5_000},
    )
    with api.server.uow.engine.connect() as connection:
        entries = connection.execute(
            select(AuditEntry.actor, AuditEntry.kind, AuditEntry.at).where(
                AuditEntry.table_name == "player_limits"
            )
        ).all()
    assert [tuple(e) for e in entries] == [
        ("player:ann", "player limit loss", START),
        ("operator:operator", "operator limit loss", START),
    ]


def test_a_pause_taken_through_another_process_closes_the_socket_at_its_next_check(
    api: Api,
) -> None:
    """Another server process (issue 29) closes its own sockets; this one's notice the pause
    in the database at their next session check."""
    table = Table(api, "veintiuno-real", ["ann"], credit_minor=100_000)
    ann = table.tokens["ann"]
    user_id = api.get("/me", ann).json()["user"]
    with api.client.websocket_connect(f"/tables/{table.id}/ws?token={ann}") as socket:
        assert socket.receive_json()["type"] == "state"
        now = api.clock.now()
        api.server.uow.run(lambda session: protection.take_break(session, user_id, 3, now))
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert (closed.value.code, closed.value.reason) == (PAUSED, "on_break")


def test_a_back_bet_past_a_limit_or_on_a_break_is_refused_when_asked(api: Api) -> None:
    """spain-1979's back bet (Art. 03 IV.a) is a stake of the backer's: their limits bind it
    when it is asked, and a break refuses it."""
    table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
    table.bet_all(10)
    ben, cat = api.player("ben", 100_000), api.player("cat", 100_000)
    _limit(api, ben, "wager", "week", 400)
    asked = api.post(f"/tables/{table.id}/back-bets", ben, {"seat": 1, "amount": 5})
    assert (asked.status_code, asked.json()["code"]) == (409, "wager_limit_reached")
    assert asked.json()["params"]["left_minor"] == 400
    assert api.post("/me/break", cat, {"days": 2}).status_code == 200
    asked = api.post(f"/tables/{table.id}/back-bets", cat, {"seat": 1, "amount": 5})
    assert (asked.status_code, asked.json()["code"]) == (409, "on_break")
    assert api.balance(ben) == api.balance(cat) == 100_000


def test_a_bet_asks_once_for_its_players_staff_roles_and_protection_and_sees_a_limit_set_elsewhere(
    api: Api,
) -> None:
    """A bet asks, in its own transaction, whether its player is one of the house's staff and
    whether they have any limit or pause in force: one read for both (issue 28, item 8), whose
    "none" spares the stake's own check. A limit written to the database by another path (as
    another server process would) binds the very next bet: nothing of it is kept in memory."""
    table = Table(api, "veintiuno-real", ["ann"], credit_minor=100_000)
    ann = table.tokens["ann"]
    asked: list[str] = []

    def note(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if any(name in statement for name in ("staff_roles", "player_limits", "player_pauses")):
            asked.append(statement)

    engine = api.server.uow.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        bet = {"seat": 1, "wager": table.wager, "amount": 10}
        assert api.post(f"/tables/{table.id}/bets", ann, bet).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert len(asked) == 1, asked
    user_id = api.get("/me", ann).json()["user"]
    now = api.clock.now()
    wager, day = protection.LimitKind.WAGER, protection.Period.DAY
    player = protection.Setter.PLAYER
    api.server.uow.run(
        lambda session: protection.set_limit(
            session, user_id, user_id, player, wager, day, 1_500, now
        )
    )
    refused = api.post(f"/tables/{table.id}/bets", ann, {**bet, "amount": 20})  # 1,000 more
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "wager_limit_reached"
    assert api.balance(ann) == 99_000
