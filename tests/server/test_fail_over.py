"""Issue 29, item 3: fail-over between real ``croupier serve`` processes on one PostgreSQL.

Three processes share a fresh database (leases of 2 s). The owner of a table (its creator,
or the process its requests came through, which the table follows between rounds) is
killed (kill -9) mid-betting: another takes the table over within 10 s and the round
resumes as its record holds it (the same bets in escrow). The new owner is then stopped
(SIGSTOP, past its lease) mid-decision: the third takes over and the round waits for the same
decision with its full time again (R11); woken, the stopped owner's late decision is refused
and nothing moves. The round is played out on the third: every balance is exact, the
ledger's audit sums to 0 and ``croupier audit verify`` is clean.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest
from database_support import fresh_database
from sqlalchemy import create_engine, text
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bots import OPERATOR_TOKEN, ServerProcess
from croupier.cli.main import app as croupier_cli

pytestmark = pytest.mark.postgres

OWNER = text(
    "SELECT p.address FROM table_leases l JOIN serve_processes p ON p.owner = l.owner "
    "WHERE l.table_id = :table AND l.expires_at > clock_timestamp()"
)
LEASE_SECONDS = "2"
FAIL_OVER_WITHIN_SECONDS = 10.0
CREDIT = 100_000
PROFILE = "veintiuno-real"


@pytest.fixture
def pg_url(pg_server: str, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database("postgresql", tmp_path, pg_server)


class Cluster:
    """Server processes on one database, each started with short leases, all at once (a
    start costs seconds of imports: started together they share them)."""

    def __init__(self, url: str, folder: Path, size: int) -> None:
        self.url = url
        self.processes = [
            ServerProcess(url, log_path=folder / f"serve-{n}.log") for n in range(size)
        ]
        with ThreadPoolExecutor(size) as pool:
            list(pool.map(lambda server: server.start("--lease-seconds", LEASE_SECONDS),
                          self.processes))  # fmt: skip

    def owner(self, table: int, among: list[ServerProcess]) -> ServerProcess:
        """The process of ``among`` whose lease on ``table`` is live (waits for a takeover)."""
        since = time.monotonic()
        engine = create_engine(self.url)
        try:
            while True:
                with engine.connect() as connection:
                    address = connection.execute(OWNER, {"table": table}).scalar()
                found = [server for server in among if server.url == address]
                if (
                    found
                    and call(found[0], "GET", f"/tables/{table}", OPERATOR_TOKEN).status_code == 200
                ):
                    return found[0]
                assert time.monotonic() - since < FAIL_OVER_WITHIN_SECONDS
                time.sleep(0.1)
        finally:
            engine.dispose()

    def stop(self) -> None:
        for server in self.processes:
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()


def call(  # noqa: PLR0917 - a request's parts
    server: ServerProcess,
    method: str,
    path: str,
    token: str,
    body: Any = None,
    key: str | None = None,
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key or uuid.uuid4().hex}
    return httpx.request(method, server.url + path, json=body, headers=headers, timeout=30)


def ok(server: ServerProcess, method: str, path: str, token: str, body: Any = None) -> Any:
    answer = call(server, method, path, token, body)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def pushed_through(server: ServerProcess, table: int, token: str) -> Any:
    """The first state a socket to ``table`` opened at ``server`` is pushed, reconnecting as
    the page does when it closes 1013: the table may be moving (its requests came through the
    other processes, and a table follows its requests between rounds)."""
    url = f"{server.url.replace('http', 'ws')}/tables/{table}/ws?token={token}"
    for _ in range(20):
        try:
            with connect(url) as socket:
                return json.loads(socket.recv(timeout=10))
        except ConnectionClosedError as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1013, closed  # never 4404
            time.sleep(0.25)
    raise AssertionError(f"table {table}: still moving after 5 s")


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A table's state without the deadline (a takeover gives a decision its full time)."""
    return {**state, "round": {k: v for k, v in state["round"].items() if k != "deadline"}}


