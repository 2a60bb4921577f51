"""R15: a tamper-evident audit log (GLI-19 2.8.8: significant events and every data correction
logged with before, after, who and when; B.3.2: the log protected against change).

Rounds are played through the HTTP API (sign-ups, credits and a debit, bets, rounds settled
under blackjack, baccarat and Casino Hold'em profiles, a void, a limit change); then
``croupier audit verify`` passes. Random edits (an amount, a card, a result, a timestamp, an
actor, any other column), deletions and reorderings of rows in copies of that database are
each detected, the first problem naming the row or entry touched; untouched copies taken
with SQLite's online backup while a thread plays raise no alarm. CI runs 50 tamperings and
20 copies; the full 1,000 and 1,000 are ``slow`` (``benchmarks/slow_checks.py``).
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import hmac
import json
import logging
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Boolean, Float, Integer, String, Text, text
from sqlalchemy.types import JSON

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "server"))
sys.path.insert(0, str(ROOT / "tools"))

from audit_cli_support import audit_cli  # noqa: E402
from server_support import OPERATOR_TOKEN, Api, Table, make_api  # noqa: E402

import pg_cluster  # noqa: E402 - tools/ is put on the path above
from croupier.audit import actor as actors  # noqa: E402
from croupier.audit import chain  # noqa: E402
from croupier.audit.records import AUDITED, canonical  # noqa: E402
from croupier.audit.signing import (  # noqa: E402
    default_key_path,
    ensure_key,
    public_key_text,
    read_private_key,
    retire_hmac_key,
    sign,
    signature_problem,
)
from croupier.audit.verify import (  # noqa: E402
    Head,
    current_head,
    default_head_path,
    read_head,
    read_signed_head,
    snapshot,
    verify,
    verify_database,
    write_head,
)
from croupier.clock import SystemClock  # noqa: E402
from croupier.ledger import book  # noqa: E402
from croupier.service import wallets  # noqa: E402
from croupier.service.backup import backup  # noqa: E402
from croupier.service.database import make_engine  # noqa: E402
from croupier.service.models import Base, RoundRecord  # noqa: E402
from croupier.service.unit_of_work import UnitOfWork  # noqa: E402

PROFILES = ("peru-2016", "dragon-six-peru-2016", "casino-holdem-peru-2007")


# --- databases ---------------------------------------------------------------------------------
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: a SQLite file, or a PostgreSQL schema dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'croupier.sqlite'}"
        return
    with pg_cluster.schema_of_its_own(pg_cluster.server_url(), durable=False) as url:
        yield url


# --- play through the API ----------------------------------------------------------------------
def play_everything(api: Api) -> list[Table]:
    """Every kind of significant event, through the API: sign-ups, credits, a debit, bets,
    settlements in three games, a limit change, a table closed and opened, a void."""
    tables = [
        Table(api, profile, [f"p{index}a", f"p{index}b"], credit_minor=50_000)
        for index, profile in enumerate(PROFILES)
    ]
    for table in tables:
        for _ in range(2):
            table.play_round()
    debited = api.post("/operator/wallets/p0a/debit", OPERATOR_TOKEN, {"amount": 1_000})
    assert debited.status_code == 200, debited.text
    first = tables[0]
    changed = api.post(
        f"/operator/tables/{first.id}/limits",
        OPERATOR_TOKEN,
        {"wager": first.wager, "minimum": 2, "maximum": 500},
    )
    assert changed.status_code == 200, changed.text
    for state in ("close", "open"):
        assert api.post(f"/operator/tables/{first.id}/{state}", OPERATOR_TOKEN).status_code == 200
    first.stake = 2
    first.play_round()
    # A void: a round whose record cannot be rebuilt is voided at the next load, every stake
    # returned (R11); the damage and the void are both changes the chain records.
    round_id = tables[1].bet_all()

    def damage(session: Any) -> None:
        record = session.get(RoundRecord, round_id)
        record.events = [*record.events, {"kind": "RoundEnded"}]

    api.server.uow.run(damage)
    assert any("voided" in note for note in api.server.casino.load())
    assert tables[1].recall(round_id)["status"] == "interrupted"
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0
    return tables


def test_r15_real_play_then_verify_passes(database_url: str, tmp_path: Path) -> None:
    """After real play in every game, with a void and a limit change, the chain holds and every
    audited row agrees with it: exit 0 from ``croupier audit verify``; the entries name who
    acted and what happened."""
    made = make_api(database_url)
    api = next(made)
    try:
        play_everything(api)
    finally:
        made.close()
    done = audit_cli("verify", "--database", database_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("verified: ")
    with snapshot(database_url) as connection:
        kinds = {
            (actor, kind)
            for actor, kind in connection.execute(text("SELECT actor, kind FROM audit_chain"))
        }
        pending = connection.execute(text("SELECT count(*) FROM audit_pending")).scalar()
    assert pending == 0
    actors = {actor for actor, _ in kinds}
    assert {"operator:operator", "player:p0a", "system"} <= actors
    assert {kind for _, kind in kinds} >= {
        "credit",
        "debit",
        "stake",
        "settlement",
        "void",
        "round complete",
        "round interrupted",
        "table",
        "account",
        "ledger entry",
    }
    assert ("player:p0a", "stake") in kinds and ("operator:operator", "credit") in kinds

    # Tampered in place, each in a transaction rolled back after verify read it (this is how
    # PostgreSQL gets its tamperings): each caught, the first problem naming the row.
    tamperings = [
        ("UPDATE ledger_entries SET amount = amount + 1 WHERE id = 2", "ledger_entries [2]"),
        ("UPDATE rounds SET ended_at = ended_at + 1 WHERE id = 1", "rounds [1]"),
        ("DELETE FROM ledger_entries WHERE id = 4", "ledger_entries [4]: gone"),
        ("UPDATE accounts SET balance = balance - 100 WHERE id = 3", "accounts [3]"),
        ("UPDATE audit_chain SET actor = 'system' WHERE seq = 2", "audit_chain entry 2"),
        ("DELETE FROM audit_chain WHERE seq = 7", "entries 7 to 7 are missing"),
    ]
    engine = make_engine(database_url)
    try:
        for statement, named in tamperings:
            with engine.connect() as connection, connection.begin():
                connection.execute(text(statement))
                report = verify(connection)
                connection.rollback()
            assert report.problems and named in report.problems[0], (statement, report.problems)
    finally:
        engine.dispose()
    assert verify_database(database_url).is_intact

    # The head, exported and published: verify against it passes.
    head_file = tmp_path / "head.json"
    exported = audit_cli("head", "--database", database_url, "--out", str(head_file))
    assert exported.returncode == 0, exported.stderr
    published = read_head(head_file)
    assert audit_cli("verify", "--database", database_url, "--head", str(head_file)).returncode == 0
    with snapshot(database_url) as connection:
        assert current_head(connection) == published


# --- tampering with copies ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def played_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite database after ``play_everything``, as a self-contained file."""
    folder = tmp_path_factory.mktemp("r15")
    live = folder / "live.sqlite"
    made = make_api(f"sqlite:///{live}")
    api = next(made)
    try:
        play_everything(api)
    finally:
        made.close()
    master = folder / "master.sqlite"
    backup(f"sqlite:///{live}", master)
    assert verify_database(f"sqlite:///{master}").is_intact
    return master


