"""Players for a real ``croupier serve`` process: start it, sign players up, play rounds.

Used by the load benchmark (``benchmarks/load.py``), its short form in CI, and the kill -9
recovery test. A bot plays whatever game its table runs: it bets the table minimum on each
of its seats, says ready, and answers each decision put to it with the regulation's
default or (when ``bold``) the first legal action - it knows no game's rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

OPERATOR_TOKEN = "operator-token-for-bots-0123456789"
RETRY_SECONDS = 20.0
"""How long a bot retries a request refused with 503 or dropped (``Bot._post``)."""
WAGERS = {"blackjack": "main", "baccarat": "banker", "casino-holdem": "ante"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    database_url: str
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)
    log_path: Path | None = None
    code_manifest: Path | None = None
    """R17's code manifest, when a test checks it; by default no check: a benchmark runs for
    minutes from a working tree that its author may be editing meanwhile."""
    rate_limit: str = "100000/minute"
    """Load signs hundreds of players up and in from 127.0.0.1: the per-address limit is
    raised here; ``sign_in_flood.py`` runs with the real default."""
    bootstrap: str = ""
    """Python statements the server process runs before ``croupier serve`` starts (a
    benchmark's counters, e.g. ``audit_chain_cost.py``'s commit count); none by default."""
    source: Path | None = None
    start_timeout: float = 60.0
    """Seconds to wait for the server to answer after starting it (a benchmark on a loaded
    machine may wait longer)."""
    """Another checkout's ``src`` folder to serve from (``load.py --against``: an older commit
    in the same run); by default the installed package."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *extra: str) -> None:
        command = [
            sys.executable,
            "-c",
            f"{self.bootstrap}\nfrom croupier.cli.main import main; main()",
            "serve",
            "--port",
            str(self.port),
            "--database",
            self.database_url,
            "--operator-token",
            OPERATOR_TOKEN,
            "--no-demo-tables",
            *self._checks(),
            *extra,
        ]
        env = {**os.environ, **self.env}
        if self.source is not None:
            env["PYTHONPATH"] = str(self.source)
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"croupier serve exited with {self.process.returncode}")
            try:
                # Live, not ready: a test may start it on purpose where a probe fails. A 404
                # answers too: a checkout from before ``/health/live`` (``source``) is up.
                if httpx.get(f"{self.url}/health/live", timeout=1).status_code in (200, 404):
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"croupier serve did not answer within {self.start_timeout:.0f} s")

    def _checks(self) -> list[str]:
        """The code check's and rate limits' options, those that the served checkout's
        ``croupier serve`` has (a ``source`` from before them has neither)."""
        served = self.source or Path(__file__).resolve().parents[1] / "src"
        declared = (served / "croupier" / "cli" / "serve_command.py").read_text(encoding="utf-8")
        options = []
        if "code_check:" in declared:
            options += (
                ["--code-manifest", str(self.code_manifest)]
                if self.code_manifest
                else ["--no-code-check"]
            )
        if "rate_limit:" in declared:
            options += ["--rate-limit", self.rate_limit, "--token-rate-limit", self.rate_limit]
        return options

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs (R10)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server process has used so far (Linux /proc): a cost
        that other load on the machine disturbs far less than latency."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def headers(token: str, key: bool = True) -> dict[str, str]:
    result = {"Authorization": f"Bearer {token}"}
    if key:
        result["Idempotency-Key"] = uuid.uuid4().hex
    return result


async def operator_post(
    client: httpx.AsyncClient, path: str, body: dict[str, Any]
) -> dict[str, Any]:
    answer = await client.post(path, json=body, headers=headers(OPERATOR_TOKEN))
    answer.raise_for_status()
    result: dict[str, Any] = answer.json()
    return result


async def create_table(
    client: httpx.AsyncClient,
    name: str,
    profile: str,
    betting: float = 30.0,
    deciding: float = 30.0,
) -> int:
    body = {
        "name": name,
        "profile": profile,
        "betting_seconds": betting,
        "decision_seconds": deciding,
    }
    answer = await operator_post(client, "/operator/tables", body)
    table: int = answer["table"]
    return table


