"""R10 full form: kill -9 ``croupier serve`` at random instants under load, many times.

``uv run python benchmarks/kill_recovery.py [kills] [--database URL]`` (default 50 kills on
a SQLite file; the R10 figure is 1,000, which takes about 3 s a kill on 2 cores).

Each cycle starts the server on the same database, lets 5 players play live blackjack
rounds over HTTP and WebSocket for a random 0.3-3 s, kills the process with SIGKILL, and
starts it again; after every restart the ledger is audited (balances sum to zero, every
transaction balances, every balance equals its entries, every entry chains) and every table
comes back. Prints the count of integrity or conservation failures (the pass figure is 0).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from bots import OPERATOR_TOKEN, Bot, ServerProcess, create_table, new_player, play_table


def audit(server: ServerProcess) -> dict[str, object]:
    answer = httpx.get(
        f"{server.url}/operator/audit",
        headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        timeout=60,
    )
    answer.raise_for_status()
    report: dict[str, object] = answer.json()
    return report


async def setup(base_url: str) -> tuple[int, list[tuple[str, str]]]:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        table = await create_table(client, "kill", "veintiuno-real", 5, 5)
        players = [(f"k{n}", await new_player(client, f"killer{n}", 10**9)) for n in range(5)]
    return table, players


async def play_for(
    base_url: str, table: int, players: list[tuple[str, str]], seconds: float
) -> None:
    bots = [
        Bot(name, token, table, [n + 1], "main", bold=n % 2 == 0)
        for n, (name, token) in enumerate(players)
    ]
    with contextlib.suppress(TimeoutError, httpx.HTTPError, OSError):
        await asyncio.wait_for(
            play_table(base_url, bots, 10**6, timeout=seconds + 5), timeout=seconds
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kills", type=int, nargs="?", default=50, help="kill -9 cycles")
    parser.add_argument("--database", help="a database URL (default: a new SQLite file)")
    arguments = parser.parse_args()
    kills, database = arguments.kills, arguments.database
    failures = 0
    seed = time.perf_counter_ns()
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(database or f"sqlite:///{folder}/kill.sqlite")
        server.start()
        table, players = asyncio.run(setup(server.url))
        started = time.perf_counter()
        for cycle in range(kills):
            # A spread of instants without the random module: the nanosecond clock's digits.
            seconds = 0.3 + ((seed + cycle * 7919) % 2700) / 1000
            asyncio.run(play_for(server.url, table, players, seconds))
            server.kill()
            server.start()
            report = audit(server)
            if report["problems"] or report["sum"] != 0:
                failures += 1
                print(f"kill {cycle + 1}: {report['problems']} sum {report['sum']}")
            if (cycle + 1) % 50 == 0:
                print(f"... {cycle + 1} kills, {failures} failures", flush=True)
        server.stop()
    elapsed = time.perf_counter() - started
    print(
        f"{kills} kills at random instants under load: {failures} integrity or conservation "
        f"failures ({elapsed / kills:.1f} s a cycle)"
    )


if __name__ == "__main__":
    main()
