"""What the audit chain covers, and how a row becomes a digest (R15).

The audited tables hold every significant event: bets, deals, settlements and voids (a
round's record, its seats, its back bets, its ledger transaction), credits and debits, each
account's balance, the tables' limits and state, the shoes and their commitments, the rule
sets dealt under, the users and their roles. Sessions and stored idempotent answers are not
events and are left out.

A row's digest is SHA-256 of canonical JSON of its table's name and its non-null columns:
a column added later as ``NULL`` leaves every earlier digest as it was. A row's key is its
primary key as canonical JSON, ``[17]`` or ``[17, 2, 5]``.

Which rows a transaction changed is noted by database triggers into ``audit_pending``
(whatever wrote them: the ORM, a Core statement, plain SQL), and turned into chain entries
before the transaction commits (``croupier.audit.chain``). Auditing a new table takes its
entry in ``AUDITED`` and ``install_triggers`` in the migration that creates it.

>>> row_key((17, 2, 5))
'[17,2,5]'
>>> digest("ledger_entries", {"id": 1, "amount": 500, "note": None}) == digest(
...     "ledger_entries", {"amount": 500, "id": 1}
... )
True
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    Integer,
    MetaData,
    Select,
    String,
    Table,
    and_,
    bindparam,
    inspect,
    or_,
    select,
    text,
)

from croupier.storage import Base

_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)
"""``json.dumps`` with these options builds this encoder at every call; every commit writes
a few dozen texts (each changed row's digest, each entry's hash)."""


def canonical(value: Any) -> str:
    """One text for one value: sorted keys, no spaces, floats as Python writes them."""
    return _CANONICAL.encode(value)


def sha256(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


def digest(table_name: str, row: Mapping[str, Any]) -> str:
    """The digest of ``row`` of ``table_name``, its ``None`` columns left out."""
    present = {name: value for name, value in row.items() if value is not None}
    return sha256(canonical([table_name, present]))


def row_key(values: Sequence[Any]) -> str:
    if all(type(value) is int for value in values):  # every audited key: its JSON, directly
        return f"[{','.join(map(str, values))}]"
    return canonical(list(values))


@dataclass(frozen=True)
class Audited:
    """An audited table, and what a change of one of its rows is called in the chain."""

    name: str
    noun: str
    kind_of: Callable[[Mapping[str, Any]], str] | None = None

    @functools.cached_property
    def table(self) -> Table:
        """The audited table, as the schema on the shared base declares it: the service's
        tables are declared by ``croupier.service.models``, which whoever audits a database
        imports first (the audit stands below the service and does not)."""
        return Base.metadata.tables[self.name]

    @functools.cached_property
    def key_columns(self) -> list[Column[Any]]:
        return list(self.table.primary_key.columns)

    @functools.cached_property
    def key_types(self) -> list[type]:
        """Each key column's Python type (a noted key's parts are read as these)."""
        return [column.type.python_type for column in self.key_columns]

    def kind(self, row: Mapping[str, Any]) -> str:
        return self.kind_of(row) if self.kind_of is not None else self.noun


AUDITED: tuple[Audited, ...] = (
    Audited("users", "user", lambda row: f"user {row['role']}"),
    Audited("accounts", "account"),
    Audited("ledger_transactions", "transaction", lambda row: str(row["kind"])),
    Audited("ledger_entries", "ledger entry"),
    Audited("game_tables", "table"),
    Audited("rule_sets", "rules"),
    Audited("shoes", "shoe", lambda row: "shoe revealed" if row["is_revealed"] else "shoe"),
    Audited("rounds", "round", lambda row: f"round {row['status']}"),
    Audited("round_players", "seat"),
    Audited("back_bets", "back bet", lambda row: f"back bet {row['status']}"),
    Audited("staff_roles", "staff role", lambda row: f"staff role {row['role']}"),
    Audited("dealer_assignments", "dealer assignment"),
    Audited("staff_actions", "staff action", lambda row: f"staff {row['action']}"),
    Audited("disputes", "dispute", lambda row: f"dispute {row['status']}"),
    Audited(
        "payout_corrections", "payout correction", lambda row: f"payout correction {row['status']}"
    ),
    Audited("approvals", "approval", lambda row: f"approval {row['kind']} {row['status']}"),
    Audited("player_limits", "player limit", lambda row: f"{row['setter']} limit {row['kind']}"),
    Audited("player_pauses", "player pause", lambda row: f"player {row['kind']}"),
)
"""In the order a transaction's entries are appended: parents before the rows that refer to them."""

BY_NAME = {audited.name: audited for audited in AUDITED}

pending_metadata = MetaData()
PENDING = Table(
    "audit_pending",
    pending_metadata,
    Column("id", Integer, primary_key=True),
    Column("table_name", String(48), nullable=False),
    Column("row_key", String(256), nullable=False),
)
"""Rows changed by transactions not yet committed, noted by the triggers: a work queue,
emptied by the transaction that filled it, and no part of the record (nor of a backup)."""


# --- reading rows ---------------------------------------------------------------------------------
def present_columns(connection: Connection, audited: Audited) -> list[Column[Any]]:
    """The model's columns that the database has (a migration may read rows before a later
    one adds a column)."""
    found = {column["name"] for column in inspect(connection).get_columns(audited.name)}
    return [column for column in audited.table.columns if column.name in found]


