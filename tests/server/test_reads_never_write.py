"""A read never writes: on SQLite a reader's DEFERRED transaction that tries to write is
refused at once, without the busy timeout, whenever another connection holds the write lock.

Found in CI (stop 22): the operator's page asked ``/me`` while a table dealt, and got 503
("database is locked"): ``/me`` read the caller's wallet with ``wallet_of``, which OPENS a
wallet that is missing (staff have none), so the read upgraded itself to a writer. The read
engine is now ``query_only``, so any read that writes fails in every test that takes its
path, and the wallet reads find the wallet rather than open it.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from server_support import OPERATOR_TOKEN, make_api
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session


def test_staff_read_their_balance_while_another_connection_writes(tmp_path: Path) -> None:
    database = tmp_path / "croupier.sqlite"
    for api in make_api(f"sqlite:///{database}"):
        player = api.player("nadia", credit_minor=2_500)
        writer = sqlite3.connect(database, isolation_level=None)
        try:
            writer.execute("BEGIN IMMEDIATE")  # a table dealing, mid-commit
            started = time.monotonic()
            me = api.get("/me", OPERATOR_TOKEN)
            assert me.status_code == 200, me.text
            assert me.json()["role"] == "operator" and me.json()["balance"] == 0
            statement = api.get("/me/ledger", OPERATOR_TOKEN)
            assert statement.status_code == 200 and statement.json()["entries"] == []
            assert api.get("/me", player).json()["balance"] == 2_500
            assert time.monotonic() - started < 5  # answered, not waited out
        finally:
            writer.execute("ROLLBACK")
            writer.close()


def test_a_read_that_writes_is_refused_on_sqlite(tmp_path: Path) -> None:
    database = tmp_path / "croupier.sqlite"
    for api in make_api(f"sqlite:///{database}"):
        uow = api.server.uow

        def writes(session: Session) -> None:
            session.execute(text("DELETE FROM game_tables"))

        with pytest.raises(OperationalError, match="readonly"):
            uow.read(writes)
