"""HTTP routes of the table's people (issue 14): the operator's staff, the disputes of the
players and the inspector's decisions. The fixed contract:

- ``POST /operator/staff {"username", "role": "dealer" | "inspector"}`` grants a role;
  ``DELETE /operator/staff/{username}/{role}`` removes it (a dealer's tables go with it);
- ``POST /operator/tables/{id}/dealers {"username"}`` assigns a dealer to a table,
  ``DELETE /operator/tables/{id}/dealers/{username}`` takes them off it;
- ``POST /rounds/{id}/disputes {"text"}`` (a participant) answers
  ``201 {"dispute": N, "status": "open"}``;
- ``GET /inspector/disputes`` (an inspector) answers ``{"disputes": [{"dispute", "round",
  "status", "text", "paid", "resettled"}, ...]}``, more fields beside;
- ``POST /inspector/disputes/{id}/decision {"decision", "reason", "corrections"}``; a second
  decision is refused with 409 and moves nothing;
- ``GET /me/disputes`` answers ``{"disputes": [{"dispute", "round", "status", "decision",
  "reason"}, ...]}``; ``GET /me/disputes/{id}/dossier.pdf`` the dossier for the regulator;
- ``POST /rounds/{id}/corrections {"username", "amount", "reason"}`` (the table's dealer or the
  operator) proposes a correction of a payout or a collection, ``201``; ``GET
  /inspector/corrections`` (an inspector) and ``GET /operator/corrections`` list them; ``POST
  /inspector/corrections/{id}/decision {"decision": "confirmed" | "refused", "reason"}`` decides
  one, a second decision 409 (``service.payout_corrections``);
- ``POST /rounds/{id}/void {"reason"}`` (the table's dealer or the operator) voids the round
  under way, every stake still in play returned; once a card of it is dealt the void waits
  for an inspector: ``202 {"round", "status": "awaiting_approval", "approval": M}``;
- four eyes (issue 25, ``service.approvals``): a dispute decision whose corrections pay beyond
  what the round still owes answers ``202 {"dispute": N, "status": "awaiting_approval",
  "approval": M}`` and moves nothing; ``GET /inspector/approvals`` (and ``GET
  /operator/approvals``, to read) lists what waits; ``POST /inspector/approvals/{M}/decision
  {"decision": "approved" | "refused", "reason"}`` (another inspector) answers, a second
  answer 409.

Every POST and DELETE takes an ``Idempotency-Key`` (R8), as the rest of the API.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response

from croupier.audit import signing as audit_signing
from croupier.audit.chain import AuditError
from croupier.server.answers import (
    PDF,
    ApprovalAnswer,
    ApprovalsAnswer,
    DisputeAnswer,
    DisputeAwaitingApproval,
    DisputeDecided,
    DisputeFiled,
    DisputesAnswer,
    MyDisputesAnswer,
    PayoutCorrection,
    PayoutCorrectionsAnswer,
    RoleChanged,
    RolesAnswer,
    RoundVoided,
    StaffActionsAnswer,
    StaffAnswer,
    TableDealers,
    VoidAwaitingApproval,
    documented,
)
from croupier.server.context import (
    Caller,
    NoBody,
    Operator,
    RequestOnce,
    ServerDep,
    typed_body,
)
from croupier.server.schemas import Id
from croupier.server.staff_schemas import (
    ApprovalDecisionBody,
    DealerBody,
    DecisionBody,
    DisputeBody,
    PayoutCorrectionBody,
    PayoutDecisionBody,
    StaffBody,
    VoidBody,
)
from croupier.service import approvals, disputes, dossier, payout_corrections, staff
from croupier.service.accounts import Principal
from croupier.service.commands import (
    AnswerApproval,
    AssignDealer,
    DecideCorrection,
    DecideDispute,
    FileDispute,
    GrantRole,
    ProposeCorrection,
    RemoveRole,
    UnassignDealer,
    VoidRound,
)
from croupier.service.errors import RequestError, Unavailable

router = APIRouter()

StaffGrant = Annotated[StaffBody, typed_body(StaffBody)]
DealerAssignment = Annotated[DealerBody, typed_body(DealerBody)]
DisputeText = Annotated[DisputeBody, typed_body(DisputeBody)]
Ruling = Annotated[DecisionBody, typed_body(DecisionBody)]
Proposal = Annotated[PayoutCorrectionBody, typed_body(PayoutCorrectionBody)]
Confirmation = Annotated[PayoutDecisionBody, typed_body(PayoutDecisionBody)]
Voiding = Annotated[VoidBody, typed_body(VoidBody)]
Answering = Annotated[ApprovalDecisionBody, typed_body(ApprovalDecisionBody)]


def inspector(server: ServerDep, who: Caller) -> Principal:
    """The caller, if an inspector's account; anyone else (the operator too) gets 403."""
    server.uow.read(lambda s: staff.verify_role(s, who, staff.StaffRole.INSPECTOR))
    return who


