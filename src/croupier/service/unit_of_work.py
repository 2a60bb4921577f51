"""A command's transaction (cosmicpython's unit of work), in its order: begin, answered
already?, the work, keep the answer, fence, commit.

- **One transaction.** Every money movement and the state change that causes it commit
  together or not at all (R10). PostgreSQL serialization failures (40001), deadlocks
  (40P01) and a session ended for idling in its transaction (25P03, the bound below), and
  SQLite's "database is locked", are retried from the start with a fresh transaction.
- **Exactly once (R8).** A mutating request carries an ``Idempotency-Key``. Its answer is
  stored in the same transaction as its effect, so a repeat - even after a crash and
  restart - returns the stored answer and moves no money twice; the same key with another
  request is refused. Two concurrent duplicates race on the primary key: the loser's
  transaction rolls back and, run again, returns the winner's answer.
- **The fence (issue 29).** On PostgreSQL several processes share the tables, each run by
  the holder of its lease (``service.leases`` keeps them). A lease alone is not enough: a
  process paused past its lease (a long GC, a stopped VM, a partition) may wake up and
  commit a command it began before. So every table command's transaction checks, last
  before it commits, that this process still owns the table at the epoch it took it with
  (``Fence.verify``: ``SELECT ... FOR KEY SHARE`` of the lease row, owner and epoch equal).
  The row lock held to the commit keeps a takeover from taking the row until the command
  has committed (the takeover picks its rows ``FOR UPDATE SKIP LOCKED``, which that lock
  blocks), and every command after the takeover sees the new epoch and is refused
  (``leases.TableMoved``, 503). ``KEY SHARE``, the weakest lock that does so, lets the
  owner's own renewal (an ``UPDATE`` of the expiry alone) through: with ``SHARE`` a renewal
  queued behind every command in flight, and behind whatever those waited for. The fence
  needs no clock: an owner whose lease expired but which nobody took over may still commit,
  since nobody else ran the table meanwhile (Kleppmann's fencing token). A process stopped
  mid-transaction holds its row locks (the lease row after the fence, an account, the
  round, the audit chain's head): a server's write connections carry
  ``idle_in_transaction_session_timeout`` of half a lease (``server.app``), so
  PostgreSQL ends such a session, rolling it back, and neither the takeover nor anyone
  else's money waits on a stopped process longer.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any, Protocol, TypeVar, cast

from sqlalchemy import Connection, Engine, Table, bindparam, event, insert, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from croupier.audit import chain as audit_chain
from croupier.clock import Clock
from croupier.service.commands import Once
from croupier.service.errors import IdempotencyError, IdempotencyKeyReused
from croupier.service.models import IdempotencyRecord

T = TypeVar("T")

RETRYABLE_SQLSTATES = frozenset({"40001", "40P01", "25P03"})
"""Failures after which the transaction has surely not committed, so running the command again
is safe: a serialization failure, a deadlock, and PostgreSQL ending a session left idle in its
transaction past a server's bound (``idle_in_transaction_session_timeout``, 25P03: the session
is ended, so nothing it began can commit). A process merely slow between two statements (its
CPU taken by a build, a busy machine) is bounded so too; its command runs again on a fresh
connection rather than answer 503, and, if its table moved meanwhile, the fence refuses it."""

KEY_RACES = 3
"""How many times a keyed command runs again after a concurrent duplicate won its key."""


class Stage(StrEnum):
    """The waits and steps of a command the server times (``GET /metrics``:
    ``croupier_command_stage_duration_seconds``), where a player's slow answer was spent. The
    table's lock and the publish are a table's commands'; the rest are every transaction's
    that writes (``UnitOfWork.transaction``: an office's command and a session's last-seen
    too)."""

    TABLE_LOCK_WAIT = "table_lock_wait"
    """Queued behind the table's earlier commands (``Casino.run``: one at a time)."""
    WRITERS_LOCK_WAIT = "writers_lock_wait"
    """SQLite: queued behind the other tables' transactions (this process's one writer)."""
    TRANSACTION = "transaction"
    """Begin to commit, the audit chain's entries included (on SQLite, the writers' lock held)."""
    AUDIT_CHAIN = "audit_chain"
    """The commit's entries in the audit chain (R15), the head's wait included."""
    AUDIT_HEAD_WAIT = "audit_head_wait"
    """Queued for the audit chain's head, which every commit of every table takes in turn
    (PostgreSQL; on SQLite the writers' lock has queued the transaction already)."""
    PUBLISH = "publish"
    """The table as each seat may see it, built under the table's lock (``Publisher``)."""


StageTimer = Callable[[Stage, float], None]
"""Where a stage's seconds go: ``server.metrics.Metrics.time_stage``, or nowhere."""


def untimed(_stage: Stage, _seconds: float) -> None:
    """The stage timer of a unit of work nobody reads the timings of (tools, tests)."""


def _is_retryable(error: DBAPIError) -> bool:
    code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
    if code in RETRYABLE_SQLSTATES:
        return True
    return isinstance(error, OperationalError) and "database is locked" in str(error.orig)


