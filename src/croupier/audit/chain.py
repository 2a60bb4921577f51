"""The hash chain, appended in the transaction of the change it records (R15; GLI-19 2.8.8).

Each entry has a sequence number, a time, an actor, a kind, what it covers (an audited row's
table and key, with the row's digest before and after: a correction shows both), or an event's
own ``detail``, and the previous entry's hash; its hash covers all of these. Changing,
removing or reordering any entry breaks every hash after it; changing a covered row breaks
its agreement with the latest entry that covers it (``croupier.audit.verify``).

Before a unit of work commits, ``listen``'s hook turns the rows its transaction changed
(noted by triggers, ``croupier.audit.records``) into entries, one per row whose digest
changed, locking the chain's single head row first: two PostgreSQL transactions appending at
once take turns, so the chain never forks; SQLite has one writer at a time anyway.
A write made outside a unit of work (plain SQL, a tool) is noted by the triggers all the
same and enters the chain with the next commit, under that commit's actor and time.

>>> first = Entry(1, 0.5, "system", "sealed", "accounts", "[1]", None, "ab" * 32, None, GENESIS_HASH)
>>> first.hash == Entry.from_row(first.as_row()).hash
True
>>> Entry(1, 0.5, "operator", *first.fields()[3:]).hash == first.hash  # another actor
False
"""

from __future__ import annotations

import functools
import json
import re
import time
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Insert,
    Table,
    and_,
    bindparam,
    delete,
    event,
    insert,
    inspect,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql.base import PGDialect
from sqlalchemy.engine import CursorResult, Dialect
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql import ClauseElement, Executable
from sqlalchemy.sql.compiler import SQLCompiler

from croupier.audit import actor as actors
from croupier.audit.models import AuditCover, AuditEntry, AuditHead
from croupier.audit.records import (
    AUDITED,
    BY_NAME,
    PENDING,
    Audited,
    canonical,
    digest,
    padded,
    parse_noted_key,
    present_columns,
    row_key,
    rows_by_key,
    sha256,
)
from croupier.clock import Clock
from croupier.errors import CroupierError

GENESIS_HASH = "0" * 64
"""The ``previous_hash`` of the first entry."""

HEAD_ID = 1

ENTRIES = cast(Table, AuditEntry.__table__)
HEAD = cast(Table, AuditHead.__table__)
COVERS = cast(Table, AuditCover.__table__)

CHUNK = 500
"""Keys per ``IN (...)``: well under SQLite's limit on a statement's parameters."""


