"""The fail safe (RELIABILITY R17; GLI-19 2.3.2 and 3.3.3): no bet is taken while the server
cannot deal fairly or record what it deals.

Three faults engage it, each found by a probe that runs at start, every ``interval`` seconds
while the server runs, and at once when a command fails for a reason that is not the client's:

- ``entropy``: the OS cryptographic source (``secrets``, ``os.urandom``) raises, or repeats
  itself. Live shoes are seeded from it (R1), so no new shoe may be made.
- ``database``: a fresh connection to the database cannot be opened or cannot read it (the
  server is down, refuses connections, or the file is gone).
- ``code``: the installed code differs from its recorded SHA-256 manifest (``integrity``).
- ``tables``: this process no longer holds the claim on a SQLite database's tables
  (``service.claim``: its claim file replaced); another process may run them now. (On
  PostgreSQL each table command is fenced by its lease instead, ``service.leases``: a
  renewal that lags makes the process not ready, and stops nothing.)

While any fault stands, every table command is refused with ``FailSafeEngaged`` (the HTTP
edge answers 503 with ``Retry-After`` and the reasons), and so is every staff command that
posts to the ledger (credits, debits, dispute and correction decisions:
``commands.MOVES_MONEY``, refused by ``Casino.handle``), deadlines are not applied, and each round in flight is shown as
``interrupted``: its stakes stay in escrow, where the ledger already holds them, and nothing
moves. Engaging, each refusal and clearing are logged. When
every probe passes again the fail safe clears by itself: the database connections are renewed,
each table is rebuilt from the database, each round in flight resumes with its deadline given
its full time again (the outage is not the player's delay), and play goes on.

>>> safe = FailSafe({Fault.ENTROPY: lambda: None})
>>> safe.check()
[]
>>> safe.engage(Fault.ENTROPY, "the source raised OSError")
True
>>> safe.verify_clear()
Traceback (most recent call last):
...
croupier.service.fail_safe.FailSafeEngaged: tables take no bets until this clears (fail safe): entropy: the random number source failed
>>> safe.check()  # the probe passes again
[<Fault.ENTROPY: 'entropy'>]
>>> safe.is_engaged
False
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from croupier import integrity
from croupier.errors import CroupierError
from croupier.service.claim import ClaimLost, TablesClaim
from croupier.service.models import IN_PROGRESS, RoundStatus

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from croupier.service.live import LiveTable
    from croupier.service.tables import Casino

log = logging.getLogger("croupier.fail_safe")


class Fault(StrEnum):
    ENTROPY = "entropy"
    DATABASE = "database"
    CODE = "code"
    TABLES = "tables"


class FaultFound(Exception):  # noqa: N818 - what a probe reports
    """Raised by a probe: the reason the fault stands."""


PUBLIC_REASONS = {
    Fault.ENTROPY: "the random number source failed",
    Fault.DATABASE: "the database is unavailable",
    Fault.CODE: "the installed software differs from its recorded hashes",
    Fault.TABLES: "this server no longer holds its tables",
}
"""What a client is told. The full reason (a file name, a database host) goes to the log only:
it would tell an attacker about the server."""


class FailSafeEngaged(CroupierError):  # noqa: N818 - the domain's own word
    """The fail safe is engaged: tables take no bets until every fault clears (R17). The
    message says which faults stand in public words; ``faults`` has the full reasons."""

    code = "fail_safe"

    def __init__(self, faults: dict[Fault, str], retry_after: int) -> None:
        self.faults = dict(faults)
        self.retry_after = retry_after
        super().__init__(
            "tables take no bets until this clears (fail safe): "
            + "; ".join(f"{fault}: {PUBLIC_REASONS[fault]}" for fault in sorted(self.faults)),
            seconds=retry_after,
        )

    def public(self) -> dict[str, str]:
        return {str(fault): PUBLIC_REASONS[fault] for fault in sorted(self.faults)}


Probe = Callable[[], None]


# --- the probes -------------------------------------------------------------------------------
def entropy_probe() -> Probe:
    """Draw from the OS source the way live play does; a raise or a repeat is a fault."""
    last: list[bytes] = []

    def probe() -> None:
        try:
            sample = secrets.token_bytes(32) + secrets.randbits(64).to_bytes(8, "big")
        except Exception as error:
            raise FaultFound(
                f"the OS entropy source failed ({type(error).__name__}: {error})"
            ) from None
        if sample in last or len(set(sample)) < 8:
            raise FaultFound("the OS entropy source repeats itself")
        last[:] = [sample]

    return probe


def database_probe(url: str, timeout_seconds: float = 2.0) -> Probe:
    """Open a fresh connection (never a pooled one) and read the schema's revision."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            return lambda: None  # an in-memory database lives as long as the process
        # mode=rw: a missing file is a fault, not a new empty database.
        probe_url = f"sqlite:///file:{parsed.database}?mode=rw&uri=true"
        connect_args: dict[str, Any] = {"timeout": timeout_seconds}
    else:
        probe_url = url
        connect_args = {"connect_timeout": max(1, math.ceil(timeout_seconds))}
    engine = create_engine(probe_url, poolclass=NullPool, connect_args=connect_args)

    def probe() -> None:
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except Exception as error:
            reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
            raise FaultFound(f"the database is unavailable ({reason})") from None

    return probe


