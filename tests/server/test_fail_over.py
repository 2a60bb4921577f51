"""Issue 29, item 3: fail-over between real ``croupier serve`` processes on one PostgreSQL.

Three processes share a fresh database (leases of 2 s). The owner of a table (its creator)
is killed (kill -9) mid-betting: another takes the table over within 10 s and the round
resumes as its record holds it (the same bets in escrow). The new owner is then stopped
(SIGSTOP, past its lease) mid-decision: the third takes over and the round waits for the same
decision with its full time again (R11); woken, the stopped owner's late decision is refused
and nothing moves. The round is played out on the third: every balance is exact, the
ledger's audit sums to 0 and ``croupier audit verify`` is clean.
"""

from __future__ import annotations

import signal
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
from typer.testing import CliRunner

from conftest import fresh_database

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bots import OPERATOR_TOKEN, ServerProcess
from croupier.cli.main import app as croupier_cli

pytestmark = pytest.mark.postgres

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
        self.processes = [
            ServerProcess(url, log_path=folder / f"serve-{n}.log") for n in range(size)
        ]
        with ThreadPoolExecutor(size) as pool:
            list(pool.map(lambda server: server.start("--lease-seconds", LEASE_SECONDS),
                          self.processes))  # fmt: skip

    def running(self, table: int, among: list[ServerProcess]) -> ServerProcess:
        """The process of ``among`` that runs ``table`` (waits for a takeover)."""
        since = time.monotonic()
        while True:
            for server in among:
                if call(server, "GET", f"/tables/{table}", OPERATOR_TOKEN).status_code == 200:
                    return server
            assert time.monotonic() - since < FAIL_OVER_WITHIN_SECONDS
            time.sleep(0.1)

    def stop(self) -> None:
        for server in self.processes:
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()


def call(
    server: ServerProcess, method: str, path: str, token: str, body: Any = None
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
    return httpx.request(method, server.url + path, json=body, headers=headers, timeout=30)


def ok(server: ServerProcess, method: str, path: str, token: str, body: Any = None) -> Any:
    answer = call(server, method, path, token, body)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A table's state without the deadline (a takeover gives a decision its full time)."""
    return {**state, "round": {k: v for k, v in state["round"].items() if k != "deadline"}}


def test_the_owner_killed_mid_betting_or_stopped_mid_decision_another_takes_over(
    pg_url: str, tmp_path: Path
) -> None:
    cluster = Cluster(pg_url, tmp_path, 3)
    try:
        first = cluster.processes[0]
        table = ok(
            first,
            "POST",
            "/operator/tables",
            OPERATOR_TOKEN,
            {"name": "shared", "profile": PROFILE, "betting_seconds": 600,
             "decision_seconds": 600},
        )["table"]  # fmt: skip
        others = cluster.processes[1:]
        tokens: dict[str, str] = {}
        for seat, name in enumerate(["ann", "ben"], start=1):
            body = {"username": name, "password": f"password-of-{name}"}
            httpx.post(others[0].url + "/auth/signup", json=body).raise_for_status()
            tokens[name] = httpx.post(others[1].url + "/auth/signin", json=body).json()["token"]
            ok(others[0], "POST", f"/operator/wallets/{name}/credit", OPERATOR_TOKEN,
               {"amount": CREDIT})  # fmt: skip
            ok(first, "POST", f"/tables/{table}/seats/{seat}", tokens[name])
        # Its creator runs the table; the others do not.
        for server in others:
            assert call(server, "GET", f"/tables/{table}", OPERATOR_TOKEN).status_code == 404
        seat_of = {"ann": 1, "ben": 2}
        owner_of = {1: "ann", 2: "ben"}

        def balances(server: ServerProcess) -> dict[str, int]:
            return {n: ok(server, "GET", "/me", t)["balance"] for n, t in tokens.items()}

        # --- mid-betting: kill -9 the owner --------------------------------------------------
        round_id = ok(first, "GET", f"/tables/{table}", OPERATOR_TOKEN)["round"]["id"]
        for name, token in tokens.items():
            ok(first, "POST", f"/tables/{table}/bets", token,
               {"seat": seat_of[name], "wager": "main", "amount": 500})  # fmt: skip
        before = comparable(ok(first, "GET", f"/tables/{table}", OPERATOR_TOKEN))
        held = balances(first)
        killed_at = time.monotonic()
        first.kill()
        second = cluster.running(table, others)
        print(f"fail-over after kill -9 mid-betting: {time.monotonic() - killed_at:.2f} s")
        assert comparable(ok(second, "GET", f"/tables/{table}", OPERATOR_TOKEN)) == before
        assert balances(second) == held  # the same round, the same bets in escrow
        (third,) = [server for server in others if server is not second]

        # --- mid-decision: SIGSTOP the new owner past its lease ------------------------------
        for token in tokens.values():
            ok(second, "POST", f"/tables/{table}/ready", token)
        state = ok(second, "GET", f"/tables/{table}", OPERATOR_TOKEN)
        assert second.process is not None
        stopped_at = time.monotonic()
        second.process.send_signal(signal.SIGSTOP)
        assert cluster.running(table, [third]) is third
        print(f"fail-over after SIGSTOP mid-round: {time.monotonic() - stopped_at:.2f} s")
        taken = ok(third, "GET", f"/tables/{table}", OPERATOR_TOKEN)
        assert comparable(taken) == comparable(state)  # the round stands where it stood
        if state["round"]["id"] == round_id:  # a decision awaited (no natural at the deal)
            pending = state["round"]["pending"]
            assert taken["round"]["deadline"] is not None
            # The stopped owner wakes up and sends the decision it was given: refused (the
            # fence, or its lease thread has dropped the table already), nothing moves.
            second.process.send_signal(signal.SIGCONT)
            late = call(second, "POST", f"/tables/{table}/actions",
                        tokens[owner_of[pending["seat"]]],
                        {"seat": pending["seat"], "action": pending["default"]})  # fmt: skip
            assert late.status_code in (404, 503), late.text
            assert comparable(ok(third, "GET", f"/tables/{table}", OPERATOR_TOKEN)) == comparable(
                taken
            )
            state = taken
            for _ in range(50):
                if state["round"]["id"] != round_id:
                    break
                pending = state["round"]["pending"]
                ok(third, "POST", f"/tables/{table}/actions", tokens[owner_of[pending["seat"]]],
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
