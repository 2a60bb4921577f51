"""Online backup and restore of the table server's database (RELIABILITY R19; GLI-19 B.3.3-B.3.7).

A backup is taken while tables play and is one consistent instant of the whole database: the
ledger, every round's record, the shoes and their commitments, accounts and sessions.

- **SQLite**: SQLite's own online backup (``sqlite3.Connection.backup``) copies every page in
  one step under a read transaction; in WAL mode readers never block the writers, so play goes
  on. The backup is itself a SQLite database (its journal set back to a single file).
- **PostgreSQL**: one ``REPEATABLE READ READ ONLY`` transaction reads every table: all rows as
  of one snapshot, never blocking a writer. They go to a portable file (JSON lines: a header
  with the schema revision and each table's columns, one line per row, a trailer with the row
  counts, so that a cut-off file is refused). It needs no client tools of the server's version,
  and it restores into SQLite as well as PostgreSQL.

``restore`` brings either kind back into a *fresh* database (one with no rows in croupier's
tables): the schema is built by the same migrations as at server start, up to the backup's
revision, the rows are inserted parent tables first, PostgreSQL's id sequences are moved past
the restored ids, and the schema is then migrated to this version's head. A SQLite backup
restored into SQLite is copied page for page by the same backup API.

What is restored must verify (issue 25, item 5): the audit chain (R15) of the backup, and
every audited row against it, and the chain must reach a published head when one is given.
A backup that does not verify is refused, naming the first bad entry or row, and nothing is
written (a SQLite backup is verified before it is copied; rows are verified inside the
transaction that inserts them, which a refusal rolls back); ``accept_broken`` restores it
all the same, and an entry of the chain records that it was (who, which file, what failed).

``differences`` compares two databases row by row, table by table, which is how the tests
reconcile a restore (and how an operator can check one).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import Connection, Engine, Table, create_engine, func, insert, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from croupier.audit import chain, verify
from croupier.audit.verify import Head
from croupier.errors import CroupierError
from croupier.ledger import book
from croupier.service.database import alembic_config, make_engine, upgrade
from croupier.service.models import IN_PROGRESS, Base

FORMAT = "croupier-backup"
FORMAT_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"
BATCH = 1_000


class BackupError(CroupierError):
    """A backup that cannot be taken or restored: no such database, a database that is not
    fresh, a file that is not a croupier backup or was cut off."""


class BrokenChain(BackupError):  # noqa: N818 - the domain's own word
    """The backup's audit chain, or a row against it, does not verify (R15): the restore is
    refused (the CLI exits 1: tampering found) unless it is accepted."""

    code = "broken_chain"

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        more = f" ({len(problems)} problems in all)" if len(problems) > 1 else ""
        super().__init__(
            f"the backup's audit chain does not verify: {problems[0]}{more}",
            problem=problems[0],
            count=len(problems),
        )


@dataclass(frozen=True)
class BackupSummary:
    """What a backup holds: the schema revision and each table's row count."""

    kind: str
    """``sqlite`` (a SQLite database file) or ``snapshot`` (the portable JSON-lines file)."""
    revision: str
    rows: dict[str, int]

    def describe(self) -> str:
        total = sum(self.rows.values())
        return f"{self.kind} backup at schema revision {self.revision}: {total} rows in {len(self.rows)} tables"


RUNNING_NOW = frozenset({"table_leases", "serve_processes"})
"""Which process runs which table now (``service.leases``): no record, and never backed up;
a restored database starts with every table free for the first process to take."""


def tables() -> list[Table]:
    """croupier's tables, each after every table it refers to."""
    return [table for table in Base.metadata.sorted_tables if table.name not in RUNNING_NOW]


def _sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError(f"{url}: an in-memory database has nothing to back up")
    return Path(database)


def _revision(connection: Connection) -> str:
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    if found is None:
        raise BackupError("the database has no schema revision: it is not croupier's")
    return str(found)


def _row_counts(connection: Connection) -> dict[str, int]:
    return {
        table.name: int(connection.execute(select(func.count()).select_from(table)).scalar_one())
        for table in tables()
    }


# --- backup -----------------------------------------------------------------------------------
def backup(url: str, destination: Path) -> BackupSummary:
    """Take an online backup of the database at ``url`` into ``destination`` (replaced
    atomically: a failed backup never leaves half a file under that name)."""
    destination = Path(destination)
    partial = destination.with_name(destination.name + ".partial")
    with _one_line(f"cannot back the database up into {destination}"):
        partial.unlink(missing_ok=True)
        try:
            if make_url(url).get_backend_name() == "sqlite":
                summary = _backup_sqlite(_sqlite_path(url), partial)
            else:
                summary = _backup_snapshot(url, partial)
            os.replace(partial, destination)
        finally:
            with suppress(OSError):
                partial.unlink(missing_ok=True)
    return summary


