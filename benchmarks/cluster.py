"""Several ``croupier serve`` processes on one PostgreSQL behind HAProxy (issue 29, item 5).

``uv run python benchmarks/cluster.py [--processes 1 2 3] [--players 100] [--tables 15]
[--rounds 10] [--think 1] [--ramp 5]``: the same load (``load.py``'s bots) through HAProxy in
front of 1, 2 and 3 processes, each on a fresh database (schema), printed side by side: p50
and p99 per player action, rounds per second, errors, ledger sum and rounds recallable.

``uv run python benchmarks/cluster.py --hop [--samples 300]``: the forwarding hop's cost, a
table's reads and writes sent to its owner and to another process, interleaved.

``uv run python benchmarks/cluster.py --chaos [--kills 200] [--stops 200] [--tables 6]``:
three processes under load while random owners are killed (kill -9, then started again) or
stopped (SIGSTOP past their lease, then SIGCONT); prints each fail-over's time (p50, p99,
max: from the signal until each of the victim's tables is leased by another live process and
answers), and at the end: rounds dealt twice (two complete rounds from one shoe position),
the ledger's sum and problems, ``croupier audit verify``, every round recallable, how
many commands were refused by the fence or while a table moved (503 ``table_moved``), and
the commits by a stale owner: a trigger installed in the run's schema notes every commit
that wrote a round while the table's lease named another process (``STALE_WATCH``). Those
are what the fence prevents, and nothing else here sees them: with the fence switched off
(``TableLeases.fence`` a no-op in the servers), three SIGSTOPs gave 22 such commits while
the ledger still summed to 0, the chain verified and no round was dealt twice. Ctrl-C ends
the events early and still checks the record.

HAProxy comes from Debian's package (``apt-get install haproxy``; ``deploy/cluster.sh``
installs it). The PostgreSQL server is the tests' (``tools/pg_cluster.py``), Redis is not
needed here (the bots follow their own tables' sockets through the process that owns them).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import websockets
from rich.progress import track
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import pg_cluster
from bots import (
    OPERATOR_TOKEN,
    WAGERS,
    Bot,
    ServerProcess,
    create_table,
    free_port,
    headers,
    new_player,
)
from bots import percentile as pct
from load import report, run_load

LEASE_SECONDS = 5.0
PROFILES = ["veintiuno-real", "dragon-six-peru-2016", "casino-holdem-peru-2007"]
OWNERS = text(
    "SELECT l.table_id, p.address FROM table_leases l JOIN serve_processes p "
    "ON p.owner = l.owner WHERE l.expires_at > clock_timestamp() "
    "AND p.expires_at > clock_timestamp()"
)
STALE_WATCH = [
    "CREATE TABLE stale_commits (table_id integer, round_id integer, writer text, "
    "lease_owner text, lease_epoch integer, at timestamptz DEFAULT clock_timestamp())",
    """CREATE FUNCTION note_stale_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        writer text := substring(current_setting('application_name') from 'pid [0-9]+');
        holder record;
    BEGIN
        IF writer IS NULL THEN RETURN NULL; END IF;
        SELECT owner, epoch INTO holder FROM table_leases WHERE table_id = NEW.table_id;
        IF holder.owner IS NULL OR position(writer || ' ' in holder.owner) = 0 THEN
            INSERT INTO stale_commits (table_id, round_id, writer, lease_owner, lease_epoch)
            VALUES (NEW.table_id, NEW.id, writer, holder.owner, holder.epoch);
        END IF;
        RETURN NULL;
    END $$""",
    "CREATE CONSTRAINT TRIGGER stale_commit AFTER INSERT OR UPDATE ON rounds "
    "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION note_stale_commit()",
]
"""The chaos run's independent check that no stale owner commits (issue 29): at each commit
that wrote a round (a constraint trigger deferred to the commit, after the fence), the
table's lease must name the committing process, which each server names by its pid
(``PGAPPNAME``, ``NAMED_BY_PID``); one that does not is noted in ``stale_commits``, and
survives only if that commit went through. Installed in the run's own schema only."""
NAMED_BY_PID = "import os; os.environ['PGAPPNAME'] = f'croupier serve pid {os.getpid()}'"
"""Each server's PostgreSQL connections say which process they are (libpq reads
``PGAPPNAME`` at each connect; the leases' own connections name themselves by owner)."""
DEALT_TWICE = text(
    "SELECT count(*) FROM (SELECT shoe_id, start_position FROM rounds WHERE status = 'complete' "
    "GROUP BY shoe_id, start_position HAVING count(*) > 1) AS twice"
)