def code_probe(manifest: Path, root: Path = integrity.PACKAGE_ROOT) -> Probe:
    def probe() -> None:
        try:
            integrity.verify(manifest, root)
        except integrity.CodeIntegrityError as error:
            raise FaultFound(str(error)) from None

    return probe


def claim_probe(claim: TablesClaim) -> Probe:
    """This process still holds the tables' claim (``service.claim``; issue 25, item 1)."""

    def probe() -> None:
        try:
            claim.check()
        except ClaimLost as lost:
            raise FaultFound(str(lost)) from None

    return probe


def at_most_every(seconds: float, probe: Probe) -> Probe:
    """``probe`` run at most once per ``seconds`` (its last outcome stands between runs): for a
    probe that costs more than the others, such as hashing every file of the code."""
    last: list[tuple[float, FaultFound | None]] = []

    def probe_now_and_then() -> None:
        now = time.monotonic()
        if not last or now - last[0][0] >= seconds:
            try:
                probe()
                last[:] = [(now, None)]
            except FaultFound as found:
                last[:] = [(now, found)]
        outcome = last[0][1]
        if outcome is not None:
            raise FaultFound(str(outcome))

    return probe_now_and_then


# --- the fail safe ----------------------------------------------------------------------------
class FailSafe:
    """The faults standing now, the probes that find them, and what engaging and clearing do."""

    def __init__(
        self,
        probes: dict[Fault, Probe] | None = None,
        *,
        interval: float = 1.0,
        on_engaged: Callable[[], None] | None = None,
        on_cleared: Callable[[], None] | None = None,
    ) -> None:
        self.probes = dict(probes or {})
        self.interval = interval
        self.faults: dict[Fault, str] = {}
        self.refused = 0
        self.engaged_at: float | None = None
        self.on_engaged = on_engaged
        self.on_cleared = on_cleared
        self._lock = threading.Lock()
        self._checking = threading.Lock()
        self._checked_at = -math.inf

    @property
    def is_engaged(self) -> bool:
        return bool(self.faults)

    @property
    def retry_after(self) -> int:
        """Seconds a refused client should wait: the next probe comes within ``interval``."""
        return max(1, math.ceil(self.interval))

    def refusal(self) -> FailSafeEngaged:
        return FailSafeEngaged(self.faults, self.retry_after)

    def verify_clear(self, what: str = "table command") -> None:
        """Raise ``FailSafeEngaged`` (and log the refusal) while any fault stands."""
        if not self.faults:
            return
        with self._lock:
            self.refused += 1
        refusal = self.refusal()
        log.info("refused a %s: fail safe engaged (%s)", what, ", ".join(refusal.public()))
        raise refusal

    def engage(self, fault: Fault, reason: str) -> bool:
        """Record ``fault``; ``True`` if it is new (logged, and tables interrupted on the first).
        A standing fault whose reason reads differently is updated without a new log line."""
        with self._lock:
            known = fault in self.faults
            first = not self.faults
            self.faults[fault] = reason
            if known:
                return False
            if first:
                self.engaged_at, self.refused = time.monotonic(), 0
        log.error("fail safe engaged: %s: %s; tables take no bets", fault, reason)
        if first and self.on_engaged is not None:
            self.on_engaged()
        return True

    def check(self) -> list[Fault]:
        """Run every probe: engage what fails, clear what passes; returns the faults cleared."""
        with self._checking:
            self._checked_at = time.monotonic()
            cleared = []
            for fault, probe in self.probes.items():
                try:
                    probe()
                except FaultFound as found:
                    self.engage(fault, str(found))
                    continue
                if fault in self.faults:
                    cleared.append(fault)
            if cleared:
                self._clear(cleared)
            return cleared

    def _clear(self, cleared: list[Fault]) -> None:
        for fault in cleared:
            log.warning("fail safe: %s fault cleared", fault)
        if set(self.faults) - set(cleared):
            with self._lock:
                for fault in cleared:
                    self.faults.pop(fault, None)
            return
        # The last fault: the tables are rebuilt while commands are still refused, so the
        # first bet taken again meets a table exactly as the database holds it.
        if self.on_cleared is not None:
            try:
                self.on_cleared()
            except Exception as error:  # the tables could not be rebuilt: not clear yet
                log.exception("fail safe: the tables could not be resumed")
                with self._lock:
                    self.faults = {Fault.DATABASE: f"the tables could not be reloaded ({error})"}
                return
        with self._lock:
            lasted = time.monotonic() - (self.engaged_at or time.monotonic())
            refused, self.engaged_at = self.refused, None
            # Logged before the faults clear: whoever sees play resume finds the record of the
            # fault's end already written (a test under load read the log in between).
            log.warning(
                "fail safe cleared after %.1f s: %d commands refused meanwhile; play resumes",
                lasted,
                refused,
            )
            self.faults = {}

    def refusal_for(self, error: BaseException) -> FailSafeEngaged | None:
        """After a command failed with ``error``: if it was not the client's fault, probe at
        once, and answer with the refusal when a fault is found (else ``None``)."""
        if isinstance(error, FailSafeEngaged):
            return error
        if isinstance(error, CroupierError) or not isinstance(error, Exception):
            return None
        if self.faults and time.monotonic() - self._checked_at < self.interval:
            return self.refusal()  # probed moments ago: many failing requests, one probe
        self.check()
        return self.refusal() if self.faults else None

    def watch(self, stop: threading.Event) -> None:
        """Probe every ``interval`` seconds until ``stop`` is set (the server's watch thread)."""
        while not stop.wait(self.interval):
            try:
                self.check()
            except Exception:  # the watch must keep running; the failure is logged
                log.exception("fail safe probe failed")


