"""Issue 11, item 2: a round is its events, and revision 0004 drops the commands stored
beside them (``rounds.inputs``) without losing what only they held: which decision was the
default applied at a deadline (now a ``DefaultApplied`` event), and, for a round stored with
commands but no events, the events themselves (dealt again from its shoe)."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import command
from sqlalchemy import inspect

from croupier.games.commands import Act, Bet, Command, Deal, to_step
from croupier.rules.registry import load_profile
from croupier.service import engines, table_rules
from croupier.service.database import alembic_config, make_engine, upgrade


def old_round(seed: bytes) -> tuple[list[Any], list[Any]] | None:
    """A peru-2016 round from ``seed`` with seat 1's decision the default applied at its
    deadline and seat 2's still awaited: its commands as the live table stored them (the
    default marked ``"timeout": true``), and the events today's table records for it
    (``None`` if the deal leaves no such round)."""
    profile = load_profile("peru-2016")
    game = engines.new_round(profile, engines.open_shoe(profile, seed))
    commands: list[Command] = [Bet(1, "main", 10), Bet(2, "main", 10), Deal()]
    for step in commands:
        game.apply(step)
    decision = game.pending()
    if decision is None or decision.seat != 1:
        return None
    commands.append(Act(1, decision.default, by_default=True))
    game.apply(commands[-1])
    if game.pending() is None:
        return None
    return [to_step(step) for step in commands], [item.to_json() for item in game.events]


def as_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def test_revision_0004_keeps_what_only_the_stored_commands_held(empty_database_url: str) -> None:
    profile = load_profile("peru-2016")
    text = table_rules.document(profile)
    version = table_rules.version_of(profile.name, text)
    seed, (inputs, today) = next(
        (seed, made)
        for seed in (bytes([n]) * 32 for n in range(100))
        if (made := old_round(seed)) is not None
    )
    as_stored = [item for item in today if item["kind"] != "DefaultApplied"]
    assert len(as_stored) == len(today) - 1 and inputs[-1]["timeout"] is True

    engine = make_engine(empty_database_url)
    config = alembic_config(empty_database_url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
        connection.execute(
            sa.text(
                "INSERT INTO game_tables (id, name, game, profile, is_open, betting_seconds, "
                "decision_seconds, seats, profile_document, rules_version) VALUES (1, 't', "
                "'blackjack', 'peru-2016', true, 60, 60, '{}', :text, :version)"
            ),
            {"text": text, "version": version},
        )
        connection.execute(
            sa.text("INSERT INTO rule_sets VALUES (:version, 'blackjack', :text)"),
            {"text": text, "version": version},
        )
        for shoe_id in (1, 2):
            connection.execute(
                sa.text(
                    "INSERT INTO shoes (id, table_id, seed_hex, commitment, rules_version, "
                    "decks, cut_card_from_bottom, opening, position, is_revealed, created_at) "
                    "VALUES (:id, 1, :seed, 'c', :version, 6, 60, '[]', 0, false, 0)"
                ),
                {"id": shoe_id, "seed": seed.hex(), "version": version},
            )
        # Round 1: a decision defaulted at its deadline, the round under way. Round 2 (on a
        # shoe of its own, from the same seed): its commands stored, its events not.
        for round_id, events in ((1, as_stored), (2, [])):
            connection.execute(
                sa.text(
                    "INSERT INTO rounds (id, table_id, shoe_id, rules_version, status, "
                    "start_position, inputs, events, stakes, ready, created_at) VALUES "
                    "(:id, 1, :id, :version, 'playing', 0, :inputs, :events, '{}', '[]', 0)"
                ),
                {
                    "id": round_id,
                    "version": version,
                    "inputs": json.dumps(inputs),
                    "events": json.dumps(events),
                },
            )

    upgrade(engine)
    with engine.begin() as connection:
        assert "inputs" not in {
            column["name"] for column in inspect(connection).get_columns("rounds")
        }
        rows = connection.execute(sa.text("SELECT id, events FROM rounds ORDER BY id")).all()
    assert {round_id: as_json(events) for round_id, events in rows} == {1: today, 2: today}

    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0003")
        rows = connection.execute(
            sa.text("SELECT id, inputs, events FROM rounds ORDER BY id")
        ).all()
    back = {round_id: (as_json(steps), as_json(events)) for round_id, steps, events in rows}
    assert back == {1: (inputs, as_stored), 2: (inputs, as_stored)}
    engine.dispose()