ERRORS = Path(__file__).resolve().parents[1] / "deploy" / "errors"
"""HAProxy's own refusals as the servers' error document (``deploy/cluster.sh`` uses them too)."""


ROUTING_BY_TABLE = [
    "    http-request del-header X-Croupier-Forwarded",
    '    http-request set-var(txn.table) "path,regsub('
    r"'^/(dealer/|operator/)?tables?/([0-9]+)(/.*)?','\\2')" + '"',
]
"""The frontend's lines that name the table a request is for (``deploy/cluster.sh`` says why)."""
BALANCE_BY_TABLE = ["    balance hash var(txn.table)", "    hash-type consistent"]
"""The backend's: every request of one table to one process (its lease follows them)."""


def haproxy_config(port: int, servers: list[ServerProcess], folder: Path) -> Path:
    """The same configuration as ``deploy/cluster.sh`` writes."""
    lines = [
        "global",
        "    maxconn 4000",
        "defaults",
        "    mode http",
        "    option forwardfor",
        "    timeout connect 5s",
        "    timeout client 60s",
        "    timeout server 60s",
        "    timeout tunnel 1h",
        *(f"    errorfile {status} {ERRORS / f'{status}.http'}" for status in (502, 503, 504)),
        "frontend croupier",
        f"    bind 127.0.0.1:{port}",
        *ROUTING_BY_TABLE,
        "    default_backend processes",
        "backend processes",
        *BALANCE_BY_TABLE,
        "    option httpchk GET /health/ready",
        "    http-check expect status 200",
        "    timeout check 5s",
        "    default-server inter 1s fall 3 rise 1",
        *(f"    server c{n} 127.0.0.1:{s.port} check" for n, s in enumerate(servers)),
    ]
    path = folder / "haproxy.cfg"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    with pg_cluster.schema_of_its_own(pg_cluster.server_url(), prefix="cluster") as url:
        yield url


