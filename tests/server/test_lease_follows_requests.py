"""Issue 29, item 2 (the hop's cost): a table's lease follows its requests, between real
``croupier serve`` processes on one PostgreSQL.

A table is created on the first process; the load balancer sends its requests to the second
(``deploy/cluster.sh``: by the table's id), which forwards them to the owner. Between two
rounds the owner hands the table to the second (``service.leases``); from then on the second
runs it and forwards nothing. Every request of the player answers as if nothing moved (the
table's one move is invisible to them: no 503), and the ledger balances.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from database_support import fresh_database
from test_fail_over import PROFILE, Cluster, ok

from bots import OPERATOR_TOKEN, ServerProcess

pytestmark = pytest.mark.postgres

MOVED_WITHIN_SECONDS = 20.0


@pytest.fixture
def pg_url(pg_server: str, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database("postgresql", tmp_path, pg_server)


def counter(server: ServerProcess, name: str) -> float:
    for line in httpx.get(server.url + "/metrics", timeout=10).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} is not in {server.url}/metrics")


def play_round(server: ServerProcess, table: int, token: str) -> None:
    """One round of one player, every request to ``server``: each answers 200."""
    round_id = ok(server, "GET", f"/tables/{table}", token)["round"]["id"]
    ok(server, "POST", f"/tables/{table}/bets", token, {"seat": 1, "wager": "main", "amount": 500})
    ok(server, "POST", f"/tables/{table}/ready", token)
    for _ in range(30):
        state = ok(server, "GET", f"/tables/{table}", token)["round"]
        if state["id"] != round_id:
            return
        decision = {"seat": 1, "action": state["pending"]["default"]}
        ok(server, "POST", f"/tables/{table}/actions", token, decision)
    raise AssertionError(f"round {round_id} did not end")


def test_a_tables_lease_moves_to_the_process_its_requests_reach(
    pg_url: str, tmp_path: Path
) -> None:
    cluster = Cluster(pg_url, tmp_path, 2)
    try:
        first, second = cluster.processes
        table = ok(first, "POST", "/operator/tables", OPERATOR_TOKEN,
                   {"name": "followed", "profile": PROFILE, "betting_seconds": 600,
                    "decision_seconds": 600})["table"]  # fmt: skip
        assert cluster.owner(table, cluster.processes) is first  # its creator runs it
        body = {"username": "ann", "password": "password-of-ann"}
        httpx.post(second.url + "/auth/signup", json=body).raise_for_status()
        token = httpx.post(second.url + "/auth/signin", json=body).json()["token"]
        ok(second, "POST", "/operator/wallets/ann/credit", OPERATOR_TOKEN, {"amount": 10_000_000})
        ok(second, "POST", f"/tables/{table}/seats/1", token)
        since = time.monotonic()
        while cluster.owner(table, cluster.processes) is not second:
            assert time.monotonic() - since < MOVED_WITHIN_SECONDS, "the table never moved"
            play_round(second, table, token)
            time.sleep(1.2)  # between rounds: a pass of the owner's lease thread
        assert counter(first, "croupier_table_leases_handed_over_total") == 1
        forwarded = counter(second, "croupier_requests_forwarded_total")
        assert forwarded > 0  # its requests took the hop until it moved
        play_round(second, table, token)
        assert counter(second, "croupier_requests_forwarded_total") == forwarded  # none now
        audit = ok(second, "GET", "/operator/audit", OPERATOR_TOKEN)
        assert (audit["problems"], audit["sum"]) == ([], 0)
    finally:
        cluster.stop()
