"""HTTP route of the dealer's corrections (issue 14, item 3; docs/rules.md#D-GEN-14).

``GET /dealer/tables/{id}/corrections`` answers what may be corrected now: ``{"table",
"round", "kinds": ["confused-deal", "exposed", ...], "places": ["hole", ...]}`` (the places of
the cards lying face down, never the cards). ``POST /dealer/tables/{id}/corrections {"kind":
..., ...}`` with an ``Idempotency-Key`` makes one:

- ``{"kind": "face-up"}``: the shoe's next card was found face up (removed or burnt, as the
  table's rules say: docs/rules.md#D-GEN-11);
- ``{"kind": "dealt-in-error"}``: a card left the shoe where none was due (D-GEN-12);
- ``{"kind": "exposed", "place": "hole"}``: the face-down card at ``place`` was shown in error
  (``hole``, ``seat 2 hand 0``, ``dealer 1``, ``seat 3 card 2``: D-BJ-31, D-CH-11);
- ``{"kind": "confused-deal"}``: the deal was confused: its cards are burnt and the round is
  void (the Veintiuno Real sheet, item 14; D-GEN-13);
- ``{"kind": "void", "reason": "..."}``: a round the dealer cannot finish, every stake still in
  play returned (D-GEN-6).

Only a dealer assigned to the table may correct its round (anyone else: 403). The answer is
``{"table", "round", "correction", "events", "round_over", "action"}``: the correction in the
engine's notation, its public events, whether it ended the round, and the staff action that
records who made it and when. A refusal is a typed 4xx and changes nothing. The body names
no card: the live shoe is the server's, and a dealer who could name one could probe its order.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr, model_validator

from croupier.cards import Card
from croupier.games.commands import (
    ConfusedDeal,
    Correction,
    DealtInError,
    Exposed,
    FaceUp,
    Void,
)
from croupier.server.answers import (
    CorrectionAwaitingApproval,
    CorrectionMade,
    LegalCorrections,
    documented,
)
from croupier.server.context import Caller, RequestOnce, ServerDep, typed_body
from croupier.server.schemas import Id
from croupier.server.staff_schemas import Text
from croupier.service.commands import Correct

router = APIRouter()

PLACE = re.compile(r"[a-z]+( ([a-z]+|[0-9]{1,2}))*")
"""A face-down card's place in the engine's words: ``hole``, ``seat 2 hand 0``, ``dealer 1``."""


def _place(text: str) -> str:
    if not PLACE.fullmatch(text):
        raise ValueError("a place such as 'hole', 'seat 2 hand 0' or 'dealer 1'")
    return text


class CorrectionKind(StrEnum):
    FACE_UP = "face-up"
    DEALT_IN_ERROR = "dealt-in-error"
    EXPOSED = "exposed"
    CONFUSED_DEAL = "confused-deal"
    VOID = "void"


NAMED_CARD_KINDS = (CorrectionKind.FACE_UP, CorrectionKind.DEALT_IN_ERROR)


def _card(text: str) -> str:
    Card.parse(text)  # a NotationError is a ValueError: the body's refusal names it
    return text


class DealerCorrectionBody(BaseModel):
    """``POST /dealer/tables/{id}/corrections``: one dealer's correction. ``place`` is given
    with ``exposed`` only, ``reason`` with ``void`` only.

    >>> DealerCorrectionBody(kind="exposed", place="hole").command()
    parse_command('exposed hole')
    >>> DealerCorrectionBody(kind="exposed", place="seat 2 hand 0").command()
    parse_command('exposed seat 2 hand 0')
    >>> DealerCorrectionBody(kind="void", reason="the shoe fell").command()
    parse_command('void the shoe fell')
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: CorrectionKind
    place: Annotated[StrictStr, Field(max_length=32), AfterValidator(_place)] | None = None
    reason: Annotated[Text, Field(min_length=1, max_length=200)] | None = None
    card: Annotated[StrictStr, Field(max_length=3), AfterValidator(_card)] | None = None
    """``face-up`` and ``dealt-in-error`` at a physical-shoe table: the card, which the dealer
    holds (``GameRound.face_up``, ``dealt_in_error``); a random shoe's table takes none."""

    @model_validator(mode="after")
    def _fields_of_the_kind(self) -> DealerCorrectionBody:
        if (self.place is not None) != (self.kind is CorrectionKind.EXPOSED):
            raise ValueError("'place' is given with kind 'exposed', and only with it")
        if (self.reason is not None) != (self.kind is CorrectionKind.VOID):
            raise ValueError("'reason' is given with kind 'void', and only with it")
        if self.card is not None and self.kind not in NAMED_CARD_KINDS:
            raise ValueError("'card' is given with 'face-up' or 'dealt-in-error' only")
        return self

    def command(self) -> Correction:
        """The round's command this body asks for."""
        card = None if self.card is None else Card.parse(self.card)
        if self.kind is CorrectionKind.FACE_UP:
            return FaceUp(card)
        if self.kind is CorrectionKind.DEALT_IN_ERROR:
            return DealtInError(card)
        if self.kind is CorrectionKind.CONFUSED_DEAL:
            return ConfusedDeal()
        if self.kind is CorrectionKind.EXPOSED:
            assert self.place is not None
            return Exposed(self.place)
        assert self.reason is not None
        return Void(" ".join(self.reason.split()))


DealerCorrection = Annotated[DealerCorrectionBody, typed_body(DealerCorrectionBody)]


@router.get("/dealer/tables/{table_id}/corrections", responses=documented(LegalCorrections))
def legal_corrections(*, server: ServerDep, who: Caller, table_id: Id) -> dict[str, Any]:
    return server.casino.legal_corrections(table_id, who)


@router.post(
    "/dealer/tables/{table_id}/corrections",
    responses=documented(CorrectionMade, accepted=CorrectionAwaitingApproval),
)
def correct(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    correction: DealerCorrection,
    once: RequestOnce,
) -> JSONResponse:
    # A void or a confused deal once a card is seen waits for an inspector: 202.
    status, reply = server.casino.handle(Correct(table_id, who, correction.command()), once)
    return JSONResponse(reply, status)
