"""Load on loopback: many players at many live tables of a real ``croupier serve`` process.

``uv run python benchmarks/load.py [--players 105] [--tables 15] [--rounds 20] [--think 1]
[--ramp 5] [--database URL|postgresql] [--against REV [--repeat N]]``

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

``--against REV`` (once or more) runs the same load on ``REV``'s server too, from a temporary
``git worktree``, alternating with this tree's (``--repeat`` rounds of one run each, a fresh
database each run, each round starting one server later than the last: this, REV, then REV,
this, ...), and prints them side by side: on a machine whose other load comes and goes,
alternating spreads that load over both. The CPU ratio's no-op is
``GET /favicon.ico`` (``NO_OP``), which every commit since ``dfe214d`` answers alike.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
    own_collections_kept_out,
    percentile,
    play_table,
    reference_latency,
)

NO_OP = "/favicon.ico"
"""The no-op request the CPU ratio divides by: a synchronous route's redirect, answered alike
by every commit since ``dfe214d`` (whose no-op was ``GET /health``, now the readiness probe;
today's ``/health/live`` is asynchronous, cheaper, and absent there)."""
NO_OPS = 1000
"""The no-op requests the reference's CPU is measured over. The server's CPU time moves in
ticks of 10 ms, and 200 no-ops (about 0.3 s, 0.1 s of CPU) read it to a tick or two, and any
passing work of the server's weighs on so short a window: one commit's no-op measured 0.75
and 0.85 ms in two runs of one comparison and 0.45-0.55 in four readings back to back in
another, enough to move the ratio by a third (issue 28, item 8); over 1,000 (about 1.5 s) a
tick is 2% of the reading."""
REPO = Path(__file__).resolve().parent.parent


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
    no_op: str = NO_OP,
    metrics_urls: list[str] | None = None,
    own_objects_frozen: bool = True,
) -> dict[str, Any]:
    """``cpu_seconds``, when given, reads the server's CPU time: the figures then include
    its CPU cost per player request beside that of a no-op request. ``commits``, when given,
    reads a count of the server's commits: the figures then include those made while the
    bots played (``commits``, ``commits_per_second``). ``metrics_urls``: each server
    process's own address, whose ``/metrics`` are added up (default ``base_url``: one
    process; behind a load balancer each scrape would reach any one of them)."""
    probes = Probes(
        cpu=cpu_seconds or (lambda: float("nan")),
        commits=commits or (lambda: float("nan")),
        no_op=no_op,
        metrics_urls=metrics_urls or [base_url],
    )
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
    with own_collections_kept_out(freeze=own_objects_frozen) as own_pauses:
        figures = await _play(base_url, bots_by_table, rounds, ramp, think, probes)
    figures["own_pauses"] = own_pauses
    return figures


@dataclass(frozen=True)
class Probes:
    """What ``run_load`` reads of the server besides the players' answers."""

    cpu: Callable[[], float]
    commits: Callable[[], float]
    no_op: str
    metrics_urls: list[str]


async def _play(  # noqa: PLR0917 - run_load's own arguments, passed on
    base_url: str,
    bots_by_table: list[list[Bot]],
    rounds: int,
    ramp: float,
    think: float,
    probes: Probes,
) -> dict[str, Any]:
    """The timed part of ``run_load``: the no-op's reference, the bots' play, the audit."""
    tables = len(bots_by_table)
    cpu, count, no_op = probes.cpu, probes.commits, probes.no_op
    cpu_before_reference = cpu()
    reference_before = await reference_latency(base_url, NO_OPS, no_op)
    cpu_reference = cpu() - cpu_before_reference
    commits_before = count()
    metrics_before = await scrape_histograms(probes.metrics_urls)
    started = time.perf_counter()
    cpu_before = cpu()
    lags: list[float] = []
    probe = asyncio.ensure_future(loop_lag(lags))
    await asyncio.gather(
        *(
            play_table(base_url, bots, rounds, timeout=600, start_after=ramp * number / tables)
            for number, bots in enumerate(bots_by_table)
        )
    )
    elapsed = time.perf_counter() - started
    probe.cancel()
    server_stages = stages_between(metrics_before, await scrape_histograms(probes.metrics_urls))
    cpu_play = cpu() - cpu_before
    commits_play = count() - commits_before
    reference_after = await reference_latency(base_url, 200, no_op)
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
        "no_op": no_op,
        "errors": errors,
        "retries": sum(bot.retries for bot in all_bots),
        "reconnects": sum(bot.reconnects for bot in all_bots),
        "ledger_sum": audit["sum"],
        "ledger_problems": audit["problems"],
        "timeline": timeline,
        "steady_requests": len(steady),
        "steady_p50": percentile(steady, 0.5),
        "steady_p99": percentile(steady, 0.99),
        "max": max(latencies, default=float("nan")),
        "server_stages": server_stages,
        "loop_lag_p99": percentile(lags, 0.99),
        "loop_lag_max": max(lags, default=float("nan")),
    }


