"""Revision 0008_absent_seats (docs/rules.md#D-GEN-11): a table's row from before gains the
absent-player columns empty, so its audited digest (R15: ``None`` columns are left out) is the
one the chain recorded; the table then reads the server's defaults, 3 and 3; the downgrade
gives the row back as it was."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import command

from croupier.audit.records import digest
from croupier.rules.registry import load_profile
from croupier.service import table_rules
from croupier.service.database import alembic_config, make_engine, upgrade


def _row(connection: Any) -> dict[str, Any]:
    return dict(connection.execute(sa.text("SELECT * FROM game_tables")).mappings().one())


def test_revision_0008_adds_empty_absences_and_keeps_the_rows_digest(
    empty_database_url: str,
) -> None:
    profile = load_profile("peru-2016")
    text = table_rules.document(profile)
    engine = make_engine(empty_database_url)
    config = alembic_config(empty_database_url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0007")
        connection.execute(
            sa.text(
                "INSERT INTO game_tables (id, name, game, profile, is_open, betting_seconds, "
                "decision_seconds, seats, profile_document, rules_version) VALUES (1, 't', "
                "'blackjack', 'peru-2016', true, 60, 60, '{\"1\": 7}', :text, :version)"
            ),
            {"text": text, "version": table_rules.version_of(profile.name, text)},
        )
        before = _row(connection)
    upgrade(engine)
    with engine.begin() as connection:
        after = _row(connection)
    assert {k: after[k] for k in ("absences", "sit_out_after", "free_after")} == dict.fromkeys(
        ("absences", "sit_out_after", "free_after")
    )
    assert digest("game_tables", after) == digest("game_tables", before)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0007")
        assert _row(connection) == before
    engine.dispose()
