"""The table's people, their disputes and the corrections of payments, in the database
(issue 14, items 1, 3 and 4).

Kept beside ``models`` (same ``Base``) so that the roles, the staff's record, the disputes and
the payout corrections read as one part of the schema: revision 0006 creates the first four
tables, revision 0007 ``payout_corrections``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from croupier.storage import Base


class StaffRoleRecord(Base):
    """A role of the house the operator granted to an account: ``dealer`` or ``inspector``."""

    __tablename__ = "staff_roles"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    granted_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    granted_at: Mapped[float] = mapped_column(Float)


class DealerAssignment(Base):
    """A dealer may act at this table (Spain 1979, III: the croupier runs the game at a table)."""

    __tablename__ = "dealer_assignments"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    assigned_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    assigned_at: Mapped[float] = mapped_column(Float)


class StaffActionRecord(Base):
    """Every staff action, with who and when: grants, removals, assignments, decisions."""

    __tablename__ = "staff_actions"
    # A round's or a shoe's cards as entered (``physical.cards_entered``) are the actions of
    # one subject and one kind, in order: the recall and the dispute page read them (0010).
    __table_args__ = (Index("ix_staff_actions_subject_action", "subject", "action", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    action: Mapped[str] = mapped_column(String(32))
    subject: Mapped[str] = mapped_column(String(128))
    """What the action was about: ``user:7``, ``table:3``, ``dispute:12``."""
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[float] = mapped_column(Float, index=True)


class DisputeRecord(Base):
    """A participant's dispute of a round, and the inspector's decision on it."""

    __tablename__ = "disputes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(32), index=True)
    """``open``, ``awaiting_approval``, ``upheld`` or ``rejected`` (``staff.DisputeStatus``)."""
    created_at: Mapped[float] = mapped_column(Float)
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    decided_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    corrections: Mapped[list[Any]] = mapped_column(JSON, default=list)
    """``[{"username", "amount"}]`` in minor units, positive to the player."""
    transaction_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_transactions.id"), nullable=True
    )
    """The ledger transaction of the corrections, posted with the decision."""


class PayoutCorrectionRecord(Base):
    """A wrong payout or a wrong collection found after a round ended: proposed by the table's
    dealer or the operator, confirmed (or refused) by an inspector; only a confirmation moves
    money, as its own compensating ledger transaction (``service.payout_corrections``)."""

    __tablename__ = "payout_corrections"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    """The player whose wallet the correction moves."""
    amount: Mapped[int] = mapped_column(BigInteger)
    """Minor units, positive to the player (paid short), negative taken back (paid over)."""
    reason: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``proposed``, ``confirmed`` or ``refused`` (``payout_corrections.CorrectionStatus``)."""
    proposed_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    proposed_at: Mapped[float] = mapped_column(Float)
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    decided_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    decision_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    transaction_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_transactions.id"), nullable=True
    )
    """The compensating ledger transaction, posted with the confirmation."""


class ApprovalRecord(Base):
    """What one member of staff asked and a second must approve before it moves money or
    ends a round (issue 25, four eyes): a dispute decision that pays beyond what the round's
    re-settlement owes, or a void after a card was seen (``service.approvals``)."""

    __tablename__ = "approvals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``dispute`` or ``void`` (``staff.ApprovalKind``)."""
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    dispute_id: Mapped[int | None] = mapped_column(ForeignKey("disputes.id"), nullable=True)
    requested_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    requested_at: Mapped[float] = mapped_column(Float)
    reason: Mapped[str] = mapped_column(Text)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """What the request would do: a dispute's ``corrections`` and what the round ``owed``
    each player then; a void's ``held`` stakes by player (minor units)."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``awaiting``, ``approved`` or ``refused`` (``staff.ApprovalStatus``)."""
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    decided_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    decision_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    transaction_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_transactions.id"), nullable=True
    )
    """The ledger transaction the approval posted (a dispute's corrections, a void's stakes)."""
