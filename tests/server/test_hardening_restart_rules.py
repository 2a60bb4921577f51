"""Issue 10, item 1: a restart never depends on a profile file.

A table opened from the operator's own file (``POST /operator/tables {"profile":
"/path/house-rules.toml"}``) used to be reloaded from that path at every start: with the file
deleted, every later start exited with status 2 (``unknown profile``); with the file edited,
the table came back under other rules than its rounds were dealt under. The validated profile
is now stored with the table (revision 0003) and start-up reads only the database.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from alembic import command
from server_support import OPERATOR_TOKEN, Api, Table, make_api

from croupier.clock import ManualClock
from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.rules.registry import _shipped_dir, load_profile
from croupier.server.app import start
from croupier.server.context import Settings
from croupier.service import engines, table_rules
from croupier.service.database import alembic_config, make_engine
from croupier.service.models import GameTable, RuleSet


@contextmanager
def serving(database_url: str) -> Iterator[Api]:
    """A server on the database, stopped at the end of the block (a restart: the next)."""
    made = make_api(database_url)
    try:
        yield next(made)
    finally:
        made.close()


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
            live.profile.table.decks,
            api.get(f"/tables/{live.id}", OPERATOR_TOKEN).json()["table"]["limits"],
        )
        for live in api.server.casino.tables.values()
    }


def test_a_table_from_an_operators_file_keeps_its_rules_when_the_file_goes_or_changes(
    database_url: str, tmp_path: Path
) -> None:
    path = house_rules(tmp_path)
    with serving(database_url) as api:
        house, shipped, before = _open_and_bet(api, path)
    path.unlink()  # the operator's file is gone
    with serving(database_url) as api:
        house.api = shipped.api = api
        assert tables_now(api) == before
        assert house.state()["round"]["stakes"] == {"1": 50 * 100}  # resumed, not voided
    house_rules(tmp_path, decks=8, maximum=500)  # a file of the same name, other rules
    with serving(database_url) as api:
        house.api = shipped.api = api
        assert tables_now(api) == before
        round_id = house.state()["round"]["id"]
        house.ready_all()
        house.play_out(round_id)
        assert house.recall(round_id)["rules_version"] == before[house.id][0]
        body = {"seat": 1, "wager": "main", "amount": 51}
        too_much = api.post(f"/tables/{house.id}/bets", house.tokens["ana"], body)
        assert too_much.status_code == 422, too_much.text  # still the stored maximum, 50
        assert api.audit()["problems"] == [] and api.audit()["sum"] == 0


def _open_and_bet(api: Api, path: Path) -> tuple[Table, Table, dict[int, Any]]:
    house = Table(api, str(path), ["ana"])
    shipped = Table(api, "peru-2016", ["ben"])
    assert api.server.casino.table(house.id).profile.name == "house-rules"
    body = {"seat": 1, "wager": "main", "amount": 50}
    answer = api.post(f"/tables/{house.id}/bets", house.tokens["ana"], body)
    assert answer.status_code == 200, answer.text
    before = tables_now(api)
    assert before[house.id][1] == 4 and before[house.id][2]["main"]["maximum"] == 50
    return house, shipped, before


def test_revision_0003_stores_the_rules_of_tables_made_under_0002(
    empty_database_url: str, tmp_path: Path
) -> None:
    """A database at revision 0002 with three tables: one under a shipped profile, one under
    an operator's file still present, one whose file is gone. The migration stores the rules
    of the first two; the third is left without, and the server starts all the same, keeping
    that table (and its escrow) out of play instead of exiting."""
    path = house_rules(tmp_path)
    engine = make_engine(empty_database_url)
    with engine.begin() as connection:
        config = alembic_config(empty_database_url)
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
        config = alembic_config(empty_database_url)
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
    engine = make_engine(empty_database_url)
    with engine.begin() as connection:
        selected = connection.execute(sa.select(RuleSet.rules_version, RuleSet.document))
        rule_sets = {version: text for version, text in selected}
    engine.dispose()
    assert rule_sets == {version: text for text, version in (stored["shipped"], stored["house"])}

    path.unlink()
    server = start(
        Settings(database_url=empty_database_url, clock=ManualClock(), demo_tables=False)
    )
    try:
        names = {live.name: live for live in server.casino.tables.values()}
        assert sorted(names) == ["house", "shipped"]
        assert names["house"].profile.name == "house-rules"
        assert names["house"].profile.table.decks == 4
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
    with serving(database_url) as api:
        table = Table(api, "peru-2016", ["ana"])
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


def test_every_round_is_replayed_under_rules_the_database_holds(
    database_url: str, tmp_path: Path
) -> None:
    """R14 with the operator's own file: each round names its rules version, and the
    database holds those rules (the file's, then with the operator's limits), so every
    round replays from its record alone once the file is gone."""
    path = house_rules(tmp_path)
    with serving(database_url) as api:
        table = Table(api, str(path), ["ana"])
        first = table.play_round()
        limits = {"wager": "main", "minimum": 1, "maximum": 20}
        changed = api.post(f"/operator/tables/{table.id}/limits", OPERATOR_TOKEN, limits)
        assert changed.status_code == 200, changed.text
        second = table.play_round()
    path.unlink()
    with serving(database_url) as api:
        table.api = api
        third = table.play_round()
        versions = set()
        for round_id in (first, second, third):
            record = table.recall(round_id)
            versions.add(record["rules_version"])
            profile = api.server.uow.read(
                lambda s, v=record["rules_version"]: table_rules.rules_of(s, v)
            )
            assert engines.rules_version(profile) == record["rules_version"]
            events = [Event.from_json(item) for item in record["events"]]
            assert replay(events, profile).events == events
        assert len(versions) == 2  # the file's limits, then the operator's (second round on)


def test_croupier_serve_starts_again_once_the_operators_file_is_deleted(tmp_path: Path) -> None:
    """The issue's own symptom, with the real ``croupier serve``: the start after the file
    went used to exit with status 2 (``unknown profile``)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bots import OPERATOR_TOKEN as SERVE_TOKEN
    from bots import ServerProcess

    path = house_rules(tmp_path)
    server = ServerProcess(f"sqlite:///{tmp_path / 'serve.sqlite'}", log_path=tmp_path / "log")
    headers = {"Authorization": f"Bearer {SERVE_TOKEN}"}
    body = {"name": "house", "profile": str(path)}
    server.start()
    try:
        made = httpx.post(
            f"{server.url}/operator/tables",
            json=body,
            headers={**headers, "Idempotency-Key": "open-the-house-table"},
        )
        assert made.status_code == 201, made.text
    finally:
        server.stop()
    path.unlink()
    server.start()  # raised "croupier serve exited with 2" before revision 0003
    try:
        listed = httpx.get(f"{server.url}/tables", headers=headers).json()
        (house,) = [table for table in listed["tables"] if table["name"] == "house"]
        assert house["profile"] == "house-rules"
        assert house["limits"]["main"] == {"minimum": 1, "maximum": 50}
    finally:
        server.stop()