STAGES = (
    "croupier_command_stage_duration_seconds",
    "croupier_gc_pause_seconds",
    "croupier_push_latency_seconds",
    "http_server_request_duration_seconds",
)
"""The server's own histograms (``GET /metrics``; a commit from before they existed has
none, and prints none): where a command's time went, its collections' pauses, its pushes,
and each route's requests from the first byte in to the last out, which tells the time a
player waited in the server from the time spent on the way (the loopback, the load
generator's own loop)."""

Buckets = dict[tuple[str, str], list[tuple[float, float]]]


async def scrape_histograms(urls: list[str]) -> Buckets:
    """``STAGES``' cumulative buckets by (histogram, label), added up over the processes at
    ``urls``: ``[(upper bound, count)]``."""
    counts: dict[tuple[str, str], dict[float, float]] = {}
    async with httpx.AsyncClient(timeout=30) as client:
        for url in urls:
            answer = await client.get(f"{url}/metrics")
            if answer.status_code == 200:
                _add_buckets(counts, answer.text)
    return {key: sorted(bucket.items()) for key, bucket in counts.items()}


def _add_buckets(counts: dict[tuple[str, str], dict[float, float]], exposition: str) -> None:
    """Add one process's ``STAGES`` buckets (its ``/metrics`` text) to ``counts``."""
    from prometheus_client.parser import text_string_to_metric_families

    wanted = (f for f in text_string_to_metric_families(exposition) if f.name in STAGES)
    for family in wanted:
        for sample in family.samples:
            label = _label(family.name, sample.labels)
            if not sample.name.endswith("_bucket") or label is None:
                continue
            bucket = counts.setdefault((family.name, label), {})
            bound = float(sample.labels["le"])
            bucket[bound] = bucket.get(bound, 0.0) + sample.value


def _label(histogram: str, labels: dict[str, str]) -> str | None:
    """A series' name in the report: its stage, its generation, ``push``, or its route (a
    route's statuses added up; ``None`` for the scrape's own ``GET /metrics``)."""
    if histogram == "http_server_request_duration_seconds":
        route = labels["http_route"]
        return None if route == "/metrics" else f"{labels['http_request_method']} {route}"
    if histogram == "croupier_push_latency_seconds":
        return "push"
    return labels.get("stage") or f"generation {labels['generation']}"


def stages_between(before: Buckets, after: Buckets) -> dict[str, tuple[float, float, float]]:
    """Each stage's (count, p50, p99) over the run, from the buckets' growth; a quantile is
    interpolated within its bucket as Prometheus' ``histogram_quantile`` does."""
    figures = {}
    for key, buckets in sorted(after.items()):
        earlier = dict(before.get(key, []))
        grown = [(bound, count - earlier.get(bound, 0.0)) for bound, count in sorted(buckets)]
        total = grown[-1][1]
        if total:
            figures[key[1]] = (total, quantile(grown, 0.5), quantile(grown, 0.99))
    return figures


def quantile(cumulative: list[tuple[float, float]], fraction: float) -> float:
    rank = fraction * cumulative[-1][1]
    lower_bound, lower_count = 0.0, 0.0
    for bound, count in cumulative:
        if count >= rank:
            if bound == float("inf"):
                return lower_bound
            return lower_bound + (bound - lower_bound) * (rank - lower_count) / max(
                count - lower_count, 1e-12
            )
        lower_bound, lower_count = bound, count
    return lower_bound


