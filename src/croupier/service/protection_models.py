"""A player's protection in the database (issue 27, items 1 to 3): the limits they and the
operator set, and the breaks and self-exclusions they take.

Both tables only grow: a change is a new row, never an edit, so the rows are the whole record
of who set what and when, and each enters the R15 chain as it is written (revision 0012).
Kept beside ``models`` (same ``Base``).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from croupier.storage import Base


class PlayerLimitRecord(Base):
    """One setting of one limit: the amount asked and when it applies (``effective_at``: at
    once for a decrease, 24 hours on for a raise or a removal by the player)."""

    __tablename__ = "player_limits"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    """The player the limit binds."""
    setter: Mapped[str] = mapped_column(String(16))
    """``player`` or ``operator`` (``protection.Setter``): the lower of the two applies."""
    kind: Mapped[str] = mapped_column(String(16))
    """``deposit``, ``loss``, ``wager``, ``session`` or ``reality_check`` (``LimitKind``)."""
    period: Mapped[str] = mapped_column(String(16))
    """``day``, ``week``, ``month`` (gaming days) or ``session`` (``Period``)."""
    amount: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Minor units (deposit, loss, wager), minutes (session, reality check); ``None``: none."""
    set_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[float] = mapped_column(Float)
    effective_at: Mapped[float] = mapped_column(Float)


class PlayerPauseRecord(Base):
    """A break (1 to 92 days) or a self-exclusion (6, 12 or 60 months) the player took:
    nothing lifts it before ``ends_at``."""

    __tablename__ = "player_pauses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``break`` or ``self_exclusion`` (``protection.PauseKind``)."""
    starts_at: Mapped[float] = mapped_column(Float)
    ends_at: Mapped[float] = mapped_column(Float)
    set_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[float] = mapped_column(Float)
