"""A wrong payout or a wrong collection found later (issue 14, item 3), corrected in the open.

Dragon Six, Peru 2016, Art. 12: the gaming-room staff correct the errors found in a game; the
player who disagrees calls the Inspector. Spain 1979, III: the croupier pays and collects, the
inspector or table chief controls the game and resolves its problems. So the duties are split:

- the *dealer* of the round's table, or the *operator*, **proposes** a correction: a player of
  the round, an amount in minor units (positive to the player: paid short or collected in
  error; negative: paid over) and the reason. Nothing moves yet;
- an *inspector* **confirms** it, and only then is it posted: its own compensating ledger
  transaction, wallet against house (the posting path of an upheld dispute,
  ``wallets.post_corrections``), referenced to the round (``round:12:correction:3``) so that
  the player's statement and the round's recall show it; the round's own entries are never
  edited. Or the inspector **refuses** it with a reason, and nothing moves;
- a decided correction is never decided again (409, nothing moves).

Who may not decide (a decision, written here and in docs/staff-and-disputes.md): an inspector
who played the round (as for disputes), and an inspector who proposed the correction. An
inspector's role does not let them propose (only the table's dealer or the operator do), but one
person may hold both the dealer and the inspector roles; the person who asks for the money to
move is never the one who lets it move (four eyes: Spain 1979, III separates the croupier who
pays from the inspector who controls), so another inspector confirms a proposal of theirs. For
the same reason nobody proposes a correction to their own wallet.

Each proposal and each decision is a staff action (``staff.record_action``: who and when), in
the transaction of the change; the row, its ledger transaction and the action enter the R15
chain (revision 0007's triggers).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from croupier.ledger.book import round_reference
from croupier.service import approvals, staff, wallets
from croupier.service.accounts import Principal, usernames
from croupier.service.disputes import participants, verify_did_not_play
from croupier.service.errors import Conflict, Forbidden, RequestError, existing
from croupier.service.live import LiveTable
from croupier.service.models import IN_PROGRESS, GameTable, RoundRecord
from croupier.service.review_queue import (
    change_while,
    decision_columns,
    decision_fields,
    note_transaction,
    waiting_first,
)
from croupier.service.rounds import Rounds
from croupier.service.staff import CorrectionDecision, StaffAction, StaffRole, record_action
from croupier.service.staff_models import PayoutCorrectionRecord
from croupier.service.verification import verifications

KIND = "payout-correction"
"""The ledger transaction kind of a confirmed correction."""


class CorrectionStatus(StrEnum):
    PROPOSED = "proposed"
    CONFIRMED = "confirmed"
    REFUSED = "refused"


CORRECTIONS = cast(Table, PayoutCorrectionRecord.__table__)


def reference(round_id: int, correction_id: int) -> str:
    """The ledger reference of a correction: its round first (``round_of_reference``).

    >>> reference(12, 3)
    'round:12:correction:3'
    """
    return round_reference(round_id, "correction", correction_id)


# --- proposing ------------------------------------------------------------------------------
def propose(  # noqa: PLR0917 - the proposal's whole content
    session: Session,
    who: Principal,
    round_id: int,
    username: str,
    amount: int,
    reason: str,
    now: float,
) -> dict[str, Any]:
    """Propose a correction of what an ended round paid ``username`` (minor units, positive
    to the player); nothing moves until an inspector confirms it. Nobody proposes one to
    their own wallet (a dealer who also played the round)."""
    # The round's row locked first: proposals sent at once queue here, so each sees the one
    # before it (``_verify_not_proposed``), as disputes do.
    session.execute(select(RoundRecord.id).where(RoundRecord.id == round_id).with_for_update())
    record = existing(session, RoundRecord, round_id, "round")
    # An inspector moves money only by confirming a proposal or deciding a dispute.
    staff.verify_runs_table(
        session, who, record.table_id, "proposes a correction", code="correction_proposer_only"
    )
    if record.status in IN_PROGRESS:
        raise Conflict(
            f"round {round_id} is in progress: a payment is corrected once it is settled",
            code="round_in_progress",
            round=round_id,
        )
    reason = reason.strip()
    if not reason:
        raise RequestError("reason: a correction says why", code="correction_needs_reason")
    players = {name: user_id for user_id, name in participants(session, round_id).items()}
    if username not in players:
        raise RequestError(
            f"username: {username!r} did not play round {round_id}",
            code="not_a_player_of_round",
            username=username,
            round=round_id,
        )
    if players[username] == who.user_id:
        raise Forbidden(
            f"a correction to your own wallet is proposed by another of round {round_id}'s staff",
            code="correction_to_self",
        )
    _verify_not_proposed(session, round_id, players[username], amount)
    row = PayoutCorrectionRecord(
        round_id=round_id,
        user_id=players[username],
        amount=amount,
        reason=reason,
        status=str(CorrectionStatus.PROPOSED),
        proposed_by=who.user_id,
        proposed_at=now,
    )
    session.add(row)
    session.flush()
    record_action(
        session,
        who,
        StaffAction.CORRECTION_PROPOSED,
        f"correction:{row.id}",
        {"round": round_id, "username": username, "amount": amount, "reason": reason},
        now=now,
    )
    return _document(session, row)


def _verify_not_proposed(session: Session, round_id: int, user_id: int, amount: int) -> None:
    """One open proposal per round, player and amount (issue 26): the same correction filed
    twice (a double-click, a second tab) could be confirmed twice and paid twice."""
    already = session.scalar(
        select(PayoutCorrectionRecord.id).where(
            PayoutCorrectionRecord.round_id == round_id,
            PayoutCorrectionRecord.user_id == user_id,
            PayoutCorrectionRecord.amount == amount,
            PayoutCorrectionRecord.status == str(CorrectionStatus.PROPOSED),
        )
    )
    if already is not None:
        raise Conflict(
            f"correction {already} of round {round_id} proposes that amount already: an "
            "inspector decides it first",
            code="correction_already_proposed",
            correction=already,
            round=round_id,
        )


# --- deciding -------------------------------------------------------------------------------
def decide(  # noqa: PLR0917 - the decision's whole content
    session: Session,
    inspector: Principal,
    correction_id: int,
    decision: CorrectionDecision,
    reason: str,
    now: float,
) -> dict[str, Any]:
    """Confirm (the money moves, one transaction with the decision) or refuse (with a reason;
    nothing moves) a proposed correction; a decided one is refused (``Conflict``: 409)."""
    staff.verify_role(session, inspector, StaffRole.INSPECTOR)
    row = existing(session, PayoutCorrectionRecord, correction_id, "correction")
    if row.status != CorrectionStatus.PROPOSED:
        raise Conflict(
            f"correction {correction_id} was decided already: {row.status}",
            code="correction_decided",
            correction=correction_id,
        )
    if row.proposed_by == inspector.user_id:
        raise Forbidden(
            f"you proposed correction {correction_id}: another inspector decides it",
            code="correction_own_proposal",
        )
    decides = f"decides correction {correction_id}"
    verify_did_not_play(session, inspector, row.round_id, decides, code="correction_own_round")
    refused = decision is CorrectionDecision.REFUSED
    decided = decision_columns(
        decision, inspector, now, reason, is_refusal=refused, code="correction_needs_reason"
    )
    reason = decided["decision_reason"]
    already = Conflict(
        f"correction {correction_id} was decided already",
        code="correction_decided",
        correction=correction_id,
    )
    proposed = CorrectionStatus.PROPOSED
    change_while(session, CORRECTIONS, correction_id, proposed, decided, refusal=already)
    transaction = None
    if decision is CorrectionDecision.CONFIRMED:
        transaction = wallets.post_corrections(
            session,
            KIND,
            reference(row.round_id, correction_id),
            [(row.user_id, row.amount)],
            now,
        )
        note_transaction(session, CORRECTIONS, correction_id, transaction)
    session.expire(row)
    record_action(
        session,
        inspector,
        StaffAction.CORRECTION_DECIDED,
        f"correction:{correction_id}",
        {
            "round": row.round_id,
            "decision": str(decision),
            "reason": reason,
            "amount": row.amount,
            "transaction": transaction,
        },
        now=now,
    )
    return _document(session, row)


# --- reading --------------------------------------------------------------------------------
def _document(
    session: Session, row: PayoutCorrectionRecord, names: dict[int, str] | None = None
) -> dict[str, Any]:
    if names is None:
        names = usernames(session, {row.user_id, row.proposed_by} | {row.decided_by or row.user_id})
    record = session.get(RoundRecord, row.round_id)
    table = session.get(GameTable, record.table_id) if record is not None else None
    return {
        "correction": row.id,
        "round": row.round_id,
        "table": table.name if table is not None else None,
        "username": names.get(row.user_id),
        "amount": row.amount,
        "reason": row.reason,
        "status": row.status,
        "proposed_by": names.get(row.proposed_by),
        "proposed_at": row.proposed_at,
        **decision_fields(row, names),
    }


def listing(session: Session) -> dict[str, Any]:
    """Every correction, proposed ones first, newest first (the inspector's queue and the
    operator's page), each with ``paid``, ``resettled`` and ``corrected`` for its player
    (minor units; ``resettled`` is ``None`` where the record does not re-settle)."""
    proposed = PayoutCorrectionRecord.status == str(CorrectionStatus.PROPOSED)
    rows = waiting_first(session, PayoutCorrectionRecord, proposed)
    names = usernames(
        session,
        {r.user_id for r in rows}
        | {r.proposed_by for r in rows}
        | {r.decided_by or 0 for r in rows},
    )
    # Beside each, what the ledger paid the player for the round and what ``croupier settle``
    # pays for its record (the dispute queue's verification, once per round): the inspector
    # sees whether the correction brings the two together.
    checks = verifications(session, (row.round_id for row in rows))
    listed = []
    for row in rows:
        check = checks[row.round_id]
        name = names.get(row.user_id, "")
        resettled = check["resettled"]
        listed.append(
            {
                **_document(session, row, names),
                "paid": check["paid"].get(name, 0),
                "resettled": None if resettled is None else resettled.get(name, 0),
                "corrected": check["corrected"].get(name, 0),
            }
        )
    return {"corrections": listed}


def of_round(session: Session, round_id: int, who: Principal | None) -> list[dict[str, Any]]:
    """A round's corrections as ``who`` may read them in its recall: a player their own
    confirmed ones (what moved their wallet, and why); the operator every one."""
    statement = select(PayoutCorrectionRecord).where(PayoutCorrectionRecord.round_id == round_id)
    if who is None or not who.is_operator:
        statement = statement.where(
            PayoutCorrectionRecord.status == str(CorrectionStatus.CONFIRMED),
            PayoutCorrectionRecord.user_id == (who.user_id if who is not None else -1),
        )
    rows = list(session.scalars(statement.order_by(PayoutCorrectionRecord.id)))
    return [_document(session, row) for row in rows]


# --- a round that cannot be finished --------------------------------------------------------
def void_round(  # noqa: PLR0917 - the void's whole content
    session: Session,
    rounds: Rounds,
    live: LiveTable,
    who: Principal,
    round_id: int,
    reason: str,
    now: float,
) -> dict[str, Any]:
    """Void the round under way at ``live`` with every stake still in play returned
    (``Rounds.void_live``: the engine's ``Void``), recorded as a staff action; once a card of
    the round is seen the void waits for an inspector instead (``approvals.ask_void``).
    ``Casino.handle`` has checked the caller (``staff.verify_runs_table``)."""
    if live.round_id != round_id:  # a round ended is never the table's round under way
        raise Conflict(
            f"round {round_id} is not under way at table {live.id}: only the round under way "
            "is voided",
            code="round_not_under_way",
            round=round_id,
        )
    reason = reason.strip()
    if not reason:
        raise RequestError("reason: a void says why", code="void_needs_reason")
    live.verify_not_waiting()
    if approvals.is_card_seen(live):
        # Four eyes once a card is seen (issue 25, docs/rules.md#D-GEN-18): an inspector
        # approves the void; until then the stakes stay in escrow and the round stands still.
        return approvals.ask_void(session, rounds, who, live, reason, now)
    held = sum(int(value["minor"]) for value in live.held.values())
    rounds.void_live(session, live, reason)
    record_action(
        session,
        who,
        StaffAction.ROUND_VOIDED,
        f"round:{round_id}",
        {"round": round_id, "table": live.id, "reason": reason, "held_minor": held},
        now=now,
    )
    return {"round": round_id, "table": live.id, "status": "voided", "reason": reason}
