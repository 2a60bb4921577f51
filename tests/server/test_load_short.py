"""The load test's short form (the full one is ``benchmarks/load.py``): 20 players at 4 live
tables of a real ``croupier serve`` process play a few rounds over HTTP and WebSocket with
no errors; the ledger sums to zero and every round is recallable."""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bots import ServerProcess
from croupier.server.app import playable_profiles
from load import run_load


@pytest.mark.skipif(not playable_profiles(), reason="no game engine has landed yet")
def test_twenty_players_at_four_tables(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'load.sqlite'}", log_path=tmp_path / "serve.log")
    server.start()
    try:
        # Its own thread: Playwright's sync API (tests/e2e) keeps an event loop running on the
        # main thread of the pytest worker that ran it, where ``asyncio.run`` refuses to start.
        with ThreadPoolExecutor(1) as pool:
            load = run_load(server.url, 20, 4, 3, playable_profiles())
            figures = pool.submit(asyncio.run, load).result()
    finally:
        server.stop()
    assert figures["errors"] == []
    assert figures["ledger_sum"] == 0 and figures["ledger_problems"] == []
    assert figures["rounds"] >= 4 * 3
    assert figures["rounds_recalled"] == figures["rounds"]