async def new_player(client: httpx.AsyncClient, name: str, credit_minor: int) -> str:
    password = f"password-of-{name}"
    body = {"username": name, "password": password}
    (await client.post("/auth/signup", json=body)).raise_for_status()
    answer = await client.post("/auth/signin", json=body)
    answer.raise_for_status()
    await operator_post(client, f"/operator/wallets/{name}/credit", {"amount": credit_minor})
    token: str = answer.json()["token"]
    return token


@dataclass
class Bot:
    """One player at one table, on the given seats."""

    name: str
    token: str
    table: int
    seats: list[int]
    wager: str
    stake: int = 1
    bold: bool = False
    think: float = 0.0
    """Seconds a player takes before each move (uniform in 0.5x..1.5x): 0 is a stress test."""
    latencies: list[float] = field(default_factory=list)
    timeline: list[tuple[str, float, float]] = field(default_factory=list)
    """(request kind, start on the monotonic clock, latency) of every timed request."""
    errors: list[str] = field(default_factory=list)
    rounds_bet: set[int] = field(default_factory=set)
    retries: int = 0
    reconnects: int = 0
    """Times its table's socket closed and it connected again (the table moved)."""
    sat_again: int = 0
    """Times it found its seat freed (rounds missed: D-GEN-15) and sat down again."""

    async def _post(
        self, client: httpx.AsyncClient, path: str, body: dict[str, Any]
    ) -> httpx.Response:
        """POST with one idempotency key; a dropped connection, or a 503 while the table
        moves between processes (``table_moved``, issue 29), is retried with the same key (R8
        makes the retry safe), as a real client would, for up to ``RETRY_SECONDS``: a table
        whose owner died moves within its lease and a pass (about 6 s), so a bot that gave up
        sooner left its round unbet (and, in the chaos run, its table idle for good). The
        latency counts every attempt."""
        request_headers = headers(self.token)
        started = time.perf_counter()
        while True:
            last_try = time.perf_counter() - started > RETRY_SECONDS
            try:
                answer = await client.post(path, json=body, headers=request_headers)
            except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ConnectError):
                self.retries += 1
                if last_try:
                    raise
                await asyncio.sleep(0.2)
                continue
            if answer.status_code != 503 or last_try:
                break
            self.retries += 1
            await asyncio.sleep(0.2)
        latency = time.perf_counter() - started
        self.latencies.append(latency)
        self.timeline.append((path.rsplit("/", 1)[-1], started, latency))
        return answer

    async def sit(self, client: httpx.AsyncClient) -> None:
        """Take the seats (not counted in the action latencies: it happens once, all at once)."""
        for seat in self.seats:
            for _ in range(50):  # again after a 503: the table is moving between processes
                answer = await client.post(
                    f"/tables/{self.table}/seats/{seat}", json={}, headers=headers(self.token)
                )
                if answer.status_code != 503:
                    break
                await asyncio.sleep(0.2)
            answer.raise_for_status()

    async def _think(self) -> None:
        if self.think:
            await asyncio.sleep(self.think * (0.5 + (time.perf_counter_ns() % 1000) / 1000))

    async def on_state(
        self, client: httpx.AsyncClient, state: dict[str, Any], rounds_left: int
    ) -> None:
        current = state["round"]
        if (
            current["status"] == "betting"
            and current["id"] not in self.rounds_bet
            and rounds_left > 0
        ):
            self.rounds_bet.add(current["id"])
            await self._think()
            for seat in self.seats:
                answer = await self._post(
                    client,
                    f"/tables/{self.table}/bets",
                    {"seat": seat, "wager": self.wager, "amount": self.stake},
                )
                if answer.status_code != 200:
                    self.errors.append(f"bet: {answer.status_code} {answer.text}")
                    # Bet again at the round's next state, as a player would (not yet again
                    # after a 409: the state moved on, and says so next).
                    if answer.status_code != 409:
                        self.rounds_bet.discard(current["id"])
                    return
            answer = await self._post(client, f"/tables/{self.table}/ready", {})
            if answer.status_code != 200:
                self.errors.append(f"ready: {answer.status_code} {answer.text}")
        pending = current.get("pending")
        if current["status"] == "playing" and pending and pending["seat"] in self.seats:
            await self._think()
            action = pending["legal"][0] if self.bold else pending["default"]
            answer = await self._post(
                client, f"/tables/{self.table}/actions", {"seat": pending["seat"], "action": action}
            )
            if answer.status_code not in (200, 409):  # 409: the state moved on meanwhile
                self.errors.append(f"act: {answer.status_code} {answer.text}")


