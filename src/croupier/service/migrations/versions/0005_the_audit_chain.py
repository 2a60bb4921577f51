"""the tamper-evident record: a hash chain over every audited row (RELIABILITY R15)

Adds ``audit_chain`` (the entries), ``audit_head`` (its last entry, the row appenders lock),
``audit_cover`` (which entry covers each row now) and ``audit_pending`` (rows changed by a
transaction not yet committed), and on each audited table the triggers that note its changed
rows (``croupier.audit.records``). The rows already there are sealed: one entry per row,
kind ``sealed``, so ``croupier audit verify`` checks them as it checks every later change.

Revision ID: 0005
Revises: 0003
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

from croupier.audit import chain, records

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

AUDITED = (
    "users",
    "accounts",
    "ledger_transactions",
    "ledger_entries",
    "game_tables",
    "rule_sets",
    "shoes",
    "rounds",
    "round_players",
    "back_bets",
)


def upgrade() -> None:
    op.create_table(
        "audit_chain",
        sa.Column("seq", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actor", sa.String(length=96), nullable=False),
        sa.Column("kind", sa.String(length=48), nullable=False),
        sa.Column("table_name", sa.String(length=48), nullable=True),
        sa.Column("row_key", sa.String(length=256), nullable=True),
        sa.Column("before", sa.String(length=64), nullable=True),
        sa.Column("after", sa.String(length=64), nullable=True),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.Column("previous_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("seq"),
    )
    op.create_index("ix_audit_chain_row", "audit_chain", ["table_name", "row_key"])
    op.create_table(
        "audit_head",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "audit_cover",
        sa.Column("table_name", sa.String(length=48), nullable=False),
        sa.Column("row_key", sa.String(length=256), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("table_name", "row_key"),
    )
    op.create_table(
        "audit_pending",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_name", sa.String(length=48), nullable=False),
        sa.Column("row_key", sa.String(length=256), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    connection = op.get_bind()
    records.install_triggers(connection, AUDITED)
    # A fresh database has nothing to seal: its chain (and head row) start with its first
    # change, or come whole with a restore.
    chain.seal(connection, time.time(), "migration 0005")


def downgrade() -> None:
    records.drop_triggers(op.get_bind(), AUDITED)
    op.drop_table("audit_pending")
    op.drop_table("audit_cover")
    op.drop_table("audit_head")
    op.drop_index("ix_audit_chain_row", table_name="audit_chain")
    op.drop_table("audit_chain")
