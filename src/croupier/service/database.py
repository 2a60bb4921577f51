"""Connecting to the database and bringing its schema up to date (Alembic, shipped inside).

SQLite gets WAL, ``synchronous=FULL``, a busy timeout and foreign keys on every connection
(STACK.md; R10). PostgreSQL runs at READ COMMITTED; money moves by atomic conditional
updates, and a transaction that meets a serialization failure or deadlock is retried.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text


def make_engine(url: str, *, read_only: bool = False) -> Engine:
    """An engine for ``url`` with the connection settings the ledger needs.

    On SQLite a writer's transaction begins IMMEDIATE (it takes the write lock at once);
    a ``read_only`` engine's transactions begin DEFERRED: in WAL mode readers never wait.
    """
    if url.startswith("sqlite"):
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
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_size=20, max_overflow=20, pool_pre_ping=True)


def migrations_dir() -> Path:
    return Path(str(resources.files("croupier.service") / "migrations"))


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(engine: Engine) -> None:
    """Apply every migration not yet applied (at server start)."""
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
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
