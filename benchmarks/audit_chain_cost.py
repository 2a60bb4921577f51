"""R15's cost: the same play with the audit chain on and off, in one run, as ratios.

``uv run python benchmarks/audit_chain_cost.py [--players 24] [--tables 6] [--rounds 8]
[--pairs 2] [--databases sqlite,postgresql]``

Each database gets ``pairs`` pairs of runs of ``benchmarks/load.py``'s stress workload (bots
at live tables of a real ``croupier serve`` process, betting, saying ready and deciding as
soon as they may: think 0, ramp 0), one run with the chain as the server builds it, one
without, the two orders alternating (on, off, off, on...) so a drift of the machine's other
load falls on both. Prints, per run and as the ratio of the medians (chain on / chain off):
the server's write commits per second, the p50 and p99 latency of the players' commands, the
server's CPU time per command, and its write commits per CPU second; then the same ratios
between the least disturbed run of each kind (the fastest, the least CPU). On a machine shared with
other work the wall-clock figures (commits/s, latency) swing from run to run far more than
the chain costs; the CPU figures are the steadier measure of its cost.

Chain off is for this benchmark only: the database is migrated as the server would, then its
audit triggers and ``audit_pending`` are dropped before the server starts, so no row is noted
and the commit hook finds no chain (``croupier.audit.chain._has_chain``); production code is
untouched. (``croupier audit verify`` would then fail on that database, as it should.)

Commits are counted inside the server process (``count_commits``, run there through
``ServerProcess.bootstrap``): a transaction that executed an INSERT, UPDATE or DELETE and
committed; read-only ones are not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS))

WRITES = ("insert", "update", "delete")


def count_commits(path: str) -> None:
    """In the server process: count write commits of every engine, and keep ``path``
    holding the count (rewritten atomically every 50 ms)."""
    from sqlalchemy import Engine, event

    counted = [0]

    @event.listens_for(Engine, "before_cursor_execute")
    def _note(
        connection: Any, cursor: Any, statement: str, *_arguments: Any, **_named: Any
    ) -> None:
        if statement.lstrip()[:6].lower() in WRITES:
            connection.info["benchmark_wrote"] = True

    @event.listens_for(Engine, "commit")
    def _count(connection: Any) -> None:
        if connection.info.pop("benchmark_wrote", False):
            counted[0] += 1

    @event.listens_for(Engine, "rollback")
    def _forget(connection: Any) -> None:
        connection.info.pop("benchmark_wrote", None)

    def _publish() -> None:
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        while True:
            partial.write_text(str(counted[0]), encoding="utf-8")
            os.replace(partial, target)
            time.sleep(0.05)

    threading.Thread(target=_publish, daemon=True).start()


def drop_chain(url: str) -> None:
    """Migrate ``url`` as ``croupier serve`` does, then take the chain's triggers and its
    ``audit_pending`` table out: the server then appends no entry (benchmark only)."""
    from sqlalchemy import text

    from croupier.audit.records import PENDING, audited_tables, drop_triggers
    from croupier.service.database import make_engine, upgrade

    engine = make_engine(url)
    try:
        upgrade(engine)
        with engine.begin() as connection:
            drop_triggers(connection, [audited.name for audited in audited_tables(connection)])
            connection.execute(text(f"DROP TABLE {PENDING.name}"))
    finally:
        engine.dispose()


def one_run(
    database: str, chain: bool, arguments: argparse.Namespace, folder: Path, number: int
) -> dict[str, Any]:
    from bots import ServerProcess
    from croupier.server.app import playable_profiles
    from load import fresh_postgres_schema, run_load

    if database == "postgresql":
        url = fresh_postgres_schema()
    else:
        url = f"sqlite:///{folder}/run-{number}.sqlite"
    if not chain:
        drop_chain(url)
    counter = folder / f"commits-{number}.txt"
    bootstrap = (
        f"import sys; sys.path.insert(0, {str(BENCHMARKS)!r}); "
        f"import audit_chain_cost; audit_chain_cost.count_commits({str(counter)!r})"
    )
    log = folder / f"serve-{number}.log"
    server = ServerProcess(url, log_path=log, bootstrap=bootstrap)
    server.start(
        "--betting-seconds",
        "30",
        "--decision-seconds",
        "30",
        "--audit-head",
        str(folder / f"head-{number}.json"),
        "--audit-key",
        str(folder / f"key-{number}"),
    )

    def commits() -> float:
        time.sleep(0.2)  # the counter file is rewritten every 50 ms
        return float(counter.read_text(encoding="utf-8"))

    try:
        figures = asyncio.run(
            run_load(
                server.url,
                arguments.players,
                arguments.tables,
                arguments.rounds,
                playable_profiles(),
                think=0.0,
                ramp=0.0,
                cpu_seconds=server.cpu_seconds,
                commits=commits,
            )
        )
    except Exception:
        print(log.read_text()[-3000:])
        raise
    finally:
        server.stop()
        if database == "postgresql":
            drop_schema(url)
    figures["chain"] = chain
    server_cpu = figures["cpu_per_request"] * figures["requests"]
    figures["commits_per_cpu_second"] = figures["commits"] / server_cpu
    return figures


def drop_schema(url: str) -> None:
    import psycopg

    sys.path.insert(0, str(BENCHMARKS.parent / "tools"))
    import pg_cluster

    schema = url.rsplit("%3D", 1)[1]
    with psycopg.connect(pg_cluster.server_url(), autocommit=True) as connection:
        connection.execute(f"DROP SCHEMA {schema} CASCADE")


def line(figures: dict[str, Any]) -> str:
    return (
        f"  chain {'on ' if figures['chain'] else 'off'}: {figures['commits']:.0f} write commits "
        f"in {figures['elapsed']:.1f} s = {figures['commits_per_second']:.1f}/s, "
        f"{figures['rounds']} rounds, {figures['requests']} commands: p50 "
        f"{figures['p50'] * 1000:.1f} ms, p99 {figures['p99'] * 1000:.1f} ms, server CPU "
        f"{figures['cpu_per_request'] * 1000:.2f} ms each, "
        f"{figures['commits_per_cpu_second']:.0f} commits per server CPU second; "
        f"errors {len(figures['errors'])}, "
        f"ledger sum {figures['ledger_sum']}"
    )


METRICS = (
    ("commits/s", "commits_per_second", max),
    ("command p50", "p50", min),
    ("command p99", "p99", min),
    ("server CPU per command", "cpu_per_request", min),
    ("commits per server CPU second", "commits_per_cpu_second", max),
)
"""Each figure, and which run of a kind is the least disturbed by the machine's other load."""


