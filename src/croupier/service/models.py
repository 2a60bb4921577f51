"""The table server's database: one SQLAlchemy model for SQLite and PostgreSQL.

Money is integer minor units (``BigInteger``): SQLite stores ``Numeric`` as REAL and loses
digits (STACK.md). A live table's whole state is here, deadlines included, so a restart
resumes every table (R10, R11): a round keeps the events the engine recorded, which replay
(``games.replay.replay``) to the same round; its shoe keeps the seed it was shuffled from.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from croupier.audit.models import AuditCover, AuditEntry, AuditHead
from croupier.ledger.models import Account, LedgerEntry, LedgerTransaction
from croupier.storage import Base

# The ledger's and the audit's tables are theirs (below the service); imported here so that
# whoever imports the schema gets all of it.
__all__ = [
    "Account",
    "AuditCover",
    "AuditEntry",
    "AuditHead",
    "BackBet",
    "Base",
    "GameTable",
    "IdempotencyRecord",
    "LedgerEntry",
    "LedgerTransaction",
    "RoundPlayer",
    "RoundRecord",
    "RuleSet",
    "ServeProcess",
    "Session",
    "ShoeRecord",
    "TableLease",
    "User",
]


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    role: Mapped[str] = mapped_column(String(16))  # "player" or "operator"
    failure_times: Mapped[list[Any]] = mapped_column(JSON, default=list)
    """When recent sign-ins failed (R16: 3 in 30 minutes lock the account)."""
    locked_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class Session(Base):
    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the bearer token: a stolen database does not yield live tokens."""
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    last_seen_at: Mapped[float] = mapped_column(Float)
    ended: Mapped[bool] = mapped_column(Boolean, default=False)


