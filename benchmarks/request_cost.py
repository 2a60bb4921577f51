"""The server's CPU per player request as a multiple of a no-op request's, in one process.

``uv run python benchmarks/request_cost.py [--blocks 5] [--history 0] [--record]``

Three players at a blackjack table of an in-process app (the test client, a SQLite file, each
player's WebSocket open so every change is pushed to every seat) play rounds: bets, ready,
the state read, decisions. Between those blocks, the same number of no-op requests
(``GET /favicon.ico``, the no-op ``load.py`` divides by). The figure is the ratio of the two
CPU costs per request, measured in one process (its CPU time less that of the thread that runs
the client): other load on the machine stretches both alike, so the ratio holds where absolute
times do not.

``--history N`` measures on a database that has a history: ``N`` rows of the audit chain's
``audit_cover`` (one per audited row ever written: a round of three players writes about 35)
made up before the play, as if ``N`` rows had been written before (they cover no real row, so
``croupier audit verify`` would fail there; nothing here verifies). A commit's cost must not
grow with the history (``tests/reliability/test_r15_commit_reads_by_key.py``): with
``--history 100000`` (this file, alternating the library), 3.52x and 3.53x at 9238973
against 8.58x and 8.82x at e3acc2b, whose chain scanned every cover at each commit (2-core
Xeon, load average 1.8-2.0; with no history 2.88x and 3.52x against 3.46x and 3.44x).

``RECORDED`` holds the ratio as last measured, with the machine and the commit;
``tests/server/test_request_cost.py`` fails when a change makes it half as large again
(``GROWTH_ALLOWED``): the cost of the path under a player's request cannot double unseen.
``--record`` writes the figure measured now (after a change that is meant to cost more, or
less). ``benchmarks/load.py`` is the whole-server measure (uvicorn, many players, latency).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sqlite3
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from croupier.clock import ManualClock
from croupier.server.app import create_app, start
from croupier.server.context import Settings

RECORDED = Path(__file__).resolve().parent / "request_cost.json"
GROWTH_ALLOWED = 1.5
"""How far the ratio may grow over ``RECORDED`` before the check fails."""
NO_OP = "/favicon.ico"
OPERATOR_TOKEN = "operator-token-for-request-cost-0123"
PROFILE = "veintiuno-real"
PLAYERS = 3
NO_OPS_PER_BLOCK = 150
ROUNDS_PER_BLOCK = 2


@dataclass
class Block:
    """The CPU seconds and the count of requests of one measured block."""

    cpu: float
    requests: int

    @property
    def per_request(self) -> float:
        return self.cpu / self.requests


class Players:
    """Three players seated at one table of an in-process server, WebSockets open."""

    def __init__(self, client: TestClient, stack: ExitStack) -> None:
        self.client = client
        operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        created = self._post(
            "/operator/tables",
            operator,
            {
                "name": f"cost-{uuid.uuid4().hex[:8]}",
                "profile": PROFILE,
                "betting_seconds": 600,
                "decision_seconds": 600,
            },
        )
        self.table: int = created["table"]
        self.tokens: dict[int, str] = {}
        for seat in range(1, PLAYERS + 1):
            name = f"cost{seat}x{uuid.uuid4().hex[:6]}"
            login = {"username": name, "password": f"password-of-{name}"}
            client.post("/auth/signup", json=login).raise_for_status()
            token = client.post("/auth/signin", json=login).json()["token"]
            self._post(f"/operator/wallets/{name}/credit", operator, {"amount": 10_000_000})
            self._post(f"/tables/{self.table}/seats/{seat}", self._headers(token), {})
            stack.enter_context(client.websocket_connect(f"/tables/{self.table}/ws?token={token}"))
            self.tokens[seat] = token

    @staticmethod
    def _headers(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}

    def _post(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> Any:
        answer = self.client.post(
            path, json=body, headers={**headers, "Idempotency-Key": uuid.uuid4().hex}
        )
        if answer.status_code >= 300:
            raise AssertionError(f"{path}: {answer.status_code} {answer.text}")
        return answer.json()

    def play_round(self) -> int:
        """One round as the load's bots play it (a bet each, ready each, every decision with
        its default), each decision after reading the table's state; the requests made."""
        requests = 0
        for seat, token in self.tokens.items():
            body = {"seat": seat, "wager": "main", "amount": 1}
            self._post(f"/tables/{self.table}/bets", self._headers(token), body)
            requests += 1
        round_id = None
        for token in self.tokens.values():
            self._post(f"/tables/{self.table}/ready", self._headers(token), {})
            requests += 1
        for _ in range(100):
            state = self.client.get(
                f"/tables/{self.table}", headers={"Authorization": f"Bearer {self.tokens[1]}"}
            ).json()
            requests += 1
            round_id = round_id or state["round"]["id"]
            pending = state["round"]["pending"]
            if state["round"]["id"] != round_id or pending is None:
                return requests
            body = {"seat": pending["seat"], "action": pending["default"]}
            self._post(
                f"/tables/{self.table}/actions", self._headers(self.tokens[pending["seat"]]), body
            )
            requests += 1
        raise AssertionError("a round did not end in 100 decisions")

    def no_ops(self, count: int) -> int:
        for _ in range(count):
            if self.client.get(NO_OP, follow_redirects=False).status_code != 308:
                raise AssertionError(f"GET {NO_OP} is no longer the no-op redirect")
        return count


