"""a table's own limits, set by the operator over its profile's (docs/rules.md §6)

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("limits", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("game_tables", "limits")
