"""Alembic environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from croupier.audit.records import pending_metadata
from croupier.service.models import Base

# The audit chain's work queue is schema but not data: outside ``Base``, so no backup holds it.
TARGET = [Base.metadata, pending_metadata]


def run_migrations() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.begin() as fresh:
            context.configure(connection=fresh, target_metadata=TARGET)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=TARGET)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file with its context set up; imported otherwise (pytest's doctest
# collection walks the package) it does nothing.
if hasattr(context, "config"):
    run_migrations()