@contextlib.contextmanager
def cluster(
    url: str, processes: int, folder: Path, bootstrap: str = ""
) -> Iterator[tuple[str, list[ServerProcess]]]:
    """``processes`` servers on ``url`` behind HAProxy; yields HAProxy's URL and the servers."""
    servers = [
        ServerProcess(
            url, log_path=folder / f"serve-{n}.log", start_timeout=180, bootstrap=bootstrap
        )
        for n in range(processes)
    ]
    haproxy: subprocess.Popen[bytes] | None = None
    try:
        # The first alone (it migrates the schema), then the others together.
        servers[0].start("--lease-seconds", str(LEASE_SECONDS))
        with ThreadPoolExecutor(max(1, processes - 1)) as pool:
            list(pool.map(lambda s: s.start("--lease-seconds", str(LEASE_SECONDS)), servers[1:]))
        port = free_port()
        config = haproxy_config(port, servers, folder)
        haproxy = subprocess.Popen(["haproxy", "-f", str(config)], stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/health/ready", timeout=2).status_code == 200:
                    break
            time.sleep(0.2)
        yield base, servers
    finally:
        if haproxy is not None:
            haproxy.terminate()
            haproxy.wait(10)
        for server in servers:
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()


FORWARDING_COUNTERS = (
    "croupier_requests_forwarded_total",
    "croupier_table_leases_handed_over_total",
)
"""Each process's: what the hop cost (requests and sockets sent on to a table's owner), and
what removed it (tables that followed their requests, ``service.leases``)."""


def counted(servers: list[ServerProcess], names: tuple[str, ...]) -> dict[str, float]:
    """Each counter of ``names`` summed over the servers' ``/metrics``."""
    totals = dict.fromkeys(names, 0.0)
    for server in servers:
        with contextlib.suppress(httpx.HTTPError):
            for line in httpx.get(server.url + "/metrics", timeout=10).text.splitlines():
                name, _, value = line.partition(" ")
                if name in totals:
                    totals[name] += float(value)
    return totals


def cpu_of(servers: list[ServerProcess]) -> float:
    total = 0.0
    for server in servers:
        with contextlib.suppress(OSError, AssertionError):
            total += server.cpu_seconds()
    return total


def scaling(args: argparse.Namespace) -> None:
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()}")
    results = {}
    for processes in args.processes:
        with (
            fresh_schema() as url,
            tempfile.TemporaryDirectory() as folder,
            cluster(url, processes, Path(folder)) as (base, servers),
        ):
            figures = asyncio.run(
                run_load(
                    base,
                    args.players,
                    args.tables,
                    args.rounds,
                    PROFILES,
                    think=args.think,
                    ramp=args.ramp,
                    cpu_seconds=lambda servers=servers: cpu_of(servers),  # type: ignore[misc]
                    metrics_urls=[server.url for server in servers],
                )
            )
            moved = counted(servers, FORWARDING_COUNTERS)
        results[processes] = figures
        print(f"\n--- {processes} process(es) behind HAProxy, PostgreSQL ---")
        print(report(figures))
        print(
            f"requests forwarded to their table's owner: {moved[FORWARDING_COUNTERS[0]]:.0f} "
            f"(of {len(figures['timeline'])} timed player requests); tables handed to the process "
            f"their requests reach: {moved[FORWARDING_COUNTERS[1]]:.0f}"
        )
        by_kind: dict[str, list[float]] = {}
        for kind, _start, latency in figures["timeline"]:
            by_kind.setdefault(kind, []).append(latency)
        for kind, values in sorted(by_kind.items()):
            print(
                f"  {kind}: {len(values)} requests, p50 {pct(values, 0.5) * 1000:.1f} ms, "
                f"p99 {pct(values, 0.99) * 1000:.1f} ms"
            )
        for error in sorted(set(figures["errors"]))[:5]:
            print(f"  error: {error[:200]}")
    print("\nprocesses  rounds/s  p50 ms  p99 ms  errors")
    for processes, figures in results.items():
        print(
            f"{processes:>9}  {figures['rounds_per_second']:8.2f}  {figures['p50'] * 1000:6.1f}"
            f"  {figures['p99'] * 1000:6.1f}  {len(figures['errors']):6}"
        )
    print(f"load average after: {os.getloadavg()}")


# --- chaos ------------------------------------------------------------------------------------
async def drive(base: str, bot: Bot, stop: asyncio.Event) -> None:
    """``bot`` plays until ``stop``, reconnecting whenever its socket closes (the table moved,
    or the process it reached died): as the pages do."""
    ws_url = base.replace("http", "ws") + f"/tables/{bot.table}/ws?token={bot.token}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        while not stop.is_set():
            try:
                async with websockets.connect(ws_url, max_size=None) as socket_:
                    while not stop.is_set():
                        try:
                            message = await asyncio.wait_for(socket_.recv(), timeout=1)
                        except TimeoutError:
                            continue
                        state = json.loads(message)
                        # A session over an hour old gets its reality check (issue 27) on
                        # the socket: a bot reads none (one ended the full chaos run's load).
                        if state.get("type") != "state":
                            continue
                        if state["table"]["seats"].get(str(bot.seats[0])) != bot.name:
                            # Freed after rounds missed while its table moved (D-GEN-15): a
                            # player sits down again, and so does a bot, or its table idles.
                            await sit(client, bot)
                            bot.sat_again += 1
                            continue
                        await bot.on_state(client, state, 10**9)
            except (OSError, websockets.WebSocketException, httpx.HTTPError):
                bot.reconnects += 1
                await asyncio.sleep(0.3)
            except Exception as error:  # one bot's surprise must not end the load
                bot.errors.append(f"bot: {error!r}")
                await asyncio.sleep(1)