# --- what it does to the tables -----------------------------------------------------------------
def interrupt_tables(casino: Casino, safe: FailSafe) -> None:
    """Show every table as stopped and each round in flight as ``interrupted``; its stakes
    stay in escrow. Only what readers see changes: nothing is written (the database may be
    the fault), so the round resumes from its record when the fault clears."""
    reasons = safe.refusal().public()
    for live in list(casino.tables.values()):
        published = live.published
        if published is None:
            continue
        round_state = dict(published["round"])
        if round_state["status"] in IN_PROGRESS and (
            round_state["stakes"] or round_state["status"] == RoundStatus.PLAYING
        ):
            round_state["status"] = str(RoundStatus.INTERRUPTED)
        round_state["deadline"] = None
        round_state["fail_safe"] = reasons
        table_state = {**published["table"], "fail_safe": reasons}
        stopped = {key: value for key, value in published.items() if key != "encoded"}
        live.published = {**stopped, "round": round_state, "table": table_state}
        casino.broadcaster.publish(live.id)


def resume_tables(casino: Casino) -> None:
    """After the fault: fresh database connections, every table rebuilt from the database,
    and each round's deadline given its full time again, stored (a betting window that ran
    out meanwhile is no round missed, docs/rules.md#D-GEN-15; a restart finds it so)."""
    casino.uow.dispose()
    now = casino.clock.now()
    for table_id in list(casino.tables):
        casino.reload(table_id)
        live = casino.tables.get(table_id)
        if live is None:  # its lease was lost meanwhile (``service.leases``)
            continue
        with live.lock:
            if live.deadline is not None:
                seconds = (
                    live.betting_seconds if live.game_round.is_betting else live.decision_seconds
                )
                live.deadline = now + seconds
                casino.uow.run(partial(_save_fenced, casino, live))
        casino.publish(live)


def _save_fenced(casino: Casino, live: LiveTable, session: Session) -> None:
    casino.rounds.save(session, live)
    casino.leases.fencing.verify(session, live.id)  # issue 29: still this process's table


def install(
    casino: Casino,
    *,
    database_url: str,
    code_manifest: Path | None,
    claim: TablesClaim | None = None,
    interval: float = 1.0,
) -> FailSafe:
    """The fail safe of a server: its probes, checked once now (at start), wired to the tables."""
    probes: dict[Fault, Probe] = {
        Fault.ENTROPY: entropy_probe(),
        Fault.DATABASE: database_probe(database_url),
    }
    if claim is not None:
        probes[Fault.TABLES] = claim_probe(claim)
    if code_manifest is not None:
        if integrity.ensure_manifest(code_manifest):
            log.warning("first start: recorded the code's SHA-256 manifest in %s", code_manifest)
        # Hashing every file costs about as much as the other probes together a hundred
        # times over: the code is checked at start and then every 30 probe intervals.
        probes[Fault.CODE] = at_most_every(30 * interval, code_probe(code_manifest))
    safe = FailSafe(probes, interval=interval)
    safe.on_engaged = lambda: interrupt_tables(casino, safe)
    safe.on_cleared = lambda: resume_tables(casino)
    casino.fail_safe = safe
    safe.check()
    return safe
