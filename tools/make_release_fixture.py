"""Write the database of a release: every profile's rounds in every phase, for upgrade tests.

Run it with the release's own code checked out (the fixture's name says which commit)::

    uv run python tools/make_release_fixture.py

It plays through the table server's HTTP API on a manual clock (no deadline passes) and
writes ``tests/migrations/fixtures/release-<commit>.sqlite`` with its record beside it,
``release-<commit>.json``: what each table holds, and what the release does when every round
under way is carried on to its end (each player's balance after, the cards of each round).
``tests/migrations/test_release_database_upgrades.py`` holds a later build to that record.

What the database holds, for each of the six shipped profiles:

- table ``<profile> a``: settled rounds, a round voided (``interrupted``, stakes returned),
  and a round in betting with bets placed; at spain-1979 also a back bet accepted in a settled
  round, and one accepted and one still asked in the round in betting;
- table ``<profile> b`` (blackjack and Casino Hold'em: baccarat has no decision): settled
  rounds and a round dealt and waiting for a decision;
- table ``one-deck``: veintiuno-real dealt from one deck with an early cut card, played until
  its first shoe ended, so that a revealed shoe of a blackjack table is there to verify
  (Casino Hold'em shuffles for every round: each of its settled rounds' shoes is revealed).

The release voids a round only when recovery cannot rebuild it; the voided rounds here are
made that way: a round in betting is given a recorded command the engine does not know, and
the server is started again.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))

from server_support import OPERATOR_TOKEN, WAGERS, Api, make_api, minimum_bet, one_deck_profile

from croupier.rules.registry import load_profile, shipped_profile_names

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "migrations" / "fixtures"
PLAYERS = ("ana", "bruno", "carla")
CREDIT_MINOR = 1_000_000
PREFERRED = ("split", "double", "insurance", "even-money", "call", "hit")
"""Settled rounds take the first of these that is legal, so that the record holds splits,
doubles, insurance and calls; the decision's own default otherwise."""


def password(name: str) -> str:
    return f"password-of-{name}"


def commit_of_checkout() -> str:
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def varied(pending: dict[str, Any]) -> str:
    for word in PREFERRED:
        for action in pending["legal"]:
            if action.split()[0] == word:
                return str(action)
    return str(pending["default"])


def carry_on(pending: dict[str, Any]) -> str:
    """How the record's continuation answers every decision: stand, call, else the default."""
    for word in ("stand", "call"):
        if word in pending["legal"]:
            return word
    return str(pending["default"])


class Release:
    """The release's server on one database file, driven through its HTTP API."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self._running = make_api(f"sqlite:///{database}")
        self.api: Api = next(self._running)
        self.notes = list(self.api.server.notes)
        self.tokens = {name: self._sign_in(name) for name in PLAYERS}

    def _sign_in(self, name: str) -> str:
        body = {"username": name, "password": password(name)}
        answer = self.api.post("/auth/signin", None, body, key=None)
        if answer.status_code != 200:
            made = self.api.post("/auth/signup", None, body, key=None)
            assert made.status_code == 201, made.text
            answer = self.api.post("/auth/signin", None, body, key=None)
            credited = self.api.post(
                f"/operator/wallets/{name}/credit", OPERATOR_TOKEN, {"amount": CREDIT_MINOR}
            )
            assert credited.status_code == 200, credited.text
        assert answer.status_code == 200, answer.text
        token: str = answer.json()["token"]
        return token

    def stop(self) -> None:
        self._running.close()

    def ok(self, answer: Any) -> Any:
        assert answer.status_code in (200, 201), answer.text
        return answer.json()

    def post(self, path: str, name: str | None, body: Any = None) -> Any:
        token = self.tokens[name] if name else OPERATOR_TOKEN
        return self.ok(self.api.post(path, token, body))

    def get(self, path: str, name: str | None = None) -> Any:
        token = self.tokens[name] if name else OPERATOR_TOKEN
        return self.ok(self.api.get(path, token))

    def state(self, table: int) -> dict[str, Any]:
        state: dict[str, Any] = self.get(f"/tables/{table}")
        return state

    def balances(self) -> dict[str, int]:
        return {name: self.get("/me", name)["balance"] for name in PLAYERS}

    def ledger(self) -> dict[str, dict[str, int]]:
        """Each player's wallet entries summed by what they were for (``round:<id>``...)."""
        return {
            name: by_reference(self.get("/me/ledger?limit=500", name)["entries"])
            for name in PLAYERS
        }

    def audit(self) -> dict[str, Any]:
        report: dict[str, Any] = self.get("/operator/audit")
        return report


