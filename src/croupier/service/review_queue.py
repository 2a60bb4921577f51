"""An inspector's review queues: the disputes (``disputes``), the payout corrections
(``payout_corrections``) and the four-eyes approvals (``approvals``) are each a row that waits
for an inspector's decision, listed, decided and noted alike.

A request for a second inspector's approval (issue 25) enters its queue through
``ask_approval``, whoever asks: a dispute's decision, a dealer's void.

Each decision changes its row only while the row still waits (``change_while``: one
conditional ``UPDATE``, the guard against a second decision), writes who decided, when and
why (``decision_columns``) and, when money moved, the ledger transaction that moved it
(``note_transaction``), all in the transaction of the decision.
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Table, select, update
from sqlalchemy.orm import Session

from croupier.service.accounts import Principal
from croupier.service.errors import Conflict, RequestError
from croupier.service.staff import ApprovalKind, ApprovalStatus, StaffAction, record_action
from croupier.service.staff_models import ApprovalRecord, DisputeRecord, PayoutCorrectionRecord

QUEUE_LIMIT = 200
"""What an inspector's queue lists (disputes, payout corrections, approvals): every one that
waits first, then the latest decided."""

Queued = TypeVar("Queued", DisputeRecord, PayoutCorrectionRecord, ApprovalRecord)


def waiting_first(
    session: Session, model: type[Queued], is_waiting: ColumnElement[bool]
) -> list[Queued]:
    """An inspector's queue of ``model``: the rows ``is_waiting`` first, newest first, at
    most ``QUEUE_LIMIT`` (the disputes', the payout corrections', the approvals')."""
    newest = model.id.desc()
    statement = select(model).order_by(is_waiting.desc(), newest).limit(QUEUE_LIMIT)
    return list(session.scalars(statement))


def decision_columns(
    status: str, by: Principal, now: float, reason: str, *, is_refusal: bool, code: str
) -> dict[str, Any]:
    """What an inspector's decision of a payout correction or an approval writes: the new
    status, who, when and why; a refusal says why (``RequestError`` with ``code``)."""
    reason = reason.strip()
    if is_refusal and not reason:
        raise RequestError("reason: a refusal says why", code=code)
    return {
        "status": str(status),
        "decided_by": by.user_id,
        "decided_at": now,
        "decision_reason": reason,
    }


def decision_fields(
    row: PayoutCorrectionRecord | ApprovalRecord, names: dict[int, str]
) -> dict[str, Any]:
    """A decided row's decision as its document shows it (``names``: user id -> name): who,
    when, why, and the ledger transaction it posted (``None`` until decided, or where
    nothing moved); what ``decision_columns`` and ``note_transaction`` wrote."""
    return {
        "decided_by": names.get(row.decided_by) if row.decided_by else None,
        "decided_at": row.decided_at,
        "decision_reason": row.decision_reason,
        "transaction": row.transaction_id,
    }


def change_while(
    session: Session,
    table: Table,
    row_id: int,
    status: str,
    values: dict[str, Any],
    *,
    refusal: Conflict,
) -> None:
    """Write ``values`` to row ``row_id`` of ``table`` only while its status is ``status``:
    one conditional ``UPDATE``, the guard against a second decision (of two racing, one
    changes the row; the other raises ``refusal`` and its transaction changes nothing)."""
    row = table.c
    statement = update(table).where(row.id == row_id, row.status == str(status))
    statement = statement.values(**values)
    if session.execute(statement).rowcount != 1:  # type: ignore[attr-defined]
        raise refusal


def note_transaction(session: Session, table: Table, row_id: int, transaction: int) -> None:
    """Note on row ``row_id`` of ``table`` the ledger transaction its decision posted (a
    dispute's corrections, a confirmed payout correction, an approved request's)."""
    session.execute(update(table).where(table.c.id == row_id).values(transaction_id=transaction))


def ask_approval(
    session: Session,
    who: Principal,
    kind: ApprovalKind,
    *,
    round_id: int,
    table_id: int,
    dispute_id: int | None = None,
    reason: str,
    detail: dict[str, Any],
    noted: dict[str, Any],
    now: float,
) -> ApprovalRecord:
    """Ask a second inspector to approve (``approvals.decide``): the request's row, awaiting
    with its ``detail``, and the staff action of who asked, which notes ``noted`` beside the
    kind. Nothing else moves."""
    row = ApprovalRecord(
        kind=str(kind),
        round_id=round_id,
        table_id=table_id,
        dispute_id=dispute_id,
        requested_by=who.user_id,
        requested_at=now,
        reason=reason,
        detail=detail,
        status=str(ApprovalStatus.AWAITING),
    )
    session.add(row)
    session.flush()
    action = {"kind": row.kind, **noted}
    record_action(session, who, StaffAction.APPROVAL_ASKED, f"approval:{row.id}", action, now=now)
    return row
