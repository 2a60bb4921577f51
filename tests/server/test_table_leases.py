"""Issue 29, item 1: a table's lease, with the epoch as fencing token, checked by every command.

A process paused past its lease (a long GC, a stopped VM, a partition) wakes up and sends a
command it was about to commit. Meanwhile another process took the table over (the lease's
epoch rose by one). The paused owner's command must change nothing: refused 503
``table_moved``, no stake taken, the table dropped from its memory. The pause is simulated as
the issue says: the owner's lease is let expire (its renewal thread does not run) and another
process takes the table (``TableLeases.take``, what its lease thread does).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from database_support import fresh_database
from server_support import OPERATOR_TOKEN, Api, Table, make_api
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError

from croupier.audit import chain as audit_chain
from croupier.service import sharing
from croupier.service.leases import HAND_OVER, Arrivals, TableLeases
from croupier.service.unit_of_work import FENCE

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_url(pg_server: str, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database("postgresql", tmp_path, pg_server)


@pytest.fixture
def paused_owner(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Api]:
    """A server on PostgreSQL whose lease thread never runs: it renews nothing after start."""
    monkeypatch.setattr(sharing, "keep_forever", lambda *_args: None)
    yield from make_api(pg_url, lease_seconds=600)  # no lapse while the test runs


def lease_row(url: str, table_id: int) -> tuple[str, int]:
    engine = create_engine(url)
    with engine.connect() as connection:
        row = connection.execute(
            text("SELECT owner, epoch FROM table_leases WHERE table_id = :t"), {"t": table_id}
        ).one()
    engine.dispose()
    return str(row[0]), int(row[1])


def expire(url: str, table_id: int) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 second' "
                "WHERE table_id = :t"
            ),
            {"t": table_id},
        )
    engine.dispose()


def test_a_paused_owners_late_command_is_refused_by_the_fence(
    paused_owner: Api, pg_url: str
) -> None:
    api = paused_owner
    table = Table(api, "veintiuno-real", ["ana", "bruno"])
    owner = api.server.leases
    assert isinstance(owner, TableLeases)
    # The creator runs its table from the creating transaction on, at epoch 1.
    assert lease_row(pg_url, table.id) == (owner.owner, 1)
    round_id = table.bet_all()  # the owner's commands commit while it owns the table
    balance_before = table.balances()

    # The owner "pauses": its lease runs out, and another process takes the table over.
    expire(pg_url, table.id)
    other = TableLeases(pg_url)
    try:
        assert other.take(5) == [table.id]
        assert lease_row(pg_url, table.id) == (other.owner, 2)

        # The paused owner wakes up with a command: refused, nothing committed.
        late = api.post(f"/tables/{table.id}/ready", table.tokens["ana"])
        assert late.status_code == 503, late.text
        assert late.json()["code"] == "table_moved"
        assert late.headers["Retry-After"]
        assert table.balances() == balance_before
        engine = create_engine(pg_url)
        with engine.connect() as connection:
            ready = connection.execute(
                text("SELECT ready FROM rounds WHERE id = :r"), {"r": round_id}
            ).scalar_one()
        engine.dispose()
        assert ready == []  # ana's "ready" never reached the record
        # The table is no longer this process's: dropped from its memory.
        assert table.id not in api.server.casino.tables
        assert table.id not in owner.held
        # Asked again, it is the new owner's: one that does not answer yet (here: no live
        # process row) is a table being taken over, 503 table_moved, never a 404.
        again = api.get(f"/tables/{table.id}", table.tokens["ana"])
        assert (again.status_code, again.json()["code"]) == (503, "table_moved")
        assert api.get("/tables/999", table.tokens["ana"]).json()["code"] == "no_such_table"
        # And the ledger still balances.
        audit = api.get("/operator/audit", OPERATOR_TOKEN).json()
        assert (audit["problems"], audit["sum"]) == ([], 0)
    finally:
        other.release()


def test_tables_spread_over_the_live_processes_and_move_only_between_rounds(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second process joins: the first, above its share (2 tables, 2 processes: 1 each),
    hands a table to it, but not while that table's round holds a stake; once the round is
    settled the table moves, and the second runs it from its record. (Neither table's
    requests come to the first alone here, as behind a balancer that spreads them: one whose
    requests did would stay there, ``service.leases``.) Each pass is the test's own."""
    monkeypatch.setattr(sharing, "keep_forever", lambda *_args: None)
    first_made = make_api(pg_url, lease_seconds=600)
    first = next(first_made)
    try:
        keep = Table(first, "veintiuno-real", ["ana"])
        moving = Table(first, "veintiuno-real", ["bruno"])  # the higher id: the one given up
        round_id = moving.bet_all()  # a stake in escrow: mid-round
        second_made = make_api(pg_url, lease_seconds=600)
        second = next(second_made)
        try:
            counted_anew(first)
            assert sharing.balance(first.server.casino, leases_of(first)) == []
            assert set(first.server.casino.tables) == {keep.id, moving.id}
            assert second.server.casino.tables == {}
            moving.ready_all()
            moving.play_out(round_id)  # settled: between rounds now
            counted_anew(first)
            name = moving.state()["table"]["name"]
            assert sharing.balance(first.server.casino, leases_of(first)) == [
                f"table {name}: handed to a process below its share"
            ]
            sharing.balance(second.server.casino, leases_of(second))
            assert set(first.server.casino.tables) == {keep.id}
            assert set(second.server.casino.tables) == {moving.id}
            assert lease_row(pg_url, moving.id) == (leases_of(second).owner, 2)
            assert second.server.casino.tables[moving.id].seats == {1: moving_user(second, moving)}
        finally:
            second_made.close()
    finally:
        first_made.close()