CHAIN_TABLES = ("audit_chain", "audit_cover", "audit_head")
TAMPERED_TABLES = (*(audited.name for audited in AUDITED), *CHAIN_TABLES)
CARD = "23456789TJQKA"
SUITS = "cdhs"


@dataclass(frozen=True)
class Tampering:
    """What was done to a copy, and the names one of which verify's first problem must give."""

    description: str
    names: tuple[str, ...]


def _keys_of(name: str) -> list[str]:
    return [column.name for column in Base.metadata.tables[name].primary_key.columns]


def _name_of(name: str, row: dict[str, Any]) -> str:
    """How verify names a row: ``rounds [7]``, ``audit_chain entry 12``, ``audit_head``."""
    if name == "audit_chain":
        return f"entry {row['seq']}"
    if name == "audit_head":
        return "audit_head"
    key = json.dumps([row[key] for key in _keys_of(name)], separators=(",", ":"))
    return (
        f"audit_cover {row['table_name']} {row['row_key']}"
        if name == "audit_cover"
        else (f"{name} {key}")
    )


def _rows(connection: sqlite3.Connection, name: str) -> list[dict[str, Any]]:
    connection.row_factory = sqlite3.Row
    return [dict(row) for row in connection.execute(f"SELECT * FROM {name}")]


def _where(name: str, row: dict[str, Any]) -> tuple[str, list[Any]]:
    keys = _keys_of(name)
    return " AND ".join(f"{key} = ?" for key in keys), [row[key] for key in keys]


def _mutated_text(value: str, rng: random.Random) -> str:
    if len(value) == 2 and value[0] in CARD and value[1] in SUITS:  # a card: another card
        return rng.choice([c + s for c in CARD for s in SUITS if c + s != value])
    if not value:
        return "x"
    index = rng.randrange(len(value))
    pool = "0123456789abcdef" if value[index] in "0123456789abcdef" else "xyzXYZ_-"
    return value[:index] + rng.choice([c for c in pool if c != value[index]]) + value[index + 1 :]


def _mutated_leaf(document: Any, rng: random.Random, prefer: Callable[[Any], bool]) -> Any:
    """``document`` with one leaf changed (a leaf ``prefer`` picks, where there is one)."""
    paths: list[tuple[Any, Any]] = []
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            if isinstance(value, dict | list):
                stack.append(value)
            else:
                paths.append((node, key))
    if not paths:
        return [*document, 1] if isinstance(document, list) else {**document, "x": 1}
    chosen = [path for path in paths if prefer(path[0][path[1]])] or paths
    node, key = rng.choice(chosen)
    value = node[key]
    if isinstance(value, bool):
        node[key] = not value
    elif isinstance(value, int | float):
        node[key] = value + rng.choice([1, -1, 100])
    elif isinstance(value, str):
        node[key] = _mutated_text(value, rng)
    else:
        node[key] = 0
    return document


def _new_value(column: Any, value: Any, rng: random.Random) -> Any:
    """A value of the column's own type that differs in meaning from ``value``."""
    kind = column.type
    if isinstance(kind, Boolean):
        return 0 if value else 1
    if isinstance(kind, JSON):
        document = json.loads(value) if value is not None else []
        is_card = lambda leaf: isinstance(leaf, str) and len(leaf) == 2 and leaf[0] in CARD  # noqa: E731
        is_result = lambda leaf: leaf in {"win", "lose", "push", "blackjack", "banker", "player"}  # noqa: E731
        prefer = rng.choice([is_card, is_result, lambda leaf: True])
        return json.dumps(_mutated_leaf(document, rng, prefer))
    if isinstance(kind, Float):
        return (value or 0.0) + rng.choice([0.5, -1.0, 3600.0])
    if isinstance(kind, Integer):
        return (value or 0) + rng.choice([1, -1, 7, 100, -100])
    if isinstance(kind, String | Text):
        return _mutated_text(value or "", rng)
    raise AssertionError(f"no tampering for {kind!r}")