def stages_lines(figures: dict[str, Any]) -> list[str]:
    """The server's own account of where the time went, beside the players' latencies."""
    stages = figures.get("server_stages") or {}
    if not stages:
        return []
    cells = [
        f"{name} {count:.0f}x p50 {p50 * 1000:.2f} p99 {p99 * 1000:.1f}"
        for name, (count, p50, p99) in stages.items()
    ]
    return ["server's own timings (ms, from its /metrics histograms): " + "; ".join(cells)]


LAG_PERIOD = 0.005


async def loop_lag(lags: list[float]) -> None:
    """How late the load generator's own event loop wakes a task that sleeps ``LAG_PERIOD``:
    every bot's answer waits that long to be read once it has arrived, so a player's latency
    above includes it (a real player's browser has a loop of its own)."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_PERIOD)
        lags.append(time.perf_counter() - asked - LAG_PERIOD)


def by_request(figures: dict[str, Any]) -> list[str]:
    """p50/p99 of each kind of player request (the path's last part: bets, ready, actions),
    where a p99 over the whole run would not say which action is slow."""
    latencies: dict[str, list[float]] = {}
    for kind, _start, latency in figures["timeline"]:
        latencies.setdefault(kind, []).append(latency)
    return [
        f"  {kind}: {len(values)} requests, p50 {percentile(values, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(values, 0.99) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
        for kind, values in sorted(latencies.items())
    ]


def report(figures: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"players {figures['players']} at {figures['tables']} tables, {figures['rounds']} rounds in "
            f"{figures['elapsed']:.1f} s: {figures['rounds_per_second']:.1f} rounds/s",
            f"player requests: {figures['requests']}, p50 {figures['p50'] * 1000:.1f} ms, "
            f"p99 {figures['p99'] * 1000:.1f} ms, max {figures['max'] * 1000:.1f} ms",
            f"  steady state (every table started): {figures['steady_requests']} requests, p50 "
            f"{figures['steady_p50'] * 1000:.1f} ms, p99 {figures['steady_p99'] * 1000:.1f} ms",
            *by_request(figures),
            f"no-op reference (GET {figures['no_op']}): p50 {figures['reference_p50'] * 1000:.2f} ms, p99 "
            f"{figures['reference_p99'] * 1000:.2f} ms -> player p50 = "
            f"{figures['p50'] / figures['reference_p50']:.1f}x, p99 = "
            f"{figures['p99'] / figures['reference_p99']:.1f}x the reference",
            f"server CPU per player request {figures['cpu_per_request'] * 1000:.2f} ms (pushes "
            f"to every seat's WebSocket included), per no-op request "
            f"{figures['reference_cpu_per_request'] * 1000:.2f} ms -> "
            f"{figures['cpu_per_request'] / figures['reference_cpu_per_request']:.1f}x",
            f"errors: {len(figures['errors'])} (dropped connections and 503s retried: {figures['retries']}; "
            f"sockets reconnected: {figures.get('reconnects', 0)}); ledger sum {figures['ledger_sum']}, problems "
            f"{len(figures['ledger_problems'])}; rounds recallable {figures['rounds_recalled']}/{figures['rounds']}",
            *stages_lines(figures),
            own_delays_line(figures),
        ]
    )


def own_delays_line(figures: dict[str, Any]) -> str:
    """The load generator's own delays during the run, which the latencies above include:
    its full collections (each delayed every request in flight by its length) and its event
    loop's lag."""
    pauses = figures["own_pauses"]
    longest = f", longest {max(pauses) * 1000:.1f} ms" if pauses else ""
    return (
        f"load generator's own delays: {len(pauses)} full collections{longest}; its event "
        f"loop's lag p99 {figures['loop_lag_p99'] * 1000:.1f} ms, max "
        f"{figures['loop_lag_max'] * 1000:.1f} ms"
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


def one_run(
    arguments: argparse.Namespace, profiles: list[str], source: Path | None = None
) -> tuple[str, dict[str, Any]]:
    """The load on a fresh database, served by this tree or by ``source`` (another checkout's
    ``src``): the database's name and the figures."""
    with tempfile.TemporaryDirectory() as folder:
        database = arguments.database or f"sqlite:///{folder}/load.sqlite"
        if database == "postgresql":
            database = fresh_postgres_schema()
        server = ServerProcess(
            database, log_path=Path(folder) / "serve.log", source=source, start_timeout=300
        )
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
                    own_objects_frozen=not arguments.own_objects_unfrozen,
                )
            )
        except Exception:
            print((Path(folder) / "serve.log").read_text()[-3000:])
            raise
        finally:
            server.stop()
    return database.split("?")[0], figures