def measured(work: Callable[[], int]) -> Block:
    """The server's CPU seconds for ``work``'s requests: the process's, less this thread's.
    The test client's own work (building requests, reading answers) runs on this thread;
    the app runs on the client's portal threads and their workers."""
    process, client = time.process_time(), time.thread_time()
    requests = work()
    return Block((time.process_time() - process) - (time.thread_time() - client), requests)


@contextmanager
def players(history: int = 0) -> Iterator[Players]:
    """Players at a table of a fresh server whose background threads stay quiet (their CPU
    would count against whichever block they fall in), its database given ``history`` covers."""
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        settings = Settings(
            database_url=f"sqlite:///{folder}/cost.sqlite",
            operator_token=OPERATOR_TOKEN,
            clock=ManualClock(),
            demo_tables=False,
            tick_seconds=3600,
            fail_safe_seconds=3600,
            rate_limit="100000/minute",
            token_rate_limit="100000/minute",
        )
        server = start(settings)
        _make_history(Path(folder) / "cost.sqlite", history)
        try:
            client = stack.enter_context(TestClient(create_app(settings, server=server)))
            yield Players(client, stack)
        finally:
            stack.close()
            server.release()


def _make_history(path: Path, covers: int) -> None:
    """``covers`` rows in ``audit_cover``, as ledger entries covered long ago would leave."""
    with sqlite3.connect(path) as database:
        database.executemany(
            "INSERT INTO audit_cover (table_name, row_key, seq, digest) VALUES (?, ?, ?, ?)",
            (
                ("ledger_entries", f"[{10_000_000 + index}]", 1, "ab" * 32)
                for index in range(covers)
            ),
        )
    database.close()


def cost_ratio(blocks: int = 5, history: int = 0) -> tuple[float, list[float], list[Block]]:
    """The CPU ratio player request / no-op request: the median over ``blocks`` pairs of
    blocks measured in turn, each pair's ratio, and the player blocks."""
    with players(history) as table:
        table.play_round()  # first calls fill caches: not measured
        table.no_ops(NO_OPS_PER_BLOCK)
        ratios = []
        plays = []
        for _ in range(blocks):
            gc.collect()
            no_op = measured(lambda: table.no_ops(NO_OPS_PER_BLOCK))
            gc.collect()
            play = measured(lambda: sum(table.play_round() for _ in range(ROUNDS_PER_BLOCK)))
            ratios.append(play.per_request / no_op.per_request)
            plays.append(play)
    return statistics.median(ratios), ratios, plays


def recorded() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(RECORDED.read_text(encoding="utf-8"))
    return value


def machine() -> str:
    for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=5)
    parser.add_argument(
        "--history", type=int, default=0, help="covers in the audit chain before the play"
    )
    parser.add_argument("--record", action="store_true", help=f"write the ratio to {RECORDED.name}")
    arguments = parser.parse_args()
    if arguments.record and arguments.history:
        parser.error("--record measures a fresh database: no --history")
    ratio, ratios, plays = cost_ratio(arguments.blocks, arguments.history)
    per_request = statistics.median(play.per_request for play in plays)
    print(
        f"CPU per player request = {ratio:.2f}x a no-op GET {NO_OP} (median of "
        f"{', '.join(f'{value:.2f}' for value in ratios)}); {per_request * 1000:.2f} ms each "
        "(the median block's: an absolute time, which other load on the machine disturbs)"
    )
    if RECORDED.exists():
        before = recorded()
        print(
            f"recorded: {before['ratio']:.2f}x at {before['commit']} on {before['machine']}; "
            f"the check fails above {before['ratio'] * GROWTH_ALLOWED:.2f}x"
        )
    if arguments.record:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], check=True, capture_output=True, text=True
        ).stdout.strip()
        record = {
            "ratio": round(ratio, 2),
            "commit": commit,
            "machine": machine(),
            "python": platform.python_version(),
            "measured": time.strftime("%Y-%m-%d", time.gmtime()),
            "how": "uv run python benchmarks/request_cost.py --record",
        }
        RECORDED.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        print(f"written to {RECORDED}")


if __name__ == "__main__":
    main()