class Seating:
    """Who sits where at one table, and the bets of a round there."""

    def __init__(
        self, release: Release, table: int, profile: str, seats: dict[int, str], *, sit: bool
    ) -> None:
        self.release = release
        self.table = table
        self.profile = load_profile(profile)
        self.wager = WAGERS[self.profile.game]
        self.stake = minimum_bet(self.profile, self.wager)
        self.seats = seats
        for seat, name in seats.items() if sit else ():
            release.post(f"/tables/{table}/seats/{seat}", name)

    @classmethod
    def of(cls, release: Release, entry: dict[str, Any]) -> Seating:
        """The seating of a table the record describes (its players already seated)."""
        seats = {int(seat): name for seat, name in entry["seats"].items()}
        return cls(release, entry["table"], entry["profile"], seats, sit=False)

    def round_id(self) -> int:
        value: int = self.release.state(self.table)["round"]["id"]
        return value

    def bet(self, multiple: int = 1) -> int:
        round_id = self.round_id()
        for seat, name in self.seats.items():
            body = {"seat": seat, "wager": self.wager, "amount": self.stake * multiple}
            self.release.post(f"/tables/{self.table}/bets", name, body)
        return round_id

    def ready(self) -> None:
        for name in sorted(set(self.seats.values())):
            self.release.post(f"/tables/{self.table}/ready", name)

    def play_out(self, round_id: int, choose: Callable[[dict[str, Any]], str]) -> None:
        for _ in range(100):
            state = self.release.state(self.table)
            if state["round"]["id"] != round_id:
                return
            pending = state["round"]["pending"]
            body = {"seat": pending["seat"], "action": choose(pending)}
            self.release.post(f"/tables/{self.table}/actions", self.seats[pending["seat"]], body)
        raise AssertionError(f"round {round_id} did not end")

    def settled_round(self, multiple: int = 1) -> int:
        round_id = self.bet(multiple)
        self.ready()
        self.play_out(round_id, varied)
        return round_id

    def round_with_a_decision(self) -> tuple[int, list[int]]:
        """Rounds until one waits for a decision; returns it and the rounds settled on the way."""
        settled = []
        for _ in range(40):
            round_id = self.bet()
            self.ready()
            if self.release.state(self.table)["round"]["id"] == round_id:
                return round_id, settled
            settled.append(round_id)
        raise AssertionError("forty deals without a decision")


def seats_for(profile: str) -> dict[int, str]:
    """Two players at every table (Casino Hold'em needs two); veintiuno-real lets ana play
    two boxes (Item 4: up to three)."""
    if profile == "veintiuno-real":
        return {1: "ana", 2: "ana", 4: "bruno"}
    return {1: "ana", 3: "bruno"}


def back_bet(release: Release, seating: Seating, *, accept: bool = True) -> int:
    """carla backs ana's box 1 (spain-1979, Art. 03 IV.a-b)."""
    table = seating.table
    asked = release.post(
        f"/tables/{table}/back-bets", "carla", {"seat": 1, "wager": "main", "amount": seating.stake}
    )
    if accept:
        release.post(
            f"/tables/{table}/back-bets/{asked['back_bet']}/consent", "ana", {"accept": True}
        )
    back: int = asked["back_bet"]
    return back


def first_part(release: Release, folder: Path) -> tuple[dict[str, Any], dict[int, int]]:
    """Every table with its settled rounds, and at each ``a`` table a round in betting to be
    voided. Returns the tables and the rounds to void (round -> table)."""
    tables: dict[str, Any] = {}
    to_void: dict[int, int] = {}
    for profile in shipped_profile_names():
        for suffix in ("a", "b"):
            game = load_profile(profile).game
            if suffix == "b" and game == "baccarat":
                continue
            name = f"{profile} {suffix}"
            body = {"name": name, "profile": profile, "betting_seconds": 60, "decision_seconds": 60}
            table = release.post("/operator/tables", None, body)["table"]
            seating = Seating(release, table, profile, seats_for(profile), sit=True)
            entry: dict[str, Any] = {
                "table": table,
                "profile": profile,
                "game": game,
                "seats": {str(s): n for s, n in seating.seats.items()},
                "settled": [],
                "back_bets": [],
            }
            for multiple in (1, 2):
                if profile == "spain-1979" and suffix == "a" and multiple == 2:
                    round_id = seating.bet(multiple)
                    entry["back_bets"].append(back_bet(release, seating))
                    seating.ready()
                    seating.play_out(round_id, varied)
                else:
                    round_id = seating.settled_round(multiple)
                entry["settled"].append(round_id)
            if suffix == "a":
                round_id = seating.bet()
                if profile == "spain-1979":
                    entry["back_bets"].append(back_bet(release, seating))
                entry["voided"] = round_id
                to_void[round_id] = table
            tables[name] = entry
    name = "one-deck"
    path = one_deck_profile(folder)
    body = {"name": name, "profile": path, "betting_seconds": 60, "decision_seconds": 60}
    table = release.post("/operator/tables", None, body)["table"]
    seating = Seating(release, table, path, {1: "ana", 2: "bruno"}, sit=True)
    first_shoe = release.state(table)["table"]["shoe"]
    entry = {"table": table, "profile": "veintiuno-real-one-deck", "game": "blackjack"}
    entry |= {"seats": {"1": "ana", "2": "bruno"}, "settled": [], "back_bets": []}
    while release.state(table)["table"]["shoe"] == first_shoe:
        entry["settled"].append(seating.settled_round())
    tables[name] = entry
    return tables, to_void


