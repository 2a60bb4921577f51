"""The unit of work: one database transaction around one command (cosmicpython).

Every money movement and the state change that causes it commit together or not at all
(R10). PostgreSQL serialization failures (40001) and deadlocks (40P01), and SQLite's
"database is locked", are retried from the start with a fresh transaction.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from croupier.audit import chain as audit_chain
from croupier.clock import Clock

T = TypeVar("T")

RETRYABLE_SQLSTATES = frozenset({"40001", "40P01"})


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


class UnitOfWork:
    """Runs ``work(session)`` in one transaction, committing on success."""

    def __init__(
        self, engine: Engine, clock: Clock, attempts: int = 8, read_engine: Engine | None = None
    ) -> None:
        self.engine = engine
        self.read_engine = read_engine or engine
        self.clock = clock
        self.attempts = attempts
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        audit_chain.listen(self._sessions, clock)  # R15: what commits is in the audit chain
        # SQLite has one writer at a time; its busy handler retries with growing sleeps and no
        # order, so under contention one writer can starve for seconds. Queue this process's
        # writers on a lock instead (other processes still meet the busy timeout).
        self._writers: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext()
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
        self, work: Callable[[Session], T], *, before_retry: Callable[[], None] | None = None
    ) -> T:
        """``work(session)`` in one transaction, committed if it returns. A retryable failure
        runs it again in a fresh transaction, after ``before_retry()``: a caller whose ``work``
        changes memory as well (a live table) puts memory back as the database holds it."""
        for attempt in range(self.attempts):
            if attempt and before_retry is not None:
                before_retry()
            session = self._sessions()
            try:
                with self._writers, session.begin():
                    return work(session)
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
