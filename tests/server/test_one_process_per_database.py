"""Issue 25, item 1: exactly one process runs the tables of a SQLite database.

Two ``croupier serve`` on one database both dealt every table (the same shoe position twice,
a round resumed by the other process with its stakes left in escrow). On SQLite (the
README's one-process server) the second refuses to start, exit 2, with one line naming the
database and the holder (host, pid, since when), also when it names the database another
way (a link to the file). A kill -9 of the holder frees the claim within seconds with no
manual step (``service/claim.py``). On PostgreSQL several processes share the tables, each
run by the holder of its lease (issue 29: ``test_table_leases.py``, ``test_fail_over.py``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bots import OPERATOR_TOKEN, ServerProcess, free_port
from croupier.service.claim import TablesClaimed, claim_tables

FREED_WITHIN_SECONDS = 10.0


def second_serve(url: str) -> subprocess.CompletedProcess[str]:
    command = "import sys; sys.argv[0] = 'croupier'; from croupier.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", command, "serve", "--port", str(free_port()), "--database", url,
         "--no-demo-tables", "--no-code-check"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def another_spelling(url: str, tmp_path: Path) -> str:
    """The same database named another way: a link to the SQLite file."""
    link = tmp_path / "linked.sqlite"
    link.symlink_to(url.removeprefix("sqlite:///"))
    return f"sqlite:///{link}"


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'croupier.sqlite'}"


def test_a_second_serve_refuses_and_a_kill_minus_9_frees_the_claim(
    database_url: str, tmp_path: Path
) -> None:
    holder = ServerProcess(database_url, log_path=tmp_path / "holder.log")
    holder.start()
    try:
        assert holder.process is not None
        refused = second_serve(another_spelling(database_url, tmp_path))
        assert refused.returncode == 2, refused.stderr[-2000:]
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1, refused.stderr
        assert lines[0].startswith("croupier: error: the tables of ")
        assert f"host {socket.gethostname()}, pid {holder.process.pid}, since 20" in lines[0]
        assert "croupier is serving" not in refused.stdout
        # The holder still serves, and says it holds its tables.
        ready = httpx.get(f"{holder.url}/health/ready", timeout=10)
        assert ready.status_code == 200, ready.text
        with pytest.raises(TablesClaimed):
            claim_tables(database_url)

        holder.kill()
        killed_at = time.monotonic()
        while True:
            try:
                claim = claim_tables(database_url)
                break
            except TablesClaimed:
                assert time.monotonic() - killed_at < FREED_WITHIN_SECONDS
                time.sleep(0.05)
        claim.release()
        # And a new server starts on it, with no manual step; stopped cleanly (SIGTERM:
        # uvicorn shuts the app down), it gives the claim up.
        after = ServerProcess(database_url, log_path=tmp_path / "after.log")
        after.start()
        after.stop()
        claim_tables(database_url).release()
    finally:
        holder.stop()


def test_in_one_process_two_servers_on_one_database_are_refused_too(database_url: str) -> None:
    """The claim is the server's (``server.app.start``), not only the command's: an app
    started in-process on a database another server runs is refused the same way."""
    from croupier.server.app import start
    from croupier.server.context import Settings

    first = start(
        Settings(database_url=database_url, operator_token=OPERATOR_TOKEN, demo_tables=False)
    )
    try:
        with pytest.raises(TablesClaimed, match="another croupier serve"):
            start(Settings(database_url=database_url, demo_tables=False))
    finally:
        first.uow.dispose()
        first.release()
    claim_tables(database_url).release()


def test_a_holder_whose_claim_file_is_replaced_has_lost_it(tmp_path: Path) -> None:
    from croupier.service.claim import ClaimLost, claim_file

    database = tmp_path / "c.sqlite"
    claim = claim_tables(f"sqlite:///{database}")
    claim.check()
    os.replace(claim_file(str(database)), tmp_path / "moved-aside")
    with pytest.raises(ClaimLost, match="gone"):
        claim.check()
    claim.release()
