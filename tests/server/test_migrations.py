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
