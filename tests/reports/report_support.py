"""Helpers of the reports' tests (imported by name: tests/reports and tests/server are on
sys.path): a gaming day at a known hour, seeded shoes, playing a day at a table through the
API, and reading the ledger behind the report."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from server_support import OPERATOR_TOKEN, Api, Table
from sqlalchemy import create_engine, text

from croupier.gaming_day import GamingDay

GAMING_DAY = GamingDay.parse("06:00", "UTC")
DAY_START = datetime(2026, 12, 5, 6, 0, tzinfo=UTC).timestamp()
"""Gaming day 2026-12-05 begins here (06:00 UTC)."""


class SeededSecrets:
    """``secrets`` as the round service sees it, with shoe seeds from a counter: the day's
    play is the same at every run, so a test may assert what the hold is."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.count = 0

    def token_bytes(self, size: int) -> bytes:
        self.count += 1
        return hashlib.sha256(f"{self.label}:{self.count}".encode()).digest()[:size]


def play(table: Table, rounds: int) -> list[int]:
    """``rounds`` rounds, every player at the table minimum, every decision the default."""
    return [table.play_round() for _ in range(rounds)]


def report(api: Api, date: str = "2026-12-05") -> dict[str, Any]:
    answer = api.get(f"/operator/reports/daily?date={date}", OPERATOR_TOKEN)
    assert answer.status_code == 200, answer.text
    document: dict[str, Any] = answer.json()
    return document


def house_movement(database_url: str, start: float, end: float) -> int:
    """The house account's movement in ``[start, end)``: its balance after the window's last
    entry less its balance before the first (straight from the ledger's rows)."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT e.balance_before, e.balance_after FROM ledger_entries e "
                    "JOIN ledger_transactions t ON t.id = e.transaction_id "
                    "JOIN accounts a ON a.id = e.account_id "
                    "WHERE a.kind = 'house' AND t.created_at >= :start AND t.created_at < :end "
                    "ORDER BY e.id"
                ),
                {"start": start, "end": end},
            ).all()
    finally:
        engine.dispose()
    return int(rows[-1][1] - rows[0][0]) if rows else 0


def row(document: dict[str, Any], table: Table) -> dict[str, Any]:
    found: dict[str, Any] = next(t for t in document["tables"] if t["table"] == table.id)
    return found
