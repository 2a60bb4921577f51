"""payout corrections: a wrong payout or collection, proposed and confirmed (issue 14, item 3)

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from croupier.audit import records

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

AUDITED = ("payout_corrections",)
"""The tables of this revision that the audit chain covers (revision 0005's triggers)."""


def upgrade() -> None:
    op.create_table(
        "payout_corrections",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("rounds.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("proposed_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("proposed_at", sa.Float(), nullable=False),
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
    op.create_index("ix_payout_corrections_round_id", "payout_corrections", ["round_id"])
    op.create_index("ix_payout_corrections_user_id", "payout_corrections", ["user_id"])
    op.create_index("ix_payout_corrections_status", "payout_corrections", ["status"])
    # R15: a correction's proposal and its decision enter the hash chain as they are written.
    records.install_triggers(op.get_bind(), AUDITED)


def downgrade() -> None:
    records.drop_triggers(op.get_bind(), AUDITED)
    op.drop_index("ix_payout_corrections_status", table_name="payout_corrections")
    op.drop_index("ix_payout_corrections_user_id", table_name="payout_corrections")
    op.drop_index("ix_payout_corrections_round_id", table_name="payout_corrections")
    op.drop_table("payout_corrections")
