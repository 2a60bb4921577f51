"""One process runs the tables of a SQLite database (issue 25, item 1): the claim that says which.

Two server processes on one database both dealt every table: the same shoe position twice,
two seat lists, a round resumed by the wrong process with its stakes left in escrow. On
SQLite (the README's one-process server) the server claims the whole database before it
migrates or loads anything (``claim_tables``, this module's one entry point), holds the claim
as long as it runs, and a second server on the same database refuses to start, naming the
holder (host, pid, since when). On PostgreSQL several processes share the tables, each table
run by the holder of its lease, fenced in every command's transaction (``service.leases``,
issue 29): nothing is claimed here.

How, on SQLite: an OS lock (``flock``) on a file beside the database
(``croupier.sqlite.tables-claim``), held through one open file for the life of the process;
the kernel frees it when the process dies however it dies. The file records the holder for
the refusal; it is never deleted (deleting a locked file would let a second process lock a
new one), and a holder whose file was replaced under it has lost the claim (the fail safe's
probe, R17). An in-memory SQLite database lives inside its process: nothing to claim.

>>> claim = claim_tables("sqlite://")
>>> claim.check()  # held for as long as the process lives
>>> claim.release()
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from croupier.errors import CroupierError


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
    return TablesClaim(database)  # PostgreSQL: shared by leases, table by table