def tamper(path: Path, rng: random.Random) -> Tampering:
    """One random edit, deletion or reordering of the database at ``path``."""
    connection = sqlite3.connect(path)
    try:
        while True:
            try:
                with connection:
                    return _tamper(connection, rng)
            except sqlite3.IntegrityError:
                continue  # an edit the schema refuses (a name another row has): draw again
    finally:
        connection.close()


def _tamper(connection: sqlite3.Connection, rng: random.Random) -> Tampering:
    tables = {name: rows for name in TAMPERED_TABLES if (rows := _rows(connection, name))}
    how = rng.choice(["amount", "card", "result", "timestamp", "actor", "edit", "delete", "swap"])
    if how == "amount":
        name = rng.choice(["ledger_entries", "accounts"])
        column_name = rng.choice(
            ["amount", "balance_after"] if name == "ledger_entries" else ["balance"]
        )
    elif how in {"card", "result"}:
        name, column_name = "rounds", "events"
    elif how == "timestamp":
        name = rng.choice(["ledger_transactions", "rounds", "users", "shoes", "audit_chain"])
        column_name = "at" if name == "audit_chain" else "created_at"
    elif how == "actor":
        name, column_name = "audit_chain", "actor"
    else:
        name = rng.choice(sorted(tables))
        column_name = ""
    rows = tables[name]
    row = rng.choice(rows)
    where, key = _where(name, row)
    model = Base.metadata.tables[name]
    if how == "delete":
        connection.execute(f"DELETE FROM {name} WHERE {where}", key)
        return Tampering(f"deleted {_name_of(name, row)}", _deletion_names(name, row, tables))
    if how == "swap":
        return _swap(connection, rng, name, row, rows) or _tamper(connection, rng)
    if not column_name:
        column_name = rng.choice(
            [column.name for column in model.columns if not column.primary_key]
        )
    column = model.columns[column_name]
    value = _new_value(column, row[column_name], rng)
    connection.execute(f"UPDATE {name} SET {column_name} = ? WHERE {where}", [value, *key])
    return Tampering(
        f"{how}: {_name_of(name, row)}.{column_name} set to {value!r:.60}", (_name_of(name, row),)
    )


def _swap(
    connection: sqlite3.Connection,
    rng: random.Random,
    name: str,
    row: dict[str, Any],
    rows: list[dict[str, Any]],
) -> Tampering | None:
    """Two rows of one table trade places (each takes the other's key); ``None`` if no row
    differs from ``row`` but for its key."""
    model = Base.metadata.tables[name]
    others = [column.name for column in model.columns if not column.primary_key]
    partners = [other for other in rows if [other[c] for c in others] != [row[c] for c in others]]
    if not partners:
        return None
    partner = rng.choice(partners)
    keys = _keys_of(name)
    parked = {key: -1 if model.columns[key].type.python_type is int else "__parked" for key in keys}
    assignments = ", ".join(f"{key} = ?" for key in keys)
    for moved, to in ((row, parked), (partner, row), (parked, partner)):
        where, values = _where(name, moved)
        connection.execute(
            f"UPDATE {name} SET {assignments} WHERE {where}", [to[key] for key in keys] + values
        )
    return Tampering(
        f"swapped {_name_of(name, row)} and {_name_of(name, partner)}",
        (_name_of(name, row), _name_of(name, partner)),
    )


def _deletion_names(
    name: str, row: dict[str, Any], tables: dict[str, list[Any]]
) -> tuple[str, ...]:
    if name != "audit_chain":
        return (_name_of(name, row),)
    seq = row["seq"]
    last = max(entry["seq"] for entry in tables["audit_chain"])
    # A gap is named by the entry after it ("entries N to N are missing"); the last entry's
    # loss by the head row that still names it.
    return (f"entry {seq + 1}", f"entries {seq} to") if seq < last else ("audit_head",)


def tamper_and_verify(master: Path, work: Path, count: int, seed: int) -> list[str]:
    """``count`` tamperings, each on a fresh copy of ``master``; every one that verify missed
    or named wrongly, described."""
    rng = random.Random(seed)
    missed = []
    for _ in range(count):
        shutil.copyfile(master, work)
        done = tamper(work, rng)
        report = verify_database(f"sqlite:///{work}")
        if report.is_intact:
            missed.append(f"undetected: {done.description}")
        elif not any(name in report.problems[0] for name in done.names):
            missed.append(f"misnamed: {done.description}: {report.problems[0]}")
    return missed


def test_r15_random_tamperings_are_all_detected_short(played_copy: Path, tmp_path: Path) -> None:
    """CI's short form: 50 random edits, deletions and reorderings, each detected and named."""
    assert tamper_and_verify(played_copy, tmp_path / "work.sqlite", 50, seed=15) == []


@pytest.mark.slow
def test_r15_random_tamperings_are_all_detected(played_copy: Path, tmp_path: Path) -> None:
    """The full form: 1,000 random tamperings, 1,000 detected and named."""
    missed = tamper_and_verify(played_copy, tmp_path / "work.sqlite", 1_000, seed=1015)
    print(f"R15: {1_000 - len(missed)}/1000 tamperings detected and named")
    assert missed == []


