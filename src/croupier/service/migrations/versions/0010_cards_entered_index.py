"""an index for the cards a dealer entered: a round's (or a shoe's) ``card-entered`` actions

Revision ID: 0010
Revises: 0009

The operator's recall and the inspector's dispute page read a round's cards as the dealer
entered them (``physical.cards_entered``: the staff actions of one kind and one subject, in
order); without an index each read scanned every staff action ever recorded, one a card. The
index is on (subject, action, id): the two equalities, then the order, so neither SQLite nor
PostgreSQL sorts. An index changes no row, so every audited digest, and the chain, holds (R15).
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

INDEX = "ix_staff_actions_subject_action"


def upgrade() -> None:
    op.create_index(INDEX, "staff_actions", ["subject", "action", "id"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="staff_actions")
