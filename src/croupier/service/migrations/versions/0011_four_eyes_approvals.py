"""four eyes: what one member of staff asks and another approves (issue 25, items 3 and 4)

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from croupier.audit import records

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

AUDITED = ("approvals",)
"""The tables of this revision that the audit chain covers (revision 0005's triggers)."""


def _dispute_status_length(before: int, after: int) -> None:
    """A dispute's status holds ``awaiting_approval`` (17 characters, the API's word). SQLite
    alters a column by copying the table, which drops its audit triggers: they go back after
    (the copy is no change of a row, so it notes nothing in the chain)."""
    bind = op.get_bind()
    records.drop_triggers(bind, ("disputes",))
    with op.batch_alter_table("disputes") as batch:
        batch.alter_column(
            "status",
            type_=sa.String(after),
            existing_type=sa.String(before),
            existing_nullable=False,
        )
    records.install_triggers(bind, ("disputes",))


def upgrade() -> None:
    _dispute_status_length(16, 32)
    op.create_table(
        "approvals",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("rounds.id"), nullable=False),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("dispute_id", sa.Integer(), sa.ForeignKey("disputes.id"), nullable=True),
        sa.Column("requested_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("requested_at", sa.Float(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("decided_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("decided_at", sa.Float(), nullable=True),
        sa.Column("decision_reason", sa.Text(), nullable=True),
        sa.Column(
            "transaction_id",
            sa.Integer(),
            sa.ForeignKey("ledger_transactions.id"),
            nullable=True,
        ),
    )
    op.create_index("ix_approvals_round_id", "approvals", ["round_id"])
    op.create_index("ix_approvals_status", "approvals", ["status"])
    # R15: every request and every answer enters the hash chain as it is written.
    records.install_triggers(op.get_bind(), AUDITED)


def downgrade() -> None:
    records.drop_triggers(op.get_bind(), AUDITED)
    op.drop_index("ix_approvals_status", table_name="approvals")
    op.drop_index("ix_approvals_round_id", table_name="approvals")
    op.drop_table("approvals")
    _dispute_status_length(32, 16)