def test_r15_each_named_tampering_exits_1_naming_the_row(played_copy: Path, tmp_path: Path) -> None:
    """Through the command line: an amount changed, a round's card changed, a ledger entry
    deleted, two entries of the chain reordered: exit 1, the first line naming the row."""
    work = tmp_path / "named.sqlite"
    url = f"sqlite:///{work}"
    cases = [
        ("UPDATE ledger_entries SET amount = amount + 1 WHERE id = 3", "ledger_entries [3]"),
        (
            'UPDATE rounds SET events = replace(events, \'"card": "\', \'"card": "X\') WHERE id = 1',
            "rounds [1]",
        ),
        ("DELETE FROM ledger_entries WHERE id = 5", "ledger_entries [5]: gone"),
        (
            "UPDATE audit_chain SET seq = -4 WHERE seq = 4; "
            "UPDATE audit_chain SET seq = 4 WHERE seq = 5; "
            "UPDATE audit_chain SET seq = 5 WHERE seq = -4",
            "audit_chain entry 4",
        ),
        ("UPDATE audit_chain SET actor = 'system' WHERE seq = 9", "audit_chain entry 9"),
    ]
    for statement, named in cases:
        shutil.copyfile(played_copy, work)
        with sqlite3.connect(work) as connection:
            connection.executescript(statement)
        connection.close()
        done = audit_cli("verify", "--database", url)
        assert done.returncode == 1, (statement, done.stdout, done.stderr)
        first = done.stdout.splitlines()[0]
        assert first.startswith("FAILED: ") and named in first, (statement, first)


def test_r15_a_chain_cut_short_is_caught_by_the_published_head(
    played_copy: Path, tmp_path: Path
) -> None:
    """A database put back to an earlier state, its chain cut at an earlier entry, agrees with
    itself; not with the head published since: exit 1 naming the missing entry."""
    later = tmp_path / "later.sqlite"
    shutil.copyfile(played_copy, later)
    engine = make_engine(f"sqlite:///{later}")
    try:
        work = UnitOfWork(engine, SystemClock())
        work.run(lambda session: wallets.move(session, book, "p0a", 500, "credit", time.time()))
    finally:
        engine.dispose()
    head_file, key = tmp_path / "published.json", ("--audit-key", str(tmp_path / "audit.key"))
    assert (
        audit_cli(
            "head", "--database", f"sqlite:///{later}", "--out", str(head_file), *key
        ).returncode
        == 0
    )
    published = read_head(head_file)
    earlier = f"sqlite:///{played_copy}"
    assert verify_database(earlier).is_intact  # alone, the cut database tells nothing
    done = audit_cli("verify", "--database", earlier, "--head", str(head_file), *key)
    assert done.returncode == 1
    assert f"audit_chain entry {published.seq}: published as the head" in done.stdout
    assert (
        audit_cli(
            "verify", "--database", f"sqlite:///{later}", "--head", str(head_file), *key
        ).returncode
        == 0
    )


