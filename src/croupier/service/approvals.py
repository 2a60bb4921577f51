"""Four eyes: what one member of staff asks and a second inspector answers (issue 25).

Two requests wait here instead of taking effect at once:

- a **dispute decision** whose corrections pay a player beyond what ``croupier settle`` says
  the round still owes them (re-settled minus paid, minus what corrections gave since:
  ``verification.owed_of``), or take back more than it overpaid them, or any correction of a
  round that does not re-settle. Corrections within that post with the decision, as before;
- a **void** of a round once a card of it was dealt (before the deal a void is immediate):
  the stakes stay in escrow and the round stands still (no decision's clock runs, no card or
  decision is taken) until the answer.

A different inspector answers (``decide``): not the one who asked, not one who played the
round. Approved, the dispute is upheld and its corrections post in one ledger transaction
with the answer, or the round is voided exactly as an immediate void is; refused (with a
reason), nothing moves: the dispute is open again for a new decision, the round goes on
where it stood. An answered request is never answered again (409). Every request and every
answer is a staff action with who and when, and the ``approvals`` row enters the R15 chain
(revision 0011). Spain 1979, III separates the croupier who pays from the inspector who
controls; D-GEN-18 in docs/rules.md says why these two and not others.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from croupier.games.commands import ConfusedDeal, Void
from croupier.games.events import CardDrawn, Purpose
from croupier.service import disputes, review_queue, staff, verification
from croupier.service.accounts import Principal, usernames
from croupier.service.commands import AnswerApproval
from croupier.service.errors import Conflict, Forbidden, existing
from croupier.service.live import LiveTable
from croupier.service.models import GameTable, RoundRecord
from croupier.service.rounds import Rounds
from croupier.service.staff import (
    ApprovalDecision,
    ApprovalKind,
    ApprovalStatus,
    StaffAction,
    StaffRole,
    record_action,
)
from croupier.service.staff_models import ApprovalRecord

AWAITING = "awaiting_approval"
"""The answer's ``status`` of a request that waits for a second inspector (202 Accepted)."""

APPROVALS = cast(Table, ApprovalRecord.__table__)


def kind_and_table(session: Session, approval_id: int) -> tuple[ApprovalKind, int]:
    """What an approval is about and the table of its round (the route locks a void's)."""
    row = existing(session, ApprovalRecord, approval_id, "approval")
    return ApprovalKind(row.kind), row.table_id


def void_waiting(session: Session, round_id: int) -> int | None:
    """The void of ``round_id`` that awaits an inspector's answer, if one does."""
    return session.scalar(
        select(ApprovalRecord.id).where(
            ApprovalRecord.round_id == round_id,
            ApprovalRecord.kind == str(ApprovalKind.VOID),
            ApprovalRecord.status == str(ApprovalStatus.AWAITING),
        )
    )


# --- asking for a void -----------------------------------------------------------------------
def is_card_seen(live: LiveTable) -> bool:
    """Whether a card of the round under way has been dealt where someone saw it (a box, the
    dealer, the board: any card but the shoe's secret burns)."""
    return any(
        isinstance(event, CardDrawn) and event.purpose is not Purpose.BURN
        for event in live.game_round.events
    )


def ask_void(  # noqa: PLR0917 - the request's whole content
    session: Session,
    rounds: Rounds,
    who: Principal,
    live: LiveTable,
    reason: str,
    now: float,
    correction: str = Void.verb,
) -> dict[str, Any]:
    """A void after a card was seen waits for an inspector: the stakes stay in escrow and
    the round stands still (no clock runs, no card or decision is taken) until the answer,
    through a restart too (``registry`` reads the approval back)."""
    names = usernames(session, {int(value["user"]) for value in live.held.values()})
    held: dict[str, int] = {}
    for value in live.held.values():
        name = names[int(value["user"])]
        held[name] = held.get(name, 0) + int(value["minor"])
    for back in live.back_bets:
        held[str(back["backer"])] = held.get(str(back["backer"]), 0) + int(back["minor"])
    row = review_queue.ask_approval(
        session,
        who,
        ApprovalKind.VOID,
        round_id=live.round_id,
        table_id=live.id,
        reason=reason,
        # ``correction``: ``void``, or the dealer's ``confused-deal`` (docs/rules.md#D-GEN-13).
        detail={"held": dict(sorted(held.items())), "correction": correction},
        noted={"round": live.round_id, "table": live.id, "reason": reason, "held": held},
        now=now,
    )
    live.void_waiting = row.id
    live.deadline = None  # no decision's default is applied under the inspector's feet
    rounds.save(session, live)
    return {
        "round": live.round_id,
        "table": live.id,
        "status": AWAITING,
        "approval": row.id,
        "reason": reason,
    }