def on_commit(session: Session, callback: Callable[[], None]) -> None:
    """``callback()`` once ``session``'s transaction has committed, never if it fails.

    SQLAlchemy's own ``after_commit`` event also fires when a SAVEPOINT is released (an
    account opened in ``begin_nested``): memory told "committed" then would outlive the
    rollback of a transaction that fails after it."""
    done = False

    def committed(session: Session) -> None:
        nonlocal done
        if done or session.in_nested_transaction():
            return
        done = True
        callback()

    event.listen(session, "after_commit", committed)


# --- exactly once (R8) ------------------------------------------------------------------------
KEY = re.compile(r"^[A-Za-z0-9_.:-]{8,128}$")

Answer = tuple[int, dict[str, Any]]


def check_key(key: str | None) -> str:
    if key is None:
        raise IdempotencyError("a mutating request needs an Idempotency-Key header")
    if not KEY.match(key):
        raise IdempotencyError(
            f"Idempotency-Key {key!r}: 8 to 128 letters, digits, '_', '.', ':' or '-'"
        )
    return key


# Core statements on the session's connection (same transaction as the effect): the ORM's
# identity map and flush cost more than the one-row SQL itself on every mutating request.
RECORDS = cast(Table, IdempotencyRecord.__table__)
STORED = select(RECORDS.c.request_hash, RECORDS.c.status_code, RECORDS.c.response).where(
    RECORDS.c.user_id == bindparam("user_id"), RECORDS.c.key == bindparam("key")
)
"""Built once, as ``RECORD`` is: building a statement per request cost more than running it."""
RECORD = insert(RECORDS)


class Answers(Protocol):
    """Where the answers to keyed requests are kept, in the command's own transaction: the
    database's table (``StoredAnswers``), or a test's dictionary (``tests/service``)."""

    def stored(self, session: Any, user_id: int, key: str, request_hash: str) -> Answer | None:
        """The answer stored for ``key``; ``IdempotencyKeyReused`` if another request used it."""

    def record(
        self, session: Any, user_id: int, key: str, request_hash: str, *, answer: Answer, now: float
    ) -> None:
        """Store ``answer`` for ``key`` in ``session``'s transaction."""


class StoredAnswers:
    """The answers in the database (``IdempotencyRecord``): ``stored`` and ``record``."""

    def stored(self, session: Any, user_id: int, key: str, request_hash: str) -> Answer | None:
        found = session.connection().execute(STORED, {"user_id": user_id, "key": key}).first()
        if found is None:
            return None
        if found.request_hash != request_hash:
            raise IdempotencyKeyReused(
                f"Idempotency-Key {key!r} was used for another request; use a new key"
            )
        return found.status_code, found.response

    def record(
        self, session: Any, user_id: int, key: str, request_hash: str, *, answer: Answer, now: float
    ) -> None:
        session.connection().execute(
            RECORD,
            {
                "user_id": user_id,
                "key": key,
                "request_hash": request_hash,
                "status_code": answer[0],
                "response": answer[1],
                "created_at": now,
            },
        )


# --- the fence (issue 29) ---------------------------------------------------------------------
FENCE = text(
    "SELECT epoch FROM table_leases "
    "WHERE table_id = :table AND owner = :owner AND epoch = :epoch FOR KEY SHARE"
)


class Fence:
    """This process's hold on the tables it runs, as a table command's transaction checks it,
    last before it commits (``verify``). Without an ``owner`` (SQLite: one process runs every
    table, ``service.claim``) there is nothing to fence; with one, ``held`` is each
    table this process runs and the epoch it took the table's lease at, which
    ``leases.TableLeases`` keeps, and ``moved`` what a table found lost is (it is forgotten,
    and the command refused: ``TableLeases.moved``)."""

    def __init__(
        self, owner: str | None = None, moved: Callable[[int], Exception] | None = None
    ) -> None:
        self.owner = owner
        self.held: dict[int, int] = {}
        """Table id -> the epoch this process took it at."""
        self.moved = moved

    def verify(self, session: Session, table_id: int) -> None:
        """Raise ``moved(table_id)`` unless this process still owns ``table_id`` (in
        ``session``'s transaction, last before it commits)."""
        if self.owner is None:
            return
        epoch = self.held.get(table_id)
        if epoch is not None:
            # Core, not the ORM session's ``execute``: no ORM object is read.
            found = (
                session.connection()
                .execute(FENCE, {"table": table_id, "owner": self.owner, "epoch": epoch})
                .first()
            )
            if found is not None:
                return
        assert self.moved is not None, "an owner says what a table lost is"
        raise self.moved(table_id)


# --- the transaction ------------------------------------------------------------------------------
class _Keyed:
    """A keyed request's part of its transaction: its key, who sent it, its fingerprint."""

    def __init__(self, once: Once, answers: Answers | None) -> None:
        assert answers is not None, "a keyed command keeps its answer"
        assert once.key is not None, "its key was checked first (check_key)"
        self.answers = answers
        self.request = (once.user_id, once.key, once.request_hash)


