"""A database written by the release still starts, recovers, recalls and verifies after the
upgrade (issue 11, "Done when": "a migration converts what it must, tested on a database made
by the current release with rounds of every profile in every phase"; RELIABILITY R10, R11, R14,
R18, R19).

``fixtures/release-f77779e.sqlite`` was written by release f77779e through its own HTTP API
(``tools/make_release_fixture.py``); ``release-f77779e.json`` beside it records what the
release showed then, and what it did when each round under way was carried on to its end.
Each test starts this build's server on a copy (its migrations, then recovery) and holds it to
that record: the same phase and pending decision at every table, the same recall of every
ended round, the same books, the same shoes; and, once every round under way is carried on in
the same way, the same cards and the same money to each player, to the minor unit.

What is compared is what an upgrade must keep: statuses, decisions, the cards each round was
dealt (as a set: a record may come to name a card more or fewer times), and the ledger. The
events' own wording may change with the engine (issue 11, item 3).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from server_support import Api, make_api

from croupier.cli.main import app as croupier_cli
from croupier.service.backup import backup, differences, restore
from croupier.service.database import alembic_config, make_engine

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "release-f77779e.sqlite"
RECORD: dict[str, Any] = json.loads(FIXTURE.with_suffix(".json").read_text(encoding="utf-8"))
TABLES: dict[str, dict[str, Any]] = RECORD["tables"]


@dataclass
class Upgraded:
    """This build's server on a copy of the release's database, its players signed in."""

    api: Api
    url: str
    tokens: dict[str, str]

    def get(self, path: str, name: str | None = None) -> Any:
        token = self.tokens[name] if name else RECORD["operator_token"]
        answer = self.api.get(path, token)
        assert answer.status_code == 200, f"GET {path}: {answer.status_code} {answer.text}"
        return answer.json()

    def post(self, path: str, name: str, body: Any = None) -> Any:
        answer = self.api.post(path, self.tokens[name], body)
        assert answer.status_code == 200, f"POST {path}: {answer.status_code} {answer.text}"
        return answer.json()

    def ledger(self) -> dict[str, dict[str, int]]:
        """Each player's wallet entries summed by round, as the release's record has them."""
        return {
            name: by_round(self.get("/me/ledger?limit=500", name)["entries"])
            for name in self.tokens
        }

    def carry_on(self, entry: dict[str, Any]) -> None:
        """The record's continuation: every seated player ready, then every decision answered
        with ``stand`` or ``call`` where legal, else the decision's default."""
        table, round_id = entry["table"], entry["under_way"]
        seats = {int(seat): name for seat, name in entry["seats"].items()}
        if self.get(f"/tables/{table}")["round"]["status"] == "betting":
            for name in sorted(set(seats.values())):
                self.post(f"/tables/{table}/ready", name)
        for _ in range(100):
            state = self.get(f"/tables/{table}")["round"]
            if state["id"] != round_id:
                return
            pending = state["pending"]
            action = next((a for a in ("stand", "call") if a in pending["legal"]), None)
            body = {"seat": pending["seat"], "action": action or pending["default"]}
            self.post(f"/tables/{table}/actions", seats[pending["seat"]], body)
        raise AssertionError(f"round {round_id} did not end")


def by_round(entries: list[dict[str, Any]]) -> dict[str, int]:
    sums: dict[str, int] = {}
    for entry in entries:
        reference = ":".join(str(entry["reference"]).split(":")[:2])
        sums[reference] = sums.get(reference, 0) + int(entry["amount"])
    return sums


def cards_of(events: list[dict[str, Any]]) -> set[str]:
    return {str(event["card"]) for event in events if "card" in event}


def recorded_cards(text: str) -> set[str]:
    return set(text.split())


def upgraded_copy(folder: Path) -> Iterator[Upgraded]:
    copy = folder / "upgraded.sqlite"
    shutil.copyfile(FIXTURE, copy)
    url = f"sqlite:///{copy}"
    for api in make_api(url):
        tokens = {}
        for name, password in RECORD["players"].items():
            body = {"username": name, "password": password}
            answer = api.post("/auth/signin", None, body, key=None)
            assert answer.status_code == 200, answer.text
            tokens[name] = answer.json()["token"]
        yield Upgraded(api, url, tokens)


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Upgraded]:
    """Started once; the tests that use it only read."""
    yield from upgraded_copy(tmp_path_factory.mktemp("upgraded"))