@contextlib.contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """``revision`` checked out in a temporary ``git worktree``, removed afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tree"
        git = ["git", "-C", str(REPO), "worktree"]
        subprocess.run([*git, "add", "--quiet", "--detach", str(path), revision], check=True)
        try:
            yield path
        finally:
            subprocess.run([*git, "remove", "--force", str(path)], check=True)


def load_average() -> str:
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def side_by_side(runs: dict[str, list[dict[str, Any]]]) -> str:
    """Each commit's medians over its runs (and the range of the CPU ratio), in columns."""
    rows = [
        ("server CPU per player request (ms)", lambda f: f["cpu_per_request"] * 1000),
        (f"server CPU per no-op GET {NO_OP} (ms)", lambda f: f["reference_cpu_per_request"] * 1000),
        (
            "CPU ratio player / no-op",
            lambda f: f["cpu_per_request"] / f["reference_cpu_per_request"],
        ),
        ("player p50 (ms)", lambda f: f["p50"] * 1000),
        ("player p99 (ms)", lambda f: f["p99"] * 1000),
        ("steady-state p99 (ms)", lambda f: f["steady_p99"] * 1000),
        ("rounds/s", lambda f: f["rounds_per_second"]),
        ("errors", lambda f: float(len(f["errors"]))),
    ]
    labels = list(runs)
    lines = [
        f"{'medians over ' + str(len(runs[labels[0]])) + ' runs each':<42}"
        + "".join(f"{label:>16}" for label in labels)
    ]
    for title, value in rows:
        cells = "".join(
            f"{statistics.median(value(f) for f in runs[label]):16.2f}" for label in labels
        )
        lines.append(f"{title:<42}{cells}")
    ranges = "".join(
        f"{min(ratio):7.1f}-{max(ratio):<8.1f}"
        for ratio in (
            [f["cpu_per_request"] / f["reference_cpu_per_request"] for f in runs[label]]
            for label in labels
        )
    )
    lines.append(f"{'CPU ratio, lowest-highest run':<42} {ranges}")
    return "\n".join(lines)


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
    parser.add_argument(
        "--against",
        metavar="REV",
        action="append",
        default=[],
        help="also run REV's server (a temporary git worktree), alternating with this tree's; "
        "may be given more than once",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of each (this tree's, then REV's, ...)"
    )
    parser.add_argument(
        "--own-objects-unfrozen",
        action="store_true",
        help="leave this process's own objects to its collector during the run (the latencies "
        "then include its full collections: to see what freezing them keeps out)",
    )
    arguments = parser.parse_args()
    from croupier.server.app import playable_profiles

    profiles = arguments.profiles.split(",") if arguments.profiles else playable_profiles()
    here = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    edited = subprocess.run(
        ["git", "-C", str(REPO), "status", "--porcelain", "src"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with contextlib.ExitStack() as stack:
        sources: dict[str, Path | None] = {f"this ({here}{'+edits' if edited else ''})": None}
        for revision in arguments.against:
            sources[revision] = stack.enter_context(worktree(revision)) / "src"
        runs: dict[str, list[dict[str, Any]]] = {label: [] for label in sources}
        labels = list(sources)
        for repeat in range(arguments.repeat):
            # Each round of runs starts one server later (this, REV; then REV, this: ABBA over
            # two repeats), so a load that grows or fades through the run, or whatever the
            # first server of a round meets, does not always fall on the same one.
            shift = repeat % len(labels)
            for label in labels[shift:] + labels[:shift]:
                source = sources[label]
                before = load_average()
                database, figures = one_run(arguments, profiles, source)
                runs[label].append(figures)
                print(
                    f"--- {label}; database: {database}, think time {arguments.think} s, tables "
                    f"start over {arguments.ramp} s; {before} before, {load_average()} after"
                )
                print(report(figures))
                for error in figures["errors"][:10]:
                    print("  error:", error)
    if len(sources) > 1 or arguments.repeat > 1:
        print(side_by_side(runs))


if __name__ == "__main__":
    main()
