"""A player's activity statement (issue 27, item 6): every movement of the player's own wallet
over a span of gaming days, oldest first, each with the round it belongs to and that round's
table, as the account page's CSV download gives it (``GET /me/statement``).

Read-only, and only the one wallet: the caller's identity chooses the wallet, never a
parameter, so no player can read another's.

>>> stake = StatementLine(7, 3, 1764936000.0, "stake", 12, "Mesa 1", "baccarat", -500, 9500, None)
>>> to_csv([stake]).splitlines()[1]
'7,3,2025-12-05T12:00:00+00:00,stake,12,Mesa 1,baccarat,-500,9500,'
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass, fields
from datetime import UTC, date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.gaming_day import GamingDay, GamingDayError
from croupier.ledger import book
from croupier.ledger.book import round_of_reference
from croupier.service.models import GameTable, LedgerEntry, LedgerTransaction, RoundRecord
from croupier.service.staff_models import DisputeRecord, PayoutCorrectionRecord

MAX_STATEMENT_DAYS = 366
"""The longest span one statement covers: a year (a longer one is asked for in parts)."""


@dataclass(frozen=True)
class StatementLine:
    """One movement of the player's wallet."""

    entry: int
    transaction: int
    at: float
    kind: str
    round: int | None
    table: str | None
    game: str | None
    amount_minor: int
    balance_after_minor: int
    correction_reason: str | None


COLUMNS = tuple(field.name for field in fields(StatementLine))
"""The CSV's columns: ``at`` is ISO 8601 in UTC; money is integer minor units; ``round``,
``table``, ``game`` and ``correction_reason`` are empty for a movement with none (a credit)."""


def span_of(first: date, last: date, gaming_day: GamingDay) -> tuple[float, float]:
    """Gaming days ``first`` to ``last`` (both included) as ``[from, to)`` epoch seconds."""
    if last < first:
        raise GamingDayError(f"the span ends ({last}) before it begins ({first})")
    if (last - first).days + 1 > MAX_STATEMENT_DAYS:
        raise GamingDayError(f"{first} to {last} is more than {MAX_STATEMENT_DAYS} days")
    return gaming_day.opening(first), gaming_day.window(last)[1]


def lines_of(session: Session, user_id: int, span: tuple[float, float]) -> list[StatementLine]:
    """The wallet of ``user_id``'s movements in ``span``, oldest first."""
    wallet = book.find_account(session, *book.wallet(user_id))
    if wallet is None:
        return []
    rows = session.execute(
        select(LedgerEntry, LedgerTransaction)
        .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
        .where(
            LedgerEntry.account_id == wallet,
            LedgerTransaction.created_at >= span[0],
            LedgerTransaction.created_at < span[1],
        )
        .order_by(LedgerEntry.id)
    ).all()
    rounds = {round_of_reference(transaction.reference) for _, transaction in rows} - {None}
    tables = {
        round_id: (name, game)
        for round_id, name, game in session.execute(
            select(RoundRecord.id, GameTable.name, GameTable.game)
            .join(GameTable, GameTable.id == RoundRecord.table_id)
            .where(RoundRecord.id.in_(rounds))
        ).all()
    }
    reasons = _reasons(session, {transaction.id for _, transaction in rows})
    lines = []
    for entry, transaction in rows:
        round_id = round_of_reference(transaction.reference)
        table, game = tables.get(round_id, (None, None)) if round_id is not None else (None, None)
        lines.append(
            StatementLine(
                entry.id,
                transaction.id,
                transaction.created_at,
                transaction.kind,
                round_id,
                table,
                game,
                entry.amount,
                entry.balance_after,
                reasons.get(transaction.id),
            )
        )
    return lines


def _reasons(session: Session, transaction_ids: set[int]) -> dict[int, str]:
    """Transaction id -> why a correction moved the wallet (a payout correction's reason, or
    an upheld dispute's decision)."""
    if not transaction_ids:
        return {}
    found: dict[int, str] = {}
    for model in (PayoutCorrectionRecord, DisputeRecord):
        for transaction_id, reason in session.execute(
            select(model.transaction_id, model.reason).where(
                model.transaction_id.in_(transaction_ids)
            )
        ).all():
            if transaction_id is not None:
                found[int(transaction_id)] = reason or ""
    return found


def to_csv(lines: list[StatementLine]) -> str:
    """The statement as CSV text (``COLUMNS``)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for line in lines:
        row = asdict(line)
        row["at"] = datetime.fromtimestamp(line.at, UTC).isoformat()
        writer.writerow({name: "" if value is None else value for name, value in row.items()})
    return buffer.getvalue()
