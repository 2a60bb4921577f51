"""One process runs the tables of a database (issue 25, item 1): the claim that says which.

Two server processes on one database both dealt every table: the same shoe position twice,
two seat lists, a round resumed by the wrong process with its stakes left in escrow. Until
tables can be shared between processes (issue 29: per-table leases with fencing), the server
claims the whole database before it migrates or loads anything (``claim_tables``, this
module's one entry point), holds the claim as long as it runs, and a second server on the
same database refuses to start, naming the holder (host, pid, since when).

How, and why so:

- **PostgreSQL: a session advisory lock on a dedicated connection**
  (``pg_try_advisory_lock``, keyed by the schema the tables live in). PostgreSQL itself
  guarantees that two sessions never hold it at once, and frees it the moment the holder's
  session ends: a kill -9 closes the holder's socket and its backend exits at once, with no
  manual step and no lease to wait out. A holder whose *host* vanishes (power, network) is
  noticed by TCP keepalives set on both ends of that connection (the server's
  ``tcp_keepalives_*`` for the session, libpq's ``keepalives*`` and ``tcp_user_timeout`` on
  ours), within about 15 seconds. The holder checks its connection and its lock with the
  fail safe's probes (R17): a lost connection stops its tables (the ``tables`` fault; rounds
  in flight become interrupted, stakes stay in escrow) until it holds the lock again. The
  alternative, a lease row with an epoch checked in every command's transaction, also fences
  off a holder that has not yet noticed its loss, but it needs a schema change, a renewal
  thread and a check in every command path; that is what issue 29's per-table leases bring,
  and they will replace this module. Until then the window is the fail safe's probe interval
  (1 s) after a connection loss that the holder's other connections survive. The holder's
  name is the dedicated connection's ``application_name``; its start is that session's
  ``backend_start`` (``pg_stat_activity``), so nothing is written to hold the claim. Connect
  directly, not through a pooler in transaction mode: a session lock needs its session.
- **SQLite: an OS lock** (``flock``) on a file beside the database
  (``croupier.sqlite.tables-claim``), held through one open file for the life of the process;
  the kernel frees it when the process dies however it dies. The file records the holder for
  the refusal; it is never deleted (deleting a locked file would let a second process lock a
  new one), and a holder whose file was replaced under it has lost the claim (the probe).
- An in-memory SQLite database lives inside its process: nothing to claim.

>>> claim = claim_tables("sqlite://")
>>> claim.check()  # held for as long as the process lives
>>> claim.release()
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from croupier.errors import CroupierError

KEEPALIVE_IDLE_SECONDS = 5
KEEPALIVE_INTERVAL_SECONDS = 2
KEEPALIVE_COUNT = 3
"""A dead peer is noticed after 5 + 2 x 3 = 11 s of silence, by either end."""

USER_TIMEOUT_MILLISECONDS = 10_000
"""libpq's ``tcp_user_timeout``: a check sent to a server that no longer answers fails after
10 s rather than waiting for the kernel's retransmissions (minutes)."""

APPLICATION_PREFIX = "croupier serve"


class TablesClaimed(CroupierError):  # noqa: N818 - the domain's own word
    """Another process runs the tables of this database; the message names it."""

    code = "tables_claimed"


class ClaimLost(CroupierError):  # noqa: N818 - the domain's own word
    """This process no longer holds the tables' claim (its connection or lock file is gone)."""

    code = "tables_claim_lost"


@dataclass(frozen=True)
class Holder:
    """The process that holds a database's tables: its host, pid and since when."""

    host: str
    pid: int
    since: float

    @classmethod
    def this_process(cls) -> Holder:
        return cls(socket.gethostname(), os.getpid(), time.time())

    def describe(self) -> str:
        since = datetime.fromtimestamp(self.since, UTC).isoformat(timespec="seconds")
        return f"host {self.host}, pid {self.pid}, since {since}"


def _refusal(database: str, holder: str) -> TablesClaimed:
    return TablesClaimed(
        f"the tables of {database} are run by another croupier serve ({holder}): one process "
        "runs the tables of a database (docs/operations.md); stop it first"
    )