@contextmanager
def _one_line(what: str) -> Iterator[None]:
    """What the file system, SQLite or the database driver raised, as one ``BackupError``
    (the CLI's one line, exit 2: never a traceback, and never exit 1, which says that
    tampering was found; issue 25, item 6)."""
    try:
        yield
    except CroupierError:
        raise
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        raise BackupError(f"{what}: {error.strerror or error}{where}") from None
    except (sqlite3.DatabaseError, SQLAlchemyError, UnicodeDecodeError) as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise BackupError(f"{what}: {reason}") from None


def _backup_sqlite(source_path: Path, partial: Path) -> BackupSummary:
    if not source_path.is_file():
        raise BackupError(f"no SQLite database at {source_path}")
    source = sqlite3.connect(source_path, timeout=30)
    target = sqlite3.connect(partial)
    try:
        source.backup(target)  # every page in one step: one consistent read transaction
        target.execute("PRAGMA journal_mode=DELETE")  # the backup is one self-contained file
        checked = target.execute("PRAGMA integrity_check").fetchone()
        if checked is None or checked[0] != "ok":
            raise BackupError(f"the backup copy fails SQLite's integrity check: {checked}")
    finally:
        target.close()
        source.close()
    return describe(partial)


def _backup_snapshot(url: str, partial: Path) -> BackupSummary:
    engine = make_engine(url)
    counts: dict[str, int] = {}
    try:
        snapshot = engine.connect().execution_options(
            isolation_level="REPEATABLE READ", postgresql_readonly=True
        )
        with snapshot, snapshot.begin(), partial.open("w", encoding="utf-8") as out:
            revision = _revision(snapshot)
            header = {
                "format": FORMAT,
                "version": FORMAT_VERSION,
                "dialect": engine.dialect.name,
                "revision": revision,
                "tables": {table.name: [c.name for c in table.columns] for table in tables()},
            }
            out.write(json.dumps(header) + "\n")
            for table in tables():
                ordered = select(table).order_by(*table.primary_key.columns)
                counts[table.name] = 0
                for row in snapshot.execute(ordered):
                    out.write(json.dumps([table.name, list(row)], ensure_ascii=False) + "\n")
                    counts[table.name] += 1
            out.write(json.dumps({"end": FORMAT, "rows": counts}) + "\n")
            out.flush()
            os.fsync(out.fileno())
    finally:
        engine.dispose()
    return BackupSummary("snapshot", revision, counts)