class DriverStatement:
    """A statement the chain runs at every commit, compiled once per dialect to the driver's
    own SQL and run by ``Connection.exec_driver_sql``: ``Connection.execute`` derives the
    statement's cache key, looks it up and processes every parameter of every row at each
    run, which cost the chain more CPU than the database's work on the statement (issue 28,
    item 8: about half of each statement's cost, for a commit's five or six). Only for
    statements whose values pass to the driver as they are (numbers and text: the chain's
    own tables). The audited rows stay read by ``Connection.execute``: their digests need
    their columns' types (JSON, booleans, times), and a text statement's result describes
    its columns anew at each run, which cost as much as it saved there. The engine's events
    see these statements as any other (a test's injected fault, a statement's log)."""

    def __init__(self, statement: Executable, column_keys: list[str] | None = None) -> None:
        self.statement = statement
        self.column_keys = column_keys
        self._forms: dict[tuple[str, str], tuple[str, list[str] | None, dict[str, Any]]] = {}

    def _form(self, dialect: Dialect) -> tuple[str, list[str] | None, dict[str, Any]]:
        """The SQL text, the names of its parameters in order (``None``: the driver takes
        them by name) and the values the statement binds itself (``id = 1``)."""
        key = (dialect.name, dialect.paramstyle)
        form = self._forms.get(key)
        if form is None:
            compiled = cast(
                SQLCompiler,
                cast(ClauseElement, self.statement).compile(
                    dialect=dialect, column_keys=self.column_keys
                ),
            )
            names = list(compiled.positiontup or ()) if compiled.positional else None
            form = (str(compiled), names, dict(compiled.params))
            self._forms[key] = form
        return form

    def execute(
        self, connection: Connection, parameters: Mapping[str, Any] | None = None
    ) -> CursorResult[*tuple[Any, ...]]:
        sql, names, bound = self._form(connection.dialect)
        given = {**bound, **(parameters or {})}
        return connection.exec_driver_sql(
            sql, given if names is None else tuple(given[name] for name in names)
        )

    def execute_many(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        """One statement for each of ``rows`` (``executemany``; ``rows`` not empty)."""
        sql, names, bound = self._form(connection.dialect)
        if bound:
            rows = [{**bound, **row} for row in rows]
        if names is None:
            connection.exec_driver_sql(sql, rows)
        else:
            connection.exec_driver_sql(sql, [tuple(row[name] for name in names) for row in rows])


# The statements every commit runs, built once: building them per commit (and SQLAlchemy
# deriving each one's cache key again) cost more than running them (issue 28, item 8).
LOCK_HEAD = DriverStatement(
    select(HEAD.c.seq, HEAD.c.hash).where(HEAD.c.id == HEAD_ID).with_for_update()
)
ENTRY_FIELDS = [column.name for column in ENTRIES.columns]
COVER_FIELDS = [column.name for column in COVERS.columns]
APPEND = DriverStatement(insert(ENTRIES), column_keys=ENTRY_FIELDS)
MOVE_HEAD = DriverStatement(
    update(HEAD)
    .where(HEAD.c.id == HEAD_ID)
    .values(seq=bindparam("seq"), hash=bindparam("hash"), at=bindparam("at"))
)


@functools.cache
def _covers_of(size: int) -> DriverStatement:
    """The covers of ``size`` ``(table name, row key)`` pairs, bound as ``t{index}`` and
    ``k{index}``: every table a commit changed, one query, built once per size. Each pair is
    its own equality on the primary key, which SQLite searches by its index: pairs ``IN`` a
    list of pairs are a scan of every cover there (each commit then cost more as the
    database grew), and an expanding ``IN`` list is rewritten at each execution."""
    return DriverStatement(
        select(COVERS.c.table_name, COVERS.c.row_key, COVERS.c.digest).where(
            or_(
                *(
                    and_(
                        COVERS.c.table_name == bindparam(f"t{index}"),
                        COVERS.c.row_key == bindparam(f"k{index}"),
                    )
                    for index in range(size)
                )
            )
        )
    )


def _saving_covers() -> Insert:
    """SQLite: each changed row's cover, made or moved to its new entry, by one statement: a
    commit that adds rows and changes others (a bet: its ledger entries, the wallet and the
    round) ran two, an ``INSERT`` and an ``UPDATE``, and every statement costs more CPU than
    the database's work on it (issue 28, item 8). (PostgreSQL's is part of ``APPEND_AT_ONCE``.)"""
    made = sqlite.insert(COVERS).values(
        table_name=bindparam("table_name"),
        row_key=bindparam("row_key"),
        seq=bindparam("seq"),
        digest=bindparam("digest"),
    )
    return made.on_conflict_do_update(
        index_elements=[COVERS.c.table_name, COVERS.c.row_key],
        set_={"seq": made.excluded.seq, "digest": made.excluded.digest},
    )


SAVE_COVERS = DriverStatement(_saving_covers())


POSTGRESQL: Dialect = PGDialect()  # type: ignore[no-untyped-call]
"""The SQL ``APPEND_AT_ONCE`` is spelled in (SQLAlchemy's dialect class has no types)."""


def _unnested(table: Table, prefix: str, names: list[str]) -> str:
    """``SELECT`` of one row per index of the array parameters ``{prefix}{name}``, one per
    column of ``names``, each cast to its column's type without its length (PostgreSQL's
    ``unnest``): an explicit cast to ``VARCHAR(n)`` cuts a longer text short in silence,
    where the ``INSERT`` of it refuses it, as one row's ``INSERT`` did."""
    types = {name: table.c[name].type.compile(dialect=POSTGRESQL) for name in names}
    unbounded = {name: re.sub(r"\(\d+\)$", "", spelled) for name, spelled in types.items()}
    arrays = ", ".join(f"%({prefix}{name})s::{unbounded[name]}[]" for name in names)
    return f"SELECT * FROM unnest({arrays})"


def _appending_at_once() -> str:
    """PostgreSQL: a commit's entries, the head moved after them and each changed row's cover,
    in ONE statement (data-modifying ``WITH``, its rows as arrays: ``unnest``). They ran as
    three, each a round trip to the database with the chain's head locked, and the head is
    every table's one writer there (issue 28, item 8); the three touch different tables, so
    one statement's single snapshot changes nothing of what they write."""
    quote = POSTGRESQL.identifier_preparer.quote
    return (
        f"WITH appended AS (INSERT INTO {ENTRIES.name} "
        f"({', '.join(quote(name) for name in ENTRY_FIELDS)}) "
        f"{_unnested(ENTRIES, 'e_', ENTRY_FIELDS)}), "
        f"moved AS (UPDATE {HEAD.name} SET seq = %(head_seq)s, hash = %(head_hash)s, "
        f"{quote('at')} = %(head_at)s WHERE id = {HEAD_ID}) "
        f"INSERT INTO {COVERS.name} ({', '.join(quote(name) for name in COVER_FIELDS)}) "
        f"{_unnested(COVERS, 'c_', COVER_FIELDS)} "
        "ON CONFLICT (table_name, row_key) DO UPDATE "
        "SET seq = excluded.seq, digest = excluded.digest"
    )


APPEND_AT_ONCE = _appending_at_once()
"""The driver's own SQL (``%(name)s`` parameters), run by ``Connection.exec_driver_sql``."""

TAKE_NOTED = DriverStatement(delete(PENDING).returning(PENDING.c.table_name, PENDING.c.row_key))
"""The rows the triggers noted, read and emptied in one statement (the transaction that
covers them commits both, or neither)."""


class AuditError(CroupierError):
    """The audit chain cannot be read or appended to: no such database, no chain in it, or
    its head row gone."""


@dataclass(frozen=True)
class Entry:
    """One entry, as hashed. ``hash`` is SHA-256 of canonical JSON of the fields in order."""

    seq: int
    at: float
    actor: str
    kind: str
    table_name: str | None
    row_key: str | None
    before: str | None
    after: str | None
    detail: str | None
    previous_hash: str

    def fields(self) -> list[Any]:
        # Spelled out: ``dataclasses.astuple`` deep-copies every value, and was half of the
        # chain's verification time (every field is a number or text).
        return [
            self.seq,
            self.at,
            self.actor,
            self.kind,
            self.table_name,
            self.row_key,
            self.before,
            self.after,
            self.detail,
            self.previous_hash,
        ]

    @functools.cached_property
    def hash(self) -> str:
        """Computed once (an entry is frozen): the next entry's ``previous_hash`` and the
        entry's own row both want it."""
        return sha256(canonical(self.fields()))

    def as_row(self) -> dict[str, Any]:
        return {**self.__dict__, "hash": self.hash}

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Entry:
        return cls(
            seq=row["seq"],
            at=row["at"],
            actor=row["actor"],
            kind=row["kind"],
            table_name=row["table_name"],
            row_key=row["row_key"],
            before=row["before"],
            after=row["after"],
            detail=row["detail"],
            previous_hash=row["previous_hash"],
        )


@dataclass(frozen=True)
class Change:
    """What one entry will record: a row's new digest (``after``, ``None`` once deleted) over
    the one last recorded (``before``), or an event's ``detail``."""

    kind: str
    table_name: str | None = None
    row_key: str | None = None
    before: str | None = None
    after: str | None = None
    detail: str | None = None


# --- appending ----------------------------------------------------------------------------------
def _lock_head(connection: Connection) -> tuple[int, str]:
    """The head's number and hash, its row locked until the transaction ends; made with the
    first entry (a fresh database has none: a restore brings its own)."""
    found = LOCK_HEAD.execute(connection).one_or_none()
    if found is None:
        if connection.execute(select(ENTRIES.c.seq).limit(1)).first() is not None:
            raise AuditError("the audit chain's head row is gone: nothing can be recorded")
        dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        connection.execute(
            dialect.insert(HEAD)
            .values(id=HEAD_ID, seq=0, hash=GENESIS_HASH, at=0.0)
            .on_conflict_do_nothing()
        )
        found = LOCK_HEAD.execute(connection).one()
    return int(found.seq), str(found.hash)


def _append(
    connection: Connection,
    now: float,
    actor: str,
    changes: list[Change],
    head: tuple[int, str] | None = None,
) -> list[Entry]:
    """Append ``changes`` after the head (``head`` if this transaction locked it already),
    and move each covered row's cover to its new entry."""
    if not changes:
        return []
    seq, previous = head or _lock_head(connection)
    entries = []
    for change in changes:
        seq += 1
        entry = Entry(
            seq,
            now,
            actor,
            change.kind,
            change.table_name,
            change.row_key,
            change.before,
            change.after,
            change.detail,
            previous,
        )
        previous = entry.hash
        entries.append(entry)
    covers = [
        {"table_name": c.table_name, "row_key": c.row_key, "seq": e.seq, "digest": e.after}
        for c, e in zip(changes, entries, strict=True)
        if c.table_name is not None
    ]
    if connection.dialect.name == "postgresql":
        _write_at_once(connection, entries, covers, now)
    else:
        _write_in_turn(connection, entries, covers, now)
    return entries


def _write_at_once(
    connection: Connection, entries: list[Entry], covers: list[dict[str, Any]], now: float
) -> None:
    """PostgreSQL: the entries, the head and the covers by one statement (``APPEND_AT_ONCE``),
    each column's values as one array."""
    rows = [entry.as_row() for entry in entries]
    arrays = {f"e_{name}": [row[name] for row in rows] for name in ENTRY_FIELDS}
    arrays |= {f"c_{name}": [cover[name] for cover in covers] for name in COVER_FIELDS}
    head = {"head_seq": entries[-1].seq, "head_hash": entries[-1].hash, "head_at": now}
    connection.exec_driver_sql(APPEND_AT_ONCE, arrays | head)


def _write_in_turn(
    connection: Connection, entries: list[Entry], covers: list[dict[str, Any]], now: float
) -> None:
    """SQLite: the entries, the head, the covers, a statement each (no round trip to save:
    the database is in the process)."""
    APPEND.execute_many(connection, [entry.as_row() for entry in entries])
    MOVE_HEAD.execute(connection, {"seq": entries[-1].seq, "hash": entries[-1].hash, "at": now})
    if covers:
        SAVE_COVERS.execute_many(connection, covers)


def _chunks(items: list[Any]) -> Iterable[list[Any]]:
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


def _covers(
    connection: Connection, keys: dict[str, set[tuple[Any, ...]]]
) -> dict[str, dict[str, str | None]]:
    """The recorded digest of each covered row of ``keys`` (by table name), by table name and
    row key: one query for every table, not one per table."""
    pairs = sorted((name, row_key(key)) for name, wanted in keys.items() for key in wanted)
    found: dict[str, dict[str, str | None]] = {name: {} for name in keys}
    for chunk in _chunks(pairs):
        asked = padded(chunk)
        values = {
            f"{part}{index}": value
            for index, (name, key) in enumerate(asked)
            for part, value in (("t", name), ("k", key))
        }
        for name, key, value in _covers_of(len(asked)).execute(connection, values):
            found[name][str(key)] = value
    return found


def _changes_of(
    audited: Audited,
    wanted: Iterable[tuple[Any, ...]],
    current: dict[tuple[Any, ...], tuple[Any, str]],
    covers: dict[str, str | None],
    kind: str | None = None,
) -> list[Change]:
    """An entry's change for each row of ``wanted`` whose digest (``current``: the rows as
    they are now, with their digests) is not the one its cover recorded (``covers``, by row
    key); rows deleted since they were covered too."""
    changes = []
    for key in sorted(wanted):
        text_key = row_key(key)
        row, after = current.get(key, (None, None))
        if text_key in covers and covers[text_key] == after:
            continue  # unchanged: noted, but written back as it was
        if text_key not in covers and row is None:
            continue  # made and removed within the transaction
        changes.append(
            Change(
                kind=kind or ("deleted" if row is None else audited.kind(row)),
                table_name=audited.name,
                row_key=text_key,
                before=covers.get(text_key),
                after=after,
            )
        )
    return changes


def _all_changes_of(connection: Connection, audited: Audited, kind: str) -> list[Change]:
    """``_changes_of`` every row of ``audited``'s table and every row its covers name."""
    rows = dict(rows_by_key(connection, audited, None, present_columns(connection, audited)))
    covers: dict[str, str | None] = {
        str(key): value
        for key, value in connection.execute(
            select(COVERS.c.row_key, COVERS.c.digest).where(COVERS.c.table_name == audited.name)
        )
    }
    wanted = set(rows) | {tuple(json.loads(key)) for key in covers}
    current = {key: (row, digest(audited.name, row)) for key, row in rows.items()}
    return _changes_of(audited, wanted, current, covers, kind)


def _current(
    connection: Connection, audited: Audited, keys: set[tuple[Any, ...]]
) -> dict[tuple[Any, ...], tuple[Any, str]]:
    """Each row of ``keys`` that exists, as it is now, with its digest."""
    rows: dict[tuple[Any, ...], Any] = {}
    for chunk in _chunks(sorted(keys)):
        rows |= dict(rows_by_key(connection, audited, chunk))
    return {key: (row, digest(audited.name, row)) for key, row in rows.items()}


Waited = Callable[[float], None]
"""Told a duration in seconds (a server's metrics: ``service.unit_of_work.Stage``)."""


def append_noted(
    connection: Connection, now: float, actor: str, head_waited: Waited | None = None
) -> list[Entry]:
    """Cover every row the triggers noted: one entry per row whose digest changed.
    ``head_waited`` is told how long the head's lock took to get."""
    noted = TAKE_NOTED.execute(connection).all()
    if not noted:
        return []
    keys: dict[str, set[tuple[Any, ...]]] = {}
    for table_name, key in noted:
        if table_name in BY_NAME:
            keys.setdefault(table_name, set()).add(parse_noted_key(BY_NAME[table_name], key))
    # The changed rows and their digests before the head: this transaction holds those rows'
    # locks, so they read the same after it. The head's lock is every table's one writer on
    # PostgreSQL, held to the commit; what it covers is kept as short as the chain allows
    # (taken first, its wait had a p99 of 54 ms under benchmarks/load.py on PostgreSQL, timed
    # by a timer put in for that run: docs/reliability.md).
    current = {name: _current(connection, BY_NAME[name], wanted) for name, wanted in keys.items()}
    asked = time.perf_counter()
    head = _lock_head(connection)  # before reading the covers: they are then the latest
    if head_waited is not None:
        head_waited(time.perf_counter() - asked)
    covers = _covers(connection, keys)
    changes = [
        change
        for audited in AUDITED
        if audited.name in keys
        for change in _changes_of(
            audited, keys[audited.name], current[audited.name], covers[audited.name]
        )
    ]
    return _append(connection, now, actor, changes, head)


def seal(connection: Connection, now: float, actor: str, kind: str = "sealed") -> list[Entry]:
    """Cover every audited row whose digest is not the one recorded (at the migration that
    starts the chain: every row). A later migration that rewrites rows ends with this."""
    changes = [
        change
        for audited in AUDITED
        if inspect(connection).has_table(audited.name)
        for change in _all_changes_of(connection, audited, kind)
    ]
    entries = _append(connection, now, actor, changes)
    connection.execute(delete(PENDING))
    return entries


def record(
    session: Session, now: float, kind: str, detail: Mapping[str, Any], actor: str | None = None
) -> Entry:
    """Record an event in its own right (a decision, a correction's before and after) in the
    session's transaction; the rows it changes are covered at commit as any others."""
    (entry,) = _append(
        session.connection(),
        now,
        actor or actors.current(),
        [Change(kind=kind, detail=canonical(dict(detail)))],
    )
    return entry


# --- the unit of work's hook -----------------------------------------------------------------------
_chained_engines: weakref.WeakSet[Engine] = weakref.WeakSet()


def _has_chain(connection: Connection) -> bool:
    if connection.engine in _chained_engines:
        return True
    if not inspect(connection).has_table(PENDING.name):
        return False  # a database before the chain's migration (asked again next time)
    _chained_engines.add(connection.engine)
    return True


def listen(
    sessions: sessionmaker[Session],
    clock: Clock,
    *,
    head_waited: Waited | None = None,
    appended: Waited | None = None,
) -> None:
    """Before each of ``sessions``' transactions commits, cover what it changed;
    ``head_waited`` is told each wait for the head's lock (every table's commits queue there
    on PostgreSQL), ``appended`` each commit's whole part in the chain, that wait included."""

    def before_commit(session: Session) -> None:
        session.flush()
        started = time.perf_counter()
        connection = session.connection()
        if _has_chain(connection):
            append_noted(connection, clock.now(), actors.current(), head_waited)
            if appended is not None:
                appended(time.perf_counter() - started)

    event.listen(sessions, "before_commit", before_commit)
