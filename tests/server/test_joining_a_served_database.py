"""Issue 29 (restarts in seconds) against issue 25, item 5 (a start verifies the chain).

A server start verifies the whole audit chain and every audited row, and refuses a database
that does not verify: the database may have been edited while no server ran on it. On a
database live processes serve, that reading is no longer what it guards against (the
database has been in service since the first of them verified it at its start), and it cost
a process restarted by a fail-over a minute at 750,000 entries (docs/benchmarks.md). So a
process that joins processes serving the database, each seen renewing its heartbeat while
the joiner watches (``leases.serving_peers``), starts without it; one that finds none (every
peer gone, or a heartbeat row written by hand that does not move on) verifies as ever.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from database_support import edit_the_last_ledger_entry, fresh_database
from server_support import make_api
from sqlalchemy import text

from croupier.audit.verify import ChainDoesNotVerify, verify_database
from croupier.server.app import start
from croupier.server.context import Settings
from croupier.service.database import make_engine
from croupier.service.leases import serving_peers

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_url(pg_server: str, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database("postgresql", tmp_path, pg_server)


def run_sql(url: str, statement: str) -> None:
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()


def joins(url: str) -> None:
    """A second server starts on ``url`` as ``croupier serve`` does (the chain checked), and
    stops."""
    server = start(Settings(database_url=url, demo_tables=False, verify_chain=True))
    server.uow.dispose()
    server.release()


def test_a_process_joining_live_peers_starts_without_reading_the_whole_chain_again(
    pg_url: str,
) -> None:
    """With a live peer renewing its heartbeat, a process starts on a database a hand edit
    broke after the peer's start (the peer's own start verified it); with the peer gone, a
    start on an edited database is refused, naming the row (issue 25, item 5, unchanged)."""
    made = make_api(pg_url)
    peer = next(made)
    peer.player("alice", 5_000)
    row = edit_the_last_ledger_entry(pg_url)
    assert serving_peers(pg_url) == [peer.server.leases.owner]  # type: ignore[attr-defined]
    assert row in verify_database(pg_url).problems[0]
    joins(pg_url)
    made.close()  # the peer stops: it leaves serve_processes
    assert serving_peers(pg_url) == []
    # The joiner's first commit entered the edit in the chain (triggers note a write made
    # outside the server: ``audit.chain``), under its actor: edited again, with no peer.
    assert verify_database(pg_url).problems == []
    row = edit_the_last_ledger_entry(pg_url)
    with pytest.raises(ChainDoesNotVerify, match=re.escape(row)):
        joins(pg_url)


def test_a_heartbeat_row_that_does_not_move_on_is_no_peer(pg_url: str) -> None:
    """A ``serve_processes`` row written by hand (or left by a process frozen for good), its
    expiry an hour away, is not a process serving the database: the start verifies the chain
    and refuses the edited database."""
    made = make_api(pg_url)
    next(made).player("alice", 5_000)
    made.close()
    row = edit_the_last_ledger_entry(pg_url)
    run_sql(
        pg_url,
        "INSERT INTO serve_processes (owner, address, expires_at) VALUES "
        "('forged pid 1 0123abcd', 'http://127.0.0.1:1', clock_timestamp() + interval '1 hour')",
    )
    assert serving_peers(pg_url, watch_seconds=1.5) == []
    with pytest.raises(ChainDoesNotVerify, match=re.escape(row)):
        joins(pg_url)


def test_sqlite_and_a_fresh_database_have_no_peers(tmp_path: Path, pg_url: str) -> None:
    assert serving_peers(f"sqlite:///{tmp_path / 'one.sqlite'}") == []
    assert serving_peers(pg_url) == []  # no serve_processes table yet
