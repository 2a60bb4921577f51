"""R15: the chain's work at each commit does not grow with the database (issue 28, item 8).

Before each commit the chain reads the covers of the rows the transaction changed and those
rows themselves (``croupier.audit.chain.append_noted``). Asked as a key ``IN`` a list of keys
(``(table_name, row_key) IN (VALUES ...)``, ``(round_id, seat, user_id) IN (VALUES ...)``),
SQLite answers by scanning the whole of ``audit_cover`` (a row per audited row ever
written) or of the table: every commit then costs more as the casino's history grows. Here,
rounds played through the API in every game; every statement the chain ran at a commit is
a search by primary key in SQLite's own query plan, never a scan of a table.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, event

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "server"))

from server_support import Api, Table, make_api  # noqa: E402

from croupier.audit import chain  # noqa: E402

PROFILES = ("peru-2016", "dragon-six-peru-2016", "casino-holdem-peru-2007")


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    yield from make_api(f"sqlite:///{tmp_path / 'croupier.sqlite'}")


def test_r15_the_chain_reads_each_commits_rows_by_their_keys(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[tuple[str, Any]] = []
    appending = [False]
    append_noted = chain.append_noted

    def watched(
        connection: Connection, now: float, actor: str, head_waited: Any = None
    ) -> list[chain.Entry]:
        appending[0] = True
        try:
            return append_noted(connection, now, actor, head_waited)
        finally:
            appending[0] = False

    def note(_c: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if appending[0] and statement.lstrip().upper().startswith("SELECT"):
            ran.append((statement, parameters))

    monkeypatch.setattr(chain, "append_noted", watched)
    engine = api.server.uow.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        tables = [
            Table(api, profile, [f"p{index}a", f"p{index}b"])
            for index, profile in enumerate(PROFILES)
        ]
        for table in tables:
            table.play_round()
    finally:
        event.remove(engine, "before_cursor_execute", note)
    read = {statement.split("FROM", 1)[1].split()[0] for statement, _ in ran}
    assert {"audit_cover", "round_players", "rounds", "accounts"} <= read
    with engine.connect() as connection:
        for statement, parameters in ran:
            plan = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
            scans = [
                step[3] for step in plan if step[3].startswith("SCAN") and "CONSTANT" not in step[3]
            ]
            assert scans == [], (statement, plan)