Inspector = Annotated[Principal, Depends(inspector)]


def _role(text: str) -> staff.StaffRole:
    try:
        return staff.StaffRole(text)
    except ValueError:
        raise RequestError(f"role {text!r}: 'dealer' or 'inspector'") from None


# --- the operator's staff -------------------------------------------------------------------
@router.post("/operator/staff", status_code=201, responses=documented(RoleChanged, 201))
def grant_role(
    *,
    server: ServerDep,
    who: Operator,
    grant: StaffGrant,
    once: RequestOnce,
) -> JSONResponse:
    status, reply = server.casino.handle(GrantRole(who, grant.username, grant.role), once)
    return JSONResponse(reply, status)


@router.delete("/operator/staff/{username}/{role}", responses=documented(RoleChanged))
def remove_role(
    *,
    server: ServerDep,
    who: Operator,
    username: str,
    role: str,
    body: NoBody,
    once: RequestOnce,
) -> JSONResponse:
    status, reply = server.casino.handle(RemoveRole(who, username, _role(role)), once)
    return JSONResponse(reply, status)


@router.get("/operator/staff", responses=documented(StaffAnswer))
def staff_list(*, server: ServerDep, who: Operator) -> dict[str, Any]:
    return server.uow.read(staff.staff_document)


@router.get("/operator/staff/actions", responses=documented(StaffActionsAnswer))
def staff_actions(*, server: ServerDep, who: Operator, limit: int = 100) -> dict[str, Any]:
    return server.uow.read(lambda s: staff.actions_document(s, min(max(limit, 1), 500)))


@router.post("/operator/tables/{table_id}/dealers", responses=documented(TableDealers))
def assign_dealer(
    *,
    server: ServerDep,
    who: Operator,
    table_id: Id,
    dealer: DealerAssignment,
    once: RequestOnce,
) -> JSONResponse:
    # Under the table's lock: a seat taken at the same moment is seen.
    status, reply = server.casino.handle(AssignDealer(table_id, who, dealer.username), once)
    return JSONResponse(reply, status)


@router.delete("/operator/tables/{table_id}/dealers/{username}", responses=documented(TableDealers))
def unassign_dealer(
    *,
    server: ServerDep,
    who: Operator,
    table_id: Id,
    username: str,
    body: NoBody,
    once: RequestOnce,
) -> JSONResponse:
    # Under the table's lock, as its assignment.
    status, reply = server.casino.handle(UnassignDealer(table_id, who, username), once)
    return JSONResponse(reply, status)


@router.get("/operator/disputes", responses=documented(DisputesAnswer))
def operator_disputes(*, server: ServerDep, who: Operator) -> dict[str, Any]:
    """The inspector's queue, for the operator to read: the operator decides nothing."""
    return server.uow.read(disputes.queue)


# --- the players' disputes ------------------------------------------------------------------
@router.post(
    "/rounds/{round_id}/disputes",
    status_code=201,
    responses=documented(DisputeFiled, 201),
)
def file_dispute(
    *,
    server: ServerDep,
    who: Caller,
    round_id: Id,
    dispute: DisputeText,
    once: RequestOnce,
) -> JSONResponse:
    status, reply = server.casino.handle(FileDispute(round_id, who, dispute.text), once)
    return JSONResponse(reply, status)


@router.get("/me/disputes", responses=documented(MyDisputesAnswer))
def my_disputes(*, server: ServerDep, who: Caller) -> dict[str, Any]:
    return server.uow.read(lambda s: disputes.disputes_of(s, who))


@router.get("/me/roles", responses=documented(RolesAnswer))
def my_roles(*, server: ServerDep, who: Caller) -> dict[str, Any]:
    """The staff roles of the caller's account (the pages show the inspector's link)."""
    roles = server.uow.read(lambda s: sorted(staff.roles_of(s, who.user_id)))
    return {"username": who.username, "roles": [str(role) for role in roles]}