@pytest.fixture(scope="module")
def carried_on(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Upgraded]:
    """Another copy, every round under way carried on to its end as the record's was."""
    for server in upgraded_copy(tmp_path_factory.mktemp("carried-on")):
        for entry in TABLES.values():
            if "under_way" in entry:
                server.carry_on(entry)
        yield server


def test_the_fixture_holds_every_profile_in_every_phase() -> None:
    """The record itself: rounds of each of the six profiles settled, voided and in betting
    with bets placed, a decision waiting at each game that has decisions, Spain's back bets."""
    profiles = {entry["profile"] for entry in TABLES.values()} - {"veintiuno-real-one-deck"}
    assert len(profiles) == 6
    for profile in profiles:
        entries = [entry for entry in TABLES.values() if entry["profile"] == profile]
        statuses = {r["status"] for entry in entries for r in entry["rounds"].values()}
        assert statuses == {"complete", "interrupted"}, profile
        under_way = {entry["status"] for entry in entries}
        game = entries[0]["game"]
        assert under_way == ({"betting"} if game == "baccarat" else {"betting", "playing"})
        for entry in entries:
            assert all(int(minor) > 0 for minor in entry["stakes"].values()), entry
    assert len(TABLES["spain-1979 a"]["back_bets"]) == 4
    assert RECORD["audit"]["problems"] == [] and RECORD["audit"]["sum"] == 0


def test_the_database_is_migrated_to_the_head_revision(upgraded: Upgraded) -> None:
    engine = make_engine(upgraded.url)
    try:
        config = alembic_config(upgraded.url)
        head = ScriptDirectory.from_config(config).get_current_head()
        with engine.begin() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == head
            config.attributes["connection"] = connection
            command.check(config)  # raises where the models and the migrated schema differ
    finally:
        engine.dispose()


def test_every_table_recovers_with_its_round_in_the_same_phase(upgraded: Upgraded) -> None:
    """R10, R11: no round is voided or left out by the upgrade; each table's round is the
    same round, in the same phase, with the same stakes and the same decision waiting."""
    notes = upgraded.api.server.notes
    assert not [note for note in notes if "voided" in note or "left out" in note], notes
    listed = {table["name"]: table for table in upgraded.get("/tables")["tables"]}
    assert set(listed) == set(TABLES)
    for name, entry in TABLES.items():
        state = upgraded.get(f"/tables/{entry['table']}")
        assert state["table"]["seats"] == entry["seats"], name
        if "under_way" not in entry:  # one-deck: its last round settled, a new one open
            assert state["round"]["status"] == "betting" and state["round"]["stakes"] == {}
            continue
        round_now = state["round"]
        assert round_now["id"] == entry["under_way"], name
        assert round_now["status"] == entry["status"], name
        assert round_now["stakes"] == entry["stakes"], name
        assert round_now["pending"] == entry["pending"], name


def test_every_ended_round_recalls_as_the_release_recorded_it(upgraded: Upgraded) -> None:
    """R14: the inspector recalls every settled and voided round with its cards; a player
    recalls their own."""
    for name, entry in TABLES.items():
        for round_id, recorded in entry["rounds"].items():
            recall = upgraded.get(f"/rounds/{round_id}")
            assert recall["status"] == recorded["status"], (name, round_id)
            assert recall["table_id"] == entry["table"]
            assert cards_of(recall["events"]) == recorded_cards(recorded["cards"]), round_id
            if recorded["status"] == "interrupted":
                assert any(event["kind"] == "RoundVoided" for event in recall["events"])
            own = upgraded.get(f"/rounds/{round_id}", "ana")
            assert own["round"] == int(round_id)


def test_the_books_are_as_the_release_left_them(upgraded: Upgraded) -> None:
    """R9: the audit is 0, and every wallet holds what it held, entry by entry."""
    audit = upgraded.get("/operator/audit")
    assert audit["problems"] == [] and audit["sum"] == 0
    assert audit["accounts"] == RECORD["audit"]["accounts"]
    assert {name: upgraded.get("/me", name)["balance"] for name in upgraded.tokens} == RECORD[
        "balances"
    ]
    assert upgraded.ledger() == RECORD["ledger"]