def make_unrebuildable(database: Path, rounds: dict[int, int]) -> None:
    """Give each round a recorded command the engine does not know: the release's recovery
    then voids it and returns its stakes (its events stay as they were)."""
    with sqlite3.connect(database) as connection:
        for round_id in rounds:
            (inputs,) = connection.execute(
                "SELECT inputs FROM rounds WHERE id = ?", (round_id,)
            ).fetchone()
            steps = [*json.loads(inputs), {"op": "lost"}]
            connection.execute(
                "UPDATE rounds SET inputs = ? WHERE id = ?", (json.dumps(steps), round_id)
            )


def second_part(release: Release, tables: dict[str, Any]) -> None:
    """The rounds left under way: bets placed at each ``a`` table, a decision at each ``b``."""
    for name, entry in tables.items():
        if name == "one-deck":
            continue
        seating = Seating.of(release, entry)
        if name.endswith(" a"):
            entry["under_way"] = seating.bet()
            if entry["profile"] == "spain-1979":
                entry["back_bets"].append(back_bet(release, seating))
                entry["back_bets"].append(back_bet(release, seating, accept=False))
        else:
            entry["under_way"], more = seating.round_with_a_decision()
            entry["settled"] += more


def by_reference(entries: list[dict[str, Any]]) -> dict[str, int]:
    """Ledger entries summed by round (``round:12:bet``, ``round:12`` are round 12's)."""
    sums: dict[str, int] = {}
    for entry in entries:
        reference = ":".join(str(entry["reference"]).split(":")[:2])
        sums[reference] = sums.get(reference, 0) + int(entry["amount"])
    return sums


def cards_of(events: list[dict[str, Any]]) -> str:
    """Every card a round's events name, in order, in the cards' notation ("Ah Td 9c")."""
    return " ".join(str(event["card"]) for event in events if "card" in event)


def describe(release: Release, tables: dict[str, Any]) -> dict[str, Any]:
    """What the database holds, as its API shows it to the operator."""
    shoes: dict[str, Any] = {}
    for entry in tables.values():
        rounds = {}
        for round_id in [*entry["settled"], *([entry["voided"]] if "voided" in entry else [])]:
            recall = release.get(f"/rounds/{round_id}")
            rounds[str(round_id)] = {
                "status": recall["status"],
                "cards": cards_of(recall["events"]),
            }
            shoe = release.get(f"/shoes/{recall['shoe']}")
            shoes[str(shoe["shoe"])] = {
                "commitment": shoe["commitment"],
                "is_revealed": shoe["is_revealed"],
            }
        entry["rounds"] = rounds
        if "under_way" in entry:
            state = release.state(entry["table"])["round"]
            assert state["id"] == entry["under_way"]
            entry["status"] = state["status"]
            entry["stakes"] = state["stakes"]
            entry["pending"] = state["pending"]
    return {
        "balances": release.balances(),
        "ledger": release.ledger(),
        "audit": release.audit(),
        "shoes": shoes,
    }


def continued(database: Path, tables: dict[str, Any]) -> dict[str, Any]:
    """What the release does with every round under way, carried on to its end on a copy:
    every seated player ready, each decision answered by ``carry_on``."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.sqlite"
        shutil.copyfile(database, copy)
        release = Release(copy)
        try:
            rounds = {}
            for entry in tables.values():
                if "under_way" not in entry:
                    continue
                seating = Seating.of(release, entry)
                round_id = entry["under_way"]
                if entry["status"] == "betting":
                    seating.ready()
                seating.play_out(round_id, carry_on)
                recall = release.get(f"/rounds/{round_id}")
                rounds[str(round_id)] = {
                    "status": recall["status"],
                    "cards": cards_of(recall["events"]),
                }
            return {
                "rounds": rounds,
                "balances": release.balances(),
                "ledger": release.ledger(),
                "audit": release.audit(),
            }
        finally:
            release.stop()


def main() -> None:
    commit = commit_of_checkout()
    FIXTURES.mkdir(parents=True, exist_ok=True)
    target = FIXTURES / f"release-{commit}.sqlite"
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "release.sqlite"
        release = Release(database)
        tables, to_void = first_part(release, Path(folder))
        release.stop()
        make_unrebuildable(database, to_void)
        release = Release(database)
        voided_notes = [note for note in release.notes if "voided" in note]
        assert len(voided_notes) == len(to_void), release.notes
        second_part(release, tables)
        facts = describe(release, tables)
        release.stop()
        with sqlite3.connect(database) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with sqlite3.connect(database) as connection:
            connection.execute("VACUUM")
        record = {
            "release": commit,
            "made_by": "tools/make_release_fixture.py",
            "players": {name: password(name) for name in PLAYERS},
            "operator_token": OPERATOR_TOKEN,
            "tables": tables,
            **facts,
            "continued": continued(database, tables),
        }
        shutil.copyfile(database, target)
    target.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"{target}: {target.stat().st_size} bytes, {len(tables)} tables")


if __name__ == "__main__":
    main()