async def sit(client: httpx.AsyncClient, bot: Bot) -> None:
    """Take the bot's seat, again after a 503 (its table is moving between processes)."""
    for _ in range(100):
        answer = await client.post(
            f"/tables/{bot.table}/seats/{bot.seats[0]}", json={}, headers=headers(bot.token)
        )
        if answer.status_code != 503:
            break
        await asyncio.sleep(0.2)
    answer.raise_for_status()


def owners(url: str) -> dict[int, str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return {int(t): str(a) for t, a in connection.execute(OWNERS)}
    finally:
        engine.dispose()


SLOW_MOVE_SECONDS = 7.0
"""A fail-over still waiting this long after its event is looked into (``why_slow``)."""
BUSY_SESSIONS = text(
    "SELECT a.application_name, a.state, "
    "extract(epoch FROM clock_timestamp() - a.xact_start), "
    "extract(epoch FROM clock_timestamp() - a.state_change), a.wait_event_type, a.wait_event, "
    "left(regexp_replace(a.query, '\\s+', ' ', 'g'), 90) FROM pg_stat_activity a "
    "WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() "
    "AND a.state IS DISTINCT FROM 'idle' ORDER BY a.xact_start"
)
WAITING_LEASES = text(
    "SELECT l.table_id, l.owner, l.epoch, extract(epoch FROM l.expires_at - clock_timestamp()) "
    "FROM table_leases l WHERE l.table_id = ANY(CAST(:tables AS integer[])) ORDER BY 1"
)


def stopped(pid: int, within: float = 1.0) -> bool:
    """Whether process ``pid`` is stopped (``T`` in ``/proc``) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        if state == "T":
            return True
        time.sleep(0.01)
    return False


def why_slow(url: str, tables: set[int]) -> list[str]:
    """What holds a slow fail-over back, as the database sees it: each waiting table's lease
    (owner, epoch, seconds left) and every session in a transaction or a statement (whose,
    its state and for how long, how long its transaction has been open, what it waits for,
    its last statement).
    The record of the chaos runs' slow SIGSTOP moves (docs/benchmarks.md)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            leases = connection.execute(WAITING_LEASES, {"tables": sorted(tables)}).all()
            sessions = connection.execute(BUSY_SESSIONS).all()
    finally:
        engine.dispose()
    lines = [
        f"  lease {t}: {owner} epoch {epoch}, {left:+.1f} s left"
        for t, owner, epoch, left in leases
    ]
    lines += [
        f"  session {name[:40]!r} {state} {since or 0:.1f} s (xact {age or 0:.1f} s) "
        f"waits {kind}/{what}: {query}"
        for name, state, age, since, kind, what, query in sessions
    ]
    return lines


def chaos(args: argparse.Namespace) -> None:
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()}")
    rng = random.Random(args.seed)
    with (
        fresh_schema() as url,
        tempfile.TemporaryDirectory() as folder,
        cluster(url, 3, Path(folder), bootstrap=NAMED_BY_PID) as (base, servers),
    ):
        watching = create_engine(url)
        with watching.begin() as connection:
            for statement in STALE_WATCH:
                connection.exec_driver_sql(statement)
        watching.dispose()
        bots: list[Bot] = []

        async def seat_players() -> None:
            async with httpx.AsyncClient(base_url=base, timeout=60) as client:
                for number in range(args.tables):
                    profile = PROFILES[number % len(PROFILES)]
                    from croupier.rules.registry import load_profile

                    rules = load_profile(profile)
                    table = await create_table(client, f"chaos-{number}", profile, 5.0, 5.0)
                    for seat in (1, 2):
                        name = f"c{number}x{seat}"
                        token = await new_player(client, name, 10_000_000)
                        wager = WAGERS[rules.game]
                        bot = Bot(
                            name, token, table, [seat], wager,
                            stake=rules.table.wagers[wager].minimum, think=0.3,
                        )  # fmt: skip
                        await sit(client, bot)
                        bots.append(bot)

        asyncio.run(seat_players())
        stop = asyncio.Event()
        loop = asyncio.new_event_loop()

        async def play() -> None:
            await asyncio.gather(*(drive(base, bot, stop) for bot in bots))

        playing = threading.Thread(target=loop.run_until_complete, args=(play(),))
        playing.start()
        fail_overs: list[float] = []
        events = ["kill"] * args.kills + ["stop"] * args.stops
        rng.shuffle(events)
        by_url = {server.url: server for server in servers}
        events_began = time.time()
        try:
            time.sleep(5)
            for number, kind in enumerate(events, start=1):
                held = owners(url)
                candidates = sorted(set(held.values()) & set(by_url))
                if not candidates:
                    time.sleep(1)
                    continue
                victim = by_url[rng.choice(candidates)]
                tables = [t for t, a in held.items() if a == victim.url]
                assert victim.process is not None
                hit = time.monotonic()
                if kind == "kill":
                    victim.kill()
                else:
                    victim.process.send_signal(signal.SIGSTOP)
                    if not stopped(victim.process.pid):
                        print(f"{victim.url} (pid {victim.process.pid}) is not stopped 1 s on")
                waiting = set(tables)
                looked_into = False
                while waiting and time.monotonic() - hit < 60:
                    if not looked_into and time.monotonic() - hit > SLOW_MOVE_SECONDS:
                        looked_into = True
                        print(f"slow {kind} of {victim.url}: still waiting for {sorted(waiting)}")
                        print("\n".join(why_slow(url, waiting)), flush=True)
                    now_held = owners(url)
                    for table in list(waiting):
                        address = now_held.get(table)
                        if address is not None and address != victim.url:
                            waiting.discard(table)
                            fail_overs.append(time.monotonic() - hit)
                    time.sleep(0.05)
                if kind == "kill":
                    victim.start("--lease-seconds", str(LEASE_SECONDS))
                else:
                    victim.process.send_signal(signal.SIGCONT)
                print(
                    f"{number}/{len(events)} {kind} of {victim.url}: {len(tables)} tables "
                    f"moved, slowest {max(fail_overs[-len(tables) :] or [0]):.2f} s",
                    flush=True,
                )
                time.sleep(args.pause)
        except KeyboardInterrupt:  # Ctrl-C: stop the events, keep the record's checks
            print(f"interrupted: {len(fail_overs)} fail-overs so far; checking the record")
            for server in servers:
                if server.process is not None and server.process.poll() is None:
                    server.process.send_signal(signal.SIGCONT)
        finally:
            events_ended = time.time()
            loop.call_soon_threadsafe(stop.set)
            playing.join(60)
        # --- the record ------------------------------------------------------------------
        engine = create_engine(url)
        with engine.connect() as connection:
            dealt_twice = connection.execute(DEALT_TWICE).scalar_one()
            round_ids = list(
                connection.execute(
                    text("SELECT id FROM rounds WHERE status NOT IN ('betting', 'playing')")
                ).scalars()
            )
            ended_at = list(
                connection.execute(
                    text("SELECT ended_at FROM rounds WHERE ended_at IS NOT NULL")
                ).scalars()
            )
            under_way = connection.execute(
                text("SELECT count(*) FROM rounds WHERE status IN ('betting', 'playing')")
            ).scalar_one()
            stale = connection.execute(
                text("SELECT table_id, round_id, writer, lease_owner FROM stale_commits")
            ).all()
            watched = connection.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE "
                    "'croupier serve pid %'"
                )
            ).scalar_one()
        engine.dispose()
        auth = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        audit = httpx.get(base + "/operator/audit", headers=auth, timeout=60).json()
        # One client: ``httpx.get`` builds a TLS context for every call (its CA file read),
        # which made the recall of 14,392 rounds take a quarter of an hour.
        with httpx.Client(headers=auth, timeout=60) as recalling:
            recalled = sum(
                recalling.get(f"{base}/rounds/{r}").status_code == 200
                for r in track(round_ids, description="rounds recalled")
            )
        verified = subprocess.run(
            [sys.executable, "-c", "from croupier.cli.main import main; main()",
             "audit", "verify", "--database", url],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        errors = [error for bot in bots for error in bot.errors]
        moved = sum("table_moved" in error for error in errors)
        complete = sum(1 for bot in bots for _ in bot.rounds_bet)
        print(f"\nchaos: {args.kills} kill -9s and {args.stops} SIGSTOPs of random owners")
        print(
            f"fail-overs: {len(fail_overs)} tables moved, p50 {pct(fail_overs, 0.5):.2f} s, "
            f"p99 {pct(fail_overs, 0.99):.2f} s, max {max(fail_overs, default=0):.2f} s "
            f"(leases of {LEASE_SECONDS:g} s)"
        )
        print(f"rounds dealt twice: {dealt_twice}")
        print(
            f"commits of a round by a process not holding its table's lease: {len(stale)} "
            f"(a trigger at each commit; {watched} server connections named by pid at the end)"
        )
        for row in stale[:8]:
            print(f"  stale: {tuple(row)}")
        print(
            f"commands refused while a table moved (503 table_moved): {moved}; other "
            f"errors: {len(errors) - moved}; bets placed by bots: {complete}"
        )
        print(f"ledger sum {audit['sum']}, problems {len(audit['problems'])}")
        print(f"croupier audit verify: exit {verified.returncode}")
        print(f"rounds recallable: {recalled}/{len(round_ids)} ended ({under_way} under way)")
        # The load must last as long as the events: rounds ended in each tenth of their span.
        span = max(events_ended - events_began, 1e-9)
        tenths = [0] * 10
        for at in ended_at:
            if events_began <= at <= events_ended:
                tenths[min(9, int(10 * (at - events_began) / span))] += 1
        print(f"rounds ended in each tenth of the events' {span / 60:.0f} minutes: {tenths}")
        print(
            f"bots: {sum(b.retries for b in bots)} requests retried, "
            f"{sum(b.reconnects for b in bots)} sockets reconnected, "
            f"{sum(b.sat_again for b in bots)} seats taken again after being freed"
        )
        for error in sorted({error[:160] for error in errors})[:8]:
            print(f"  error: {error}")
    print(f"load average after: {os.getloadavg()}")


def hop(args: argparse.Namespace) -> None:
    """The forwarding hop's cost: the same reads and writes of one table sent to its owner
    and to another process (which forwards them), interleaved, in one run."""
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()}")
    with (
        fresh_schema() as url,
        tempfile.TemporaryDirectory() as folder,
        cluster(url, 2, Path(folder)) as (_base, servers),
    ):
        owner, other = servers
        auth = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        body = {"name": "hop", "profile": PROFILES[0], "betting_seconds": 600,
                "decision_seconds": 600}  # fmt: skip
        table = httpx.post(owner.url + "/operator/tables", json=body,
                           headers={**auth, "Idempotency-Key": uuid.uuid4().hex}).json()["table"]  # fmt: skip
        times: dict[tuple[str, str], list[float]] = {}
        with httpx.Client(timeout=30) as client:
            for number in range(args.samples):
                for where, server in (("owner", owner), ("forwarded", other)):
                    for kind in ("read", "write"):
                        started = time.perf_counter()
                        if kind == "read":
                            answer = client.get(f"{server.url}/tables/{table}", headers=auth)
                        else:  # open an open table: a command through the whole path
                            answer = client.post(
                                f"{server.url}/operator/tables/{table}/open",
                                headers={**auth, "Idempotency-Key": f"hop-{where}-{number}"},
                            )
                        answer.raise_for_status()
                        times.setdefault((kind, where), []).append(time.perf_counter() - started)
    for (kind, where), values in sorted(times.items()):
        print(
            f"{kind:5} {where:9}: p50 {pct(values, 0.5) * 1000:.2f} ms, "
            f"p99 {pct(values, 0.99) * 1000:.2f} ms"
        )
    print(f"load average after: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--tables", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--ramp", type=float, default=5.0)
    parser.add_argument("--chaos", action="store_true")
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--stops", type=int, default=200)
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between two events")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--hop", action="store_true", help="the forwarding hop's cost")
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    if args.hop:
        hop(args)
    elif args.chaos:
        chaos(args)
    else:
        scaling(args)


if __name__ == "__main__":
    main()
