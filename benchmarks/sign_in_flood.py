"""A sign-in flood from one address against real players' latency (issue 10, item 6).

``uv run python benchmarks/sign_in_flood.py [--players 12] [--tables 4] [--rounds 4]
[--think 0.3] [--flood-rate 36] [--repeats 2]``

One ``croupier serve`` process per configuration: its real default rate limit, then no
limit at all (``--rate-limit 1000000/minute``, as the server was before issue 10). In each,
players at live tables (each signed up from an address of their own, 127.n.n.n) play
``rounds`` rounds in phases taken in turn (``repeats`` of each): quietly, and while a client at 127.0.0.2 sends wrong
passwords for a real player's name at ``flood-rate`` a second (36 by default: the rate at
which issue 10 saw players' p99 go from 17 ms to 772 ms). Prints, for each,
the players' p50/p99 without and with the flood in the same run (and as a ratio), the no-op
reference latency measured in the same run, and what the flood met (how many answers were
401, how many 429). On a loaded machine only the ratios mean anything.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
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
    headers,
    percentile,
    play_table,
    reference_latency,
)

FLOOD_ADDRESS = "127.0.0.2"
"""The attacker's address: loopback too (all of 127/8 is), but not the players'."""


def client_at(base_url: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base_url, transport=transport, timeout=60)


async def seat_players(  # noqa: PLR0917 - one call per phase
    base_url: str, tables: int, players: int, profile_name: str, think: float, serial: int
) -> list[list[Bot]]:
    """Tables, and players each signed up and in from an address of their own."""
    from croupier.rules.registry import load_profile

    profile = load_profile(profile_name)
    wager = WAGERS[profile.game]
    per_table = min(max(1, players // tables), profile.table.seats)
    by_table = []
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as operator:
        for number in range(tables):
            table = await create_table(operator, f"flood-{serial}-{number}", profile_name)
            bots = []
            for seat in range(1, per_table + 1):
                name = f"f{serial}x{number}x{seat}"
                login = {"username": name, "password": f"password-of-{name}"}
                host = f"127.{serial}.{number}.{seat + 1}"
                async with client_at(base_url, host) as own:
                    (await own.post("/auth/signup", json=login)).raise_for_status()
                    answer = await own.post("/auth/signin", json=login)
                    answer.raise_for_status()
                credit = await operator.post(
                    f"/operator/wallets/{name}/credit",
                    json={"amount": 10_000_000},
                    headers=headers(OPERATOR_TOKEN),
                )
                credit.raise_for_status()
                stake = profile.table.wagers[wager].minimum
                bots.append(
                    Bot(name, answer.json()["token"], table, [seat], wager, stake, think=think)
                )
            by_table.append(bots)
    return by_table


async def flood(
    base_url: str, victim: str, rate: float, stop: asyncio.Event, met: Counter[int]
) -> None:
    """Wrong passwords for ``victim`` at ``rate`` a second (open loop: each is sent on its
    schedule, whatever the answers before it)."""
    async with client_at(base_url, FLOOD_ADDRESS) as attacker:

        async def once() -> None:
            body = {"username": victim, "password": "not the password"}
            try:
                met[(await attacker.post("/auth/signin", json=body)).status_code] += 1
            except httpx.HTTPError:
                met[0] += 1  # no answer

        sent: set[asyncio.Task[None]] = set()
        started = time.perf_counter()
        count = 0
        while not stop.is_set():
            count += 1
            task = asyncio.create_task(once())
            sent.add(task)
            task.add_done_callback(sent.discard)
            await asyncio.sleep(max(0.0, started + count / rate - time.perf_counter()))
        await asyncio.gather(*sent)


async def play(
    base_url: str, by_table: list[list[Bot]], rounds: int, flood_rate: float
) -> dict[str, Any]:
    stop = asyncio.Event()
    met: Counter[int] = Counter()
    victim = by_table[0][0].name
    attackers = (
        [asyncio.create_task(flood(base_url, victim, flood_rate, stop, met))] if flood_rate else []
    )
    started = time.perf_counter()
    await asyncio.gather(*(play_table(base_url, bots, rounds, timeout=600) for bots in by_table))
    elapsed = time.perf_counter() - started
    stop.set()
    await asyncio.gather(*attackers)
    latencies = [value for bots in by_table for bot in bots for value in bot.latencies]
    errors = [error for bots in by_table for bot in bots for error in bot.errors]
    return {
        "latencies": latencies,
        "errors": errors,
        "flood": dict(met),
        "flood_per_second": sum(met.values()) / elapsed,
    }


async def measure(
    server: ServerProcess, arguments: argparse.Namespace, profile: str
) -> dict[str, Any]:
    """Quiet and flooded phases in turn (``--repeats`` of each), each at fresh tables with
    fresh players, so that the machine's other load falls on both alike."""
    base_url = server.url
    reference = await reference_latency(base_url, 200)
    phases: dict[str, list[dict[str, Any]]] = {"quiet": [], "flooded": []}
    for repeat in range(arguments.repeats):
        for kind, rate in (("quiet", 0.0), ("flooded", arguments.flood_rate)):
            serial = 2 * repeat + (kind == "flooded") + 1
            bots = await seat_players(
                base_url, arguments.tables, arguments.players, profile, arguments.think, serial
            )
            phases[kind].append(await play(base_url, bots, arguments.rounds, flood_rate=rate))
    reference += await reference_latency(base_url, 200)
    async with httpx.AsyncClient(base_url=base_url) as client:
        audit = (
            await client.get(
                "/operator/audit", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
            )
        ).json()

    def merged(runs: list[dict[str, Any]]) -> dict[str, Any]:
        latencies = [value for run in runs for value in run["latencies"]]
        met: Counter[int] = Counter()
        for run in runs:
            met.update(run["flood"])
        return {
            "requests": len(latencies),
            "p50": percentile(latencies, 0.5),
            "p99": percentile(latencies, 0.99),
            "errors": [error for run in runs for error in run["errors"]],
            "flood": dict(met),
            "flood_per_second": statistics.fmean(run["flood_per_second"] for run in runs),
        }

    return {
        "quiet": merged(phases["quiet"]),
        "flooded": merged(phases["flooded"]),
        "reference_p99": percentile(reference, 0.99),
        "audit": audit,
    }