def test_r15_a_forged_head_is_refused_by_its_signature(played_copy: Path, tmp_path: Path) -> None:
    """D-GEN-16a: the exported head is signed with the operator's Ed25519 private key (made
    0600, PKCS#8 PEM) and carries its public key. The genuine head passes, for the operator
    (the private key) and for a regulator holding only the public key. A forgery the chain
    agrees with (an earlier entry's number and real hash: what a rewrite of the chain from
    there on would publish), an edited number or hash, a head with no signature, another key's
    signature, a swapped public key (with the genuine signature, or with the forger's) and a
    head signed with the retired HMAC are each refused, exit 1 naming the signature."""
    url = f"sqlite:///{played_copy}"
    key_file, other_key = tmp_path / "operator.key", tmp_path / "other.key"
    genuine = tmp_path / "head.json"
    done = audit_cli("head", "--database", url, "--out", str(genuine), "--audit-key", str(key_file))
    assert done.returncode == 0 and "a new audit key was made" in done.stderr
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.read_text(encoding="ascii").startswith("-----BEGIN PRIVATE KEY-----")
    public_pem = tmp_path / "operator.pub.pem"
    done = audit_cli("public-key", "--audit-key", str(key_file), "--out", str(public_pem))
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert public_pem.read_text(encoding="ascii").startswith("-----BEGIN PUBLIC KEY-----")
    operator_public = read_private_key(key_file).public_key()

    def regulator_verifies(head: Path) -> subprocess.CompletedProcess[str]:
        # No --audit-key, and no key beside the copy: the public key is all there is.
        return audit_cli(
            "verify", "--database", url, "--head", str(head), "--public-key", str(public_pem)
        )

    def operator_verifies(head: Path) -> subprocess.CompletedProcess[str]:
        return audit_cli(
            "verify", "--database", url, "--head", str(head), "--audit-key", str(key_file)
        )

    assert not default_key_path(url).exists()
    for check in (regulator_verifies, operator_verifies):
        done = check(genuine)
        assert done.returncode == 0 and done.stdout.startswith("verified: "), (check, done.stdout)
    document = json.loads(genuine.read_text(encoding="utf-8"))
    assert document["signature"].startswith("ed25519:") and len(document["signature"]) == 8 + 128
    assert document["public_key"] == public_key_text(operator_public)
    seq = document["seq"]
    with snapshot(url) as connection:
        earlier_hash = connection.execute(
            text("SELECT hash FROM audit_chain WHERE seq = :seq"), {"seq": seq - 1}
        ).scalar_one()
    # Unsigned, the earlier entry's head is one the chain agrees with: only the signature tells.
    assert verify_database(url, Head(seq - 1, earlier_hash, document["at"])).is_intact

    assert ensure_key(other_key) and not ensure_key(other_key)  # made once, never replaced
    assert other_key.read_bytes() != key_file.read_bytes()
    forger = read_private_key(other_key)
    forger_public = public_key_text(forger.public_key())
    unsigned = {name: value for name, value in document.items() if name != "signature"}
    retired_hmac = "hmac-sha256:" + hmac.new(b"k" * 32, b"head", hashlib.sha256).hexdigest()
    forgeries = {
        "earlier entry": ({**document, "seq": seq - 1, "hash": earlier_hash}, "altered"),
        "edited seq": ({**document, "seq": seq - 1}, "altered"),
        "edited hash": ({**document, "hash": "f" * 64}, "altered"),
        "no signature": (unsigned, "not signed"),
        "another key's signature": (
            sign({**document, "seq": seq - 1, "hash": earlier_hash}, forger),
            "bad signature: signed with another key",
        ),
        "swapped public key": ({**document, "public_key": forger_public}, "another key"),
        "the operator's public key, the forger's signature": (
            {
                **document,
                "signature": sign({**document, "seq": seq - 1}, forger)["signature"],
                "seq": seq - 1,
            },
            "altered after it was signed, or signed by another key",
        ),
        "no public key": (
            {name: value for name, value in document.items() if name != "public_key"},
            "another key (public key None",
        ),
        "a mangled signature": ({**document, "signature": "ed25519:zz"}, "not an ed25519"),
        "retired HMAC": (
            {**unsigned, "signature": retired_hmac},
            "no longer accepted (docs/rules.md#D-GEN-16a); re-export the head with "
            "`croupier audit head",
        ),
    }
    for name, (forged, says) in forgeries.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(forged), encoding="utf-8")
        for check in (regulator_verifies, operator_verifies):
            done = check(path)
            first = done.stdout.splitlines()[0]
            assert done.returncode == 1, (name, check, done.stdout, done.stderr)
            assert first.startswith(f"FAILED: the head file {path}: "), (name, first)
            assert "signature" in first and says in first, (name, first)
    # A head the other key signed passes only for whoever trusts that key.
    resigned = tmp_path / "other.json"
    assert (
        audit_cli(
            "head", "--database", url, "--out", str(resigned), "--audit-key", str(other_key)
        ).returncode
        == 0
    )
    done = regulator_verifies(resigned)
    assert done.returncode == 1
    assert done.stdout.startswith(f"FAILED: the head file {resigned}: bad signature: signed with")
    assert signature_problem(json.loads(resigned.read_text()), operator_public) is not None
    done = audit_cli(
        "verify", "--database", url, "--head", str(resigned), "--audit-key", str(other_key)
    )
    assert done.returncode == 0


def test_r15_a_bad_url_or_head_file_is_a_typed_error(tmp_path: Path) -> None:
    """What cannot be read is exit 2 with a message, never a traceback or a false verdict."""
    for arguments in (
        ("--database", "nosuchdialect://x"),
        ("--database", f"sqlite:///{tmp_path / 'absent.sqlite'}"),
        ("--database", "sqlite:///:memory:"),
    ):
        done = audit_cli("verify", *arguments)
        assert done.returncode == 2, (arguments, done.stdout, done.stderr)
        assert done.stderr.startswith("croupier: error: ") and "Traceback" not in done.stderr
    plain = tmp_path / "plain.sqlite"
    sqlite3.connect(plain).close()
    done = audit_cli("verify", "--database", f"sqlite:///{plain}")
    assert done.returncode == 2 and "no audit chain" in done.stderr
    bad_head = tmp_path / "head.json"
    bad_head.write_text("{}", encoding="utf-8")
    done = audit_cli("verify", "--database", f"sqlite:///{plain}", "--head", str(bad_head))
    assert done.returncode == 2 and "not a croupier audit head" in done.stderr
    good_head = tmp_path / "good.json"
    write_head(Head(0, chain.GENESIS_HASH, 0.0), good_head)
    done = audit_cli("verify", "--database", f"sqlite:///{plain}", "--head", str(good_head))
    assert done.returncode == 2 and "no key to check the head's signature" in done.stderr
    assert "--public-key PEM" in done.stderr
    missing_key = tmp_path / "no.key"
    for key_text, says in (
        (None, f"({missing_key} does not exist)"),
        ("beef\n", "not an audit key"),
        ("ab" * 32 + "\n", "the HMAC key of an earlier croupier, which no longer signs heads"),
    ):
        if key_text is not None:
            missing_key.write_text(key_text, encoding="utf-8")
        done = audit_cli(
            "verify", "--database", f"sqlite:///{plain}", "--head", str(good_head),
            "--audit-key", str(missing_key),
        )  # fmt: skip
        assert done.returncode == 2 and says in done.stderr, (done.stdout, done.stderr)
        if key_text is None:
            continue
        # Nor does such a key sign: the export says what to do, and writes no head.
        done = audit_cli(
            "head", "--database", f"sqlite:///{plain}", "--out", str(tmp_path / "none.json"),
            "--audit-key", str(missing_key),
        )  # fmt: skip
        assert done.returncode == 2 and says in done.stderr, (done.stdout, done.stderr)
        assert not (tmp_path / "none.json").exists()
    missing_public = tmp_path / "no.pem"
    for key_text, says in ((None, "cannot read the public key"), ("beef\n", "not an audit public")):
        if key_text is not None:
            missing_public.write_text(key_text, encoding="utf-8")
        done = audit_cli(
            "verify", "--database", f"sqlite:///{plain}", "--head", str(good_head),
            "--public-key", str(missing_public),
        )  # fmt: skip
        assert done.returncode == 2 and says in done.stderr, (done.stdout, done.stderr)


