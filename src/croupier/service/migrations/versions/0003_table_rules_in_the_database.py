"""a table's rules stored with it, so that no restart depends on a profile file (issue 10)

Adds ``game_tables.profile_document`` (the validated profile as canonical JSON) and
``game_tables.rules_version`` (its hash), and fills them for every existing table from the
profile it names, as the server used to load it at each start; adds ``rule_sets``, the rules
of every version a shoe or round is dealt under from now on (and those of these tables). A table whose operator's file
cannot be read now is left without (``NULL``); the server then keeps it out of play and
returns the stakes of its round under way (``Casino.load``), instead of refusing to start.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from croupier.errors import ProfileError
from croupier.rules.registry import load_profile
from croupier.service import table_rules

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("profile_document", sa.Text(), nullable=True))
        batch.add_column(sa.Column("rules_version", sa.String(length=96), nullable=True))
    rule_sets = op.create_table(
        "rule_sets",
        sa.Column("rules_version", sa.String(length=96), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("rules_version"),
    )
    tables = sa.table(
        "game_tables",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("profile", sa.String()),
        sa.column("profile_document", sa.Text()),
        sa.column("rules_version", sa.String()),
    )
    connection = op.get_bind()
    rows = connection.execute(sa.select(tables.c.id, tables.c.name, tables.c.profile)).all()
    stored: set[str] = set()
    for table_id, name, origin in rows:
        try:
            profile = load_profile(origin)
        except ProfileError as error:
            log.warning("table %s: its rules cannot be stored: %s", name, error)
            continue
        text = table_rules.document(profile)
        version = table_rules.version_of(profile.name, text)
        connection.execute(
            sa.update(tables)
            .where(tables.c.id == table_id)
            .values(profile_document=text, rules_version=version)
        )
        if version not in stored:
            stored.add(version)
            connection.execute(
                sa.insert(rule_sets).values(rules_version=version, game=profile.game, document=text)
            )


def downgrade() -> None:
    op.drop_table("rule_sets")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rules_version")
        batch.drop_column("profile_document")
