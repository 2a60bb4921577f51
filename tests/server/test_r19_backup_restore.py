"""R19: an online backup, taken while tables play, restores ledger, history and audit chain
exactly (GLI-19 B.3.3-B.3.7: backups of critical data, kept consistent, that can be restored).

A thread plays baccarat and blackjack rounds through the HTTP API while ``croupier backup``'s
function copies the database three times. Each copy is restored into a fresh database and
reconciled with the live one: the books audit at 0, every row that never changes once written
(ledger transactions and entries, users, idempotent answers, each finished round with its whole
event record, each revealed shoe) equals the live row with the same key, every wallet equals
its entries, and a server started on the restore brings back each round that was in flight
(none is voided). Once play stops, a last backup restores to a database identical to the live
one, table by table and row by row: 0 differences.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_support import Api, Table, make_api
from sqlalchemy import inspect, text
from sqlalchemy.orm import Session

from croupier.server.app import start
from croupier.server.context import Settings
from croupier.service import wallets
from croupier.service.backup import BackupError, backup, differences, reconcile, restore
from croupier.service.database import make_engine

CROUPIER = (sys.executable, "-c", "from croupier.cli.main import main; main()")


@contextlib.contextmanager
def fresh(database_url_for: Any, kind: str) -> Iterator[str]:
    """A fresh database of ``kind`` (SQLite: a new file; PostgreSQL: a new schema)."""
    if kind == "sqlite":
        yield f"sqlite:///{Path(tempfile.mkdtemp(prefix='croupier-restore-')) / 'restored.sqlite'}"
        return
    made = database_url_for(kind)
    try:
        yield next(made)
    finally:
        made.close()


def audit(url: str) -> dict[str, Any]:
    engine = make_engine(url)
    try:
        with Session(engine) as session:
            report: dict[str, Any] = wallets.audit_report(session)
    finally:
        engine.dispose()
    return report


def play_until(stop: threading.Event, tables: list[Table], rounds: list[int]) -> None:
    while not stop.is_set():
        for table in tables:
            round_id = table.bet_all()
            table.ready_all()
            table.play_out(round_id)
            rounds.append(round_id)


def test_r19_backup_under_load_restores_with_zero_differences(
    database_url: str, database_url_for: Any, tmp_path: Path
) -> None:
    kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    made = make_api(database_url)
    api: Api = next(made)
    try:
        tables = [
            Table(api, "dragon-six-peru-2016", ["ana", "bruno"]),
            Table(api, "peru-2016", ["carla", "diego"]),
        ]
        stop, rounds = threading.Event(), []
        player = threading.Thread(target=play_until, args=(stop, tables, rounds), daemon=True)
        player.start()
        under_load = []
        try:
            for number in range(3):
                while len(rounds) < 4 * (number + 1) and player.is_alive():
                    stop.wait(0.02)
                path = tmp_path / f"under-load-{number}.backup"
                backup(database_url, path)
                under_load.append((path, len(rounds)))
        finally:
            stop.set()
            player.join(timeout=60)
        assert not player.is_alive()
        assert len(rounds) > under_load[0][1] > 0  # the backups were taken while rounds went on
        blackjack = tables[1]
        blackjack.bet_all()  # a round in flight at the last backup: bets in escrow
        blackjack.ready_all()
        quiet = tmp_path / "quiet.backup"
        backup(database_url, quiet)

        for path, played in under_load:
            with fresh(database_url_for, kind) as restored_url:
                restore(path, restored_url)
                assert reconcile(restored_url, database_url) == [], played
                notes = start(Settings(database_url=restored_url, demo_tables=False)).notes
                assert not [note for note in notes if "voided" in note], notes
        with fresh(database_url_for, kind) as restored_url:
            restore(quiet, restored_url)
            assert differences(database_url, restored_url) == []
            assert audit(restored_url)["problems"] == []
            resumed = start(Settings(database_url=restored_url, demo_tables=False))
            in_flight = resumed.casino.table(blackjack.id)
            assert in_flight.status == "playing" and in_flight.held  # the stakes came back too
            resumed.uow.dispose()
            # The reconciliation sees a unit moved in the restore: one entry, its balance.
            engine = make_engine(restored_url)
            with engine.begin() as connection:
                connection.execute(
                    text("UPDATE ledger_entries SET amount = amount + 1 WHERE id = 1")
                )
            engine.dispose()
            moved = differences(database_url, restored_url)
            assert len([d for d in moved if d.startswith("ledger_entries (1,)")]) == 1
            assert [p for p in reconcile(restored_url, database_url) if "entry 1" in p]
        if kind == "postgresql":
            # The portable snapshot restores into SQLite as well: the same rows.
            with fresh(database_url_for, "sqlite") as sqlite_url:
                restore(quiet, sqlite_url)
                assert differences(database_url, sqlite_url) == []
    finally:
        made.close()


def test_r19_restore_refuses_a_cut_off_backup_and_a_database_in_use(
    database_url: str, database_url_for: Any, tmp_path: Path
) -> None:
    kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    made = make_api(database_url)
    api: Api = next(made)
    try:
        Table(api, "dragon-six-peru-2016", ["ana"]).play_round()
        whole = tmp_path / "whole.backup"
        backup(database_url, whole)
    finally:
        made.close()
    with pytest.raises(BackupError, match="restore only into a fresh database"):
        restore(whole, database_url)
    if kind == "postgresql":  # a snapshot file: cut it before its trailer
        cut = tmp_path / "cut.backup"
        lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
        cut.write_text("".join(lines[:-3]), encoding="utf-8")
        with fresh(database_url_for, "sqlite") as target:
            with pytest.raises(BackupError, match="cut off"):
                restore(cut, target)
            assert inspect(make_engine(target)).get_table_names() == []  # nothing was written


def test_r19_the_commands_back_up_and_restore(tmp_path: Path) -> None:
    """``croupier backup --database URL FILE`` and ``croupier restore FILE --database URL``."""
    source = f"sqlite:///{tmp_path / 'live.sqlite'}"
    made = make_api(source)
    api: Api = next(made)
    try:
        Table(api, "dragon-six-peru-2016", ["ana"]).play_round()
    finally:
        made.close()
    target = f"sqlite:///{tmp_path / 'restored.sqlite'}"
    file = tmp_path / "nightly.backup"
    for arguments in (
        ["backup", "--database", source, str(file)],
        ["restore", str(file), "--database", target],
    ):
        ran = subprocess.run(
            [*CROUPIER, *arguments],
            capture_output=True,
            text=True,
            check=False,
        )
        assert ran.returncode == 0, ran.stderr
        assert "sqlite backup at schema revision" in ran.stdout
    assert differences(source, target) == []
    again = subprocess.run(
        [*CROUPIER, "restore", str(file), "--database", target],
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 2
    assert "restore only into a fresh database" in again.stderr
