"""Fixtures for the table server: a fresh database per test on SQLite and on PostgreSQL.

PostgreSQL is a real server (the machine's at 127.0.0.1:5432, or a throwaway cluster that
``tools/pg_cluster.py`` starts); each test gets its own schema, dropped afterwards.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import answer_support
from database_support import fresh_database
from physical_support import sqlite_api  # noqa: F401 - the physical-shoe tests' fixture
from server_support import Api, make_api

import pg_cluster


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