def ratios(runs: list[dict[str, Any]]) -> str:
    lines = []
    for title, pick in (("medians", statistics.median), ("least disturbed runs", None)):
        parts = []
        for label, key, best in METRICS:
            choose = pick or best
            on = choose(run[key] for run in runs if run["chain"])
            off = choose(run[key] for run in runs if not run["chain"])
            parts.append(f"{label} {on / off:.2f}x")
        lines.append(f"  chain on / chain off ({title}): " + ", ".join(parts))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--pairs", type=int, default=2, help="runs with the chain on and off")
    parser.add_argument("--databases", default="sqlite,postgresql")
    arguments = parser.parse_args()
    print(
        f"{arguments.players} players at {arguments.tables} tables, {arguments.rounds} rounds "
        f"each, stress (think 0, ramp 0), {arguments.pairs} pairs of runs per database"
    )
    with tempfile.TemporaryDirectory() as folder:
        number = 0
        for database in arguments.databases.split(","):
            print(f"{database}:", flush=True)
            runs = []
            for pair in range(arguments.pairs):
                order = (True, False) if pair % 2 == 0 else (False, True)
                for chain in order:
                    number += 1
                    runs.append(one_run(database, chain, arguments, Path(folder), number))
                    print(line(runs[-1]), flush=True)
            print(ratios(runs), flush=True)


if __name__ == "__main__":
    main()
