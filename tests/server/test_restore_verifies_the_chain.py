"""Issue 25, item 5: a tampered backup does not go back into service.

One ledger amount edited inside a backup file: ``croupier restore`` exited 0, ``serve``
started on it and ``/operator/audit`` listed problems while saying ``"sum": 0``. Now restore
verifies the backup's audit chain (R15) and every audited row against it, and a published
head when given one: it refuses, exit 1 naming the first bad row, and writes nothing, unless
``--accept-broken`` (recorded in the chain); and a server start refuses a database whose
chain does not verify (exit 2, one line) unless ``--accept-broken-chain``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from database_support import edit_the_last_ledger_entry
from server_support import OPERATOR_TOKEN, make_api
from sqlalchemy import select, text

from croupier.audit.chain import ENTRIES
from croupier.audit.verify import (
    ChainDoesNotVerify,
    current_head,
    snapshot,
    verify_database,
    write_head,
)
from croupier.server.app import start
from croupier.server.context import Settings
from croupier.service.backup import BrokenChain, backup, restore
from croupier.service.database import make_engine

CROUPIER = (sys.executable, "-c", "from croupier.cli.main import main; main()")


def croupier(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CROUPIER, *arguments], capture_output=True, text=True, timeout=180, check=False
    )


def played(url: str) -> None:
    """Two players credited: ledger entries covered by the chain."""
    made = make_api(url)
    api = next(made)
    api.player("alice", 5_000)
    api.player("bob", 7_000)
    made.close()


def tamper(file: Path) -> str:
    """Add one minor unit to the last ledger entry inside the backup ``file``; its key."""
    if file.read_bytes()[:6] == b"SQLite":
        return edit_the_last_ledger_entry(f"sqlite:///{file}")
    lines = file.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    columns = header["tables"]["ledger_entries"]
    at = max(n for n, line in enumerate(lines) if line.startswith('["ledger_entries"'))
    name, values = json.loads(lines[at])
    values[columns.index("amount")] += 1
    lines[at] = json.dumps([name, values])
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"ledger_entries [{values[columns.index('id')]}]"


@pytest.fixture
def tampered(database_url: str, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    played(database_url)
    file = tmp_path / "nightly.backup"
    backup(database_url, file)
    yield file, tamper(file)


@pytest.fixture
def target(database_url: str, database_url_for: Any, tmp_path: Path) -> Iterator[str]:
    """A fresh database of the source's kind: a SQLite backup is verified before it is
    copied, a snapshot's rows inside the transaction that inserts them."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.sqlite'}"
        return
    yield from database_url_for("postgresql")


def is_fresh(url: str) -> bool:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            tables = set(connection.dialect.get_table_names(connection))
            return (
                "ledger_entries" not in tables
                or not connection.execute(text("SELECT count(*) FROM ledger_entries")).scalar_one()
            )
    finally:
        engine.dispose()


def test_a_tampered_backup_is_refused_naming_the_row_and_nothing_is_written(
    tampered: tuple[Path, str], target: str
) -> None:
    file, row = tampered
    with pytest.raises(BrokenChain, match=re.escape(f"{row}: differs from audit_chain entry")):
        restore(file, target)
    assert is_fresh(target)


def test_accepted_the_restore_is_recorded_and_a_start_refuses_it_unless_accepted(
    tampered: tuple[Path, str], target: str
) -> None:
    file, row = tampered
    restore(file, target, accept_broken=True, actor="system:restore by tester")
    report = verify_database(target)
    assert report.problems and row in report.problems[0]
    with snapshot(target) as connection:
        last = connection.execute(select(ENTRIES).order_by(ENTRIES.c.seq.desc())).mappings().first()
    assert last is not None
    assert (last["kind"], last["actor"]) == ("restore_accepted_broken", "system:restore by tester")
    assert row in json.loads(last["detail"])["first"]

    with pytest.raises(ChainDoesNotVerify, match=re.escape(row)):
        start(Settings(database_url=target, demo_tables=False, verify_chain=True))
    server = start(
        Settings(
            database_url=target, demo_tables=False, verify_chain=True, accept_broken_chain=True
        )
    )
    try:
        assert any("started anyway (--accept-broken-chain)" in note for note in server.notes)
    finally:
        server.uow.dispose()
        server.release()
    with snapshot(target) as connection:
        kinds = [kind for (kind,) in connection.execute(select(ENTRIES.c.kind))]
    assert kinds[-1] == "started_on_broken_chain"


def test_a_backup_cut_short_of_the_published_head_is_refused(
    database_url: str, target: str, tmp_path: Path
) -> None:
    played(database_url)
    early = tmp_path / "early.backup"
    backup(database_url, early)
    made = make_api(database_url)
    next(made).player("carol", 3_000)  # the chain grows past the backup
    made.close()
    head_file = tmp_path / "head.json"
    with snapshot(database_url) as connection:
        head = current_head(connection)
    write_head(head, head_file)
    with pytest.raises(BrokenChain, match=f"entry {head.seq}: published as the head"):
        restore(early, target, published=head)
    assert is_fresh(target)
    restore(early, target)  # without the head it verifies: the chain is whole, only shorter


def test_the_commands_exit_1_on_tampering_and_serve_2_on_a_broken_chain(
    tmp_path: Path,
) -> None:
    source = f"sqlite:///{tmp_path / 'live.sqlite'}"
    played(source)
    file = tmp_path / "nightly.backup"
    assert croupier("backup", "--database", source, str(file)).returncode == 0
    row = tamper(file)
    target = f"sqlite:///{tmp_path / 'restored.sqlite'}"
    refused = croupier("restore", str(file), "--database", target)
    assert refused.returncode == 1, refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("croupier: restore refused: "), lines
    assert row in lines[0]
    accepted = croupier("restore", str(file), "--database", target, "--accept-broken")
    assert accepted.returncode == 0, accepted.stderr
    serve = croupier(
        "serve", "--port", "0", "--database", target, "--no-code-check",
        "--operator-token", OPERATOR_TOKEN,
    )  # fmt: skip
    assert serve.returncode == 2, serve.stderr[-2000:]
    lines = serve.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("croupier: error: the audit chain of ")
    assert row in lines[0]
