"""A pooled PostgreSQL connection is pinged before use only after it waited in the pool.

SQLAlchemy's ``pool_pre_ping`` pinged at every checkout: a round trip and a statement's CPU
twice per player request (its caller's read, its command), for connections used milliseconds
before (issue 28, item 8). A connection that sat idle for ``PING_AFTER_IDLE_SECONDS`` is still
pinged, and one cut meanwhile (a restart, a fail-over) is replaced before anyone uses it.
"""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from sqlalchemy import text

from croupier.service import database
from croupier.service.database import make_engine

pytestmark = pytest.mark.postgres


def test_a_connection_is_pinged_after_it_idled_and_replaced_when_it_was_cut(
    pg_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = pg_server.replace("postgresql://", "postgresql+psycopg://", 1)
    engine = make_engine(url)
    pings: list[Any] = []
    pinging = engine.dialect.do_ping

    def ping(connection: Any) -> bool:
        pings.append(connection)
        return pinging(connection)

    monkeypatch.setattr(engine.dialect, "do_ping", ping)
    try:

        def backend() -> int:
            with engine.connect() as connection:
                return int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())

        first = backend()  # a new connection: not pinged
        assert [backend() for _ in range(5)] == [first] * 5  # used again at once: not pinged
        assert pings == []
        monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", 0.05)
        time.sleep(0.1)
        assert backend() == first  # idle: pinged, alive
        assert len(pings) == 1
        with psycopg.connect(pg_server, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (first,))
        time.sleep(0.1)
        assert backend() != first  # its ping failed: a new connection, no error
        assert len(pings) == 2
    finally:
        engine.dispose()