def report(label: str, figures: dict[str, Any]) -> str:
    quiet, flooded = figures["quiet"], figures["flooded"]
    met = flooded["flood"]
    return "\n".join(
        [
            f"{label}:",
            f"  players without flood: {quiet['requests']} requests, p50 "
            f"{quiet['p50'] * 1000:.1f} ms, p99 {quiet['p99'] * 1000:.1f} ms",
            f"  players during flood:  {flooded['requests']} requests, p50 "
            f"{flooded['p50'] * 1000:.1f} ms, p99 {flooded['p99'] * 1000:.1f} ms"
            f"  -> p99 with / without flood = {flooded['p99'] / quiet['p99']:.2f}x",
            f"  no-op reference p99 {figures['reference_p99'] * 1000:.1f} ms; players' p99 = "
            f"{quiet['p99'] / figures['reference_p99']:.1f}x (quiet), "
            f"{flooded['p99'] / figures['reference_p99']:.1f}x (flood) the reference",
            f"  the flood: {flooded['flood_per_second']:.1f} sign-ins/s from {FLOOD_ADDRESS}, "
            f"answers {dict(sorted(met.items()))} (429 = refused before any Argon2 work)",
            f"  player errors: {len(quiet['errors']) + len(flooded['errors'])}; ledger sum "
            f"{figures['audit']['sum']}, problems {len(figures['audit']['problems'])}",
        ]
    )


def main() -> None:
    from croupier.server.rate_limits import DEFAULT_RATE_LIMIT

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=2, help="quiet and flooded phases each")
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument(
        "--flood-rate",
        type=float,
        default=36.0,
        help="wrong sign-ins a second (36: the rate issue 10 measured at 772 ms p99)",
    )
    parser.add_argument("--profile", default="spain-1979")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for label, limit in (
            (f"default rate limit ({DEFAULT_RATE_LIMIT} per address)", DEFAULT_RATE_LIMIT),
            ("no rate limit (as before issue 10)", "1000000/minute"),
        ):
            database = f"sqlite:///{folder}/{abs(hash(label))}.sqlite"
            server = ServerProcess(database, rate_limit=limit)
            server.start()
            try:
                figures = asyncio.run(measure(server, arguments, arguments.profile))
            finally:
                server.stop()
            print(report(label, figures), flush=True)


if __name__ == "__main__":
    main()