# --- reading a backup ----------------------------------------------------------------------------
def _is_sqlite_file(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER


def describe(path: Path) -> BackupSummary:
    """What the backup file at ``path`` holds (reading it through to its trailer)."""
    path = Path(path)
    with _one_line(f"{path} cannot be read as a backup"):
        return _describe(path)


def _describe(path: Path) -> BackupSummary:
    if not path.is_file():
        raise BackupError(f"no backup file at {path}")
    if _is_sqlite_file(path):
        engine = _backup_file_engine(path)
        try:
            with engine.connect() as connection:
                return BackupSummary("sqlite", _revision(connection), _row_counts(connection))
        finally:
            engine.dispose()
    revision, _ = _snapshot_header(path)
    counts: dict[str, int] = {}
    for name, _row in _snapshot_rows(path):
        counts[name] = counts.get(name, 0) + 1
    return BackupSummary("snapshot", revision, {t.name: counts.get(t.name, 0) for t in tables()})


def _backup_file_engine(path: Path) -> Engine:
    # Not ``make_engine``: its connection settings would turn the backup's journal to WAL.
    return create_engine(f"sqlite:///{path}")


def _snapshot_header(path: Path) -> tuple[str, dict[str, list[str]]]:
    with path.open(encoding="utf-8") as lines:
        first = lines.readline()
    try:
        header = json.loads(first)
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupError(f"{path} is neither a SQLite database nor a croupier backup")
    if header.get("version") != FORMAT_VERSION:
        raise BackupError(
            f"{path}: backup format {header.get('version')!r} is not {FORMAT_VERSION}"
        )
    return str(header["revision"]), dict(header["tables"])


def _snapshot_rows(path: Path) -> Iterator[tuple[str, list[Any]]]:
    """Each ``(table, row values)`` of a snapshot file; a file without its trailer, or whose
    trailer's counts differ from its rows, is refused (a cut-off or edited backup)."""
    counts: dict[str, int] = {}
    with path.open(encoding="utf-8") as lines:
        lines.readline()
        for number, line in enumerate(lines, start=2):
            try:
                item = json.loads(line)
            except ValueError:
                raise BackupError(f"{path}, line {number}: not JSON; the file is damaged") from None
            if isinstance(item, dict):
                held = {name: n for name, n in dict(item.get("rows", {})).items() if n}
                if item.get("end") != FORMAT or held != counts:
                    raise BackupError(f"{path}: the trailer does not match the rows read")
                return
            name, values = item
            counts[name] = counts.get(name, 0) + 1
            yield name, values
    raise BackupError(f"{path} ends before its trailer: the backup was cut off")


# --- restore -------------------------------------------------------------------------------------
def restore(
    source: Path,
    url: str,
    *,
    published: Head | None = None,
    accept_broken: bool = False,
    actor: str = "system:restore",
) -> BackupSummary:
    """Restore the backup at ``source`` into the fresh database at ``url``, once its audit
    chain verifies (and reaches ``published``, a head exported earlier): ``BrokenChain``
    naming the first problem, and nothing written, unless ``accept_broken`` (then recorded in
    the chain, as done by ``actor``)."""
    source = Path(source)
    summary = describe(source)  # reads it through: a damaged backup is refused before writing
    with _one_line(f"cannot restore {source}"):
        return _restore(source, summary, url, published, accept_broken, actor)


def _restore(  # noqa: PLR0917 - restore's own arguments, passed on
    source: Path,
    summary: BackupSummary,
    url: str,
    published: Head | None,
    accept_broken: bool,
    actor: str,
) -> BackupSummary:
    target = make_engine(url)
    try:
        _require_fresh(target)
        if summary.kind == "sqlite" and target.dialect.name == "sqlite":
            with verify.snapshot(f"sqlite:///{source}") as reading:
                problems = _chain_problems(reading, published, accept_broken)
            target.dispose()
            _copy_sqlite(source, _sqlite_path(url))
        else:
            command.upgrade(_config(target), summary.revision)
            with target.begin() as connection:
                _insert_rows(connection, _rows_of(source, summary))
                if connection.dialect.name == "postgresql":
                    _advance_sequences(connection)
                problems = _chain_problems(connection, published, accept_broken)
        upgrade(target)
        with target.connect() as connection:
            restored = _row_counts(connection)
        if restored != summary.rows:
            raise BackupError(f"restored {restored} rows, the backup holds {summary.rows}")
        if problems:
            with Session(target) as session, session.begin():
                chain.record(
                    session,
                    time.time(),
                    "restore_accepted_broken",
                    {"backup": str(source), "problems": len(problems), "first": problems[0]},
                    actor,
                )
    finally:
        target.dispose()
    return summary


def _chain_problems(
    connection: Connection, published: Head | None, accept_broken: bool
) -> list[str]:
    """What is wrong with the chain read through ``connection`` (empty: it verifies);
    ``BrokenChain`` unless ``accept_broken``."""
    if not inspect(connection).has_table(chain.ENTRIES.name):
        # A backup from before the chain (revision 0005): nothing to verify it by.
        problems = [] if published is None else ["the backup has no audit chain to reach the head"]
    else:
        problems = verify.verify(connection, published).problems
    if problems and not accept_broken:
        raise BrokenChain(problems)
    return problems


def _config(engine: Engine) -> Any:
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    return config


def _require_fresh(engine: Engine) -> None:
    present = set(inspect(engine).get_table_names())
    with engine.connect() as connection:
        for table in tables():
            if table.name in present and connection.execute(select(table).limit(1)).first():
                raise BackupError(
                    f"{engine.url.render_as_string()}: table {table.name} has rows; "
                    "restore only into a fresh database"
                )


def _copy_sqlite(source: Path, target_path: Path) -> None:
    origin = sqlite3.connect(source)
    target = sqlite3.connect(target_path)
    try:
        origin.backup(target)
        target.execute("PRAGMA journal_mode=WAL")
    finally:
        target.close()
        origin.close()


def _rows_of(source: Path, summary: BackupSummary) -> Iterator[tuple[str, dict[str, Any]]]:
    if summary.kind == "snapshot":
        _, columns = _snapshot_header(source)
        for name, values in _snapshot_rows(source):
            yield name, dict(zip(columns[name], values, strict=True))
        return
    engine = _backup_file_engine(source)
    try:
        with engine.connect() as connection:
            for table in tables():
                for row in connection.execute(select(table).order_by(*table.primary_key.columns)):
                    yield table.name, dict(row._mapping)
    finally:
        engine.dispose()


def _insert_rows(connection: Connection, rows: Iterator[tuple[str, dict[str, Any]]]) -> None:
    by_name = {table.name: table for table in tables()}
    batch: list[dict[str, Any]] = []
    current: str | None = None
    for name, row in rows:
        if name != current and batch:
            connection.execute(insert(by_name[str(current)]), batch)
            batch = []
        current = name
        batch.append(row)
        if len(batch) >= BATCH:
            connection.execute(insert(by_name[name]), batch)
            batch = []
    if batch:
        connection.execute(insert(by_name[str(current)]), batch)


def _advance_sequences(connection: Connection) -> None:
    """Move each id sequence past the restored ids, or the next insert would reuse one."""
    for table in tables():
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or not keys[0].autoincrement or keys[0].type.python_type is not int:
            continue
        highest = connection.execute(select(func.max(keys[0]))).scalar()
        if highest is not None:
            connection.execute(
                text("SELECT setval(pg_get_serial_sequence(:table, :column), :value)"),
                {"table": table.name, "column": keys[0].name, "value": highest},
            )


# --- reconciling ------------------------------------------------------------------------------
def table_rows(url: str) -> dict[str, dict[tuple[Any, ...], dict[str, Any]]]:
    """Every row of every croupier table at ``url``, by table and primary key."""
    engine = make_engine(url, read_only=True)
    found: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {}
    try:
        with engine.connect() as connection:
            for table in tables():
                keys = [column.name for column in table.primary_key.columns]
                found[table.name] = {
                    tuple(row[key] for key in keys): dict(row)
                    for row in connection.execute(select(table)).mappings()
                }
    finally:
        engine.dispose()
    return found


def differences(first: str, second: str) -> list[str]:
    """Every row that is in one database and not the other, or differs (empty: identical)."""
    left, right = table_rows(first), table_rows(second)
    found: list[str] = []
    for name, rows in left.items():
        others = right[name]
        for key in sorted(set(rows) | set(others), key=repr):
            if rows.get(key) != others.get(key):
                found.append(f"{name} {key}: {rows.get(key)} != {others.get(key)}")
    return found


# Rows that never change once written; rounds and shoes too once finished. A sign-in after the
# backup moves only a user's failure count and lock, so those two are left out.
APPEND_ONLY = (
    "users",
    "ledger_transactions",
    "ledger_entries",
    "idempotency_keys",
    "round_players",
)
MOVING_USER_COLUMNS = ("failure_times", "locked_until")


def _settled(rows: dict[str, dict[tuple[Any, ...], dict[str, Any]]]) -> dict[str, dict[Any, Any]]:
    kept = {name: rows[name] for name in APPEND_ONLY}
    kept["users"] = {
        key: {**row, **dict.fromkeys(MOVING_USER_COLUMNS)} for key, row in rows["users"].items()
    }
    kept["rounds"] = {
        key: row for key, row in rows["rounds"].items() if row["status"] not in IN_PROGRESS
    }
    kept["shoes"] = {key: row for key, row in rows["shoes"].items() if row["is_revealed"]}
    return kept


def reconcile(
    restored: str,
    live: str,
    live_rows: dict[str, dict[tuple[Any, ...], dict[str, Any]]] | None = None,
) -> list[str]:
    """Every way a restore of a backup taken while tables played disagrees with the live
    database it came from (empty: none): a row that cannot have changed since the backup
    (a ledger transaction or entry, a user, an idempotent answer, a round's players, a finished
    round with its whole event record, a revealed shoe) differs from the live row with the
    same key or is not there; and every breach of double entry in the restore's own books.
    ``live_rows`` (``table_rows(live)``, read once) saves reading the live database again
    when several restores are reconciled with it."""
    settled_live = _settled(live_rows if live_rows is not None else table_rows(live))
    found = [
        f"{name} {key}: restored {row} but live {settled_live[name].get(key)}"
        for name, rows in _settled(table_rows(restored)).items()
        for key, row in rows.items()
        if settled_live[name].get(key) != row
    ]
    engine = make_engine(restored, read_only=True)
    try:
        with Session(engine) as session:
            found += [f"audit of the restore: {problem}" for problem in book.audit(session)]
    finally:
        engine.dispose()
    return found
