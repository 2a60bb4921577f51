"""Failing the table server's database on purpose: the Nth statement or commit raises.

``WriteFaults`` hooks the server's write engine. Every statement it executes (those a flush
sends included, and the ``BEGIN``) and every commit is one operation; ``arm(n, make)``
makes the ``n``-th operation from now raise ``make()``, a DB-API error of the engine's own
driver, which SQLAlchemy wraps as it wraps a real one (``OperationalError``). Used by the
tests of issue 10, item 3.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

import psycopg
from sqlalchemy import Engine, event

ErrorMaker = Callable[[], Exception]

TABLE_STATE = re.compile(
    r"^\s*(INSERT INTO|UPDATE|DELETE FROM)\s+\"?(rounds|round_players|back_bets|game_tables|shoes)\b",
    re.I,
)
"""A statement that changes a live table's state (not a session's last-seen time)."""


def disk_full(dialect: str) -> ErrorMaker:
    if dialect == "sqlite":
        return lambda: sqlite3.OperationalError("database or disk is full")
    return lambda: psycopg.errors.DiskFull("could not extend file: No space left on device")


def retryable(dialect: str) -> ErrorMaker:
    """SQLite's busy writer, PostgreSQL's serialization failure (SQLSTATE 40001)."""
    if dialect == "sqlite":
        return lambda: sqlite3.OperationalError("database is locked")
    return lambda: psycopg.errors.SerializationFailure(
        "could not serialize access due to concurrent update"
    )


class WriteFaults:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self._countdown: int | None = None
        self._make: ErrorMaker | None = None
        self._persistent = False
        self._commits_of_table_state = False
        self._touched_table_state = False
        self.fired = 0
        self.operations = 0
        self._real_commit = engine.dialect.do_commit
        self._real_rollback = engine.dialect.do_rollback
        event.listen(engine, "before_cursor_execute", self._statement)
        engine.dialect.do_commit = self._commit  # type: ignore[method-assign]
        engine.dialect.do_rollback = self._rollback  # type: ignore[method-assign]

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)
        self.engine.dialect.do_commit = self._real_commit  # type: ignore[method-assign]
        self.engine.dialect.do_rollback = self._real_rollback  # type: ignore[method-assign]

    def arm(
        self,
        n: int,
        make: ErrorMaker,
        *,
        persistent: bool = False,
        commits_of_table_state: bool = False,
    ) -> None:
        """Fail the ``n``-th operation from now (and every later one if ``persistent``);
        ``commits_of_table_state``: count only commits of transactions that changed a table."""
        self._countdown, self._make, self._persistent = n, make, persistent
        self._commits_of_table_state = commits_of_table_state
        self.fired = 0

    def disarm(self) -> None:
        self._countdown = None

    def _operation(self) -> None:
        self.operations += 1
        if self._countdown is None or self._make is None:
            return
        self._countdown -= 1
        if self._countdown > 0:
            return
        if not self._persistent:
            self._countdown = None
        self.fired += 1
        raise self._make()

    def _statement(self, *args: Any) -> None:
        statement: str = args[2]
        if TABLE_STATE.match(statement):
            self._touched_table_state = True
        if not self._commits_of_table_state:
            self._operation()

    def _commit(self, dbapi_connection: Any) -> None:
        touched, self._touched_table_state = self._touched_table_state, False
        if not self._commits_of_table_state or touched:
            self._operation()
        self._real_commit(dbapi_connection)

    def _rollback(self, dbapi_connection: Any) -> None:
        self._touched_table_state = False
        self._real_rollback(dbapi_connection)
