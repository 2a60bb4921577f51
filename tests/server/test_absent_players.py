"""Absent players (docs/rules.md#D-GEN-15, issue 13 item 5): a seat whose player lets the
betting windows pass without a bet sits out after 3 rounds in a row (shown to everyone, not
waited for), and after 3 more is freed; a player who bets again comes back. The service's
clock is the test's (``ManualClock``): a window passes with ``clock.advance`` and ``tick``.

SQLite in CI; the PostgreSQL duplicate is in the slow form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fault_support import WriteFaults, disk_full
from server_support import OPERATOR_TOKEN, Api, Table, make_api

from croupier.clock import ManualClock
from croupier.service.fail_safe import Fault

PROFILE = "peru-2016"
WINDOW = 60  # Table's betting window, seconds


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=[pytest.mark.postgres, pytest.mark.slow])]
)
def api(request: pytest.FixtureRequest, database_url_for: Any) -> Iterator[Api]:
    for url in database_url_for(request.param):
        yield from make_api(url)


def window_passes(api: Api) -> None:
    api.clock.advance(WINDOW + 1)
    api.server.casino.tick(wait=True)


def table_state(table: Table, name: str | None = None) -> dict[str, Any]:
    state: dict[str, Any] = table.state(name)["table"]
    return state


def assert_memory_is_the_database(api: Api, table: Table) -> None:
    live = api.server.casino.table(table.id)
    assert live.durable_state() == api.server.casino.rebuilt(table.id).durable_state()


def play_ann_round(api: Api, table: Table, *, waits_for_ben: bool) -> int:
    """Ann bets and says ready; the deal comes at once unless the table waits for Ben."""
    token = table.tokens["ann"]
    round_id: int = table.state()["round"]["id"]
    answer = api.post(
        f"/tables/{table.id}/bets", token, {"seat": 1, "wager": "main", "amount": table.stake}
    )
    assert answer.status_code == 200, answer.text
    ready = api.post(f"/tables/{table.id}/ready", token)
    assert ready.status_code == 200, ready.text
    assert ready.json()["dealt"] is not waits_for_ben
    if waits_for_ben:
        window_passes(api)  # the whole window, waiting for Ben, then the deal
    table.play_out(round_id)
    return round_id


def test_a_player_who_leaves_without_a_word_sits_out_then_the_seat_frees(api: Api) -> None:
    """D-GEN-15: Ben sits and never bets. Ann waits out the window for him three rounds;
    then his seat sits out (everyone sees it) and Ann's "ready" deals at once; three rounds
    later his seat is free. Ben's money never moved."""
    table = Table(api, PROFILE, ["ann", "ben"])
    rounds = [play_ann_round(api, table, waits_for_ben=True) for _ in range(3)]
    for name in (None, "ann", "ben"):
        shown = table_state(table, name)
        assert shown["sitting_out"] == [2] and shown["seats"]["2"] == "ben"
        assert shown["absence_rounds"] == {"sit_out": 3, "free": 3}
    assert_memory_is_the_database(api, table)
    rounds += [play_ann_round(api, table, waits_for_ben=False) for _ in range(2)]
    assert table_state(table)["seats"] == {"1": "ann", "2": "ben"}
    rounds.append(play_ann_round(api, table, waits_for_ben=False))
    shown = table_state(table)
    assert shown["seats"] == {"1": "ann"} and shown["sitting_out"] == []
    for round_id in rounds:  # Ben was never dealt in
        assert {seat["seat"] for seat in table.recall(round_id)["seats"]} == {1}
    assert api.balance(table.tokens["ben"]) == table.credit
    assert table.balances()["ann"] == table.expected_balances(rounds)["ann"]
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0
    assert audit["accounts"][f"escrow:table:{table.id}"] == 0
    assert_memory_is_the_database(api, table)
    # The freed seat is anyone's again.
    assert api.post(f"/tables/{table.id}/seats/2", api.player("cat")).status_code == 200


def test_a_lone_player_who_never_bets_sits_out_and_is_freed_by_the_windows_alone(
    api: Api,
) -> None:
    """D-GEN-15: with nobody betting, the windows still run while a seat is taken: each one
    that passes is a round missed; once the seat is freed the table's clock stops."""
    table = Table(api, PROFILE, ["ann"])
    round_id = table.state()["round"]["id"]
    assert table.state()["round"]["deadline"] == api.clock.now() + WINDOW
    for missed in range(1, 3):
        window_passes(api)
        assert table_state(table)["sitting_out"] == []
        assert api.server.casino.table(table.id).absences == {1: missed}
    window_passes(api)
    assert table_state(table)["sitting_out"] == [1]
    window_passes(api)
    window_passes(api)
    assert table_state(table)["seats"] == {"1": "ann"}
    window_passes(api)
    state = table.state()
    assert state["table"]["seats"] == {} and state["round"]["deadline"] is None
    assert state["round"]["id"] == round_id  # no round was dealt: nobody bet
    assert api.balance(table.tokens["ann"]) == table.credit
    assert_memory_is_the_database(api, table)


