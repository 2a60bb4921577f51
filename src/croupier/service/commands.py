"""The table service's commands: one frozen value per thing a caller asks of a live table.

An edge (an HTTP route, the CLI, the server's start) builds one from what it was sent, typed
(a correction as its ``games.commands`` command, a card as a ``Card``), and gives it to
``Casino.handle`` with the request's ``Once``; nothing below the edge reads a request body or
chooses a transaction.

>>> Decide(table=1, by=Principal(7, "ana", "player"), seat=2, notation="double 5").action()
Action.parse('double 5')
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.games.commands import Action, Correction
from croupier.service import disputes
from croupier.service.accounts import Principal
from croupier.service.physical import RANDOM, Procedure
from croupier.service.protection import LimitKind, PauseKind, Period
from croupier.service.staff import ApprovalDecision, CorrectionDecision, StaffRole


@dataclass(frozen=True)
class Once:
    """What makes a request's effect happen once (R8): the caller's ``Idempotency-Key``
    (``None`` when the request had none: refused) and the fingerprint of the request."""

    user_id: int
    key: str | None
    request_hash: str


# --- a player's -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sit:
    table: int
    by: Principal
    seat: int


@dataclass(frozen=True)
class Leave:
    table: int
    by: Principal
    seat: int


@dataclass(frozen=True)
class PlaceBet:
    """A wager in whole table units (docs/rules.md §6); 0 withdraws it while bets are open."""

    table: int
    by: Principal
    seat: int
    wager: str
    amount: int


@dataclass(frozen=True)
class Ready:
    table: int
    by: Principal


@dataclass(frozen=True)
class Decide:
    """A decision in its notation, ``"double 5"`` (the API's contract): read into an
    ``Action`` once, by the handler after the caller's check, so that a stranger's malformed
    decision is refused as a stranger's (403) before its notation (422)."""

    table: int
    by: Principal
    seat: int
    notation: str

    def action(self) -> Action:
        return Action.parse(self.notation)


@dataclass(frozen=True)
class AskBackBet:
    """Spain 1979's back bet on another player's box (docs/rules.md#D-BJ-28)."""

    table: int
    by: Principal
    seat: int
    wager: str
    amount: int


@dataclass(frozen=True)
class Consent:
    """The box owner's answer to a back bet on their box."""

    table: int
    by: Principal
    back_bet: int
    accept: bool


# --- a dealer's -------------------------------------------------------------------------------
@dataclass(frozen=True)
class ConfirmProcedure:
    table: int
    by: Principal
    procedure: Procedure


@dataclass(frozen=True)
class EnterCard:
    table: int
    by: Principal
    card: Card


@dataclass(frozen=True)
class Correct:
    """A dealer's correction of the round under way (docs/rules.md#D-GEN-14)."""

    table: int
    by: Principal
    correction: Correction


@dataclass(frozen=True)
class VoidRound:
    """The round under way voided by its table's dealer or the operator; the table is the
    round's (``Casino.handle`` reads it)."""

    round: int
    by: Principal
    reason: str


# --- staff's ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class AnswerApproval:
    """A second inspector's answer to what waits (issue 25): a void's under its table's lock."""

    approval: int
    by: Principal
    decision: ApprovalDecision
    reason: str


@dataclass(frozen=True)
class DecideDispute:
    """An inspector's decision of a dispute: its corrections may wait for a second inspector."""

    dispute: int
    by: Principal
    decision: disputes.Decision
    reason: str
    corrections: tuple[disputes.Correction, ...]


@dataclass(frozen=True)
class AssignDealer:
    table: int
    by: Principal
    username: str


@dataclass(frozen=True)
class UnassignDealer:
    table: int
    by: Principal
    username: str


@dataclass(frozen=True)
class FileDispute:
    """A player's dispute of a round they played, within its window (docs/rules.md#D-GEN-10)."""

    round: int
    by: Principal
    text: str


@dataclass(frozen=True)
class ProposeCorrection:
    """A correction of what an ended round paid ``username``, in minor units (positive to the
    player), proposed by the table's dealer or the operator: nothing moves yet."""

    round: int
    by: Principal
    username: str
    amount: int
    reason: str


@dataclass(frozen=True)
class DecideCorrection:
    """An inspector's confirmation (the money moves) or refusal of a proposed correction."""

    correction: int
    by: Principal
    decision: CorrectionDecision
    reason: str


# --- the operator's ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Credit:
    """The cashier's credit of a player's wallet, in minor units (R13)."""

    by: Principal
    username: str
    amount: int


@dataclass(frozen=True)
class Debit:
    """The cashier's debit of a player's wallet, in minor units (R13)."""

    by: Principal
    username: str
    amount: int


@dataclass(frozen=True)
class SetProtectionLimit:
    """A limit on a player's play (issue 27): the caller's own (``player`` ``None``; a raise
    waits 24 hours), or the operator's on the player named (at once either way). ``amount``
    is minor units, minutes for the session and the reality check; ``None`` removes it."""

    by: Principal
    player: str | None
    kind: LimitKind
    period: Period
    amount: int | None


@dataclass(frozen=True)
class TakePause:
    """A player's break (``length`` in days) or self-exclusion (in months), from now."""

    by: Principal
    kind: PauseKind
    length: int


@dataclass(frozen=True)
class GrantRole:
    by: Principal
    username: str
    role: StaffRole


@dataclass(frozen=True)
class RemoveRole:
    """A staff role removed; a dealer's tables go with it."""

    by: Principal
    username: str
    role: StaffRole


@dataclass(frozen=True)
class CreateTable:
    name: str
    profile: str
    betting_seconds: float
    decision_seconds: float
    sit_out_after: int | None = None
    free_after: int | None = None
    shoe: str = RANDOM


@dataclass(frozen=True)
class SetOpen:
    table: int
    is_open: bool


@dataclass(frozen=True)
class SetLimits:
    table: int
    wager: str
    minimum: int
    maximum: int


TableCommand = (
    Sit
    | Leave
    | PlaceBet
    | Ready
    | Decide
    | AskBackBet
    | Consent
    | ConfirmProcedure
    | EnterCard
    | Correct
    | SetOpen
    | SetLimits
    | AssignDealer
    | UnassignDealer
)
"""A command of one table named in it: run under that table's lock."""

OfficeCommand = (
    Credit
    | Debit
    | GrantRole
    | RemoveRole
    | FileDispute
    | ProposeCorrection
    | DecideCorrection
    | DecideDispute
    | CreateTable
    | SetProtectionLimit
    | TakePause
)
"""A command of the cashier's or the staff's office: it holds no table, and runs in one
transaction of its own."""

Command = TableCommand | VoidRound | AnswerApproval | OfficeCommand

MOVES_MONEY = (Credit, Debit, DecideCorrection, DecideDispute, AnswerApproval)
"""The commands outside a table's lock that post to the ledger: refused, as a table's
command is, while the fail safe holds (R17)."""

CREATES = (CreateTable, GrantRole, FileDispute, ProposeCorrection)
"""The commands whose answer is a new thing: 201."""
