"""Revision 0010_cards_entered_index: the cards a dealer entered for a round (issue 14, item 2;
docs/rules.md#D-GEN-14: each is a staff action with who and when) are read through an index.

``physical.cards_entered`` (the operator's recall and the inspector's dispute page) asks for the
staff actions of one subject and kind, in order. Before 0010 SQLite scanned every staff action
ever recorded; after it, the query plan of the very statement the function sends uses the new
index and sorts nothing, on SQLite (``EXPLAIN QUERY PLAN``) and PostgreSQL (``EXPLAIN``). The
rows are untouched, so their audited digests (R15) hold; the downgrade drops the index."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import command
from sqlalchemy.orm import Session

from croupier.audit.records import digest
from croupier.service import physical
from croupier.service.database import alembic_config, make_engine, upgrade

INDEX = "ix_staff_actions_subject_action"
ROUND = "round:2"


def _insert_actions(connection: Any) -> None:
    """A dealer's actions of three rounds as revision 0009 stored them: a card entered for each
    box and the dealer, a shuffle confirmed, and round 2's cards among others'."""
    connection.execute(
        sa.text(
            "INSERT INTO users (id, username, password_hash, role, failure_times, created_at) "
            "VALUES (1, 'dealer-mig', 'x', 'player', '[]', 1.0)"
        )
    )
    rows = []
    for number, (subject, action, card) in enumerate(
        [("shoe:1", "shoe-procedure", None)]
        + [(f"round:{r}", "card-entered", c) for r in (1, 2, 3) for c in ("Td", "5h", "Ac")]
        + [("table:1", "assigned", None)],
        start=1,
    ):
        detail = {"actor": "dealer:dealer-mig"}
        if card is not None:
            detail |= {"card": card, "went": "box 1", "position": number}
        rows.append(
            {"id": number, "action": action, "subject": subject, "detail": json.dumps(detail)}
        )
    connection.execute(
        sa.text(
            "INSERT INTO staff_actions (id, actor_id, action, subject, detail, created_at) "
            "VALUES (:id, 1, :action, :subject, :detail, 10.0 + :id)"
        ),
        rows,
    )


def _rows(connection: Any) -> list[dict[str, Any]]:
    return [
        dict(row)
        for row in connection.execute(sa.text("SELECT * FROM staff_actions ORDER BY id")).mappings()
    ]


def _plan_of_cards_entered(engine: sa.Engine) -> tuple[list[dict[str, Any]], str]:
    """What ``physical.cards_entered`` answers for round 2, and the plan of the statement it
    sent (caught as it went to the database, so the plan is of the real query)."""
    sent: list[tuple[str, Any]] = []

    def catch(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if "staff_actions" in statement:
            sent.append((statement, parameters))

    sa.event.listen(engine, "before_cursor_execute", catch)
    try:
        with Session(engine) as session:
            answer = physical.cards_entered(session, ROUND)
    finally:
        sa.event.remove(engine, "before_cursor_execute", catch)
    [(statement, parameters)] = sent
    with engine.begin() as connection:
        raw = connection.connection.driver_connection
        assert raw is not None
        cursor = raw.cursor()
        if engine.dialect.name == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
            plan = "\n".join(str(row[-1]) for row in cursor.fetchall())
        else:
            # A few rows make a sequential scan the cheapest; what is asked is whether the
            # index serves the query, so the planner is told to avoid one.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {statement}", parameters)
            plan = "\n".join(str(row[0]) for row in cursor.fetchall())
    return answer, plan


def test_revision_0010_indexes_the_cards_entered_and_keeps_the_rows(
    empty_database_url: str,
) -> None:
    engine = make_engine(empty_database_url)
    config = alembic_config(empty_database_url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0009")
        _insert_actions(connection)
        before = _rows(connection)
    answer_before, plan_before = _plan_of_cards_entered(engine)
    assert INDEX not in plan_before, plan_before

    upgrade(engine)
    with engine.begin() as connection:
        after = _rows(connection)
        indexes = {
            i["name"]: i["column_names"]
            for i in sa.inspect(connection).get_indexes("staff_actions")
        }
    assert indexes[INDEX] == ["subject", "action", "id"]
    assert after == before
    assert [digest("staff_actions", row) for row in after] == [
        digest("staff_actions", row) for row in before
    ]
    answer, plan = _plan_of_cards_entered(engine)
    assert answer == answer_before
    assert [(card["card"], card["action"]) for card in answer] == [
        ("Td", 5), ("5h", 6), ("Ac", 7)
    ]  # fmt: skip
    assert INDEX in plan, plan
    if engine.dialect.name == "sqlite":
        assert f"SEARCH staff_actions USING INDEX {INDEX} (subject=? AND action=?)" in plan, plan
        assert "TEMP B-TREE" not in plan, plan  # the index gives the order: nothing is sorted
    else:
        assert f"Index Scan using {INDEX} on staff_actions" in plan, plan
        assert "Sort" not in plan, plan

    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0009")
        assert INDEX not in {i["name"] for i in sa.inspect(connection).get_indexes("staff_actions")}
        assert _rows(connection) == before
    engine.dispose()