def test_a_player_sitting_out_who_bets_comes_back_and_is_waited_for_again(api: Api) -> None:
    """D-GEN-15: a bet clears the rounds missed; the next window waits for the player."""
    table = Table(api, PROFILE, ["ann", "ben"])
    for _ in range(3):
        play_ann_round(api, table, waits_for_ben=True)
    assert table_state(table)["sitting_out"] == [2]
    ben = table.tokens["ben"]
    answer = api.post(
        f"/tables/{table.id}/bets", ben, {"seat": 2, "wager": "main", "amount": table.stake}
    )
    assert answer.status_code == 200, answer.text
    assert table_state(table)["sitting_out"] == []
    assert api.server.casino.table(table.id).absences == {}
    ready = api.post(f"/tables/{table.id}/ready", table.tokens["ann"])
    assert ready.json()["dealt"] is False  # Ben is present again: the table waits for him
    assert api.post(f"/tables/{table.id}/ready", ben).json()["dealt"] is True
    assert_memory_is_the_database(api, table)


def test_a_table_sets_its_own_absent_rounds(api: Api) -> None:
    """D-GEN-15: the operator's table may sit a seat out after 1 round and free it after 2."""
    created = api.post(
        "/operator/tables",
        OPERATOR_TOKEN,
        {
            "name": "quick",
            "profile": PROFILE,
            "betting_seconds": WINDOW,
            "sit_out_after": 1,
            "free_after": 2,
        },
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]
    token = api.player("dan")
    assert api.post(f"/tables/{table_id}/seats/3", token).status_code == 200
    window_passes(api)
    shown = api.get(f"/tables/{table_id}", token).json()["table"]
    assert shown["sitting_out"] == [3] and shown["absence_rounds"] == {"sit_out": 1, "free": 2}
    window_passes(api)
    assert api.get(f"/tables/{table_id}", token).json()["table"]["seats"] == {"3": "dan"}
    window_passes(api)
    assert api.get(f"/tables/{table_id}", token).json()["table"]["seats"] == {}
    refused = api.post(
        "/operator/tables",
        OPERATOR_TOKEN,
        {"name": "never", "profile": PROFILE, "sit_out_after": 0},
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "bad_request_fields"


def test_casino_holdem_with_one_ante_frees_the_absent_neighbour_then_waits(api: Api) -> None:
    """D-GEN-15 beside Casino Hold'em's two players (Art. 9): Ann's Ante cannot be dealt
    alone; Ben, seated without a bet, misses each window until his seat is freed; then the
    Ante waits for a second player with no window, still held."""
    table = Table(api, "casino-holdem-peru-2007", ["ann", "ben"])
    answer = api.post(
        f"/tables/{table.id}/bets", table.tokens["ann"], {"seat": 1, "wager": "ante", "amount": 5}
    )
    assert answer.status_code == 200, answer.text
    for _ in range(6):
        window_passes(api)
    state = table.state()
    assert state["table"]["seats"] == {"1": "ann"}
    assert state["round"]["status"] == "betting" and state["round"]["deadline"] is None
    assert state["round"]["stakes"] == {"1": 500}
    assert api.server.casino.table(table.id).absences == {}
    assert_memory_is_the_database(api, table)


def test_a_closed_table_counts_no_rounds_missed(api: Api) -> None:
    """D-GEN-15: nobody can bet at a closed table, so its windows stop; reopened, they run."""
    table = Table(api, PROFILE, ["ann"])
    window_passes(api)
    closed = api.post(f"/operator/tables/{table.id}/close", OPERATOR_TOKEN)
    assert closed.status_code == 200, closed.text
    assert table.state()["round"]["deadline"] is None
    for _ in range(6):
        window_passes(api)
    assert table_state(table)["seats"] == {"1": "ann"}
    assert api.server.casino.table(table.id).absences == {1: 1}
    assert api.post(f"/operator/tables/{table.id}/open", OPERATOR_TOKEN).status_code == 200
    assert table.state()["round"]["deadline"] == api.clock.now() + WINDOW
    window_passes(api)
    assert api.server.casino.table(table.id).absences == {1: 2}
    assert_memory_is_the_database(api, table)


def test_the_window_closes_when_the_last_player_not_ready_leaves(api: Api) -> None:
    """D-GEN-7, D-GEN-15: betting closes as soon as every present seated player has said
    ready. Ann and Ben bet and say ready while Cat, seated, has not; when Cat stands up the
    deal comes at once, well before the window's deadline (the test's clock never moves)."""
    table = Table(api, PROFILE, ["ann", "ben", "cat"])
    round_id = table.state()["round"]["id"]
    for name in ("ann", "ben"):
        answer = api.post(
            f"/tables/{table.id}/bets",
            table.tokens[name],
            {"seat": table.seat_of[name], "wager": "main", "amount": table.stake},
        )
        assert answer.status_code == 200, answer.text
        ready = api.post(f"/tables/{table.id}/ready", table.tokens[name])
        assert ready.json() == {"round": round_id, "dealt": False}  # Cat is waited for
    deadline = table.state()["round"]["deadline"]
    assert api.clock.now() < deadline
    left = api.client.delete(
        f"/tables/{table.id}/seats/3", headers=api.headers(table.tokens["cat"], api.key())
    )
    assert left.status_code == 200, left.text
    state = table.state()["round"]
    assert state["id"] == round_id and state["status"] == "playing"
    assert api.clock.now() < deadline
    table.play_out(round_id)
    assert api.server.casino.table(table.id).absences == {}  # Cat had left: no round missed
    assert_memory_is_the_database(api, table)


def test_a_present_player_who_says_ready_without_a_bet_lets_the_others_be_dealt(
    api: Api,
) -> None:
    """D-GEN-7: "ready" from a seated player with no bet says they sit this round out; the
    deal comes when the bettors are ready too, before the deadline, and that player's seat
    has missed the round (D-GEN-15)."""
    table = Table(api, PROFILE, ["ann", "ben"])
    round_id = table.state()["round"]["id"]
    assert api.post(f"/tables/{table.id}/ready", table.tokens["ben"]).json()["dealt"] is False
    answer = api.post(
        f"/tables/{table.id}/bets",
        table.tokens["ann"],
        {"seat": 1, "wager": "main", "amount": table.stake},
    )
    assert answer.status_code == 200, answer.text
    deadline = table.state()["round"]["deadline"]
    ready = api.post(f"/tables/{table.id}/ready", table.tokens["ann"])
    assert ready.json() == {"round": round_id, "dealt": True}
    assert api.clock.now() < deadline
    assert api.server.casino.table(table.id).absences == {2: 1}
    assert_memory_is_the_database(api, table)


# --- a window that ran out while the players could not bet is no round missed --------------
def assert_the_window_runs_afresh_and_counts_once_run(api: Api, table: Table) -> None:
    """Ann's seat missed nothing, the window runs its full time from now (stored so), and
    the next window that runs its course is a round missed."""
    assert api.server.casino.table(table.id).absences == {}
    assert table.state()["round"]["deadline"] == api.clock.now() + WINDOW
    assert_memory_is_the_database(api, table)
    window_passes(api)
    assert api.server.casino.table(table.id).absences == {1: 1}


def test_a_window_that_ran_out_while_the_server_was_down_is_no_round_missed(
    database_url_for: Any,
) -> None:
    """D-GEN-15 with R11: Ann is seated, the server stops, and comes back an hour later, past
    the window's deadline. Nobody could bet meanwhile: the window gets its full time again
    and her seat has missed nothing; the next window that runs its course counts."""
    url = next(database_url_for("sqlite"))
    first = make_api(url)
    api = next(first)
    table = Table(api, PROFILE, ["ann"])
    down_at = api.clock.now()
    first.close()
    later = make_api(url, clock=ManualClock(down_at + 3600))
    api = next(later)
    try:
        table.api = api
        api.server.casino.tick(wait=True)
        assert_the_window_runs_afresh_and_counts_once_run(api, table)
    finally:
        later.close()


def test_a_window_that_ran_out_while_the_fail_safe_held_is_no_round_missed(
    database_url_for: Any,
) -> None:
    """D-GEN-15 with R17: the fail safe engages (no bet can be taken) and the window's
    deadline passes while it holds; when it clears the window runs afresh, stored so, and
    Ann's seat has missed nothing."""
    for api in make_api(next(database_url_for("sqlite")), fail_safe_seconds=3600):
        table = Table(api, PROFILE, ["ann"])
        safe = api.server.casino.fail_safe
        safe.engage(Fault.DATABASE, "the test took the database away")
        window_passes(api)  # time stands still for the tables meanwhile
        assert safe.check() == [Fault.DATABASE]  # every probe passes again: cleared
        api.server.casino.tick(wait=True)
        assert_the_window_runs_afresh_and_counts_once_run(api, table)


def test_a_window_whose_close_failed_on_the_database_is_no_round_missed(
    database_url_for: Any,
) -> None:
    """D-GEN-15: the database refuses every write (a full disk: the fail safe's read probe
    still passes) when the window's deadline comes, and for a while after; bets failed the
    same way. When the close is applied at last, the window runs afresh instead: Ann's seat
    has missed nothing."""
    for api in make_api(next(database_url_for("sqlite")), fail_safe_seconds=3600):
        table = Table(api, PROFILE, ["ann"])
        faults = WriteFaults(api.server.uow.engine)
        try:
            faults.arm(1, disk_full(faults.dialect), persistent=True)
            window_passes(api)
            api.clock.advance(5)
            api.server.casino.tick(wait=True)  # tried again after its back-off: fails again
            assert faults.fired >= 2
            faults.disarm()
            api.clock.advance(60)
            api.server.casino.tick(wait=True)
        finally:
            faults.close()
        assert api.server.casino.table(table.id).deadline_failures == 0
        assert_the_window_runs_afresh_and_counts_once_run(api, table)
