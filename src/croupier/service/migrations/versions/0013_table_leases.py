"""table leases: which server process runs each table, at which epoch (issue 29, item 1)

Revision ID: 0013
Revises: 0012

Several ``croupier serve`` processes share one PostgreSQL database: each open table is run by
one of them at a time, the owner of its lease (``service.leases``). A lease row names the
owner, the epoch (raised by one at every change of owner: the fencing token every command's
transaction checks before it commits) and when it expires on the database's clock. A process
row says that a process lives (its heartbeat) and where it answers, so that tables are spread
across the live ones and a request that reaches another process finds the owner. Neither
table is audited: a lease moves money nowhere, and it changes every second.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("owner", sa.String(200), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "serve_processes",
        sa.Column("owner", sa.String(200), primary_key=True),
        sa.Column("address", sa.String(400), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("serve_processes")
    op.drop_table("table_leases")