class UnitOfWork:
    """Runs ``work(session)`` in one transaction, committing on success; a command's, with
    its key's answer and its table's fence around it."""

    def __init__(
        self, engine: Engine, clock: Clock, attempts: int = 8, read_engine: Engine | None = None
    ) -> None:
        self.engine = engine
        self.read_engine = read_engine or engine
        self.clock = clock
        self.attempts = attempts
        self.timed: StageTimer = untimed
        """Each stage's seconds, as a server's ``/metrics`` reports them (``Stage``)."""
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        audit_chain.listen(  # R15: what commits is in the audit chain
            self._sessions,
            clock,
            head_waited=lambda seconds: self.timed(Stage.AUDIT_HEAD_WAIT, seconds),
            appended=lambda seconds: self.timed(Stage.AUDIT_CHAIN, seconds),
        )
        # SQLite has one writer at a time; its busy handler retries with growing sleeps and no
        # order, so under contention one writer can starve for seconds. Queue this process's
        # writers on a lock instead (other processes still meet the busy timeout).
        self._writers_queue = engine.dialect.name == "sqlite"
        self._writers: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if self._writers_queue else contextlib.nullcontext()
        )
        self._read_sessions = sessionmaker(self.read_engine, expire_on_commit=False)
        # PostgreSQL runs at READ COMMITTED, where one statement is its own snapshot: a
        # transaction around a single read adds a BEGIN and a ROLLBACK and nothing else.
        self._single_reads = (
            self.read_engine.execution_options(isolation_level="AUTOCOMMIT")
            if self.read_engine.dialect.name == "postgresql"
            else self.read_engine
        )

    def run(
        self,
        work: Callable[[Session], T],
        *,
        before_retry: Callable[[], None] | None = None,
        once: Once | None = None,
        answers: Answers | None = None,
        fence: Fence | None = None,
        table: int | None = None,
    ) -> T:
        """``work(session)`` in one transaction, committed if it returns. A retryable failure
        runs it again in a fresh transaction, after ``before_retry()``: a caller whose ``work``
        changes memory as well (a live table) puts memory back as the database holds it.

        A command's transaction, in its order: begin; for a keyed request (``once``, whose
        key was checked: ``check_key``), the answer ``answers`` hold for it, and nothing else
        happens; the work, whose answer (an ``Answer``) ``answers`` keep; last, the fence
        (``fence.verify``: this process still runs the table); commit. A concurrent duplicate
        that won the key's row fails this one at the commit: it runs again, after
        ``before_retry()``, and reads the winner's answer."""

        def steps(session: Session) -> T:
            if keyed is not None:
                previous = keyed.answers.stored(session, *keyed.request)
                if previous is not None:
                    return cast(T, previous)  # a keyed command's work answers an ``Answer``
            result = work(session)
            if keyed is not None:
                now = self.clock.now()
                keyed.answers.record(session, *keyed.request, answer=cast(Answer, result), now=now)
            if fence is not None:
                assert table is not None, "a table's command is fenced"
                fence.verify(session, table)
            return result

        keyed = None if once is None else _Keyed(once, answers)
        races = 0 if keyed is None else KEY_RACES
        for race in range(races + 1):
            if race and before_retry is not None:
                before_retry()
            try:
                return self.transaction(steps, before_retry=before_retry)
            except IntegrityError:
                if race == races:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def transaction(
        self, steps: Callable[[Session], T], *, before_retry: Callable[[], None] | None = None
    ) -> T:
        """``steps(session)`` in one transaction, committed if they return; retried (above)."""
        for attempt in range(self.attempts):
            if attempt and before_retry is not None:
                before_retry()
            session = self._sessions()
            try:
                asked = time.perf_counter()
                with self._writers:
                    began = time.perf_counter()
                    if self._writers_queue:
                        self.timed(Stage.WRITERS_LOCK_WAIT, began - asked)
                    try:
                        with session.begin():
                            return steps(session)
                    finally:
                        self.timed(Stage.TRANSACTION, time.perf_counter() - began)
            except DBAPIError as error:
                if attempt + 1 == self.attempts or not _is_retryable(error):
                    raise
                time.sleep(0.005 * (attempt + 1))
            finally:
                session.close()
        raise AssertionError("unreachable")  # pragma: no cover

    def read(self, work: Callable[[Session], T]) -> T:
        """``work`` in a transaction that is rolled back: for reads only."""
        with self._read_sessions() as session:
            return work(session)

    def read_one(self, work: Callable[[Connection], T]) -> T:
        """``work``, which reads with ONE statement, on a connection of its own: on PostgreSQL
        outside any transaction (that statement's snapshot is all a transaction would give at
        READ COMMITTED), which spares two round trips and the ORM session (the caller's session
        is read so on every request there: issue 28, item 8); on SQLite in a read transaction,
        as ``read``."""
        with self._single_reads.connect() as connection:
            return work(connection)

    def dispose(self) -> None:
        self.engine.dispose()
        if self.read_engine is not self.engine:
            self.read_engine.dispose()