@router.get("/me/disputes/{dispute_id}/dossier.pdf", response_class=Response, responses=PDF)
def my_dossier(*, server: ServerDep, who: Caller, dispute_id: Id) -> Response:
    key_path = server.settings.audit_key
    try:
        key = None if key_path is None else audit_signing.read_private_key(key_path)
    except AuditError as error:  # the server's trouble (its start had read the key): 503
        raise Unavailable(f"the dossier's head cannot be signed now: {error}") from None
    facts = server.uow.read(lambda s: disputes.dossier_facts(s, who, dispute_id, key))
    return Response(
        dossier.render(facts),
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="dispute-{dispute_id}.pdf"'},
    )


# --- the inspector --------------------------------------------------------------------------
@router.get("/inspector/disputes", responses=documented(DisputesAnswer))
def inspector_queue(*, server: ServerDep, who: Inspector) -> dict[str, Any]:
    return server.uow.read(disputes.queue)


@router.get("/inspector/disputes/{dispute_id}", responses=documented(DisputeAnswer))
def inspector_dispute(*, server: ServerDep, who: Inspector, dispute_id: Id) -> dict[str, Any]:
    return server.uow.read(lambda s: disputes.dispute_document(s, dispute_id))


@router.post(
    "/inspector/disputes/{dispute_id}/decision",
    responses=documented(DisputeDecided, accepted=DisputeAwaitingApproval),
)
def decide(
    *,
    server: ServerDep,
    who: Inspector,
    dispute_id: Id,
    decided: Ruling,
    once: RequestOnce,
) -> JSONResponse:
    corrections = tuple(disputes.Correction(c.username, c.amount) for c in decided.corrections)
    command = DecideDispute(dispute_id, who, decided.decision, decided.reason, corrections)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


# --- corrections of payouts and collections (issue 14, item 3) --------------------------------
@router.post(
    "/rounds/{round_id}/corrections",
    status_code=201,
    responses=documented(PayoutCorrection, 201),
)
def propose_correction(
    *,
    server: ServerDep,
    who: Caller,
    round_id: Id,
    proposal: Proposal,
    once: RequestOnce,
) -> JSONResponse:
    username, amount, reason = proposal.username, proposal.amount, proposal.reason
    command = ProposeCorrection(round_id, who, username, amount, reason)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


@router.get("/inspector/corrections", responses=documented(PayoutCorrectionsAnswer))
def inspector_corrections(*, server: ServerDep, who: Inspector) -> dict[str, Any]:
    return server.uow.read(payout_corrections.listing)


@router.get("/operator/corrections", responses=documented(PayoutCorrectionsAnswer))
def operator_corrections(*, server: ServerDep, who: Operator) -> dict[str, Any]:
    """The corrections, for the operator to read: an inspector decides them."""
    return server.uow.read(payout_corrections.listing)


@router.post(
    "/inspector/corrections/{correction_id}/decision",
    responses=documented(PayoutCorrection),
)
def decide_correction(
    *,
    server: ServerDep,
    who: Inspector,
    correction_id: Id,
    decided: Confirmation,
    once: RequestOnce,
) -> JSONResponse:
    command = DecideCorrection(correction_id, who, decided.decision, decided.reason)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


@router.post(
    "/rounds/{round_id}/void",
    responses=documented(RoundVoided, accepted=VoidAwaitingApproval),
)
def void_round(
    *,
    server: ServerDep,
    who: Caller,
    round_id: Id,
    voiding: Voiding,
    once: RequestOnce,
) -> JSONResponse:
    """The round under way voided by its table's dealer or the operator, under the table's
    lock, in one transaction with the stakes it returns."""
    status, reply = server.casino.handle(VoidRound(round_id, who, voiding.reason), once)
    return JSONResponse(reply, status)


# --- four eyes (issue 25) -------------------------------------------------------------------
@router.get("/inspector/approvals", responses=documented(ApprovalsAnswer))
def inspector_approvals(*, server: ServerDep, who: Inspector) -> dict[str, Any]:
    return server.uow.read(approvals.listing)


@router.get("/operator/approvals", responses=documented(ApprovalsAnswer))
def operator_approvals(*, server: ServerDep, who: Operator) -> dict[str, Any]:
    """What waits for a second inspector, for the operator to read: inspectors answer."""
    return server.uow.read(approvals.listing)


@router.post("/inspector/approvals/{approval_id}/decision", responses=documented(ApprovalAnswer))
def decide_approval(
    *,
    server: ServerDep,
    who: Inspector,
    approval_id: Id,
    answered: Answering,
    once: RequestOnce,
) -> JSONResponse:
    """A void is answered under its table's lock, in one transaction with the round's end
    (approved) or its clock started again (refused); a dispute's in one transaction with its
    corrections."""
    command = AnswerApproval(approval_id, who, answered.decision, answered.reason)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)