# --- answering ------------------------------------------------------------------------------
def verify_answerer(session: Session, inspector: Principal, row: ApprovalRecord) -> None:
    """An inspector other than the one who asked and other than the round's players."""
    staff.verify_role(session, inspector, StaffRole.INSPECTOR)
    if row.requested_by == inspector.user_id:
        raise Forbidden(
            f"you asked for approval {row.id}: another inspector answers it",
            code="approval_own_request",
            approval=row.id,
        )
    disputes.verify_did_not_play(
        session,
        inspector,
        row.round_id,
        f"answers approval {row.id}",
        code="approval_own_round",
        approval=row.id,
    )


def decide(
    session: Session,
    rounds: Rounds,
    live: LiveTable | None,
    answer: AnswerApproval,
    now: float,
) -> dict[str, Any]:
    """Approve (the dispute's corrections post, or the round is voided) or refuse (with a
    reason; nothing moves) what waits; an answered request is refused (``Conflict``: 409).
    ``live`` is the round's table under its lock, for a void."""
    inspector, approval_id, decision = answer.by, answer.approval, answer.decision
    row = existing(session, ApprovalRecord, approval_id, "approval")
    verify_answerer(session, inspector, row)
    if row.status != ApprovalStatus.AWAITING:
        raise Conflict(
            f"approval {approval_id} was answered already: {row.status}",
            code="approval_decided",
            approval=approval_id,
        )
    refused = decision is ApprovalDecision.REFUSED
    answered = review_queue.decision_columns(
        decision, inspector, now, answer.reason, is_refusal=refused, code="approval_needs_reason"
    )
    reason = answered["decision_reason"]
    already = Conflict(
        f"approval {approval_id} was answered already",
        code="approval_decided",
        approval=approval_id,
    )
    review_queue.change_while(
        session, APPROVALS, approval_id, ApprovalStatus.AWAITING, answered, refusal=already
    )
    approved = decision is ApprovalDecision.APPROVED
    transaction = None
    if row.kind == ApprovalKind.DISPUTE:
        assert row.dispute_id is not None
        transaction = disputes.settle_awaiting(session, row.dispute_id, approved=approved, now=now)
    elif live is not None and live.round_id == row.round_id and live.void_waiting == row.id:
        live.void_waiting = None
        if approved and row.detail.get("correction") == ConfusedDeal.verb:
            live.apply(ConfusedDeal())  # burnt, then void (D-GEN-13)
            rounds.resume(session, live)
        elif approved:
            rounds.void_live(session, live, row.reason)
        else:
            rounds.resume(session, live)
    elif approved:  # the round ended otherwise meanwhile (a restart that could not rebuild it)
        raise Conflict(
            f"round {row.round_id} is not under way: there is nothing left to void",
            code="round_not_under_way",
            round=row.round_id,
        )
    if transaction is not None:
        review_queue.note_transaction(session, APPROVALS, approval_id, transaction)
    session.expire(row)
    record_action(
        session,
        inspector,
        StaffAction.APPROVAL_DECIDED,
        f"approval:{approval_id}",
        {
            "kind": row.kind,
            "round": row.round_id,
            "dispute": row.dispute_id,
            "decision": str(decision),
            "reason": reason,
            "transaction": transaction,
        },
        now=now,
    )
    return document(session, row)


# --- reading --------------------------------------------------------------------------------
def document(
    session: Session,
    row: ApprovalRecord,
    names: dict[int, str] | None = None,
    check: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One request: what, who asked and why, the amounts, and the round's re-settlement
    (``verification.verification``: ``paid``, ``resettled``, ``corrected`` and what it ``owed``
    each player when asked)."""
    if names is None:
        names = usernames(
            session, {row.requested_by} | ({row.decided_by} if row.decided_by else set())
        )
    record = session.get(RoundRecord, row.round_id)
    assert record is not None
    table = session.get(GameTable, row.table_id)
    if check is None:
        check = verification.verification(session, record)
    detail = dict(row.detail)
    amounts = detail.get("corrections") or [
        {"username": name, "amount": amount} for name, amount in detail.get("held", {}).items()
    ]
    return {
        "approval": row.id,
        "kind": row.kind,
        "status": row.status,
        "round": row.round_id,
        "table": table.name if table is not None else None,
        "dispute": row.dispute_id,
        "requested_by": names.get(row.requested_by),
        "requested_at": row.requested_at,
        "reason": row.reason,
        "amounts": amounts,
        "owed": detail.get("owed"),
        "resettlement": {
            "round_status": check["round_status"],
            "paid": check["paid"],
            "resettled": check["resettled"],
            "corrected": check["corrected"],
            "problem": check["problem"],
        },
        **review_queue.decision_fields(row, names),
    }


def listing(session: Session) -> dict[str, Any]:
    """Every request, awaiting ones first, newest first (the inspector's queue, the
    operator's page)."""
    awaiting = ApprovalRecord.status == str(ApprovalStatus.AWAITING)
    rows = review_queue.waiting_first(session, ApprovalRecord, awaiting)
    names = usernames(
        session, {r.requested_by for r in rows} | {r.decided_by for r in rows if r.decided_by}
    )
    checks = verification.verifications(session, (row.round_id for row in rows))
    return {"approvals": [document(session, row, names, checks[row.round_id]) for row in rows]}
