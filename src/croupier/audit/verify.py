"""Checking the record: the chain, and every audited row against it (``croupier audit verify``).

The chain holds when its entries run 1, 2, 3... without a gap, each names the previous one's
hash, each hash is its own fields' hash, and each entry's ``before`` is what the last entry
covering the same row recorded. The rows agree when every audited row's digest is the one
recorded by the latest entry covering it, no covered row is gone, and no row is uncovered.
The head row and the covers (``audit_cover``) are derived from the chain and must match it.
A head exported earlier and published (``write_head``; the server writes one every hour)
catches what the database alone cannot: a chain cut short, with the rows put back as they
were. It is signed with the operator's Ed25519 key (``croupier.audit.signing``): a head edited to
fit a rewritten chain is refused by its signature (``read_signed_head``), which whoever holds
the public key checks.

Everything is read in one consistent snapshot, so a live database verifies while tables
play.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy import Connection, Engine, create_engine, event, inspect, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from croupier.audit import signing
from croupier.audit.chain import COVERS, ENTRIES, GENESIS_HASH, HEAD, HEAD_ID, AuditError, Entry
from croupier.audit.records import (
    Audited,
    audited_tables,
    digest,
    present_columns,
    row_key,
    rows_by_key,
)

HEAD_FORMAT = "croupier-audit-head"


class ChainDoesNotVerify(AuditError):  # noqa: N818 - what it says
    """A server start on a database whose chain or audited rows do not verify (issue 25,
    item 5): refused unless the operator accepts it (``serve --accept-broken-chain``)."""

    code = "chain_does_not_verify"

    def __init__(self, database: str, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__(
            f"the audit chain of {database} does not verify: {problems[0]} ({len(problems)} "
            "problem(s); `croupier audit verify` checks it again; `serve --accept-broken-chain` "
            "starts anyway, recorded)",
            problem=problems[0],
            count=len(problems),
        )


def problems_at_start(url: str) -> list[str]:
    """What is wrong with the chain of the database at ``url`` before a server starts on it
    (empty: it verifies, or there is no chain yet: a fresh database, or one from before the
    chain, which the start migrates and seals)."""
    try:
        with snapshot(url) as connection:
            if not inspect(connection).has_table(ENTRIES.name):
                return []
            return verify(connection).problems
    except AuditError:
        return []  # no database file yet; a database that does not answer fails the start


@dataclass(frozen=True)
class Head:
    """The chain's last entry: its number, hash and time."""

    seq: int
    hash: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"format": HEAD_FORMAT, "seq": self.seq, "hash": self.hash, "at": self.at}


