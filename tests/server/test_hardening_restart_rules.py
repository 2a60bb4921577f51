"""Issue 10, item 1: a restart never depends on a profile file.

A table opened from the operator's own file (``POST /operator/tables {"profile":
"/path/house-rules.toml"}``) used to be reloaded from that path at every start: with the file
deleted, every later start exited with status 2 (``unknown profile``); with the file edited,
the table came back under other rules than its rounds were dealt under. The validated profile
is now stored with the table (revision 0003) and start-up reads only the database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from server_support import OPERATOR_TOKEN, Table, make_api

from croupier.rules.registry import _shipped_dir, load_profile
from croupier.server.app import start
from croupier.server.context import Settings
from croupier.service import engines, table_rules
from croupier.service.clock import ManualClock
from croupier.service.database import alembic_config, make_engine
from croupier.service.models import GameTable


def house_rules(folder: Path, *, decks: int = 4, maximum: int = 50) -> Path:
    """The operator's own profile: spain-1979 dealt from ``decks`` decks, 1 to ``maximum``."""
    text = (_shipped_dir() / "spain-1979.toml").read_text(encoding="utf-8")
    text = text.replace('name = "spain-1979"', 'name = "house-rules"', 1)
    text = text.replace("decks = 6", f"decks = {decks}", 1)
    text = text.replace(
        "limits = { minimum = 1, maximum = 200 }",
        f"limits = {{ minimum = 1, maximum = {maximum} }}",
    )
    path = folder / "house-rules.toml"
    path.write_text(text, encoding="utf-8")
    return path


def tables_now(api: Any) -> dict[int, tuple[str, int, dict[str, Any]]]:
    """Each live table's rules version, decks and limits, as the server holds them."""
    return {
        live.id: (
            engines.rules_version(live.profile),
            engines.decks(live.profile),
            api.get(f"/tables/{live.id}", OPERATOR_TOKEN).json()["table"]["limits"],
        )
        for live in api.server.casino.tables.values()
    }


def test_a_table_from_an_operators_file_keeps_its_rules_when_the_file_goes_or_changes(
    database_url: str, tmp_path: Path
) -> None:
    path = house_rules(tmp_path)
    made = make_api(database_url)
    api = next(made)
    house = Table(api, str(path), ["ana"])
    shipped = Table(api, "peru-2016", ["ben"])
    assert api.server.casino.table(house.id).profile.name == "house-rules"
    answer = api.post(
        f"/tables/{house.id}/bets", house.tokens["ana"], {"seat": 1, "wager": "main", "amount": 50}
    )
    assert answer.status_code == 200, answer.text
    before = tables_now(api)
    assert before[house.id][1] == 4 and before[house.id][2]["main"]["maximum"] == 50
    made.close()

    path.unlink()  # the operator's file is gone
    made = make_api(database_url)
    api = house.api = shipped.api = next(made)
    assert tables_now(api) == before
    assert house.state()["round"]["stakes"] == {"1": 50 * 100}  # the round resumed, not voided
    made.close()

    house_rules(tmp_path, decks=8, maximum=500)  # a file of the same name, other rules
    made = make_api(database_url)
    api = house.api = shipped.api = next(made)
    assert tables_now(api) == before
    round_id = house.state()["round"]["id"]
    house.ready_all()
    house.play_out(round_id)
    recalled = house.recall(round_id)
    assert recalled["rules_version"] == before[house.id][0]
    too_much = api.post(
        f"/tables/{house.id}/bets", house.tokens["ana"], {"seat": 1, "wager": "main", "amount": 51}
    )
    assert too_much.status_code == 422, too_much.text  # still the stored maximum, 50
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0
    made.close()


def test_revision_0003_stores_the_rules_of_tables_made_under_0002(
    database_url: str, tmp_path: Path
) -> None:
    """A database at revision 0002 with three tables: one under a shipped profile, one under
    an operator's file still present, one whose file is gone. The migration stores the rules
    of the first two; the third is left without, and the server starts all the same, keeping
    that table (and its escrow) out of play instead of exiting."""
    path = house_rules(tmp_path)
    engine = make_engine(database_url)
    with engine.begin() as connection:
        config = alembic_config(database_url)
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        rows = [
            ("shipped", "blackjack", "peru-2016"),
            ("house", "blackjack", str(path)),
            ("lost", "blackjack", str(tmp_path / "gone.toml")),
        ]
        for name, game, origin in rows:
            connection.execute(
                sa.text(
                    "INSERT INTO game_tables (name, game, profile, is_open, betting_seconds,"
                    " decision_seconds, seats) VALUES (:n, :g, :p, :o, 15, 20, '{}')"
                ),
                {"n": name, "g": game, "p": origin, "o": True},
            )
    with engine.begin() as connection:
        config = alembic_config(database_url)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        stored = {
            row.name: (row.profile_document, row.rules_version)
            for row in connection.execute(sa.select(GameTable.__table__))
        }
    engine.dispose()
    for name, origin in (("shipped", "peru-2016"), ("house", str(path))):
        profile = load_profile(origin)
        text = table_rules.document(profile)
        assert stored[name] == (text, engines.rules_version(profile))
        assert table_rules.from_document("blackjack", text, stored[name][1]) == profile
    assert stored["lost"] == (None, None)

    path.unlink()
    server = start(Settings(database_url=database_url, clock=ManualClock(), demo_tables=False))
    try:
        names = {live.name: live for live in server.casino.tables.values()}
        assert sorted(names) == ["house", "shipped"]
        assert names["house"].profile.name == "house-rules"
        assert engines.decks(names["house"].profile) == 4
        assert any(note.startswith("table lost: left out of play") for note in server.notes), (
            server.notes
        )
    finally:
        server.uow.dispose()


def test_revision_0003_downgrades_and_upgrades_again(database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.begin() as connection:
        config = alembic_config(database_url)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        command.downgrade(config, "0002")
        columns = {c["name"] for c in sa.inspect(connection).get_columns("game_tables")}
        assert "profile_document" not in columns and "rules_version" not in columns
        command.upgrade(config, "head")
        columns = {c["name"] for c in sa.inspect(connection).get_columns("game_tables")}
        assert {"profile_document", "rules_version"} <= columns
    engine.dispose()


def test_an_edited_rules_row_is_caught_by_its_hash(database_url: str) -> None:
    """The stored text must hash to the stored version: a row changed behind the server's
    back keeps its table out of play rather than dealing under rules no round recorded."""
    made = make_api(database_url)
    api = next(made)
    table = Table(api, "peru-2016", ["ana"])
    made.close()
    engine = make_engine(database_url)
    with engine.begin() as connection:
        text = connection.execute(
            sa.select(GameTable.profile_document).where(GameTable.id == table.id)
        ).scalar_one()
        connection.execute(
            sa.update(GameTable)
            .where(GameTable.id == table.id)
            .values(profile_document=text.replace('"decks": 6', '"decks": 1'))
        )
    engine.dispose()
    server = start(Settings(database_url=database_url, clock=ManualClock(), demo_tables=False))
    try:
        assert table.id not in server.casino.tables
        assert any("does not match its hash" in note for note in server.notes), server.notes
    finally:
        server.uow.dispose()