def test_the_owner_killed_mid_betting_or_stopped_mid_decision_another_takes_over(
    pg_url: str, tmp_path: Path
) -> None:
    cluster = Cluster(pg_url, tmp_path, 3)
    try:
        first, *others = cluster.processes
        table = ok(
            first,
            "POST",
            "/operator/tables",
            OPERATOR_TOKEN,
            {"name": "shared", "profile": PROFILE, "betting_seconds": 600,
             "decision_seconds": 600},
        )["table"]  # fmt: skip
        assert cluster.owner(table, cluster.processes) is first  # its creator runs it
        # --- item 2: any process answers for it, at once (forwarded to its owner) ------------
        tokens: dict[str, str] = {}
        for seat, name in enumerate(["ann", "ben"], start=1):
            body = {"username": name, "password": f"password-of-{name}"}
            httpx.post(others[0].url + "/auth/signup", json=body).raise_for_status()
            tokens[name] = httpx.post(others[1].url + "/auth/signin", json=body).json()["token"]
            ok(others[0], "POST", f"/operator/wallets/{name}/credit", OPERATOR_TOKEN,
               {"amount": CREDIT})  # fmt: skip
            ok(others[seat - 1], "POST", f"/tables/{table}/seats/{seat}", tokens[name])
        ok(others[1], "POST", f"/operator/tables/{table}/close", OPERATOR_TOKEN)
        assert ok(others[0], "GET", f"/tables/{table}", OPERATOR_TOKEN)["table"]["is_open"] is False
        ok(others[0], "POST", f"/operator/tables/{table}/open", OPERATOR_TOKEN)
        limits = {"wager": "main", "minimum": 200, "maximum": 50_000}
        ok(others[1], "POST", f"/operator/tables/{table}/limits", OPERATOR_TOKEN, limits)
        states = [ok(server, "GET", f"/tables/{table}", OPERATOR_TOKEN) for server in cluster.processes]  # fmt: skip
        assert states[0] == states[1] == states[2] and states[0]["table"]["is_open"] is True
        lobbies = [ok(server, "GET", "/tables", tokens["ann"])["tables"] for server in others]
        assert [t["id"] for t in lobbies[0]] == [t["id"] for t in lobbies[1]] == [table]
        assert lobbies[0][0]["next_limits"] is not None  # the new limits, from the next round
        missing = call(others[0], "GET", "/tables/999", OPERATOR_TOKEN)
        assert (missing.status_code, missing.json()["code"]) == (404, "no_such_table")
        pushed = pushed_through(others[1], table, tokens["ann"])
        assert pushed["type"] == "state" and pushed["table"]["id"] == table
        seat_of = {"ann": 1, "ben": 2}
        owner_of = {1: "ann", 2: "ben"}

        def balances(server: ServerProcess) -> dict[str, int]:
            return {n: ok(server, "GET", "/me", t)["balance"] for n, t in tokens.items()}

        # --- mid-betting: kill -9 the owner --------------------------------------------------
        round_id = ok(first, "GET", f"/tables/{table}", OPERATOR_TOKEN)["round"]["id"]
        for name, token in tokens.items():
            ok(others[1], "POST", f"/tables/{table}/bets", token,
               {"seat": seat_of[name], "wager": "main", "amount": 500})  # fmt: skip
        # Its requests came mostly through the others: it may have followed them there
        # between rounds (service.leases); with stakes held it stays where it is now.
        owner = cluster.owner(table, cluster.processes)
        others = [server for server in cluster.processes if server is not owner]
        before = comparable(ok(owner, "GET", f"/tables/{table}", OPERATOR_TOKEN))
        held = balances(owner)
        killed_at = time.monotonic()
        owner.kill()
        meanwhile = call(others[0], "GET", f"/tables/{table}", OPERATOR_TOKEN)
        assert meanwhile.status_code in (200, 503), meanwhile.text  # 503: table_moved, retry
        second = cluster.owner(table, others)
        print(f"fail-over after kill -9 mid-betting: {time.monotonic() - killed_at:.2f} s")
        (third,) = [server for server in others if server is not second]
        assert comparable(ok(third, "GET", f"/tables/{table}", OPERATOR_TOKEN)) == before
        assert balances(second) == held  # the same round, the same bets in escrow

        # --- mid-decision: SIGSTOP the new owner past its lease ------------------------------
        for token in tokens.values():
            ok(third, "POST", f"/tables/{table}/ready", token)
        state = ok(second, "GET", f"/tables/{table}", OPERATOR_TOKEN)
        assert second.process is not None
        stopped_at = time.monotonic()
        second.process.send_signal(signal.SIGSTOP)
        assert cluster.owner(table, [third]) is third
        print(f"fail-over after SIGSTOP mid-round: {time.monotonic() - stopped_at:.2f} s")
        taken = ok(third, "GET", f"/tables/{table}", OPERATOR_TOKEN)
        assert comparable(taken) == comparable(state)  # the round stands where it stood
        if state["round"]["id"] == round_id:  # a decision awaited (no natural at the deal)
            pending = state["round"]["pending"]
            assert taken["round"]["deadline"] is not None
            # The stopped owner wakes up with the decision it was sent: refused by the fence,
            # or forwarded to the new owner once its lease thread has dropped the table; never
            # applied twice (the same idempotency key, retried on the new owner).
            second.process.send_signal(signal.SIGCONT)
            key = uuid.uuid4().hex
            decision = {"seat": pending["seat"], "action": pending["default"]}
            token = tokens[owner_of[pending["seat"]]]
            late = call(second, "POST", f"/tables/{table}/actions", token, decision, key)
            assert late.status_code in (200, 503), late.text
            again = call(third, "POST", f"/tables/{table}/actions", token, decision, key)
            assert again.status_code == 200, again.text
            if late.status_code == 200:
                assert late.json() == again.json()  # the stored answer, the decision once
            state = ok(third, "GET", f"/tables/{table}", OPERATOR_TOKEN)
            for _ in range(50):
                if state["round"]["id"] != round_id:
                    break
                pending = state["round"]["pending"]
                ok(second, "POST", f"/tables/{table}/actions", tokens[owner_of[pending["seat"]]],
                   {"seat": pending["seat"], "action": pending["default"]})  # fmt: skip
                state = ok(third, "GET", f"/tables/{table}", OPERATOR_TOKEN)
        second.process.send_signal(signal.SIGCONT)

        # --- every balance exact, the ledger and the audit chain clean -----------------------
        expected = dict.fromkeys(tokens, CREDIT)
        document = ok(third, "GET", f"/rounds/{round_id}", OPERATOR_TOKEN)
        assert document["status"] == "complete"
        for event in document["events"]:
            if event["kind"] == "Settled":
                net = Fraction(str(event["payout"])) - Fraction(str(event["stake"]))
                expected[owner_of[event["seat"]]] += int(net * 100)
        assert balances(third) == expected
        audit = ok(third, "GET", "/operator/audit", OPERATOR_TOKEN)
        assert (audit["problems"], audit["sum"]) == ([], 0)
        verified = CliRunner().invoke(croupier_cli, ["audit", "verify", "--database", pg_url])
        assert verified.exit_code == 0, verified.output
    finally:
        cluster.stop()