# --- no false alarm under load -----------------------------------------------------------------
def copies_under_load(database_url: str, folder: Path, copies: int) -> tuple[int, int, list[str]]:
    """``copies`` online copies (SQLite) or snapshots (PostgreSQL), each taken at a random
    instant of a round a thread is playing through the API, then verified; the rounds played,
    the copies taken while one was still under way, and every false alarm. The player plays
    while a copy is wanted and rests while one is verified, so the database, and each
    verify, grows with the copies rather than with the time they take."""
    made = make_api(database_url)
    api = next(made)
    rng = random.Random(1015)
    alarms: list[str] = []
    played: list[int] = []
    mid_round = 0
    stop, wanted, playing = threading.Event(), threading.Event(), threading.Event()
    failures: list[BaseException] = []
    try:
        tables = [Table(api, profile, [f"w{i}a", f"w{i}b"]) for i, profile in enumerate(PROFILES)]

        def play() -> None:
            try:
                while not stop.is_set():
                    for table in tables:
                        while not wanted.wait(0.01):
                            if stop.is_set():
                                return
                        playing.set()
                        played.append(table.play_round())
                        playing.clear()
            except BaseException as error:  # reported by the test
                failures.append(error)

        player = threading.Thread(target=play, daemon=True)
        player.start()
        sqlite = database_url.startswith("sqlite")
        for number in range(copies):
            wanted.set()
            while not playing.is_set():
                assert player.is_alive(), failures
                stop.wait(0.001)
            stop.wait(rng.uniform(0, 0.03))  # somewhere in the round's commits
            mid_round += playing.is_set()
            if sqlite:
                copy = folder / "copy.sqlite"
                backup(database_url, copy)
                wanted.clear()
                report = verify_database(f"sqlite:///{copy}")
            else:
                report = verify_database(database_url)  # one REPEATABLE READ snapshot
                wanted.clear()
            if not report.is_intact:
                alarms.append(f"copy {number}: {report.problems[0]}")
        stop.set()
        player.join(timeout=60)
        assert not failures, failures
    finally:
        stop.set()
        made.close()
    return len(played), mid_round, alarms


def test_r15_untouched_copies_under_load_raise_no_alarm_short(
    database_url: str, tmp_path: Path
) -> None:
    """CI's short form: 20 copies taken while rounds are played, 0 false alarms."""
    played, _, alarms = copies_under_load(database_url, tmp_path, 20)
    assert alarms == []
    assert played > 0
    assert verify_database(database_url).is_intact


@pytest.mark.slow
def test_r15_untouched_copies_under_load_raise_no_alarm(tmp_path: Path) -> None:
    """The full form: 1,000 online copies of a SQLite database taken under load, 0 alarms."""
    played, mid_round, alarms = copies_under_load(
        f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path, 1_000
    )
    print(
        f"R15: 1000 copies under load, {mid_round} mid-round, {played} rounds, {len(alarms)} alarms"
    )
    assert alarms == []
    assert played >= 1_000 / 3 and mid_round > 900


def test_r15_concurrent_writers_never_fork_the_chain(database_url: str) -> None:
    """Two tables played at once from two threads (two PostgreSQL transactions appending at
    the same time): one unbroken chain, every row covered."""
    made = make_api(database_url)
    api = next(made)
    try:
        tables = [
            Table(api, profile, [f"c{i}a", f"c{i}b"]) for i, profile in enumerate(PROFILES[:2])
        ]
        errors: list[BaseException] = []

        def play(table: Table) -> None:
            try:
                for _ in range(4):
                    table.play_round()
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=play, args=(table,)) for table in tables]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert errors == []
    finally:
        made.close()
    report = verify_database(database_url)
    assert report.problems == []
    with snapshot(database_url) as connection:
        seqs = [
            seq for (seq,) in connection.execute(text("SELECT seq FROM audit_chain ORDER BY seq"))
        ]
    assert seqs == list(range(1, len(seqs) + 1))


def test_r15_the_head_written_for_publication_matches_the_chain(
    database_url: str, tmp_path: Path
) -> None:
    """``croupier audit head`` writes the chain's last entry; verify against it passes, and a
    head the chain never reached (a later one, or another hash) fails."""
    made = make_api(database_url)
    api = next(made)
    try:
        Table(api, PROFILES[1], ["head-a", "head-b"]).play_round()
    finally:
        made.close()
    head_file, key = tmp_path / "head.json", ("--audit-key", str(tmp_path / "audit.key"))
    assert (
        audit_cli("head", "--database", database_url, "--out", str(head_file), *key).returncode == 0
    )
    head = read_head(head_file)
    assert head.seq > 0 and len(head.hash) == 64
    assert verify_database(database_url, head).is_intact
    later = Head(head.seq + 1, head.hash, head.at)
    assert "entries were cut off" in verify_database(database_url, later).problems[0]
    other = Head(head.seq, "0" * 64, head.at)
    assert "published head" in verify_database(database_url, other).problems[0]


