"""Load on loopback: many players at many live tables of a real ``croupier serve`` process.

``uv run python benchmarks/load.py [--players 105] [--tables 15] [--rounds 20] [--think 1]
[--ramp 5] [--database URL|postgresql]``

Each table gets ``players / tables`` bots (at most its seat count), each driven by its own
WebSocket; they play ``rounds`` rounds. The player model: a player takes ``think`` seconds on
average (0.5x to 1.5x) before each move, and the tables fill one after another over ``ramp``
seconds, as players arrive at a casino; ``--think 0 --ramp 0`` is the stress test instead
(every bot fires as soon as it may: a capacity figure, where latency is only queueing).

Prints rounds per second; the p50/p99/max latency of the players' requests (bets, ready,
decisions) over the whole run and in the steady state (every table started), beside the p50/p99
of a no-op endpoint measured in the same run (the reference); the server's CPU time per player
request against a no-op request's; the errors; and that the ledger sums to zero and every round
is recallable. Target: p99 < 50 ms with no errors at 100 players on 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import (
    OPERATOR_TOKEN,
    WAGERS,
    Bot,
    ServerProcess,
    create_table,
    new_player,
    percentile,
    play_table,
    reference_latency,
)


async def run_load(
    base_url: str,
    players: int,
    tables: int,
    rounds: int,
    profiles: list[str],
    *,
    think: float = 0.0,
    ramp: float = 0.0,
    cpu_seconds: Callable[[], float] | None = None,
    commits: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """``cpu_seconds``, when given, reads the server's CPU time: the figures then include
    its CPU cost per player request beside that of a no-op request. ``commits``, when given,
    reads a count of the server's commits: the figures then include those made while the
    bots played (``commits``, ``commits_per_second``)."""
    cpu = cpu_seconds or (lambda: float("nan"))
    count = commits or (lambda: float("nan"))
    from croupier.rules.registry import load_profile

    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        bots_by_table: list[list[Bot]] = []
        per_table = max(1, players // tables)
        for number in range(tables):
            profile_name = profiles[number % len(profiles)]
            profile = load_profile(profile_name)
            table = await create_table(client, f"load-{number}-{time.monotonic_ns()}", profile_name)
            seats = min(per_table, profile.table.seats)
            bots = []
            for seat in range(1, seats + 1):
                name = f"p{number}x{seat}x{time.monotonic_ns() % 10**9}"
                token = await new_player(client, name, 10_000_000)
                wager = WAGERS[profile.game]
                bots.append(
                    Bot(
                        name,
                        token,
                        table,
                        [seat],
                        wager,
                        stake=profile.table.wagers[wager].minimum,
                        think=think,
                    )
                )
            bots_by_table.append(bots)
    cpu_before_reference = cpu()
    reference_before = await reference_latency(base_url, 200)
    cpu_reference = cpu() - cpu_before_reference
    commits_before = count()
    started = time.perf_counter()
    cpu_before = cpu()
    await asyncio.gather(
        *(
            play_table(base_url, bots, rounds, timeout=600, start_after=ramp * number / tables)
            for number, bots in enumerate(bots_by_table)
        )
    )
    elapsed = time.perf_counter() - started
    cpu_play = cpu() - cpu_before
    commits_play = count() - commits_before
    reference_after = await reference_latency(base_url, 200)
    all_bots = [bot for bots in bots_by_table for bot in bots]
    latencies = [value for bot in all_bots for value in bot.latencies]
    timeline = sorted(
        (entry for bot in all_bots for entry in bot.timeline), key=lambda entry: entry[1]
    )
    errors = [error for bot in all_bots for error in bot.errors]
    table_ids = sorted({bot.table for bot in all_bots})
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        audit = (
            await client.get(
                "/operator/audit", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
            )
        ).json()
        rounds_recalled = 0
        round_ids = {round_id for bot in all_bots for round_id in bot.rounds_bet}
        for round_id in sorted(round_ids):
            answer = await client.get(
                f"/rounds/{round_id}", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
            )
            if answer.status_code == 200 and answer.json()["status"] == "complete":
                rounds_recalled += 1
    reference = reference_before + reference_after
    # Steady state: once every table has started and its players have made a first move.
    steady_from = started + ramp + 1.5 * think
    steady = [latency for _, start, latency in timeline if start >= steady_from]
    return {
        "players": len(all_bots),
        "tables": len(table_ids),
        "rounds": len(round_ids),
        "rounds_recalled": rounds_recalled,
        "elapsed": elapsed,
        "commits": commits_play,
        "commits_per_second": commits_play / elapsed,
        "rounds_per_second": len(round_ids) / elapsed,
        "requests": len(latencies),
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "reference_p50": percentile(reference, 0.5),
        "reference_p99": percentile(reference, 0.99),
        "cpu_per_request": cpu_play / max(1, len(latencies)),
        "reference_cpu_per_request": cpu_reference / len(reference_before),
        "errors": errors,
        "retries": sum(bot.retries for bot in all_bots),
        "ledger_sum": audit["sum"],
        "ledger_problems": audit["problems"],
        "timeline": timeline,
        "steady_requests": len(steady),
        "steady_p50": percentile(steady, 0.5),
        "steady_p99": percentile(steady, 0.99),
        "max": max(latencies, default=float("nan")),
    }


def report(figures: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"players {figures['players']} at {figures['tables']} tables, {figures['rounds']} rounds in "
            f"{figures['elapsed']:.1f} s: {figures['rounds_per_second']:.1f} rounds/s",
            f"player requests: {figures['requests']}, p50 {figures['p50'] * 1000:.1f} ms, "
            f"p99 {figures['p99'] * 1000:.1f} ms, max {figures['max'] * 1000:.1f} ms",
            f"  steady state (every table started): {figures['steady_requests']} requests, p50 "
            f"{figures['steady_p50'] * 1000:.1f} ms, p99 {figures['steady_p99'] * 1000:.1f} ms",
            f"no-op reference: p50 {figures['reference_p50'] * 1000:.2f} ms, p99 "
            f"{figures['reference_p99'] * 1000:.2f} ms -> player p50 = "
            f"{figures['p50'] / figures['reference_p50']:.1f}x, p99 = "
            f"{figures['p99'] / figures['reference_p99']:.1f}x the reference",
            f"server CPU per player request {figures['cpu_per_request'] * 1000:.2f} ms (pushes "
            f"to every seat's WebSocket included), per no-op request "
            f"{figures['reference_cpu_per_request'] * 1000:.2f} ms -> "
            f"{figures['cpu_per_request'] / figures['reference_cpu_per_request']:.1f}x",
            f"errors: {len(figures['errors'])} (dropped connections retried: {figures['retries']}); ledger sum {figures['ledger_sum']}, problems "
            f"{len(figures['ledger_problems'])}; rounds recallable {figures['rounds_recalled']}/{figures['rounds']}",
        ]
    )


def fresh_postgres_schema() -> str:
    """A new schema on the test PostgreSQL server (see tools/pg_cluster.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import psycopg

    import pg_cluster

    base = pg_cluster.server_url()
    schema = f"load_{time.time_ns()}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    return pg_cluster.sqlalchemy_url(base, schema)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=105)
    parser.add_argument("--tables", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--database", default=None, help="default: a fresh SQLite file")
    parser.add_argument(
        "--profiles", default=None, help="comma-separated; default: every playable one"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="a player's mean seconds before each move, drawn in 0.5x..1.5x (0: a stress test)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=5.0,
        help="tables start one after another over this many seconds (0: all at once)",
    )
    arguments = parser.parse_args()
    from croupier.server.app import playable_profiles

    profiles = arguments.profiles.split(",") if arguments.profiles else playable_profiles()
    with tempfile.TemporaryDirectory() as folder:
        database = arguments.database or f"sqlite:///{folder}/load.sqlite"
        if database == "postgresql":
            database = fresh_postgres_schema()
        server = ServerProcess(database, log_path=Path(folder) / "serve.log")
        server.start("--betting-seconds", "30", "--decision-seconds", "30")
        try:
            figures = asyncio.run(
                run_load(
                    server.url,
                    arguments.players,
                    arguments.tables,
                    arguments.rounds,
                    profiles,
                    think=arguments.think,
                    ramp=arguments.ramp,
                    cpu_seconds=server.cpu_seconds,
                )
            )
        except Exception:
            print((Path(folder) / "serve.log").read_text()[-3000:])
            raise
        finally:
            server.stop()
    print(
        f"database: {database.split('?')[0]}, think time {arguments.think} s, tables start over "
        f"{arguments.ramp} s"
    )
    print(report(figures))
    for error in figures["errors"][:10]:
        print("  error:", error)


if __name__ == "__main__":
    main()
