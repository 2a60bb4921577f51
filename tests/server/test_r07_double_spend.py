"""R7: no double spend, no negative balance (GLI-19 4.3.3(b)). "two processes race two bets
that only one balance covers ... exactly one accepted every time". Short form here (40
trials per database); ``benchmarks/double_spend.py`` runs 1,000.

The two processes are two writers of one ledger (each its own unit of work posting a stake),
not two table servers: one process runs a database's tables (issue 25, item 1,
docs/operations.md), and the threads of that one server race for a balance the same way."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import double_spend


def test_two_processes_racing_for_one_balance_pass_exactly_one_bet(database_url: str) -> None:
    trials = 40
    exactly_one, _rate, problems = double_spend.race(database_url, trials)
    assert exactly_one == trials
    assert problems == []
