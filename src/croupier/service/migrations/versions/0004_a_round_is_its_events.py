"""a round is its events: the commands stored beside them (``rounds.inputs``) go (issue 11)

Recovery and recall rebuild a round from its events alone (``games.replay.replay``), so the
copy of its commands is dropped. The one thing only that copy held is which decisions were
the house's default at a deadline (``"timeout": true``): each becomes a ``DefaultApplied``
event just before the decision's own record, where today's tables write it. A round stored
with commands but no events (no release wrote one; kept for safety) has its events made
again by dealing its commands from its shoe, as recovery once did; one whose commands do
not deal is left as it is, and recovery then voids it with every stake returned (R11).

``downgrade`` writes the commands back from the events and takes the ``DefaultApplied`` out.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import logging
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")

DECISIONS = frozenset(
    {
        "Decided",
        "Hit",
        "Stood",
        "Doubled",
        "Split",
        "InsuranceTaken",
        "InsuranceDeclined",
        "EvenMoneyTaken",
        "Called",
        "Folded",
    }
)
"""The record's kinds of a seat's decision when this revision was written: one per ``act``."""

ROUNDS = sa.table(
    "rounds",
    sa.column("id", sa.Integer()),
    sa.column("table_id", sa.Integer()),
    sa.column("shoe_id", sa.Integer()),
    sa.column("rules_version", sa.String()),
    sa.column("start_position", sa.Integer()),
    sa.column("inputs", sa.JSON()),
    sa.column("events", sa.JSON()),
)


def with_defaults_marked(inputs: list[Any], events: list[Any]) -> list[Any] | None:
    """``events`` with a ``DefaultApplied`` before each decision that ``inputs`` marks as
    timed out; ``None`` when nothing changes (or the two do not pair up: left as they are)."""
    acts = [step for step in inputs if isinstance(step, dict) and step.get("op") == "act"]
    if not any(step.get("timeout") for step in acts):
        return None
    decisions = [i for i, item in enumerate(events) if item.get("kind") in DECISIONS]
    if len(decisions) != len(acts):
        return None
    marked = {index for index, step in zip(decisions, acts, strict=True) if step.get("timeout")}
    upgraded: list[Any] = []
    for index, item in enumerate(events):
        if index in marked:
            upgraded.append({"kind": "DefaultApplied", "seat": item["seat"]})
        upgraded.append(item)
    return upgraded


def events_dealt_again(connection: sa.Connection, row: Any) -> list[Any] | None:
    """The events of a round stored with commands only, from its shoe and its rules."""
    from croupier.games.commands import from_step
    from croupier.ledger.book import MINOR_PER_UNIT
    from croupier.service import engines, table_rules

    shoe_row = connection.execute(
        sa.text("SELECT seed_hex FROM shoes WHERE id = :id"), {"id": row.shoe_id}
    ).first()
    rules = connection.execute(
        sa.text("SELECT game, document FROM rule_sets WHERE rules_version = :v"),
        {"v": row.rules_version},
    ).first()
    if shoe_row is None or rules is None:
        return None
    try:
        profile = table_rules.from_document(rules.game, rules.document, row.rules_version)
        shoe = engines.open_shoe(profile, bytes.fromhex(shoe_row.seed_hex))
        while shoe.position < row.start_position:
            shoe.draw()
        meter = None
        if engines.round_class(profile).takes_meter:
            held = connection.execute(
                sa.text("SELECT balance FROM accounts WHERE kind = 'jackpot' AND owner = :o"),
                {"o": f"table:{row.table_id}"},
            ).scalar()
            meter = Fraction(int(held), MINOR_PER_UNIT) if held else None
        game_round = engines.new_round(profile, shoe, meter)
        for step in row.inputs:
            game_round.apply(from_step(step))
    except Exception as error:  # any failure leaves the round to recovery (R11)
        log.warning("round %s: its events cannot be made again: %s", row.id, error)
        return None
    return [item.to_json() for item in game_round.events]


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(
            ROUNDS.c.id,
            ROUNDS.c.table_id,
            ROUNDS.c.shoe_id,
            ROUNDS.c.rules_version,
            ROUNDS.c.start_position,
            ROUNDS.c.inputs,
            ROUNDS.c.events,
        ).order_by(ROUNDS.c.id)
    ).all()
    for row in rows:
        inputs, events = row.inputs or [], row.events or []
        if not events and inputs:
            events = events_dealt_again(connection, row)  # its defaults included
            if events is None:
                continue
        else:
            events = with_defaults_marked(inputs, events)
            if events is None:
                continue
        connection.execute(sa.update(ROUNDS).where(ROUNDS.c.id == row.id).values(events=events))
    if connection.dialect.name == "sqlite":
        # SQLite 3.35's own DROP COLUMN: a batch rebuild would drop the table, which the
        # foreign keys of round_players and back_bets forbid.
        op.execute("ALTER TABLE rounds DROP COLUMN inputs")
    else:
        op.drop_column("rounds", "inputs")


def downgrade() -> None:
    from croupier.games.commands import Void, to_step
    from croupier.games.events import Event, upgrade
    from croupier.games.record import commands_of

    connection = op.get_bind()
    empty = sa.text("'[]'")
    op.add_column("rounds", sa.Column("inputs", sa.JSON(), nullable=False, server_default=empty))
    for row in connection.execute(sa.select(ROUNDS.c.id, ROUNDS.c.events)).all():
        events = row.events or []
        record = upgrade(Event.from_json(item) for item in events)
        inputs = [to_step(c) for c in commands_of(record) if not isinstance(c, Void)]
        kept = [item for item in events if item.get("kind") != "DefaultApplied"]
        connection.execute(
            sa.update(ROUNDS).where(ROUNDS.c.id == row.id).values(inputs=inputs, events=kept)
        )
    if connection.dialect.name != "sqlite":  # SQLite keeps the default (no table rebuild)
        op.alter_column("rounds", "inputs", existing_type=sa.JSON(), server_default=None)
