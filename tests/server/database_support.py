"""A database of its own for one server test: a copy of a migrated SQLite file, or an empty
PostgreSQL schema. A module of its own, not the conftest, so that the tests that make their own
databases import it by a name no other folder's conftest also has (tests/server and
tests/reliability together in one run: both folders are on the path, both have a conftest)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

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
    """A database of its own for one test: on SQLite a copy of the migrated file (an empty
    file where ``migrated`` is false: a migration's own test), on PostgreSQL an empty schema
    (a server's start migrates it)."""
    if kind == "sqlite":
        path = tmp_path / "croupier.sqlite"
        if migrated:
            shutil.copyfile(migrated_sqlite(), path)
        yield f"sqlite:///{path}"
        return
    assert pg_server_url is not None
    with pg_cluster.schema_of_its_own(pg_server_url, durable=False) as url:
        yield url
