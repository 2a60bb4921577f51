"""the physical shoe: a table dealt by hand from a real shoe, its procedures recorded (issue 14)

Revision ID: 0009
Revises: 0008

Both columns are NULL for what existed before (a random shoe): an audited row's digest covers
its non-null columns only, so every earlier entry of the chain still holds (R15).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from croupier.audit import records

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("shoe", sa.String(16), nullable=True))
    with op.batch_alter_table("shoes") as batch:
        batch.add_column(sa.Column("procedures", sa.JSON(), nullable=True))


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite 3.35 and PostgreSQL): SQLite's copy of the table (batch
    # mode) would trip the foreign keys that point at it and lose its audit triggers.
    records.drop_triggers(op.get_bind(), ("game_tables", "shoes"))
    op.execute("ALTER TABLE shoes DROP COLUMN procedures")
    op.execute("ALTER TABLE game_tables DROP COLUMN shoe")
    records.install_triggers(op.get_bind(), ("game_tables", "shoes"))
