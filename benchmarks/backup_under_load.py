"""R19 under real load: online backups of a ``croupier serve`` process while bots play.

``uv run python benchmarks/backup_under_load.py [--players 30] [--tables 6] [--rounds 12]
[--think 0.3] [--every 0.5] [--database URL|postgresql]``

The same load (``benchmarks/load.py``'s bots, each on its own WebSocket) runs twice against
one server: once as the reference, once while ``croupier backup``'s function copies the
database every ``every`` seconds. Prints the players' p50/p99 latency in both runs and their
ratio (measured in the same run: the machine's other load moves both), each backup's time, and
then restores every backup into a fresh database and reconciles it with the live one
(``backup.reconcile``: immutable rows and the restore's audit), and a last backup taken once
play has stopped row for row (``backup.differences``). Target: 0 differences.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import ServerProcess, percentile
from load import fresh_postgres_schema, run_load


async def load_with_backups(
    server: ServerProcess, arguments: Any, profiles: list[str], folder: Path
) -> tuple[dict[str, Any], list[tuple[Path, float]]]:
    from croupier.service.backup import backup

    taken: list[tuple[Path, float]] = []
    done = asyncio.Event()

    async def keep_backing_up() -> None:
        while not done.is_set():
            await asyncio.sleep(arguments.every)
            path = folder / f"under-load-{len(taken)}.backup"
            started = time.perf_counter()
            await asyncio.to_thread(backup, server.database_url, path)
            taken.append((path, time.perf_counter() - started))

    backing_up = asyncio.ensure_future(keep_backing_up())
    try:
        figures = await run_load(
            server.url,
            arguments.players,
            arguments.tables,
            arguments.rounds,
            profiles,
            think=arguments.think,
        )
    finally:
        done.set()
        await backing_up
    return figures, taken


SCHEMAS: list[str] = []
"""The PostgreSQL schemas this run made (on the machine's shared server): dropped at the end."""


def fresh_schema() -> str:
    url = fresh_postgres_schema()
    SCHEMAS.append(url.rsplit("search_path%3D", 1)[1])
    return url


def drop_schemas() -> None:
    if not SCHEMAS:
        return
    import psycopg

    import pg_cluster  # on the path since fresh_postgres_schema

    with psycopg.connect(pg_cluster.server_url(), autocommit=True) as connection:
        for schema in SCHEMAS:
            connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def fresh_like(database: str, folder: Path, number: int) -> str:
    if database.startswith("sqlite"):
        return f"sqlite:///{folder / f'restored-{number}.sqlite'}"
    return fresh_schema()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--every", type=float, default=0.5, help="seconds between backups")
    parser.add_argument("--database", default=None, help="default: a fresh SQLite file")
    arguments = parser.parse_args()
    try:
        run(arguments)
    finally:
        drop_schemas()


def run(arguments: Any) -> None:
    from croupier.server.app import playable_profiles
    from croupier.service.backup import backup, differences, reconcile, restore, table_rows

    profiles = playable_profiles()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        database = arguments.database or f"sqlite:///{folder}/live.sqlite"
        if database == "postgresql":
            database = fresh_schema()
        server = ServerProcess(database, log_path=folder / "serve.log")
        server.start("--betting-seconds", "30", "--decision-seconds", "30")

        def plain_load(rounds: int) -> dict[str, Any]:
            return asyncio.run(
                run_load(
                    server.url,
                    arguments.players,
                    arguments.tables,
                    rounds,
                    profiles,
                    think=arguments.think,
                )
            )

        try:
            plain_load(2)  # warm-up: compiled engines, caches, the first connections
            before = plain_load(arguments.rounds)
            loaded, taken = asyncio.run(load_with_backups(server, arguments, profiles, folder))
            after = plain_load(arguments.rounds)
        finally:
            server.stop()
        quiet = folder / "quiet.backup"
        backup(database, quiet)
        problems = 0
        live_rows = table_rows(database)
        for number, (path, _) in enumerate(taken):
            target = fresh_like(database, folder, number)
            restore(path, target)
            problems += len(reconcile(target, database, live_rows))
        target = fresh_like(database, folder, len(taken))
        restore(quiet, target)
        quiet_differences = len(differences(database, target))

    durations = [seconds for _, seconds in taken]
    print(f"database: {database.split('?')[0]}")
    for label, figures in (
        ("without backups, before", before),
        ("with backups", loaded),
        ("without backups, after", after),
    ):
        print(
            f"{label}: {figures['rounds']} rounds, {figures['requests']} player requests, "
            f"p50 {figures['p50'] * 1000:.1f} ms, p99 {figures['p99'] * 1000:.1f} ms, "
            f"errors {len(figures['errors'])}, ledger sum {figures['ledger_sum']}"
        )
    # The reference: both runs without backups, pooled (one before, one after: the database's
    # growth and the machine's other load weigh on both sides alike).
    pooled = [latency for figures in (before, after) for _, _, latency in figures["timeline"]]
    p50, p99 = percentile(pooled, 0.5), percentile(pooled, 0.99)
    print(
        f"p50 ratio {loaded['p50'] / p50:.2f}, p99 ratio {loaded['p99'] / p99:.2f} "
        "(with backups / without, pooled before and after, same server, same run)"
    )
    print(
        f"{len(taken)} backups under load: median {percentile(durations, 0.5) * 1000:.0f} ms, "
        f"max {max(durations, default=0) * 1000:.0f} ms"
    )
    print(
        f"restored and reconciled: {problems} differences over {len(taken)} backups under load; "
        f"the quiet backup: {quiet_differences} row differences"
    )


if __name__ == "__main__":
    main()
