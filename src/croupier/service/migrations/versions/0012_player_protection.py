"""player protection: limits, breaks and self-exclusions (issue 27, items 1 to 3)

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from croupier.audit import records

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

AUDITED = ("player_limits", "player_pauses")
"""The tables of this revision that the audit chain covers (revision 0005's triggers)."""


def upgrade() -> None:
    op.create_table(
        "player_limits",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("setter", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("period", sa.String(16), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("set_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("effective_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_player_limits_user_id", "player_limits", ["user_id"])
    op.create_table(
        "player_pauses",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("ends_at", sa.Float(), nullable=False),
        sa.Column("set_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_player_pauses_user_id", "player_pauses", ["user_id"])
    # R15: every setting and change enters the hash chain as it is written, with who and when.
    records.install_triggers(op.get_bind(), AUDITED)


def downgrade() -> None:
    records.drop_triggers(op.get_bind(), AUDITED)
    op.drop_index("ix_player_pauses_user_id", table_name="player_pauses")
    op.drop_table("player_pauses")
    op.drop_index("ix_player_limits_user_id", table_name="player_limits")
    op.drop_table("player_limits")