def moving_user(api: Api, table: Table) -> int:
    me: int = api.get("/me", table.tokens["bruno"]).json()["user"]
    return me


def test_a_table_opened_while_the_leases_are_counted_stays_with_its_opener(
    paused_owner: Api, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, item 1 (a race CI met once: 503 ``table_moved`` on assigning a dealer to a
    table just opened). The opener runs its table from the opening transaction on; the lease
    thread's pass counts the tables and the leases held in one snapshot, then decides. A
    table opened between the count and the decision is held but not counted: it must not
    look like one above this process's share (one process: every table) and be given up the
    instant it opened. The race is made to happen: the table opens just after the count."""
    api = paused_owner
    first = Table(api, "veintiuno-real", ["ana"])
    leases = api.server.leases
    assert isinstance(leases, TableLeases)
    opened: list[Table] = []
    counting = leases.renew

    def count_then_open() -> tuple[int, int, list[int]]:
        counted = counting()
        opened.append(Table(api, "veintiuno-real", ["bruno"]))  # the opener's own thread
        return counted

    monkeypatch.setattr(leases, "renew", count_then_open)
    assert sharing.balance(api.server.casino, leases) == []  # nothing given up
    monkeypatch.undo()
    new = opened[0]
    assert set(leases.held) == {first.id, new.id}
    assert lease_row(pg_url, new.id) == (leases.owner, 1)
    assert new.id in api.server.casino.tables
    answer = api.get(f"/tables/{new.id}", new.tokens["bruno"])
    assert answer.status_code == 200, answer.text


# --- a table's lease follows its requests -----------------------------------------------------
@pytest.fixture
def two_processes(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Api, Api]]:
    """Two servers on one PostgreSQL whose lease threads never run: each pass is the test's
    own (``sharing.balance``), and no lease lapses while it runs."""
    monkeypatch.setattr(sharing, "keep_forever", lambda *_args: None)
    first_made = make_api(pg_url, lease_seconds=600)
    first = next(first_made)
    try:
        second_made = make_api(pg_url, lease_seconds=600)
        second = next(second_made)
        try:
            yield first, second
        finally:
            second_made.close()
    finally:
        first_made.close()


def leases_of(api: Api) -> TableLeases:
    leases = api.server.leases
    assert isinstance(leases, TableLeases)
    return leases


def counted_anew(*apis: Api) -> None:
    """The test's own requests so far went to each table's owner directly (the test client's
    process), and were counted so: from now on the balancer is said to send them elsewhere."""
    for api in apis:
        leases_of(api).arrivals = Arrivals()


def requests_through(api: Api, table: Table, peer: Api, count: int = 4) -> None:
    """``count`` requests for ``table`` reach ``api``, its owner, forwarded by ``peer``, as
    ``server.forwarding`` counts them (the balancer sends the table's requests to ``peer``)."""
    for _ in range(count):
        leases_of(api).arrivals.arrived(table.id, leases_of(peer).owner)


def test_a_table_goes_to_the_process_its_requests_come_through_between_rounds(
    two_processes: tuple[Api, Api], pg_url: str
) -> None:
    """Issue 29, item 2 (the hop's cost): the owner of a table whose requests all come through
    another process hands the table to it, not mid-round (a stake held), but between rounds:
    one statement, a new owner and a new epoch (the fence's token); the other rebuilds it from
    its record at its next pass, and runs it from then on."""
    first, second = two_processes
    table = Table(first, "veintiuno-real", ["ana"])
    assert lease_row(pg_url, table.id) == (leases_of(first).owner, 1)
    round_id = table.bet_all()  # a stake in escrow: mid-round
    counted_anew(first)
    requests_through(first, table, second)
    assert sharing.balance(first.server.casino, leases_of(first)) == []
    assert lease_row(pg_url, table.id) == (leases_of(first).owner, 1)
    table.ready_all()
    table.play_out(round_id)  # settled: between rounds now
    before = table.state("ana")
    counted_anew(first)
    requests_through(first, table, second)
    name = before["table"]["name"]
    assert sharing.balance(first.server.casino, leases_of(first)) == [
        f"table {name}: handed to the process its requests reach"
    ]
    assert lease_row(pg_url, table.id) == (leases_of(second).owner, 2)
    assert table.id not in first.server.casino.tables and table.id not in leases_of(first).held
    assert f"table {table.id}: handed here by the process that ran it" in sharing.balance(
        second.server.casino, leases_of(second)
    )
    assert leases_of(second).held == {table.id: 2}
    table.api = second
    after = table.state("ana")
    assert after["table"] == before["table"] and after["round"]["id"] == before["round"]["id"]
    table.play_round()  # the next round, on its new owner
    audit = second.get("/operator/audit", OPERATOR_TOKEN).json()
    assert (audit["problems"], audit["sum"]) == ([], 0)


def test_a_table_whose_requests_come_directly_or_evenly_stays(
    two_processes: tuple[Api, Api], pg_url: str
) -> None:
    """A balancer that spreads a table's requests over every process (``leastconn``) must not
    move the table back and forth: it moves only when its requests come through one peer more
    than twice as often as directly."""
    first, second = two_processes
    table = Table(first, "veintiuno-real", ["ana"])
    counted_anew(first)
    for _ in range(4):
        leases_of(first).arrivals.arrived(table.id, None)
    requests_through(first, table, second, count=8)
    assert sharing.balance(first.server.casino, leases_of(first)) == []
    assert lease_row(pg_url, table.id) == (leases_of(first).owner, 1)


def test_a_clients_own_forwarded_header_is_answered_and_counted_nowhere(
    two_processes: tuple[Api, Api], pg_url: str
) -> None:
    """A client that reaches a process directly (not through the balancer, which strips the
    header) and sends ``X-Croupier-Forwarded`` itself, a long one, one with other characters,
    a new name in each request: each is answered as any other request (a forwarded one is
    never sent on), and none is counted as a peer's, so such a flood neither grows the counts
    beyond a name's length nor moves a table. A peer's real name is counted."""
    first, second = two_processes
    table = Table(first, "veintiuno-real", ["ana"])
    counted_anew(first)
    forged = ["x" * 60_000, "dealer ñandú 🂡", "", "host pid 12 NOTHEX00", "a b pid 1 0123abcd"]
    forged += [f"peer-{number}" for number in range(50)]
    for name in forged:
        forged_header = {"X-Croupier-Forwarded": name.encode()}  # UTF-8 bytes, as sent
        headers = first.headers(table.tokens["ana"]) | forged_header
        answer = first.client.get(f"/tables/{table.id}", headers=headers)
        assert answer.status_code == 200, (name[:40], answer.text)
        assert answer.json()["table"]["id"] == table.id
    assert leases_of(first).arrivals.via == {} and leases_of(first).arrivals.direct == {}
    peer = leases_of(second).owner
    for _ in range(4):
        headers = first.headers(table.tokens["ana"]) | {"X-Croupier-Forwarded": peer}
        assert first.client.get(f"/tables/{table.id}", headers=headers).status_code == 200
    assert leases_of(first).arrivals.via == {table.id: {peer: 4.0}}
    assert lease_row(pg_url, table.id) == (leases_of(first).owner, 1)


class AnswerLostAfterHandOver:
    """An engine whose connection fails once the statement that handed a table over has
    committed (each of the leases' statements is its own transaction), before its process
    hears so: the network dropped the answer."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextlib.contextmanager
    def connect(self) -> Iterator[Any]:
        sent: list[Any] = []
        with self.engine.connect() as connection:
            real_execute = connection.execute

            def execute(statement: Any, *args: Any, **kwargs: Any) -> Any:
                sent.append(statement)
                return real_execute(statement, *args, **kwargs)

            connection.execute = execute  # type: ignore[method-assign]
            yield connection
        if HAND_OVER in sent:
            lost = ConnectionResetError("server closed the connection unexpectedly")
            raise OperationalError("UPDATE table_leases", {}, lost)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)


def test_a_hand_over_whose_answer_was_lost_after_it_committed_leaves_one_owner(
    two_processes: tuple[Api, Api], pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand-over failing halfway (a failing machine): its statement commits, then the
    owner's connection fails before the answer arrives, so the owner still runs the table
    while the record gives it to the peer at a new epoch. Nothing is run twice: the owner's
    next command for it is refused by the fence (503 ``table_moved``, nothing committed) and
    the owner drops it; the peer rebuilds it at its pass and plays on; the ledger balances."""
    first, second = two_processes
    table = Table(first, "veintiuno-real", ["ana"])
    table.play_round()  # between rounds
    balances = table.balances()
    counted_anew(first)
    requests_through(first, table, second)
    leases = leases_of(first)
    monkeypatch.setattr(leases, "engine", AnswerLostAfterHandOver(leases.engine))
    with pytest.raises(OperationalError):  # the pass fails; the lease thread logs it
        sharing.balance(first.server.casino, leases)
    monkeypatch.undo()
    assert lease_row(pg_url, table.id) == (leases_of(second).owner, 2)
    assert table.id in first.server.casino.tables and table.id in leases.held  # not told
    stake = {"seat": table.seat_of["ana"], "wager": table.wager, "amount": table.stake}
    late = first.post(f"/tables/{table.id}/bets", table.tokens["ana"], stake)
    assert (late.status_code, late.json()["code"]) == (503, "table_moved"), late.text
    assert table.balances() == balances
    assert table.id not in first.server.casino.tables and table.id not in leases.held
    assert f"table {table.id}: handed here by the process that ran it" in sharing.balance(
        second.server.casino, leases_of(second)
    )
    table.api = second
    table.play_round()  # the next round, on its one owner
    audit = second.get("/operator/audit", OPERATOR_TOKEN).json()
    assert (audit["problems"], audit["sum"]) == ([], 0)


def test_a_table_follows_its_requests_above_their_process_share_and_stays(
    two_processes: tuple[Api, Api], pg_url: str
) -> None:
    """Two tables, two processes running one each (their share). The balancer's hashing is
    not even: it sends both tables' requests to the second. The first hands its table over
    all the same, and the second, above its share, gives neither back: their requests come to
    it directly, and a table given up would be forwarded back to it (and handed back, and so
    on, a move each round)."""
    first, second = two_processes
    mine = Table(first, "veintiuno-real", ["ana"])
    theirs = Table(second, "veintiuno-real", ["bruno"])  # its creator runs it
    assert set(leases_of(first).held) == {mine.id} and set(leases_of(second).held) == {theirs.id}
    counted_anew(first, second)
    requests_through(first, mine, second)
    assert len(sharing.balance(first.server.casino, leases_of(first))) == 1  # handed over
    sharing.balance(second.server.casino, leases_of(second))  # rebuilt there
    for _ in range(3):  # passes above its share, both tables' requests coming to it directly
        for table in (mine, theirs):
            for _ in range(4):
                leases_of(second).arrivals.arrived(table.id, None)
        assert sharing.balance(second.server.casino, leases_of(second)) == []
    assert set(leases_of(second).held) == {mine.id, theirs.id} and leases_of(first).held == {}
    assert lease_row(pg_url, mine.id) == (leases_of(second).owner, 2)
    assert lease_row(pg_url, theirs.id) == (leases_of(second).owner, 1)


def test_the_lobby_lists_a_table_handed_over_before_its_new_owner_rebuilt_it(
    two_processes: tuple[Api, Api], pg_url: str
) -> None:
    """Issue 29, item 2: the lobby lists every table, one in motion too. A table handed on
    between rounds is run by no process's memory until its new owner rebuilds it (at its next
    pass); a lobby asked in that instant listed it nowhere (CI met it: a player's lobby
    without the table the player sat at). The new owner's lobby rebuilds it first, as a
    request naming it would, and lists it as it was."""
    first, second = two_processes
    table = Table(first, "veintiuno-real", ["ana"])
    token = table.tokens["ana"]
    before = first.get("/tables", token).json()["tables"]
    assert [listed["id"] for listed in before] == [table.id]
    assert leases_of(first).hand_over(table.id, leases_of(second).owner)
    assert table.id not in first.server.casino.tables
    assert table.id not in second.server.casino.tables  # its pass has not run yet
    after = second.get("/tables", token).json()["tables"]
    assert [listed["id"] for listed in after] == [table.id]
    assert after[0]["seats"] == before[0]["seats"] and after[0]["is_open"] is True
    assert lease_row(pg_url, table.id) == (leases_of(second).owner, 2)


def test_a_table_this_process_took_and_is_still_rebuilding_is_moving_not_missing(
    paused_owner: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, item 2: the chaos run of 400 events answered one request 404
    ``no_such_table`` for a table that existed. Its lease was this process's (its pass had
    just taken it over) but its memory did not run it yet: the forwarder read "ours" as "no
    owner elsewhere" and passed on the 404 of a table it had not rebuilt. Such a table is
    moving: 503 ``table_moved``, tried again; a socket closes 1013 and reconnects; a table
    that does not exist is still a 404."""
    from starlette.websockets import WebSocketDisconnect

    api = paused_owner
    table = Table(api, "veintiuno-real", ["ana"])
    token = table.tokens["ana"]
    leases = leases_of(api)
    # Taken by this process's pass a moment ago, its rebuild not done: the lease is ours,
    # memory has neither the table nor (before the takeover's commit is noted) its epoch.
    monkeypatch.setattr(sharing, "adopt_handed", lambda *_args: [])
    del api.server.casino.tables[table.id]
    leases.held.pop(table.id)
    answer = api.get(f"/tables/{table.id}", token)
    assert (answer.status_code, answer.json()["code"]) == (503, "table_moved"), answer.text
    answer = api.post(f"/tables/{table.id}/ready", token)
    assert (answer.status_code, answer.json()["code"]) == (503, "table_moved"), answer.text
    with (
        api.client.websocket_connect(f"/tables/{table.id}/ws?token={token}") as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_text()
    assert closed.value.code == 1013
    missing = api.get(f"/tables/{table.id + 1000}", token)
    assert (missing.status_code, missing.json()["code"]) == (404, "no_such_table")


def test_a_socket_relayed_to_an_owner_that_handed_the_table_on_is_told_it_moved(
    two_processes: tuple[Api, Api],
) -> None:
    """Issue 29, item 2: a socket a peer relays here, to the owner it found, after this
    process handed the table on, closes 1013 (the table moved: the page reconnects and is
    relayed to its new owner), never 4404, which tells a player the table does not exist."""
    from starlette.websockets import WebSocketDisconnect

    first, second = two_processes
    table = Table(first, "veintiuno-real", ["ana"])
    assert leases_of(first).hand_over(table.id, leases_of(second).owner)
    url = f"/tables/{table.id}/ws?token={table.tokens['ana']}"
    relayed = {"X-Croupier-Forwarded": leases_of(second).owner}
    with (
        first.client.websocket_connect(url, headers=relayed) as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_text()
    assert closed.value.code == 1013


def test_a_take_takes_fresh_tables_first_then_expired_ones_up_to_its_want(
    paused_owner: Api, pg_url: str
) -> None:
    """Issue 29, item 1: ``TableLeases.take`` takes the tables never leased first, then those
    whose lease ran out, ``wanted`` at most in all (one statement since ``8bdf070``: the want
    is now shared between its two parts in SQL); only the expired ones count as taken over."""
    api = paused_owner
    for number in range(5):
        api.post("/operator/tables", OPERATOR_TOKEN, {"name": f"t{number}", "profile": "peru-2016"})
    run = create_engine(pg_url)
    with run.begin() as connection:
        connection.execute(text("DELETE FROM table_leases WHERE table_id IN (4, 5)"))  # fresh
        connection.execute(  # tables 1 and 2 expired; 3 still its owner's
            text(
                "UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 second' "
                "WHERE table_id IN (1, 2)"
            )
        )
    run.dispose()
    other = TableLeases(pg_url)
    try:
        assert other.take(3) == [4, 5, 1]
        assert (other.held, other.taken_over) == ({4: 1, 5: 1, 1: 2}, 1)
        assert other.take(1) == [2]
        assert other.take(5) == []  # table 3's lease has not run out
        assert (other.held[2], other.taken_over) == (2, 2)
        assert lease_row(pg_url, 3)[0] == leases_of(api).owner
    finally:
        other.release()


def test_a_pass_takes_the_whole_share_of_a_process_that_died_as_it_began(
    paused_owner: Api, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, item 3 (fail-over p99): a process whose tables' leases have run out while its
    heartbeat has not yet (it died a moment before the pass) is counted live by the pass's
    count, so the share is the tables over two processes; the pass takes that much, rebuilds
    it (seconds under load), and the dead process's other tables stayed free until the next
    pass: the chaos run's 11-15 s fail-overs. Counted again after the rebuilds, the pass takes
    them all."""
    api = paused_owner
    for number in range(4):
        api.post("/operator/tables", OPERATOR_TOKEN, {"name": f"t{number}", "profile": "peru-2016"})
    leases = leases_of(api)
    assert sorted(leases.held) == [1, 2, 3, 4]
    ghost = "ghost pid 1 0123abcd"
    run = create_engine(pg_url)
    with run.begin() as connection:  # the dead process ran them: its leases have run out
        connection.execute(
            text(
                "UPDATE table_leases SET owner = :ghost, epoch = epoch + 1, "
                "expires_at = clock_timestamp() - interval '1 second'"
            ),
            {"ghost": ghost},
        )
    for table_id in range(1, 5):
        leases.lost(table_id)  # what a renewal finds: forgotten here
    assert leases.held == {} and api.server.casino.tables == {}
    with run.begin() as connection:  # ... and its heartbeat runs out a moment after the count
        connection.execute(
            text(
                "INSERT INTO serve_processes (owner, address, expires_at) VALUES "
                "(:ghost, 'http://127.0.0.1:1', clock_timestamp() + interval '0.3 seconds')"
            ),
            {"ghost": ghost},
        )
    run.dispose()
    rebuild = sharing.adopt

    def slow_rebuild(casino: Any, leases: TableLeases, table_id: int) -> list[str]:
        time.sleep(0.25)  # a rebuild under load
        return rebuild(casino, leases, table_id)

    monkeypatch.setattr(sharing, "adopt", slow_rebuild)
    sharing.balance(api.server.casino, leases)
    assert sorted(leases.held) == [1, 2, 3, 4]  # all four in one pass, not two of them
    assert sorted(api.server.casino.tables) == [1, 2, 3, 4]


def test_a_bet_that_waited_on_a_table_lost_meanwhile_is_told_it_moved(
    paused_owner: Api, pg_url: str
) -> None:
    """Issue 29, item 1: a bet waits for its table's lock while the table is lost (its lease
    taken over; the command that held the lock was refused by the fence, leaving in memory a
    round it never stored). It must not run on that memory: the chaos run's bets did, and
    answered 500 (a foreign-key error, the row naming a round the database never had). It is
    refused 503 ``table_moved``, changing nothing, as the fence's own refusal is."""
    api = paused_owner
    table = Table(api, "veintiuno-real", ["ana"])
    live = api.server.casino.tables[table.id]
    before = api.balance(table.tokens["ana"])
    answers: list[Any] = []
    body = {"seat": 1, "wager": table.wager, "amount": table.stake}
    with live.lock:  # the command before it, holding the table
        waiting = threading.Thread(
            target=lambda: answers.append(
                api.post(f"/tables/{table.id}/bets", table.tokens["ana"], body)
            )
        )
        waiting.start()
        time.sleep(0.3)  # the bet waits for the lock
        run = create_engine(pg_url)
        with run.begin() as connection:  # another process took the table over
            connection.execute(
                text(
                    "UPDATE table_leases SET owner = 'ghost pid 1 0123abcd', epoch = epoch + 1 "
                    "WHERE table_id = :t"
                ),
                {"t": table.id},
            )
        run.dispose()
        live.round_id = 10**6  # the round the fence refused: never stored
        leases_of(api).lost(table.id)  # what the fence's refusal does: forgotten here
    waiting.join(30)
    (answer,) = answers
    assert answer.status_code == 503, answer.text
    assert answer.json()["code"] == "table_moved"
    assert api.balance(table.tokens["ana"]) == before


def test_a_command_failed_by_memory_a_new_owner_moved_past_is_told_it_moved(
    paused_owner: Api, pg_url: str
) -> None:
    """Issue 29, item 1: a process woken past its lease still has its table in memory, which
    the new owner has moved past, and a command run on it can fail before the fence (last
    before the commit) would refuse it: in the chaos run a settlement debited a stake the
    escrow no longer held (402 ``balance_too_low``). Such a failure is the stale memory's, not
    the player's: answered 503 ``table_moved`` (the new owner answers the command), the table
    forgotten here. With the lease still held, the same failure stands."""
    api = paused_owner

    def coup_on_memory_that_disagrees(table: Table, meanwhile: Callable[[], None]) -> Any:
        table.bet_all()
        meanwhile()
        live = api.server.casino.tables[table.id]
        live.held[1]["minor"] += 100  # memory holds a stake the escrow does not
        (token,) = table.tokens.values()
        return api.post(f"/tables/{table.id}/ready", token)  # deals, settles

    kept = Table(api, "dragon-six-peru-2016", ["ana"])
    answer = coup_on_memory_that_disagrees(kept, lambda: None)
    assert (answer.status_code, answer.json()["code"]) == (402, "balance_too_low"), answer.text
    assert kept.id in api.server.casino.tables  # its owner still: rebuilt, and kept

    lost = Table(api, "dragon-six-peru-2016", ["ben"])
    bet: list[int] = []

    def taken_over() -> None:  # by another process, after the bet
        bet.append(api.balance(lost.tokens["ben"]))
        run = create_engine(pg_url)
        with run.begin() as connection:
            connection.execute(
                text(
                    "UPDATE table_leases SET owner = 'ghost pid 1 0123abcd', "
                    "epoch = epoch + 1 WHERE table_id = :t"
                ),
                {"t": lost.id},
            )
        run.dispose()

    answer = coup_on_memory_that_disagrees(lost, taken_over)
    assert (answer.status_code, answer.json()["code"]) == (503, "table_moved"), answer.text
    assert lost.id not in api.server.casino.tables and lost.id not in leases_of(api).held
    assert [api.balance(lost.tokens["ben"])] == bet  # nothing settled here


def test_a_process_stopped_amid_its_leases_pass_locks_no_lease_it_may_lose(
    paused_owner: Api, pg_url: str
) -> None:
    """Issue 29, item 3 (fail-over p99): a process stopped (SIGSTOP) in the middle of its
    leases' pass, its renewal sent and answered, the pass's transaction not yet ended. Had the
    renewal locked its lease rows until the pass ended, the other processes' take-over, which
    skips locked rows so that two of them never wait on each other, would skip its tables
    until it woke: the chaos run's SIGSTOPs that moved their tables in 10-15 s, two and three
    leases long. Each of its statements is a transaction of its own: the table moves when the
    lease runs out, and the stopped process, woken, finds it lost at its next pass."""
    api = paused_owner
    table = Table(api, "veintiuno-real", ["ana"])
    expire(pg_url, table.id)
    owner = TableLeases(pg_url, lease_seconds=1)
    other = TableLeases(pg_url)
    try:
        assert owner.take(5) == [table.id]  # the owner, at epoch 2, on a lease of 1 s
        renewed = threading.Event()
        woken = threading.Event()

        def stopped_after_the_renewal(*args: Any) -> None:
            if "UPDATE table_leases" in args[2] and threading.current_thread() is passing:
                renewed.set()
                assert woken.wait(30)  # the process is stopped here

        event.listen(owner.engine, "after_cursor_execute", stopped_after_the_renewal)
        passing = threading.Thread(target=owner.renew)
        passing.start()
        assert renewed.wait(10)
        time.sleep(1.5)  # the renewed lease runs out while its process is stopped
        assert other.take(5) == [table.id]  # taken over now, not when the owner wakes
        assert lease_row(pg_url, table.id) == (other.owner, 3)
        woken.set()
        passing.join(10)
        owner.renew()  # woken, its next pass finds the table lost (its commands, the fence)
        assert table.id not in owner.held
    finally:
        owner.release()
        other.release()


def test_a_command_in_flight_holds_off_a_takeover_but_not_its_owners_renewal(
    paused_owner: Api, pg_url: str
) -> None:
    """Issue 29, items 1 and 3: a command's transaction past its fence (the lease row locked
    until it commits) keeps another process from taking the table over until it has
    committed; but its own process's renewal passes. The chaos run saw every renewal of two
    live processes queue behind commands that waited, fence taken, for the audit chain's head
    a stopped process held: their own leases then ran out under them."""
    api = paused_owner
    table = Table(api, "veintiuno-real", ["ana"])
    owner = leases_of(api)
    epoch = owner.held[table.id]
    other = TableLeases(pg_url)
    command = create_engine(pg_url)
    try:
        with command.begin() as in_flight:  # a command, fenced, not yet committed
            fenced = {"table": table.id, "owner": owner.owner, "epoch": epoch}
            assert in_flight.execute(FENCE, fenced).first() is not None
            renewal: list[tuple[int, int, list[int]]] = []
            renewing = threading.Thread(target=lambda: renewal.append(owner.renew()))
            renewing.start()
            renewing.join(5)
            assert renewal, "the owner's renewal waited for its own command"
            assert renewal[0][2] == [table.id]  # renewed
            expire(pg_url, table.id)  # its lease runs out meanwhile
            assert other.take(5) == []  # the takeover waits for the command's commit
        assert other.take(5) == [table.id]  # then takes the table
    finally:
        command.dispose()
        other.release()


def test_a_process_stopped_holding_the_audit_head_holds_nobodys_commit_past_a_lease(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, item 3: a process stopped in a write transaction after locking the audit
    chain's head, which every process's commits take in turn. The chaos run saw one in a
    transaction no table command's bound covered (a session's activity noted, say): every
    commit of every process waited for it until it woke, and fail-overs took 10-15 s. Every
    write transaction of a server is bounded: PostgreSQL ends the stopped one's session
    after half a lease (0.5 s here: free before the stopped process's leases run out, even
    after a wait of its own for the head), and the others' commits go on."""
    monkeypatch.setattr(sharing, "keep_forever", lambda *_args: None)
    made = make_api(pg_url, lease_seconds=1)
    api = next(made)
    try:
        uow = api.server.uow
        head_locked = threading.Event()
        woken = threading.Event()
        stopped_thread: list[threading.Thread] = []

        def stopped_after_locking_the_head(*args: Any) -> None:
            statement = args[2]
            locks_the_head = "audit_head" in statement and "FOR UPDATE" in statement
            if locks_the_head and threading.current_thread() in stopped_thread:
                head_locked.set()
                woken.wait(10)  # the process is stopped here

        event.listen(uow.engine, "after_cursor_execute", stopped_after_locking_the_head)
        outcome: list[BaseException | None] = []

        def stopped_writer() -> None:
            try:
                uow.run(lambda s: audit_chain.record(s, 0.0, "stopped", {}, "system"))
                outcome.append(None)
            except Exception as error:
                outcome.append(error)

        writer = threading.Thread(target=stopped_writer)
        stopped_thread.append(writer)
        writer.start()
        assert head_locked.wait(10)
        began = time.monotonic()
        uow.run(lambda s: audit_chain.record(s, 0.0, "another", {}, "system"))
        waited = time.monotonic() - began
        woken.set()
        writer.join(10)
        assert waited < 1.0, f"a commit waited {waited:.1f} s (a lease) for a stopped process"
        # Its session was ended, rolled back; woken, it ran its command again: one entry each.
        assert outcome == [None]
        event.remove(uow.engine, "after_cursor_execute", stopped_after_locking_the_head)
        with uow.engine.connect() as connection:
            kinds = connection.execute(
                text("SELECT kind FROM audit_chain WHERE kind IN ('stopped', 'another')")
            ).scalars()
            assert sorted(kinds) == ["another", "stopped"]
        audit = api.get("/operator/audit", OPERATOR_TOKEN).json()
        assert (audit["problems"], audit["sum"]) == ([], 0)
    finally:
        made.close()


def test_a_slow_command_whose_session_postgresql_ended_runs_again_and_moves_money_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29: the bound on a write transaction (half a lease, above) also ends a process
    that is merely slow between two statements: its CPU taken by a busy machine, as in the
    CI run where a player's first `ready` answered 503 ("the database cannot be used now")
    right after the server started. PostgreSQL ended the session, so nothing of the command
    committed: it runs again on a fresh connection, answers 200, and its stake moves once."""
    monkeypatch.setattr(sharing, "keep_forever", lambda *_args: None)
    made = make_api(pg_url, lease_seconds=1)  # the bound: 0.5 s
    api = next(made)
    try:
        table = Table(api, "peru-2016", ["ana"])
        before = table.balances()["ana"]
        began: list[str] = []
        slow = threading.Event()

        def slow_once_after_its_first_statement(*args: Any) -> None:
            if slow.is_set() and "idempotency_keys" in args[2] and "SELECT" in args[2]:
                began.append(args[2])
                if len(began) == 1:
                    time.sleep(1.0)  # twice the bound, between two statements

        uow = api.server.uow
        event.listen(uow.engine, "after_cursor_execute", slow_once_after_its_first_statement)
        slow.set()
        answer = api.post(
            f"/tables/{table.id}/bets",
            table.tokens["ana"],
            {"seat": table.seat_of["ana"], "wager": table.wager, "amount": table.stake},
        )
        slow.clear()
        event.remove(uow.engine, "after_cursor_execute", slow_once_after_its_first_statement)
        assert answer.status_code == 200, answer.text
        assert len(began) == 2  # ended once, run again
        assert table.balances()["ana"] == before - 100 * table.stake  # in minor units, once
        audit = api.get("/operator/audit", OPERATOR_TOKEN).json()
        assert (audit["problems"], audit["sum"]) == ([], 0)
    finally:
        made.close()