def test_every_revealed_shoe_verifies_with_croupier_verify(
    upgraded: Upgraded, tmp_path: Path
) -> None:
    """R18: each shoe keeps its commitment, and each revealed one (Casino Hold'em's after
    every round, the shoes of voided rounds, the one-deck table's) passes ``croupier verify``
    with every round dealt from it."""
    revealed = 0
    for shoe_id, recorded in RECORD["shoes"].items():
        shoe = upgraded.get(f"/shoes/{shoe_id}")
        assert shoe["commitment"] == recorded["commitment"]
        assert shoe["is_revealed"] == recorded["is_revealed"]
        if not shoe["is_revealed"]:
            continue
        export = tmp_path / f"shoe-{shoe_id}.json"
        export.write_text(json.dumps(upgraded.get(f"/shoes/{shoe_id}/export")), encoding="utf-8")
        verified = CliRunner().invoke(croupier_cli, ["verify", str(export)])
        assert verified.exit_code == 0, verified.output
        assert verified.output.startswith(f"verified: shoe {shoe_id} ")
        revealed += 1
    assert revealed >= 10


def test_a_backup_of_the_upgraded_database_restores_it_row_for_row(
    upgraded: Upgraded, tmp_path: Path
) -> None:
    """R19: ``croupier backup`` of the upgraded database, restored into a fresh one, differs
    from it in no row."""
    copy = tmp_path / "backup.sqlite"
    backup(upgraded.url, copy)
    restored = f"sqlite:///{tmp_path / 'restored.sqlite'}"
    restore(copy, restored)
    assert differences(upgraded.url, restored) == []


def test_every_round_under_way_ends_as_the_release_ended_it(carried_on: Upgraded) -> None:
    """Bets placed before the upgrade are dealt after it, decisions waiting before it are
    answered after it, and each round ends with the cards and the money the release gave it
    (docs/rules.md's payouts as the release applied them), back bets included."""
    for name, entry in TABLES.items():
        if "under_way" not in entry:
            continue
        round_id = str(entry["under_way"])
        recorded = RECORD["continued"]["rounds"][round_id]
        recall = carried_on.get(f"/rounds/{round_id}")
        assert recall["status"] == recorded["status"] == "complete", name
        assert cards_of(recall["events"]) == recorded_cards(recorded["cards"]), name
    assert carried_on.ledger() == RECORD["continued"]["ledger"]
    balances = {name: carried_on.get("/me", name)["balance"] for name in carried_on.tokens}
    assert balances == RECORD["continued"]["balances"]
    audit = carried_on.get("/operator/audit")
    assert audit["problems"] == [] and audit["sum"] == 0


@pytest.mark.parametrize(
    "name", sorted(n for n, e in TABLES.items() if e.get("status") == "playing")
)
def test_a_waiting_decision_is_answered_and_paid_as_the_release_paid_it(
    carried_on: Upgraded, name: str
) -> None:
    """The round dealt before the upgrade and waiting on a decision (blackjack: stand;
    Casino Hold'em: call) settles after it with each player's payout exactly the release's,
    and the answer was one the decision offered before the upgrade."""
    entry = TABLES[name]
    answer = next(a for a in ("stand", "call") if a in entry["pending"]["legal"])
    assert answer in entry["pending"]["legal"]
    reference = f"round:{entry['under_way']}"
    paid = {player: sums.get(reference, 0) for player, sums in carried_on.ledger().items()}
    release_paid = {
        player: sums.get(reference, 0) for player, sums in RECORD["continued"]["ledger"].items()
    }
    assert paid == release_paid
    assert carried_on.get(f"/rounds/{entry['under_way']}")["status"] == "complete"


WAITING = {name: entry for name, entry in TABLES.items() if entry.get("status") == "playing"}
MOST_ACTIONS = max(len(entry["pending"]["legal"]) for entry in WAITING.values())


@pytest.mark.parametrize("index", range(MOST_ACTIONS))
def test_each_action_a_waiting_decision_offered_is_still_accepted(
    tmp_path: Path, index: int
) -> None:
    """Every action the release offered at each waiting decision (hit, stand, double, split;
    call, fold) is accepted after the upgrade: the ``index``-th of each, on a copy of its own,
    and the books still audit at 0."""
    for server in upgraded_copy(tmp_path):
        for name, entry in WAITING.items():
            legal = entry["pending"]["legal"]
            if index >= len(legal):
                continue
            seat = entry["pending"]["seat"]
            owner = entry["seats"][str(seat)]
            body = {"seat": seat, "action": legal[index]}
            answer = server.post(f"/tables/{entry['table']}/actions", owner, body)
            assert answer["action"] == legal[index], name
        audit = server.get("/operator/audit")
        assert audit["problems"] == [] and audit["sum"] == 0
