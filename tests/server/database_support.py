"""A database of its own for one server test: a copy of a migrated SQLite file, or an empty
PostgreSQL schema. A module of its own, not the conftest, so that the tests that make their own
databases import it by a name no other folder's conftest also has (tests/server and
tests/reliability together in one run: both folders are on the path, both have a conftest)."""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
from sqlalchemy import text

import pg_cluster
from croupier.service.database import make_engine, upgrade

_migrated_sqlite: Path | None = None


def migrated_sqlite() -> Path:
    """A SQLite file at the schema's head, migrated once in this process and copied for each
    test: every server start ran the thirteen migrations on its empty file before (0.1 s of
    CPU and, with ``synchronous=FULL``, a dozen fsyncs each, several hundred times a run).
    The copy is what a migrated database is; the migrations themselves are tested from an
    empty file in ``test_migrations.py`` and by every test that starts ``croupier serve``."""
    global _migrated_sqlite  # noqa: PLW0603 - one file per worker, made at first use
    if _migrated_sqlite is None:
        folder = Path(tempfile.mkdtemp(prefix="croupier-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / "croupier.sqlite"
        engine = make_engine(f"sqlite:///{path}")
        upgrade(engine)
        engine.dispose()  # the last connection's close folds the WAL into the file
        assert not path.with_name(path.name + "-wal").exists()
        _migrated_sqlite = path
    return _migrated_sqlite


def fresh_database(
    kind: str, tmp_path: Path, pg_server_url: str | None, *, migrated: bool = True
) -> Iterator[str]:
    """A database of its own for one test, at the schema's head: on SQLite a copy of the
    migrated file, on PostgreSQL a schema restored from a migrated one's dump; empty where
    ``migrated`` is false (a migration's own test)."""
    if kind == "sqlite":
        path = tmp_path / "croupier.sqlite"
        if migrated:
            shutil.copyfile(migrated_sqlite(), path)
        yield f"sqlite:///{path}"
        return
    assert pg_server_url is not None
    with pg_cluster.schema_of_its_own(pg_server_url, durable=False) as url:
        if migrated:
            restore_migrated_postgres(pg_server_url, url)
        yield url


SCHEMA_MARK = "croupier_migrated_schema_mark"
"""Where the migrated schema's name stood in its dump (``migrated_postgres``)."""

_migrated_postgres: dict[str, str | None] = {}


def migrated_postgres(pg_server_url: str) -> str | None:
    """The SQL that makes a schema at the head on ``pg_server_url``'s server, its name as
    ``SCHEMA_MARK``: a schema migrated once in this process and dumped (``pg_dump``), or None
    where no ``pg_dump`` is found (each test's server then migrates its empty schema).

    As ``migrated_sqlite`` for SQLite: migrating an empty schema took 0.20-0.56 s of each
    PostgreSQL test's start, restoring the dump 0.07-0.095 s."""
    if pg_server_url not in _migrated_postgres:
        _migrated_postgres[pg_server_url] = None
        pg_dump = shutil.which("pg_dump")
        if pg_dump is not None:
            with pg_cluster.schema_of_its_own(pg_server_url, prefix="head", durable=False) as url:
                engine = make_engine(url)
                upgrade(engine)
                engine.dispose()
                schema = _schema_of(url)
                dumped = subprocess.run(
                    [pg_dump, "--schema", schema, "--no-owner", "--no-privileges", "--inserts",
                     pg_server_url],
                    capture_output=True, text=True, check=True,
                ).stdout  # fmt: skip
            statements = [
                line
                for line in dumped.splitlines()
                # The test's schema is made already; a line of psql's own (pg_dump 15.14 and
                # later bracket a dump in \restrict and \unrestrict) is not SQL.
                if not line.startswith((f"CREATE SCHEMA {schema};", "\\"))
            ]
            _migrated_postgres[pg_server_url] = "\n".join(statements).replace(schema, SCHEMA_MARK)
    return _migrated_postgres[pg_server_url]


def restore_migrated_postgres(pg_server_url: str, url: str) -> None:
    """Bring the empty schema of ``url`` (``schema_of_its_own``) to the head, from the dump."""
    dump = migrated_postgres(pg_server_url)
    if dump is None:
        return
    with psycopg.connect(pg_server_url, autocommit=True) as connection:
        connection.execute(dump.replace(SCHEMA_MARK, _schema_of(url)).encode())


def _schema_of(url: str) -> str:
    """The schema a ``pg_cluster.sqlalchemy_url`` works in (its ``search_path``)."""
    return url.split("search_path%3D", 1)[1].split("%20", 1)[0]


def edit_the_last_ledger_entry(url: str) -> str:
    """One minor unit added to the last ledger entry of the database at ``url``, behind the
    chain's back (a tamperer's edit); that row, as verification names it."""
    engine = make_engine(url)
    with engine.begin() as connection:
        last = connection.execute(text("SELECT max(id) FROM ledger_entries")).scalar_one()
        connection.execute(
            text("UPDATE ledger_entries SET amount = amount + 1 WHERE id = :id"), {"id": last}
        )
    engine.dispose()
    return f"ledger_entries [{last}]"