async def play_table(
    base_url: str, bots: list[Bot], rounds: int, timeout: float = 120, start_after: float = 0.0
) -> None:
    """The bots at one table each bet in ``rounds`` rounds and play them out, driven by the
    table's WebSocket (each bot reacts to the state pushed to it). They sit down
    ``start_after`` seconds from now (players arrive over time, not all in one instant)."""
    await asyncio.sleep(start_after)
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        for bot in bots:
            await bot.sit(client)
        ws_url = base_url.replace("http", "ws")
        deadline = time.monotonic() + timeout

        async def drive(bot: Bot) -> None:
            url = f"{ws_url}/tables/{bot.table}/ws?token={bot.token}"
            while time.monotonic() < deadline:
                try:
                    async with websockets.connect(url, max_size=None) as socket_:
                        while time.monotonic() < deadline:
                            try:
                                message = await asyncio.wait_for(socket_.recv(), timeout=2)
                            except TimeoutError:
                                continue
                            state = json.loads(message)
                            if state.get("type") != "state":
                                continue  # a reality check (issue 27): a bot reads none
                            current = state["round"]
                            if (
                                len(bot.rounds_bet) >= rounds
                                and current["id"] not in bot.rounds_bet
                            ):
                                return
                            await bot.on_state(client, state, rounds - len(bot.rounds_bet))
                except websockets.ConnectionClosed:
                    # Its table moved to another process (several processes: issue 29); the
                    # page reconnects, and so does a bot, to the state as it is.
                    bot.reconnects += 1
            bot.errors.append("timed out")

        await asyncio.gather(*(drive(bot) for bot in bots))


@contextlib.contextmanager
def own_collections_kept_out(freeze: bool = True) -> Iterator[list[float]]:
    """The load generator's own garbage collections kept out of the latencies it measures;
    yields the seconds each full collection of its own took meanwhile (``freeze=False``: the
    same count without the cure, ``load.py --own-objects-unfrozen``).

    Every bot runs in this one process's event loop, so a pause of this process is a pause
    of every request in flight, counted as the server's. Its full collections scanned the
    220-250 thousand objects it had made by then (httpx, websockets, the profiles read) and
    took 106-141 ms each (``load.py --own-objects-unfrozen`` prints them: an Intel Xeon,
    2026-12-06): about as long as the players' p99 it was measuring. Frozen before the run,
    those objects are not scanned again; what the run itself makes is collected as ever."""
    gc.collect()
    if freeze:
        gc.freeze()
    pauses: list[float] = []
    started = 0.0

    def timing(phase: str, info: dict[str, int]) -> None:
        nonlocal started
        if phase == "start":
            started = time.perf_counter()
        elif info["generation"] == 2:
            pauses.append(time.perf_counter() - started)

    gc.callbacks.append(timing)
    try:
        yield pauses
    finally:
        gc.callbacks.remove(timing)
        gc.unfreeze()


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def reference_latency(
    base_url: str, samples: int = 300, path: str = "/health/live"
) -> list[float]:
    """A no-op request's latency (``GET path``): what any request costs on this machine."""
    times = []
    async with httpx.AsyncClient(base_url=base_url) as client:
        for _ in range(samples):
            started = time.perf_counter()
            answer = await client.get(path)
            if answer.is_error:
                answer.raise_for_status()
            times.append(time.perf_counter() - started)
    return times


def summary(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5) * 1000:.1f} ms, p99 {percentile(values, 0.99) * 1000:.1f} ms, "
        f"mean {statistics.fmean(values) * 1000:.1f} ms"
        if values
        else "no samples"
    )
