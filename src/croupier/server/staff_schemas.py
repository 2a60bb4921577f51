"""The request bodies of the staff's and the disputes' routes (issue 14), as typed models in
the manner of ``schemas``: read by ``context.json_body``, validated by ``schemas.parse``.

>>> from croupier.server.schemas import parse
>>> parse(DecisionBody, {"decision": "upheld", "corrections": [{"username": "ann", "amount": 500}]})
DecisionBody(decision=<Decision.UPHELD: 'upheld'>, reason='', corrections=(CorrectionBody(username='ann', amount=500),))
>>> parse(DecisionBody, {"decision": "upheld", "corrections": [{"username": "ann", "amount": 5.0}]})
Traceback (most recent call last):
...
croupier.service.errors.RequestError: corrections: Input should be a valid integer (got 5.0)
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, ConfigDict, Field, StrictInt, StrictStr

from croupier.ledger.book import MAX_MINOR_AMOUNT
from croupier.server.schemas import Body
from croupier.service.disputes import MAX_CORRECTIONS, Decision
from croupier.service.staff import ApprovalDecision, CorrectionDecision, StaffRole

MAX_TEXT = 2_000
"""A dispute's text and a decision's reason: at most this many characters."""

Username = Annotated[StrictStr, Field(min_length=1, max_length=64)]


CONTROL = frozenset(chr(code) for code in [*range(0x20), 0x7F]) - set("\t\n\r")
"""Characters a text may not hold: NUL (PostgreSQL's text refuses it) and the other controls."""


def _plain_text(text: str) -> str:
    bad = next((char for char in text if char in CONTROL), None)
    if bad is not None:
        raise ValueError(f"a control character ({bad!r}) has no place in a text")
    return text


Text = Annotated[StrictStr, Field(max_length=MAX_TEXT), AfterValidator(_plain_text)]
"""A person's words: at most ``MAX_TEXT`` characters, lines and tabs but no control codes."""


def _not_zero(amount: int) -> int:
    if amount == 0:
        raise ValueError("a correction of 0 corrects nothing")
    return amount


CorrectionAmount = Annotated[
    StrictInt,
    Field(ge=-MAX_MINOR_AMOUNT, le=MAX_MINOR_AMOUNT),
    AfterValidator(_not_zero),
]
"""Minor units, positive to the player, negative taken back; never 0, at most 10^13 (R13)."""


class StaffBody(Body):
    """``POST /operator/staff``: grant a staff role to an account."""

    username: Username
    role: StaffRole


class DealerBody(Body):
    """``POST /operator/tables/{id}/dealers``: assign a dealer to a table."""

    username: Username


class DisputeBody(Body):
    text: Annotated[Text, Field(min_length=1)]


class CorrectionBody(Body):
    username: Username
    amount: CorrectionAmount


class DecisionBody(Body):
    decision: Decision
    reason: Text = ""
    corrections: Annotated[tuple[CorrectionBody, ...], Field(max_length=MAX_CORRECTIONS)] = ()


Reason = Annotated[Text, Field(min_length=1)]
"""Why: a correction, a refusal, a void says it (blank is refused by the service)."""


class StrictBody(Body):
    """A body that moves money or ends a round refuses a field it does not read: a misspelt
    ``reason`` or an ``amount`` sent twice under another name is an error, not dropped."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class PayoutCorrectionBody(StrictBody):
    """``POST /rounds/{id}/corrections``: the table's dealer or the operator proposes a
    correction of what the round paid ``username``: minor units, positive to the player."""

    username: Username
    amount: CorrectionAmount
    reason: Reason


class PayoutDecisionBody(StrictBody):
    """``POST /inspector/corrections/{id}/decision``: an inspector confirms (the money moves)
    or refuses (with a reason; nothing moves) a proposed correction."""

    decision: CorrectionDecision
    reason: Text = ""


class VoidBody(StrictBody):
    """``POST /rounds/{id}/void``: the table's dealer or the operator voids the round under
    way, every stake still in play returned."""

    reason: Reason


class ApprovalDecisionBody(StrictBody):
    """``POST /inspector/approvals/{id}/decision``: a second inspector approves (the money
    moves, or the round is voided) or refuses (with a reason; nothing moves) what waits."""

    decision: ApprovalDecision
    reason: Text = ""