def parse_noted_key(audited: Audited, noted: str) -> tuple[Any, ...]:
    """A key as a trigger notes it (the key columns as text, joined by commas) as values."""
    types = audited.key_types
    parts = noted.split(",", len(types) - 1)
    return tuple(
        int(part) if kind is int else part for kind, part in zip(types, parts, strict=True)
    )


def rows_by_key(
    connection: Connection,
    audited: Audited,
    keys: Iterable[tuple[Any, ...]] | None = None,
    columns: list[Column[Any]] | None = None,
) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """``(key, row)`` for the rows of ``keys`` that exist (every row when ``keys`` is None),
    in key order."""
    key_columns = audited.key_columns
    if keys is None:
        statement = select(*(columns or audited.table.columns)).order_by(*key_columns)
        found = connection.execute(statement)
    else:
        ordered = padded(sorted(set(keys)))
        if not ordered:
            return
        found = connection.execute(
            _rows_of_keys(audited.name, len(ordered)),
            {
                f"k{index}_{part}": value
                for index, key in enumerate(ordered)
                for part, value in enumerate(key)
            },
        )
    names = list(found.keys())
    at = [names.index(column.name) for column in key_columns]
    for row in found:
        values = tuple(row)
        yield tuple(values[index] for index in at), dict(zip(names, values, strict=True))


Item = TypeVar("Item")


def padded(items: list[Item]) -> list[Item]:
    """``items`` with its last repeated up to a power of two: statements are built for so
    many keys, so a few statements serve every count (the same key again finds the same
    row, once)."""
    size = 1
    while size < len(items):
        size *= 2
    return items + items[-1:] * (size - len(items))


@functools.cache
def _rows_of_keys(name: str, size: int) -> Select[Any]:
    """The rows of ``size`` keys, bound as ``k{index}_{part}`` (``k0_0`` ... for a key of one
    column), built once per table and size: every commit reads the rows it changed, and
    building the statement each time cost more than running it (issue 28, item 8).

    Each key is its own equality on the primary key, which SQLite searches by the key's
    index: a key of several columns ``IN`` a list of keys is a scan of the whole table there
    (each commit then cost more as the table grew), and an expanding ``IN`` list is rewritten
    by SQLAlchemy at each execution, which cost more than the search."""
    audited = BY_NAME[name]
    key_columns = audited.key_columns
    where: ColumnElement[bool]
    if len(key_columns) == 1:
        where = key_columns[0].in_([bindparam(f"k{index}_0") for index in range(size)])
    else:
        where = or_(
            *(
                and_(
                    *(
                        column == bindparam(f"k{index}_{part}")
                        for part, column in enumerate(key_columns)
                    )
                )
                for index in range(size)
            )
        )
    return select(*audited.table.columns).where(where).order_by(*key_columns)


# --- the triggers that note changed rows ------------------------------------------------------
def _key_expression(audited: Audited, alias: str, dialect: str) -> str:
    parts = [
        f"CAST({alias}.{column.name} AS TEXT)"
        if dialect == "sqlite"
        else f"{alias}.{column.name}::text"
        for column in audited.key_columns
    ]
    return " || ',' || ".join(parts)


def trigger_statements(audited: Audited, dialect: str) -> list[str]:
    """DDL for the triggers that note every insert, update and delete of the table's rows."""
    name = audited.name
    new, old = (_key_expression(audited, alias, dialect) for alias in ("NEW", "OLD"))
    note = f"INSERT INTO audit_pending (table_name, row_key) VALUES ('{name}', "
    if dialect == "sqlite":
        return [
            f"CREATE TRIGGER audit_note_{name}_insert AFTER INSERT ON {name} "
            f"BEGIN {note}{new}); END",
            f"CREATE TRIGGER audit_note_{name}_update AFTER UPDATE ON {name} BEGIN {note}{new}); "
            f"INSERT INTO audit_pending (table_name, row_key) SELECT '{name}', {old} "
            f"WHERE {old} IS NOT {new}; END",
            f"CREATE TRIGGER audit_note_{name}_delete AFTER DELETE ON {name} "
            f"BEGIN {note}{old}); END",
        ]
    if dialect == "postgresql":
        return [
            f"CREATE OR REPLACE FUNCTION audit_note_{name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN IF TG_OP <> 'DELETE' THEN {note}{new}); END IF; "
            f"IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND ({old}) IS DISTINCT FROM ({new})) "
            f"THEN {note}{old}); END IF; RETURN NULL; END $$",
            f"CREATE TRIGGER audit_note AFTER INSERT OR UPDATE OR DELETE ON {name} "
            f"FOR EACH ROW EXECUTE FUNCTION audit_note_{name}()",
        ]
    raise NotImplementedError(f"no audit triggers for the {dialect} dialect")


def install_triggers(connection: Connection, names: Iterable[str]) -> None:
    for name in names:
        for statement in trigger_statements(BY_NAME[name], connection.dialect.name):
            connection.execute(text(statement))


def drop_triggers(connection: Connection, names: Iterable[str]) -> None:
    for name in names:
        if connection.dialect.name == "sqlite":
            for operation in ("insert", "update", "delete"):
                connection.execute(text(f"DROP TRIGGER IF EXISTS audit_note_{name}_{operation}"))
        else:
            connection.execute(text(f"DROP TRIGGER IF EXISTS audit_note ON {name}"))
            connection.execute(text(f"DROP FUNCTION IF EXISTS audit_note_{name}()"))


def audited_tables(connection: Connection) -> list[Audited]:
    """The audited tables this database has."""
    found = set(inspect(connection).get_table_names())
    return [audited for audited in AUDITED if audited.name in found]
