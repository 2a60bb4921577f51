"""Connecting to the database and bringing its schema up to date (Alembic, shipped inside).

SQLite gets WAL, ``synchronous=FULL``, a busy timeout and foreign keys on every connection
(STACK.md; R10; ``CROUPIER_SQLITE_SYNCHRONOUS`` may say otherwise for a database no one
keeps: the tests'). PostgreSQL runs at READ COMMITTED; money moves by atomic conditional
updates, and a transaction that meets a serialization failure or deadlock is retried.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.exc import InvalidatePoolError

from croupier.errors import CroupierError

SQLITE_SYNCHRONOUS = "CROUPIER_SQLITE_SYNCHRONOUS"
"""The environment variable that may lower SQLite's ``synchronous`` from ``FULL`` to ``NORMAL``
for a database no one keeps (the test suite sets it). In WAL mode ``NORMAL`` still loses
nothing that a killed process had committed (R10's kill -9 holds); only a crash of the
machine, or a power cut, could lose the last commits. ``FULL`` waits for the disk at every
commit: 4.0-4.4 ms on this project's machines against 0.01 ms (300 commits of one row in WAL
mode), and a server test commits a few dozen times (``tests/server/test_tables.py``: 462
``fdatasync`` calls in 16 tests, by ``strace -c``)."""

_SYNCHRONOUS_LEVELS = ("FULL", "EXTRA", "NORMAL")


class DatabaseSettingError(CroupierError, ValueError):
    """A database setting from the environment that croupier does not run with
    (``croupier serve`` says it in one line, exit 2, not with a traceback)."""

    code = "database_setting"


def sqlite_synchronous() -> str:
    """SQLite's ``synchronous`` for new connections: ``FULL`` unless the environment says."""
    given = os.environ.get(SQLITE_SYNCHRONOUS, "FULL")
    level = given.strip().upper()
    if level not in _SYNCHRONOUS_LEVELS:
        raise DatabaseSettingError(
            f"{SQLITE_SYNCHRONOUS}={given!r}: one of {', '.join(_SYNCHRONOUS_LEVELS)}"
        )
    return level


def make_engine(
    url: str, *, read_only: bool = False, idle_in_transaction_seconds: float | None = None
) -> Engine:
    """An engine for ``url`` with the connection settings the ledger needs.

    On SQLite a writer's transaction begins IMMEDIATE (it takes the write lock at once);
    a ``read_only`` engine's transactions begin DEFERRED: in WAL mode readers never wait.

    On PostgreSQL, ``idle_in_transaction_seconds`` bounds how long a transaction may wait
    for its client between two statements (``idle_in_transaction_session_timeout``): past it
    the database ends the session, rolling the transaction back and freeing its locks. A
    server's writes are bounded so (``server.app``): a process stopped mid-transaction (a
    SIGSTOP, a frozen VM) would otherwise hold, for as long as it stays stopped, the rows it
    locked and above all the audit chain's head, which every process's commits take in turn.
    """
    if url.startswith("sqlite"):
        synchronous = sqlite_synchronous()
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_size=10,
            max_overflow=20,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            # Let SQLAlchemy open transactions with BEGIN IMMEDIATE: a writer takes the lock
            # at once, so two writers never deadlock upgrading a read lock.
            connection.isolation_level = None
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA foreign_keys=ON")
            if read_only:
                # A write in a reader's DEFERRED transaction would upgrade it to a writer,
                # and SQLite refuses that upgrade at once, without the busy timeout, whenever
                # another connection writes: a 503 under load, not a wait. So a read that
                # writes fails here every time, in the tests, not now and then in production.
                cursor.execute("PRAGMA query_only=ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

        return engine
    connect_args: dict[str, str] = {}
    if idle_in_transaction_seconds is not None:
        # Added to the URL's own ``options`` (a ``search_path``, say), which ``connect_args``
        # would otherwise replace.
        given = make_url(url).query.get("options", ())
        milliseconds = max(1, round(idle_in_transaction_seconds * 1000))
        options = [given] if isinstance(given, str) else list(given)
        options.append(f"-c idle_in_transaction_session_timeout={milliseconds}")
        connect_args["options"] = " ".join(options)
    engine = create_engine(url, pool_size=20, max_overflow=20, connect_args=connect_args)
    _ping_after_idle(engine)
    return engine


PING_AFTER_IDLE_SECONDS = 1.0
"""A pooled PostgreSQL connection unused for this long is pinged before it is handed out."""


def _ping_after_idle(engine: Engine) -> None:
    """Ping a pooled connection before use only when it sat idle in the pool for
    ``PING_AFTER_IDLE_SECONDS``: SQLAlchemy's ``pool_pre_ping`` pings at every checkout, and a
    player's request checks a connection out twice (its caller's read, its command), each
    ping a round trip and a statement's CPU for a connection used a few milliseconds before
    (issue 28, item 8). What the ping is for (a connection that a database restart, a
    fail-over or an idle timeout cut while it waited in the pool) is a connection that waited;
    one cut within the last second fails its statement instead, which invalidates the whole
    pool as a failed ping does, and the fail safe's probe (R17) meets the fault as well.
    A connection the pool has just made is not pinged."""

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info["returned_at"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned = record.info.pop("returned_at", None)
        if returned is None or time.monotonic() - returned < PING_AFTER_IDLE_SECONDS:
            return
        dialect = engine.dialect
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            if dialect.is_disconnect(error, dbapi_connection, None):
                # As a failed pre-ping: every connection pooled before now is discarded, and
                # the pool hands out a new one.
                raise InvalidatePoolError() from error
            raise


def migrations_dir() -> Path:
    return Path(str(resources.files("croupier.service") / "migrations"))


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


@functools.cache
def head_revision() -> str | None:
    """The newest migration's revision. Alembic finds it by running every migration file,
    30 ms of a start whose database is at the head already, as nearly every start's is: read
    once per process."""
    return ScriptDirectory(str(migrations_dir())).get_current_head()


def upgrade(engine: Engine) -> None:
    """Apply every migration not yet applied (at server start)."""
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        if MigrationContext.configure(connection).get_current_revision() == head_revision():
            return
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


START_LOCK = 0x63726F7570696572
"""The advisory lock's key that serializes server starts on one PostgreSQL database."""


@contextlib.contextmanager
def one_start_at_a_time(engine: Engine) -> Iterator[None]:
    """Hold PostgreSQL's advisory lock while a server migrates the schema and writes what a
    start writes (the operator, demo tables): several processes share a database (issue 29)
    and may start at once. SQLite's one process holds its claim already (``service.claim``)."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": START_LOCK})
        connection.commit()
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": START_LOCK})
            connection.commit()
