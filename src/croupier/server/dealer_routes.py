"""HTTP routes of a dealer at a physical-shoe table (issue 14, item 2):

- ``GET /dealer/tables``: the tables the caller deals at, each with where its next card goes;
- ``GET /dealer/tables/{id}``: that table as its dealer sees it (the shoe, the next card's
  place, the whole round) and, at a physical shoe, ``cards_entered``: each card of the round
  under way with the dealer who entered it;
- ``POST /dealer/tables/{id}/shoe {"procedure": "shuffled" | "cut" | "cut_card_placed" |
  "cut_card_out"}``: one procedure of the shoe confirmed, in its order;
- ``POST /dealer/tables/{id}/cards {"card": "Td"}``: the next card out of the real shoe;
  answers where it went and the round's state.

Only a dealer assigned to the table (``service.staff.verify_dealer_at``) may; anyone else
gets 403. A refusal is a typed 4xx (``code``, ``params``) and changes nothing. Every POST
takes an ``Idempotency-Key`` (R8), as the rest of the API.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field, StrictStr
from sqlalchemy.orm import Session

from croupier.cards import Card
from croupier.ledger.book import round_reference
from croupier.server.answers import (
    CardTaken,
    DealerState,
    DealerTablesAnswer,
    ProcedureConfirmed,
    documented,
)
from croupier.server.context import Caller, RequestOnce, ServerDep, typed_body
from croupier.server.schemas import Body, Id
from croupier.service import physical, staff
from croupier.service.accounts import Principal
from croupier.service.commands import ConfirmProcedure, EnterCard
from croupier.service.live import LiveTable

router = APIRouter()


class CardBody(Body):
    """``POST /dealer/tables/{id}/cards``: a card in notation, ``Td``, ``As``, ``10h``."""

    card: Annotated[StrictStr, Field(min_length=1, max_length=8)]


class ProcedureBody(Body):
    """``POST /dealer/tables/{id}/shoe``: a procedure of the shoe the dealer has done."""

    procedure: physical.Procedure


EnteredCard = Annotated[CardBody, typed_body(CardBody)]
ConfirmedProcedure = Annotated[ProcedureBody, typed_body(ProcedureBody)]


def _dealer_at(server: ServerDep, who: Principal, table_id: int) -> LiveTable:
    live = server.casino.table(table_id)
    server.uow.read(lambda s: staff.verify_dealer_at(s, who, table_id))
    return live


@router.get("/dealer/tables", responses=documented(DealerTablesAnswer))
def dealer_tables(*, server: ServerDep, who: Caller) -> dict[str, Any]:
    def mine(session: Session) -> list[int]:
        staff.verify_role(session, who, staff.StaffRole.DEALER)
        return staff.dealer_tables(session, who.user_id)

    listed = []
    for table_id in server.uow.read(mine):
        live = server.casino.tables.get(table_id)
        if live is None:
            continue
        with live.lock:
            listed.append(
                {
                    "table": live.id,
                    "name": live.name,
                    "game": live.profile.game,
                    "profile": live.profile.name,
                    "shoe_kind": physical.PHYSICAL if live.is_physical else physical.RANDOM,
                    "status": live.status,
                    "next_card": physical.next_card(live),
                }
            )
    return {"tables": listed}


@router.get("/dealer/tables/{table_id}", responses=documented(DealerState))
def dealer_table(*, server: ServerDep, who: Caller, table_id: Id) -> dict[str, Any]:
    live = _dealer_at(server, who, table_id)
    with live.lock:
        state = physical.dealer_state(live)
        if live.is_physical and live.round_id:
            # Who entered each card of the round under way (issue 26, item 5).
            entered = round_reference(live.round_id)
            state["cards_entered"] = server.uow.read(lambda s: physical.cards_entered(s, entered))
        return state


@router.post("/dealer/tables/{table_id}/shoe", responses=documented(ProcedureConfirmed))
def confirm_procedure(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    body: ConfirmedProcedure,
    once: RequestOnce,
) -> JSONResponse:
    command = ConfirmProcedure(table_id, who, body.procedure)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


@router.post("/dealer/tables/{table_id}/cards", responses=documented(CardTaken))
def enter_card(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    body: EnteredCard,
    once: RequestOnce,
) -> JSONResponse:
    # A malformed card: NotationError, 422, before anything.
    status, reply = server.casino.handle(EnterCard(table_id, who, Card.parse(body.card)), once)
    return JSONResponse(reply, status)
