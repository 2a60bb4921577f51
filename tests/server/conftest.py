"""Fixtures for the table server: a fresh database per test on SQLite and on PostgreSQL.

PostgreSQL is a real server (the machine's at 127.0.0.1:5432, or a throwaway cluster that
``tools/pg_cluster.py`` starts); each test gets its own schema, dropped afterwards.
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import answer_support
from physical_support import sqlite_api  # noqa: F401 - the physical-shoe tests' fixture
from server_support import Api, make_api

import pg_cluster
from croupier.service.database import make_engine, upgrade


@pytest.fixture(autouse=True)
def answers_as_documented(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every 2xx JSON answer a test receives is read back through its route's documented
    model (``answer_support``, issue 28 item 6): the schema's answers are the true ones."""
    request = TestClient.request

    def checked(client: TestClient, *args: Any, **kwargs: Any) -> Any:
        response = request(client, *args, **kwargs)
        answer_support.check(response)
        return response

    monkeypatch.setattr(TestClient, "request", checked)


@pytest.fixture(scope="session")
def pg_server() -> str:
    return pg_cluster.server_url()


_migrated_sqlite: Path | None = None


def migrated_sqlite() -> Path:
    """A SQLite file at the schema's head, migrated once in this process and copied for each
    test: every server start ran the thirteen migrations on its empty file before (0.1 s of
    CPU and, with ``synchronous=FULL``, a dozen fsyncs each, several hundred times a run).
    The copy is what a migrated database is; the migrations themselves are tested from an
    empty file in ``test_migrations.py`` and by every test that starts ``croupier serve``."""
    global _migrated_sqlite  # noqa: PLW0603 - one file per worker, made at first use
    if _migrated_sqlite is None:
        folder = Path(tempfile.mkdtemp(prefix="croupier-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / "croupier.sqlite"
        engine = make_engine(f"sqlite:///{path}")
        upgrade(engine)
        engine.dispose()  # the last connection's close folds the WAL into the file
        assert not path.with_name(path.name + "-wal").exists()
        _migrated_sqlite = path
    return _migrated_sqlite


def fresh_database(
    kind: str, tmp_path: Path, pg_server_url: str | None, *, migrated: bool = True
) -> Iterator[str]:
    """A database of its own for one test: on SQLite a copy of the migrated file (an empty
    file where ``migrated`` is false: a migration's own test), on PostgreSQL an empty schema
    (a server's start migrates it)."""
    if kind == "sqlite":
        path = tmp_path / "croupier.sqlite"
        if migrated:
            shutil.copyfile(migrated_sqlite(), path)
        yield f"sqlite:///{path}"
        return
    assert pg_server_url is not None
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield pg_cluster.sqlalchemy_url(pg_server_url, schema)
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    pg = request.getfixturevalue("pg_server") if request.param == "postgresql" else None
    yield from fresh_database(request.param, tmp_path, pg)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no schema at all, for a test that migrates it revision by revision."""
    pg = request.getfixturevalue("pg_server") if request.param == "postgresql" else None
    yield from fresh_database(request.param, tmp_path, pg, migrated=False)


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    yield from make_api(database_url)


@pytest.fixture
def database_url_for(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A factory of fresh databases by kind, for tests that choose their own parameters."""

    def make(kind: str) -> Iterator[str]:
        pg = request.getfixturevalue("pg_server") if kind == "postgresql" else None
        yield from fresh_database(kind, tmp_path, pg)

    return make