class TablesClaim:
    """The claim held by this process; ``check`` raises ``ClaimLost`` once it is not."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.holder = Holder.this_process()

    def check(self) -> None:
        """Nothing held to lose (an in-memory database)."""

    def release(self) -> None:
        """Give the claim up (at shutdown); a process that dies releases it all the same."""


class _FileClaim(TablesClaim):
    """SQLite: ``flock`` on ``<database>.tables-claim``, through one open file."""

    def __init__(self, database: str, path: Path) -> None:
        super().__init__(database)
        self.path = path
        self._fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            recorded = self._recorded_holder()
            self._close()
            raise _refusal(database, recorded) from None
        except BaseException:
            self._close()
            raise
        try:
            record = json.dumps(
                {"host": self.holder.host, "pid": self.holder.pid, "since": self.holder.since}
            ).encode()
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, record, 0)
            os.fsync(self._fd)
        except OSError as error:  # a full or read-only disk: named by the file
            self._close()
            raise OSError(error.errno, error.strerror, str(path)) from None
        except BaseException:
            self._close()
            raise
        self._inode = os.fstat(self._fd).st_ino

    def _recorded_holder(self) -> str:
        # The holder writes its record just after it locks: a start at that instant may read
        # an empty file, so read a few times before saying the record is missing.
        assert self._fd is not None
        for _ in range(20):
            raw = os.pread(self._fd, 4096, 0)
            try:
                found = json.loads(raw)
                return Holder(
                    str(found["host"]), int(found["pid"]), float(found["since"])
                ).describe()
            except (ValueError, KeyError, TypeError):
                time.sleep(0.05)
        return f"its record in {self.path} is unreadable"

    def check(self) -> None:
        if self._fd is None:
            raise ClaimLost(f"the tables' claim on {self.database} was released")
        try:
            current = os.stat(self.path).st_ino
        except OSError as error:
            raise ClaimLost(f"the claim file {self.path} is gone ({error.strerror})") from None
        if current != self._inode:
            raise ClaimLost(f"the claim file {self.path} was replaced: another process may lock it")

    def _close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # the kernel drops the flock with the last descriptor
            self._fd = None

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)  # no stale record left for the next holder's refusal
        self._close()


def _advisory_key(schema: str) -> int:
    """The lock's 64-bit key: the schema's name, hashed (advisory locks are per database)."""
    digest = hashlib.sha256(f"croupier tables {schema}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


HOLDER_QUERY = text(
    "SELECT a.pid, a.application_name, host(a.client_addr) AS client, a.backend_start "
    "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND l.classid = CAST(:high AS oid) AND l.objid = CAST(:low AS oid)"
)


class _AdvisoryClaim(TablesClaim):
    """PostgreSQL: a session advisory lock on a connection of its own."""

    def __init__(self, database: str, url: str) -> None:
        super().__init__(database)
        name = f"{APPLICATION_PREFIX} {self.holder.host} pid {self.holder.pid}"
        self._engine = create_engine(
            url,
            poolclass=NullPool,
            connect_args={
                "application_name": name[:63],
                "connect_timeout": 10,
                "keepalives": 1,
                "keepalives_idle": KEEPALIVE_IDLE_SECONDS,
                "keepalives_interval": KEEPALIVE_INTERVAL_SECONDS,
                "keepalives_count": KEEPALIVE_COUNT,
                "tcp_user_timeout": USER_TIMEOUT_MILLISECONDS,
            },
        )
        self._url = url
        self._key = 0
        self._connection: Connection | None = None
        try:
            if not self._take():
                raise _refusal(database, self._holder_elsewhere())
        except BaseException:
            self._drop()
            self._engine.dispose()
            raise

    def _take(self) -> bool:
        """Open the dedicated connection and try the lock; ``True`` when it is ours."""
        connection = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        self._connection = connection
        # The server's side of the keepalives: a holder whose host vanished is noticed.
        for setting, value in (
            ("tcp_keepalives_idle", KEEPALIVE_IDLE_SECONDS),
            ("tcp_keepalives_interval", KEEPALIVE_INTERVAL_SECONDS),
            ("tcp_keepalives_count", KEEPALIVE_COUNT),
        ):
            connection.execute(text(f"SET {setting} = {value}"))
        schema = str(connection.execute(text("SELECT current_schema()")).scalar_one())
        self._key = _advisory_key(schema)
        taken = connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": self._key})
        if taken.scalar_one():
            self.holder = Holder.this_process()
            return True
        return False

    def _holder_elsewhere(self) -> str:
        assert self._connection is not None
        unsigned = self._key & 0xFFFF_FFFF_FFFF_FFFF
        row = (
            self._connection.execute(
                HOLDER_QUERY, {"high": unsigned >> 32, "low": unsigned & 0xFFFF_FFFF}
            )
            .mappings()
            .first()
        )
        if row is None:  # released in between: the next start may take it
            return "which has just released it; start again"
        name = str(row["application_name"] or "")
        host, pid = str(row["client"] or "a local socket"), f"backend pid {row['pid']}"
        if name.startswith(APPLICATION_PREFIX + " "):
            parts = name[len(APPLICATION_PREFIX) + 1 :].rsplit(" pid ", 1)
            if len(parts) == 2:
                host, pid = parts[0], parts[1]
        since = row["backend_start"]
        when = since.astimezone(UTC).isoformat(timespec="seconds") if since else "unknown"
        return f"host {host}, pid {pid}, since {when}"

    def check(self) -> None:
        """The dedicated connection still answers and still holds the lock; after a loss,
        one try to take it again (the fault clears once it is ours again)."""
        try:
            if self._connection is None:
                raise ClaimLost("no connection")
            held = self._connection.execute(
                text(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                    "AND pid = pg_backend_pid() AND objsubid = 1"
                )
            ).scalar_one()
            if held:
                return
        except Exception:
            pass
        self._drop()
        try:
            if self._take():
                return
            elsewhere = self._holder_elsewhere()
        except Exception as error:
            self._drop()
            reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
            raise ClaimLost(
                f"the claim's connection to {self.database} is lost ({reason})"
            ) from None
        self._drop()
        raise ClaimLost(f"another process took the tables of {self.database} ({elsewhere})")

    def _drop(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()  # the session ends: PostgreSQL frees the lock
            self._connection = None

    def release(self) -> None:
        self._drop()
        self._engine.dispose()


def claim_file(database_path: str) -> Path:
    """Where a SQLite database's claim is kept: ``croupier.sqlite.tables-claim`` beside it
    (beside the file itself: a link to the database, or another spelling of its path, names
    the same claim)."""
    path = Path(database_path).resolve()
    return path.with_name(path.name + ".tables-claim")


def claim_tables(url: str) -> TablesClaim:
    """Claim the tables of the database at ``url`` for this process, or raise
    ``TablesClaimed`` naming the process that holds them (``croupier serve``: exit 2)."""
    parsed = make_url(url)
    database = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite":
        if not parsed.database or parsed.database == ":memory:" or "mode=memory" in url:
            return TablesClaim(database)
        return _FileClaim(database, claim_file(parsed.database))
    return _AdvisoryClaim(database, url)