@pytest.mark.slow
def test_the_owner_killed_inside_the_settling_transaction_another_settles_the_round(
    pg_url: str, tmp_path: Path
) -> None:
    """Mid-settlement: the owner dies inside the transaction that settles the round (its
    ``settlement`` crash point); nothing of it commits, the other process takes the table over
    with the round waiting for the same last decision, and the client's retry with the same
    idempotency key settles it there, once."""
    owner = ServerProcess(pg_url, log_path=tmp_path / "owner.log", start_timeout=180)
    owner.env = {"CROUPIER_CRASH_AT": "settlement"}
    other = ServerProcess(pg_url, log_path=tmp_path / "other.log", start_timeout=180)
    cluster = Cluster.__new__(Cluster)
    cluster.url, cluster.processes = pg_url, [owner, other]
    try:
        owner.start("--lease-seconds", LEASE_SECONDS)
        other.start("--lease-seconds", LEASE_SECONDS)
        table = ok(owner, "POST", "/operator/tables", OPERATOR_TOKEN,
                   {"name": "settling", "profile": PROFILE, "betting_seconds": 600,
                    "decision_seconds": 600})["table"]  # fmt: skip
        body = {"username": "ann", "password": "password-of-ann"}
        httpx.post(other.url + "/auth/signup", json=body).raise_for_status()
        token = httpx.post(other.url + "/auth/signin", json=body).json()["token"]
        ok(other, "POST", "/operator/wallets/ann/credit", OPERATOR_TOKEN, {"amount": CREDIT})
        ok(other, "POST", f"/tables/{table}/seats/1", token)
        # Play until the owner settles a round: at the deal (a natural) or after the last
        # decision. That request is the fatal one; the round's state just before it is kept.
        fatal: tuple[str, dict[str, Any], str] | None = None
        for _ in range(100):
            # Read at the owner itself: were every request of the table to come through the
            # other process, the table would follow them there between rounds (its lease
            # follows its requests, service.leases) and the owner would settle nothing.
            last = comparable(ok(owner, "GET", f"/tables/{table}", OPERATOR_TOKEN))
            held = ok(other, "GET", "/me", token)["balance"]
            round_id = last["round"]["id"]
            if last["round"]["status"] == "betting":
                if not last["round"]["stakes"]:
                    ok(other, "POST", f"/tables/{table}/bets", token,
                       {"seat": 1, "wager": "main", "amount": 500})  # fmt: skip
                    continue
                path, body = f"/tables/{table}/ready", {}
            else:
                path = f"/tables/{table}/actions"
                body = {"seat": 1, "action": last["round"]["pending"]["default"]}
            key = uuid.uuid4().hex
            answer = call(other, "POST", path, token, body, key)
            if answer.status_code == 503 and owner.process is not None:
                # The peer that forwarded the request hears the owner's connection drop
                # (503 table_moved) before this test's poll sees the process reaped.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    owner.process.wait(5)
            if owner.process is not None and owner.process.poll() is not None:
                fatal = (path, body, key)  # the crash point fired inside the settlement
                break
            assert answer.status_code == 200, answer.text
        assert fatal is not None
        assert owner.process is not None and owner.process.wait(10) == -9
        assert cluster.owner(table, [other]) is other
        assert comparable(ok(other, "GET", f"/tables/{table}", OPERATOR_TOKEN)) == last
        assert ok(other, "GET", "/me", token)["balance"] == held
        retried = call(other, "POST", fatal[0], token, fatal[1], fatal[2])
        assert retried.status_code == 200, retried.text
        assert ok(other, "GET", f"/rounds/{round_id}", OPERATOR_TOKEN)["status"] == "complete"
        audit = ok(other, "GET", "/operator/audit", OPERATOR_TOKEN)
        assert (audit["problems"], audit["sum"]) == ([], 0)
        verified = CliRunner().invoke(croupier_cli, ["audit", "verify", "--database", pg_url])
        assert verified.exit_code == 0, verified.output
    finally:
        cluster.stop()