class IdempotencyRecord(Base):
    """A mutating request's stored answer (R8), written in the transaction of its effect."""

    __tablename__ = "idempotency_keys"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int] = mapped_column(Integer)
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class GameTable(Base):
    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str] = mapped_column(String(32))
    profile: Mapped[str] = mapped_column(String(1024))
    """Where the rules came from: a shipped profile's name or the path of the operator's file.
    Only a record: the rules themselves are ``profile_document``."""
    profile_document: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The validated profile the table opened with, as canonical JSON
    (``service.table_rules``): start-up and recovery read the rules from here, never from a
    file. ``None`` only for a table from before revision 0003 whose file could not be read."""
    rules_version: Mapped[str | None] = mapped_column(String(96), nullable=True)
    """``profile_document``'s name and hash (``engines.rules_version`` of the profile)."""
    is_open: Mapped[bool] = mapped_column(Boolean, default=True)
    betting_seconds: Mapped[float] = mapped_column(Float)
    decision_seconds: Mapped[float] = mapped_column(Float)
    seats: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """Box or zone number (as text) -> the user id seated there."""
    shoe: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """``physical``: the dealer deals from a real shoe and enters each card (revision 0009);
    ``None``: the server's own random shoe (every table before it)."""
    limits: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The operator's limits over the profile's, by wager, and those the round under way opened
    with (``service.limits.stored``); ``None``: the profile's own."""
    absences: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Seat (as text) -> rounds its player let pass in a row without a bet
    (``service.absence``, docs/rules.md#D-GEN-15); ``None``: no seat missed one."""
    sit_out_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Rounds missed in a row before a seat sits out; ``None``: the server's default, 3."""
    free_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Further rounds missed before the seat is freed; ``None``: the server's default, 3."""


class RuleSet(Base):
    """Every set of rules a shoe or round was dealt under, by its ``rules_version``: a
    round's record names its version and this row holds the rules (a table's profile with
    the operator's limits then), so no round needs a file to be replayed (R14, issue 10)."""

    __tablename__ = "rule_sets"

    rules_version: Mapped[str] = mapped_column(String(96), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    document: Mapped[str] = mapped_column(Text)
    """Canonical JSON (``service.table_rules.document``); it hashes to ``rules_version``."""


class ShoeRecord(Base):
    __tablename__ = "shoes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    seed_hex: Mapped[str] = mapped_column(String(64))
    """Secret while the shoe is live (R6); revealed with the order when it ends (R18)."""
    commitment: Mapped[str] = mapped_column(String(64))
    rules_version: Mapped[str] = mapped_column(String(96))
    decks: Mapped[int] = mapped_column(Integer)
    cut_card_from_bottom: Mapped[int | None] = mapped_column(Integer, nullable=True)
    opening: Mapped[list[Any]] = mapped_column(JSON, default=list)
    """Events of the new-shoe procedure (burns), dealt before the first round."""
    position: Mapped[int] = mapped_column(Integer, default=0)
    """Cards out of the shoe when its next round starts."""
    procedures: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """A physical shoe's procedures as its dealer confirmed them, in order (``{"procedure",
    "by", "at"}``: shuffled, cut, cut card placed, cut card out); ``None`` for a random shoe,
    whose seed is its whole making (revision 0009). Its burns are ``opening``."""
    is_revealed: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)


class RoundStatus(StrEnum):
    """What a round's record says of it: under way (its engine says which step: betting, or
    past it), or ended."""

    BETTING = "betting"
    PLAYING = "playing"
    COMPLETE = "complete"
    INTERRUPTED = "interrupted"
    """Voided: every stake still in play returned (R11, a dealer's or the operator's void)."""
    CANCELLED = "cancelled"


IN_PROGRESS = (str(RoundStatus.BETTING), str(RoundStatus.PLAYING))
"""A round's record while it is under way (its status column, as SQL compares it)."""


class BackBetStatus(StrEnum):
    """A back bet (docs/rules.md#D-BJ-28): asked, then accepted or refused by the box's owner;
    an accepted one is settled with the box, or refunded with a void."""

    ASKED = "asked"
    ACCEPTED = "accepted"
    REFUSED = "refused"
    SETTLED = "settled"
    REFUNDED = "refunded"


class RoundRecord(Base):
    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    shoe_id: Mapped[int] = mapped_column(ForeignKey("shoes.id"), index=True)
    rules_version: Mapped[str] = mapped_column(String(96))
    status: Mapped[str] = mapped_column(String(16), index=True)
    """A ``RoundStatus``."""
    start_position: Mapped[int] = mapped_column(Integer)
    events: Mapped[list[Any]] = mapped_column(JSON, default=list)
    """The round's record; its commands, dealt again from the shoe, rebuild it (revision 0004
    dropped the commands stored beside it, ``inputs``)."""
    stakes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """Minor units held in escrow, by seat and by user: what a void returns."""
    ready: Mapped[list[Any]] = mapped_column(JSON, default=list)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    @property
    def inputs(self) -> list[dict[str, Any]]:
        """The commands the round was given, as the live table's steps, read from its events
        (what recall shows as ``inputs``; a void is not one of them)."""
        from croupier.games.commands import Void, to_step
        from croupier.games.events import Event, upgrade
        from croupier.games.record import commands_of

        record = upgrade(Event.from_json(item) for item in self.events)
        return [
            to_step(command) for command in commands_of(record) if not isinstance(command, Void)
        ]


class RoundPlayer(Base):
    """Who played which seat of a round: a player's history (R14)."""

    __tablename__ = "round_players"

    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16), default="owner")


class BackBet(Base):
    """A bet on another player's box, with the owner's consent (spain-1979)."""

    __tablename__ = "back_bets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    wager: Mapped[str] = mapped_column(String(32))
    amount: Mapped[int] = mapped_column(BigInteger)
    """Minor units."""
    status: Mapped[str] = mapped_column(String(16))  # a ``BackBetStatus``
    payout: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


# The staff's five tables (roles, dealer assignments, staff actions, disputes, payout
# corrections) and the players' protection (limits, pauses) are declared beside these, in the
# same ``Base``: imported here so that whoever imports the schema gets all of it. ``audit verify`` and ``backup`` each missed them in a
# process of their own (02e3e52, 87831ca) while another module's import happened to hide it.
from croupier.service import protection_models, staff_models  # noqa: E402, F401


class TableLease(Base):
    """Which server process runs a table, at which epoch, until when (``service.leases``;
    revision 0013). The epoch is the fencing token: raised at every change of owner, checked
    by every command's transaction before it commits."""

    __tablename__ = "table_leases"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(200))
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """On the database's clock: a process's own clock never decides who owns a table."""


class ServeProcess(Base):
    """A live ``croupier serve`` process sharing the tables (``service.leases``): its
    heartbeat, and where it answers (a request that reaches another process finds it)."""

    __tablename__ = "serve_processes"

    owner: Mapped[str] = mapped_column(String(200), primary_key=True)
    address: Mapped[str | None] = mapped_column(String(400), nullable=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
