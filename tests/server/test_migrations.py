"""The shipped Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect

from croupier.service.database import alembic_config, make_engine, upgrade
from croupier.service.models import Base


def test_migrations_match_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    upgrade(engine)  # a second start applies nothing and fails on nothing
    with engine.begin() as connection:
        config = alembic_config(database_url)
        config.attributes["connection"] = connection
        command.check(config)  # raises when the models and the migrations differ
        assert set(Base.metadata.tables) <= set(inspect(connection).get_table_names())
    engine.dispose()


def test_revision_0007_keeps_the_audit_chain_of_what_existed(database_url_for: object) -> None:
    """Revision 0009 adds the physical shoe's columns as NULL: every row written before keeps
    its digest (R15), so the chain still verifies; down to 0008 and up again it still does, and
    a table opened after is covered (its triggers survive SQLite's copy of the table)."""
    from server_support import OPERATOR_TOKEN, make_api

    from croupier.audit.verify import verify_database

    for url in database_url_for("sqlite"):  # type: ignore[operator]
        for api in make_api(url):
            opened = api.post(
                "/operator/tables", OPERATOR_TOKEN, {"name": "before", "profile": "peru-2016"}
            )
            assert opened.status_code == 201, opened.text
        engine = make_engine(url)
        config = alembic_config(url)
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0008")
        assert verify_database(url).is_intact
        upgrade(engine)
        engine.dispose()
        for api in make_api(url):
            opened = api.post(
                "/operator/tables",
                OPERATOR_TOKEN,
                {"name": "after", "profile": "peru-2016", "shoe": "physical"},
            )
            assert opened.status_code == 201, opened.text
        report = verify_database(url)
        assert report.is_intact, report.problems