@dataclass
class Report:
    """What ``verify`` found: the first problem names the first bad entry or row."""

    entries: int = 0
    rows: int = 0
    head: Head = field(default_factory=lambda: Head(0, GENESIS_HASH, 0.0))
    problems: list[str] = field(default_factory=list)

    @property
    def is_intact(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class _Cover:
    seq: int
    digest: str | None


# --- the chain -------------------------------------------------------------------------------
def _check_chain(
    connection: Connection, report: Report, published: Head | None
) -> dict[tuple[str, str], _Cover]:
    latest: dict[tuple[str, str], _Cover] = {}
    previous_seq, previous_hash, previous_at = 0, GENESIS_HASH, 0.0
    published_seen = published is None or published.seq == 0
    for row in connection.execute(select(ENTRIES).order_by(ENTRIES.c.seq)).mappings():
        stored_hash = row["hash"]
        try:
            entry = Entry.from_row(dict(row))
            computed = entry.hash
        except (TypeError, ValueError) as error:
            report.problems.append(f"audit_chain entry {row['seq']!r}: unreadable ({error})")
            previous_seq, previous_hash = previous_seq + 1, stored_hash
            continue
        name = f"audit_chain entry {entry.seq}"
        if entry.seq != previous_seq + 1:
            report.problems.append(
                f"{name}: follows entry {previous_seq}; entries {previous_seq + 1} to "
                f"{entry.seq - 1} are missing or moved"
            )
        elif entry.previous_hash != previous_hash:
            report.problems.append(f"{name}: does not name entry {previous_seq}'s hash")
        if computed != stored_hash:
            report.problems.append(f"{name}: its hash is not its fields' hash (it was altered)")
        if entry.table_name is not None and entry.row_key is not None:
            target = (entry.table_name, entry.row_key)
            before = latest.get(target)
            if entry.before != (before.digest if before else None):
                was = f"entry {before.seq}'s" if before else "no entry's"
                report.problems.append(
                    f"{name}: the row's digest before is not {was} ({entry.table_name} {entry.row_key})"
                )
            latest[target] = _Cover(entry.seq, entry.after)
        if published is not None and entry.seq == published.seq:
            published_seen = True
            if stored_hash != published.hash:
                report.problems.append(f"{name}: its hash is not the published head's")
        previous_seq, previous_hash, previous_at = entry.seq, stored_hash, entry.at
        report.entries += 1
    report.head = Head(previous_seq, previous_hash, previous_at)
    if not published_seen and published is not None:
        report.problems.append(
            f"audit_chain entry {published.seq}: published as the head but not in the chain, "
            f"which ends at entry {previous_seq}: entries were cut off"
        )
    stored_head = connection.execute(
        select(HEAD.c.seq, HEAD.c.hash, HEAD.c.at).where(HEAD.c.id == HEAD_ID)
    ).one_or_none()
    if stored_head is None:
        if previous_seq:
            report.problems.append("audit_head: the head row is gone")
    elif stored_head.seq != previous_seq:
        report.problems.append(
            f"audit_head: names entry {stored_head.seq}, but the chain ends at entry {previous_seq}"
        )
    elif (stored_head.hash, stored_head.at) != (previous_hash, previous_at):
        report.problems.append(f"audit_head: is not entry {previous_seq}'s hash and time")
    return latest


# --- the rows --------------------------------------------------------------------------------
def _table_rows(
    connection: Connection, audited: Audited, report: Report
) -> Iterator[tuple[str, dict[str, Any] | None]]:
    """``(key, row)`` for each row; ``None`` for a row that cannot be read (a value of the
    wrong type written over it), which is reported by its key."""
    columns = present_columns(connection, audited)
    try:
        yield from (
            (row_key(key), row) for key, row in rows_by_key(connection, audited, None, columns)
        )
        return
    except (SQLAlchemyError, TypeError, ValueError):
        pass
    key_columns = audited.key_columns
    for key in connection.execute(select(*key_columns).order_by(*key_columns)):
        try:
            (_, row), *_ = rows_by_key(connection, audited, [tuple(key)], columns)
        except (SQLAlchemyError, TypeError, ValueError) as error:
            yield row_key(list(key)), None
            report.problems.append(f"{audited.name} {row_key(list(key))}: unreadable ({error})")
            continue
        yield row_key(list(key)), row


def _check_rows(
    connection: Connection, report: Report, latest: dict[tuple[str, str], _Cover]
) -> None:
    unseen = dict(latest)
    for audited in audited_tables(connection):
        for key, row in _table_rows(connection, audited, report):
            report.rows += 1
            cover = unseen.pop((audited.name, key), None)
            if row is None:
                continue
            if cover is None or cover.digest is None:
                report.problems.append(f"{audited.name} {key}: no audit_chain entry covers it")
            elif digest(audited.name, row) != cover.digest:
                report.problems.append(
                    f"{audited.name} {key}: differs from audit_chain entry {cover.seq}, which covers it"
                )
    for (table_name, key), cover in sorted(unseen.items()):
        if cover.digest is not None:
            report.problems.append(
                f"{table_name} {key}: gone, but audit_chain entry {cover.seq} covers it"
            )


def _check_covers(
    connection: Connection, report: Report, latest: dict[tuple[str, str], _Cover]
) -> None:
    unseen = dict(latest)
    statement = select(COVERS).order_by(COVERS.c.table_name, COVERS.c.row_key)
    for row in connection.execute(statement).mappings():
        target = (row["table_name"], row["row_key"])
        cover = unseen.pop(target, None)
        name = f"audit_cover {row['table_name']} {row['row_key']}"
        if cover is None:
            report.problems.append(f"{name}: no audit_chain entry covers that row")
        elif (row["seq"], row["digest"]) != (cover.seq, cover.digest):
            report.problems.append(f"{name}: is not audit_chain entry {cover.seq}")
    for (table_name, key), cover in sorted(unseen.items()):
        report.problems.append(
            f"audit_cover {table_name} {key}: missing (audit_chain entry {cover.seq} covers it)"
        )


def _require_chain(connection: Connection) -> None:
    if not inspect(connection).has_table(ENTRIES.name):
        raise AuditError(
            "no audit chain in this database: not croupier's, or not migrated to revision 0005 "
            "(a server start migrates it)"
        )


def verify(connection: Connection, published: Head | None = None) -> Report:
    """Check the chain, its head and covers, and every audited row, in ``connection``'s
    transaction; with ``published``, that the chain still reaches that head."""
    _require_chain(connection)
    report = Report()
    latest = _check_chain(connection, report, published)
    _check_rows(connection, report, latest)
    _check_covers(connection, report, latest)
    return report


# --- opening a database to read -------------------------------------------------------------
def _reading_engine(url: str) -> Engine:
    try:
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":
            database = parsed.database
            if not database or database == ":memory:" or not Path(database).is_file():
                raise AuditError(f"{url}: no SQLite database file there")
            engine = create_engine(url)

            @event.listens_for(engine, "connect")
            def _deferred(connection: Any, _record: Any) -> None:
                connection.isolation_level = None  # BEGIN below: one read transaction

            @event.listens_for(engine, "begin")
            def _begin(connection: Any) -> None:
                connection.exec_driver_sql("BEGIN")

            return engine
        return create_engine(url)
    except (SQLAlchemyError, ImportError) as error:
        raise AuditError(f"{url}: not a database URL croupier can open ({error})") from None


@contextmanager
def snapshot(url: str) -> Iterator[Connection]:
    """A connection reading the database at ``url`` as of one instant."""
    engine = _reading_engine(url)
    try:
        try:
            connection = engine.connect()
        except SQLAlchemyError as error:
            raise AuditError(
                f"{url}: cannot connect ({error.__class__.__name__}: {error})"
            ) from None
        if engine.dialect.name == "postgresql":
            connection = connection.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
        with connection, connection.begin():
            yield connection
    except SQLAlchemyError as error:
        # A file that is no database, or one cut short: one line (exit 2), never a
        # traceback, and never exit 1, which says that tampering was found (issue 25).
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise AuditError(f"{url}: cannot be read as a database ({reason})") from None
    finally:
        engine.dispose()


def verify_database(url: str, published: Head | None = None) -> Report:
    with snapshot(url) as connection:
        return verify(connection, published)


# --- the head, exported and published --------------------------------------------------------
def current_head(connection: Connection) -> Head:
    """The chain's last entry (seq 0 and the genesis hash for an empty chain)."""
    _require_chain(connection)
    last = connection.execute(
        select(ENTRIES.c.seq, ENTRIES.c.hash, ENTRIES.c.at).order_by(ENTRIES.c.seq.desc()).limit(1)
    ).one_or_none()
    if last is None:
        return Head(0, GENESIS_HASH, 0.0)
    return Head(int(last.seq), str(last.hash), float(last.at))


def head_document(head: Head, key: Ed25519PrivateKey | None = None) -> dict[str, Any]:
    """``head`` as the JSON to publish, with the time it was written, signed with ``key``
    (``croupier.audit.signing``: its public key and signature added) unless ``None``."""
    document: dict[str, Any] = {**head.to_json(), "written_at": time.time()}
    return document if key is None else signing.sign(document, key)


def write_head(head: Head, path: Path, key: Ed25519PrivateKey | None = None) -> None:
    """Write ``head`` to ``path`` as JSON, signed with ``key`` unless ``None``, atomically
    (a reader never sees half a file)."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(json.dumps(head_document(head, key), indent=2) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        raise AuditError(f"cannot write the head to {path}: {error.strerror or error}") from None


def read_head(path: Path) -> Head:
    """A head written by ``write_head`` (or ``croupier audit head``); its signature unread."""
    return _read_head(path)[0]


def read_signed_head(path: Path, trusted: Ed25519PublicKey) -> tuple[Head, str | None]:
    """A head written by ``write_head``, and what is wrong with its signature by the key whose
    public half is ``trusted`` (``None``: signed with that key, and unchanged since)."""
    head, document = _read_head(path)
    problem = signing.signature_problem(document, trusted)
    return head, (None if problem is None else f"the head file {path}: {problem}")


def _read_head(path: Path) -> tuple[Head, dict[str, Any]]:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise AuditError(f"cannot read the head file {path}: {error.strerror}") from None
    except ValueError as error:
        raise AuditError(f"the head file {path} is not JSON: {error}") from None
    if not isinstance(document, dict) or document.get("format") != HEAD_FORMAT:
        raise AuditError(f"{path} is not a croupier audit head (format {HEAD_FORMAT!r})")
    seq, hash_, at = document.get("seq"), document.get("hash"), document.get("at")
    if not isinstance(seq, int) or not isinstance(hash_, str) or not isinstance(at, int | float):
        raise AuditError(f"{path}: a head has an integer seq, a text hash and a time")
    return Head(seq, hash_, float(at)), document


def default_head_path(database_url: str) -> Path:
    """Where ``croupier serve`` writes the head unless told: beside a SQLite database file
    (``croupier.sqlite`` -> ``croupier.sqlite.audit-head.json``), else in the working folder."""
    parsed = make_url(database_url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        database = Path(str(parsed.database))
        return database.with_name(database.name + ".audit-head.json")
    return Path("croupier.audit-head.json")
