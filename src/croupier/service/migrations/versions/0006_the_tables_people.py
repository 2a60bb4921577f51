"""the table's people: staff roles, dealers' tables, the staff's record, disputes (issue 14)

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from croupier.audit import records

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

AUDITED = ("staff_roles", "dealer_assignments", "staff_actions", "disputes")
"""The tables of this revision that the audit chain covers (revision 0005's triggers)."""


def upgrade() -> None:
    op.create_table(
        "staff_roles",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("granted_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("granted_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "dealer_assignments",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("assigned_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("assigned_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "staff_actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("actor_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("subject", sa.String(128), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_staff_actions_actor_id", "staff_actions", ["actor_id"])
    op.create_index("ix_staff_actions_created_at", "staff_actions", ["created_at"])
    op.create_table(
        "disputes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("rounds.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("decided_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("decided_at", sa.Float(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("corrections", sa.JSON(), nullable=False),
        sa.Column(
            "transaction_id",
            sa.Integer(),
            sa.ForeignKey("ledger_transactions.id"),
            nullable=True,
        ),
    )
    op.create_index("ix_disputes_round_id", "disputes", ["round_id"])
    op.create_index("ix_disputes_user_id", "disputes", ["user_id"])
    op.create_index("ix_disputes_status", "disputes", ["status"])
    # R15: role changes, staff actions and dispute decisions enter the hash chain as they
    # are written, like the ledger and the rounds (audit.records.AUDITED).
    records.install_triggers(op.get_bind(), AUDITED)


def downgrade() -> None:
    records.drop_triggers(op.get_bind(), AUDITED)
    op.drop_table("disputes")
    op.drop_table("staff_actions")
    op.drop_table("dealer_assignments")
    op.drop_table("staff_roles")