def test_r15_the_server_writes_the_head_to_publish(tmp_path: Path) -> None:
    """The server writes the head at start, every ``audit_head_seconds`` (an hour unless told)
    and at shutdown; the file then verifies against the database. ``croupier serve`` writes it
    beside a SQLite file unless told where."""
    url = f"sqlite:///{tmp_path / 'served.sqlite'}"
    head_file = tmp_path / "served.sqlite.audit-head.json"
    assert default_head_path(url) == head_file
    key_file = tmp_path / "served.sqlite.audit-key"
    assert default_key_path(url) == key_file
    made = make_api(url, audit_head=head_file, audit_head_seconds=0.05, audit_key=key_file)
    api = next(made)
    try:
        Table(api, PROFILES[0], ["pub-a"]).play_round()
        with snapshot(url) as connection:
            reached = current_head(connection)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (
            not head_file.exists() or read_head(head_file).seq < reached.seq
        ):
            time.sleep(0.02)
        assert read_head(head_file).seq >= reached.seq
    finally:
        made.close()
    with snapshot(url) as connection:
        assert read_head(head_file) == current_head(connection)
    assert verify_database(url, read_head(head_file)).is_intact
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600  # made at first start
    trusted = read_private_key(key_file).public_key()
    assert read_signed_head(head_file, trusted) == (read_head(head_file), None)


def test_r15_a_server_with_an_earlier_hmac_key_moves_it_aside_and_signs_with_a_new_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """D-GEN-16a: an operator upgrading from a croupier that signed heads with HMAC expects the
    server to start. Its key file (the hex of an HMAC key) never signs again, but it is not
    deleted either: it is kept, unchanged, renamed beside itself; a new Ed25519 key signs the
    head written at start; the log says what happened and that the regulator needs the new
    public key."""
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    key_file = tmp_path / "old.sqlite.audit-key"
    head_file = tmp_path / "old.sqlite.audit-head.json"
    old_key = ("0f" * 32 + "\n").encode("ascii")
    key_file.write_bytes(old_key)
    made = make_api(url, audit_key=key_file, audit_head=head_file)
    with caplog.at_level(logging.WARNING, logger="croupier.server"):
        next(made)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not head_file.exists():
            time.sleep(0.02)
    finally:
        made.close()
    retired = tmp_path / "old.sqlite.audit-key.hmac-retired"
    assert retired.read_bytes() == old_key
    new_key = read_private_key(key_file)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert read_signed_head(head_file, new_key.public_key()) == (read_head(head_file), None)
    warned = [record.getMessage() for record in caplog.records if record.levelname == "WARNING"]
    assert len(warned) == 1, warned
    assert f"kept, unchanged, as {retired}" in warned[0]
    assert f"`croupier audit public-key --audit-key {key_file}`" in warned[0]


def test_r15_an_hmac_key_that_cannot_be_moved_aside_stops_the_start_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """D-GEN-16a: where the old HMAC key file cannot be renamed (a read-only folder; the tests
    run as root, which writes through mode 0555, so the rename itself is made to fail), the
    start stops (exit 2 from ``croupier serve``) saying to move it aside, and touches it not."""
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    key_file = tmp_path / "old.sqlite.audit-key"
    old_key = ("0f" * 32 + "\n").encode("ascii")
    key_file.write_bytes(old_key)

    def read_only_folder(self: Path, target: object) -> Path:
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(Path, "rename", read_only_folder)
    with pytest.raises(
        chain.AuditError,
        match=r"HMAC key of an earlier croupier.*could not be moved aside to "
        r".*old\.sqlite\.audit-key\.hmac-retired \(Read-only file system\): move it aside yourself",
    ):
        next(make_api(url, audit_key=key_file))
    assert key_file.read_bytes() == old_key
    assert sorted(path.name for path in tmp_path.iterdir() if "audit-key" in path.name) == [
        "old.sqlite.audit-key"
    ]


def test_r15_a_second_hmac_key_retired_beside_the_first_replaces_nothing(tmp_path: Path) -> None:
    """D-GEN-16a: a retired key is never overwritten: a second HMAC key file moved aside where
    the first already lies takes the next name (``.hmac-retired.2``); an Ed25519 key, or no
    file at all, is not moved."""
    key_file = tmp_path / "croupier.audit-key"
    first = tmp_path / "croupier.audit-key.hmac-retired"
    first.write_text("ab" * 32, encoding="ascii")
    key_file.write_text("cd" * 32 + "\n", encoding="ascii")
    assert retire_hmac_key(key_file) == tmp_path / "croupier.audit-key.hmac-retired.2"
    assert first.read_text(encoding="ascii") == "ab" * 32
    assert (tmp_path / "croupier.audit-key.hmac-retired.2").read_text(encoding="ascii") == (
        "cd" * 32 + "\n"
    )
    assert not key_file.exists() and retire_hmac_key(key_file) is None
    assert ensure_key(key_file) and retire_hmac_key(key_file) is None
    assert isinstance(read_private_key(key_file), Ed25519PrivateKey)


