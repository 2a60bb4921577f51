"""absent seats: the rounds each seat's player missed, and when a seat sits out and is freed

Revision ID: 0008
Revises: 0007

The columns are nullable with no default: a table's row from before keeps its audited
digest (R15: ``None`` columns are left out of it) until one of its seats misses a round.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, not a batch copy: SQLite's copy of the table would drop its audit
    # triggers (revision 0005).
    op.add_column("game_tables", sa.Column("absences", sa.JSON(), nullable=True))
    op.add_column("game_tables", sa.Column("sit_out_after", sa.Integer(), nullable=True))
    op.add_column("game_tables", sa.Column("free_after", sa.Integer(), nullable=True))


def downgrade() -> None:
    # Plain DROP COLUMN (SQLite 3.35 and later have it) for the same reason.
    for column in ("free_after", "sit_out_after", "absences"):
        op.drop_column("game_tables", column)
