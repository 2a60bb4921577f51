"""The database's one schema: the ledger's tables and the table server's on one declarative
base, so that one metadata (Alembic's, ``service/migrations``) describes every table."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass
