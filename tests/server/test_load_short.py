"""The load test's short form (the full one is ``benchmarks/load.py``): 20 players at 4 live
tables of a real ``croupier serve`` process play a few rounds over HTTP and WebSocket with
no errors; the ledger sums to zero and every round is recallable."""

from __future__ import annotations

import asyncio
import sys
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
        figures = asyncio.run(run_load(server.url, 20, 4, 3, playable_profiles()))
    finally:
        server.stop()
    assert figures["errors"] == []
    assert figures["ledger_sum"] == 0 and figures["ledger_problems"] == []
    assert figures["rounds"] >= 4 * 3
    assert figures["rounds_recalled"] == figures["rounds"]