def test_r15_an_event_recorded_in_its_own_right_keeps_its_before_and_after(
    played_copy: Path, tmp_path: Path
) -> None:
    """A correction recorded with its before and after, who and when (GLI-19 2.8.8), in the
    transaction of the change it explains: the chain holds, and editing what it says is
    caught at that entry."""
    work = tmp_path / "event.sqlite"
    shutil.copyfile(played_copy, work)
    url = f"sqlite:///{work}"
    engine = make_engine(url)
    try:
        units = UnitOfWork(engine, SystemClock())

        def correct(session: Any) -> int:
            entry = chain.record(
                session,
                time.time(),
                "correction",
                {"round": 1, "reason": "payout", "before": 100, "after": 150},
                actor="inspector:ines",
            )
            wallets.move(session, book, "p0a", 50, "credit", time.time())
            return entry.seq

        with actors.acting_as("dealer:dora"):
            seq = units.run(correct)
    finally:
        engine.dispose()
    assert verify_database(url).is_intact
    with snapshot(url) as connection:
        recorded = connection.execute(
            text("SELECT actor, kind, detail FROM audit_chain WHERE seq = :seq"), {"seq": seq}
        ).one()
        after = connection.execute(
            text("SELECT DISTINCT actor FROM audit_chain WHERE seq > :seq"), {"seq": seq}
        ).all()
    assert recorded.actor == "inspector:ines" and recorded.kind == "correction"
    assert json.loads(recorded.detail) == {
        "after": 150,
        "before": 100,
        "reason": "payout",
        "round": 1,
    }
    assert [actor for (actor,) in after] == ["dealer:dora"]  # the credit's rows, same commit
    with sqlite3.connect(work) as connection:
        connection.execute(
            "UPDATE audit_chain SET detail = replace(detail, '150', '151') WHERE seq = ?", [seq]
        )
    connection.close()
    assert f"audit_chain entry {seq}: its hash" in verify_database(url).problems[0]


def test_r15_an_entry_hashes_every_field_in_declaration_order() -> None:
    """The entry's hash covers each of its fields, in order: ``Entry.fields`` spells them out
    (for speed), so a field added to the entry and not to the hash would go unprotected."""
    entry = chain.Entry(
        7, 1.5, "operator", "row", "ledger", "[3]", "b" * 64, "a" * 64, "{}", "p" * 64
    )
    every_field = [getattr(entry, field.name) for field in dataclasses.fields(chain.Entry)]
    assert entry.fields() == every_field
    assert entry.hash == hashlib.sha256(canonical(every_field).encode()).hexdigest()


def test_r15_a_commit_reads_its_covers_and_its_noted_rows_once(database_url: str) -> None:
    """Covering a commit's rows costs one read of the noted rows (emptied in the same
    statement) and one read of the covers of every table it changed, not one per table
    (issue 28, item 8: the chain was half the statements of a bet); the chain still verifies."""
    from sqlalchemy import event

    made = make_api(database_url)
    api = next(made)
    commits: list[list[str]] = [[]]

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        commits[-1].append(" ".join(statement.split()))

    def committed(_conn: Any) -> None:
        commits.append([])

    engine = api.server.uow.engine
    try:
        table = Table(api, PROFILES[0], ["cover1", "cover2"])
        event.listen(engine, "before_cursor_execute", note)
        event.listen(engine, "commit", committed)
        try:
            table.play_round()
        finally:
            event.remove(engine, "before_cursor_execute", note)
            event.remove(engine, "commit", committed)
    finally:
        made.close()
    covered = [
        statements
        for statements in commits
        if any("INSERT INTO audit_chain" in s for s in statements)
    ]
    assert len(covered) >= 4  # two bets, the ready that deals, a decision or the settlement
    for statements in covered:
        changed = {s.split()[1] for s in statements if s.split()[0] == "UPDATE"} | {
            s.split()[2] for s in statements if s.split()[0] == "INSERT"
        }
        assert len(changed - {"audit_chain", "audit_cover", "audit_head"}) >= 1
        # One pass per commit (and one per savepoint released inside it, which the ORM
        # commits as well): the noted rows taken in one statement, then every table's covers.
        passes = [s for s in statements if "audit_pending" in s]
        assert passes and all(
            s.startswith("DELETE FROM audit_pending RETURNING") for s in passes
        ), "\n".join(statements)
        assert sum("FROM audit_cover" in s for s in statements) == len(passes), "\n".join(
            statements
        )
        if database_url.startswith("postgresql"):
            # The entries, the head moved after them and the covers: one statement a pass,
            # one round trip with the head locked, not three (issue 28, item 8).
            writes = [s for s in statements if "audit_chain" in s and "audit_pending" not in s]
            assert len(writes) == len(passes), "\n".join(statements)
            assert all(
                s.startswith("WITH") and "UPDATE audit_head" in s and "INSERT INTO audit_cover" in s
                for s in writes
            ), "\n".join(writes)
    assert verify_database(database_url).problems == []


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)
def test_r15_an_entry_too_long_for_its_column_is_refused_not_cut_short(database_url: str) -> None:
    """PostgreSQL writes a commit's entries as arrays in one statement (``APPEND_AT_ONCE``),
    whose casts leave out the columns' lengths: an explicit cast to ``VARCHAR(96)`` would cut
    a longer actor to 96 characters in silence, and the entry's hash, computed over the whole
    actor, would then disagree with its row. The ``INSERT`` refuses it instead, and nothing
    of the transaction commits."""
    from sqlalchemy.exc import DataError

    made = make_api(database_url)
    api = next(made)
    try:
        head = snapshot_head(database_url)
        with pytest.raises(DataError, match="too long"):
            api.server.uow.run(
                lambda session: chain.record(session, 1.0, "event", {"n": 1}, actor="a" * 97)
            )
        assert snapshot_head(database_url) == head
        entry = api.server.uow.run(
            lambda session: chain.record(session, 1.0, "event", {"n": 1}, actor="a" * 96)
        )
        assert entry.actor == "a" * 96
    finally:
        made.close()
    assert verify_database(database_url).problems == []


def snapshot_head(database_url: str) -> tuple[int, str]:
    with snapshot(database_url) as connection:
        seq, previous = connection.execute(text("SELECT seq, hash FROM audit_head")).one()
    return int(seq), str(previous)
