"""HTTP routes of a player's protection (issue 27, items 1 to 3; ``service.protection``,
docs/player-protection.md): the player's limits, reality checks, breaks and self-exclusion,
and the operator's limits on a player. The reality check's pushes ride the table's WebSocket
(``RealityChecks``, used by ``server.app``).

Every change is recorded as a new row with who and when, in the R15 chain.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse
from pydantic import Field, StrictInt
from sqlalchemy.orm import Session

from croupier.ledger.book import MAX_MINOR_AMOUNT
from croupier.server.answers import LimitChanged, PauseTaken, ProtectionAnswer, documented
from croupier.server.context import (
    Caller,
    Operator,
    RequestOnce,
    Server,
    ServerDep,
    typed_body,
)
from croupier.server.schemas import Body
from croupier.service import protection, wallets
from croupier.service.accounts import Principal
from croupier.service.commands import SetProtectionLimit, TakePause
from croupier.service.errors import Forbidden
from croupier.service.protection import LimitKind, PauseKind, Period

router = APIRouter()


class LimitBody(Body):
    """``POST /me/limits``: minor units for deposit, loss and wager (per day, week or month);
    minutes for ``session`` (per ``session``); ``null`` removes the limit."""

    kind: Literal["deposit", "loss", "wager", "session"]
    period: Literal["day", "week", "month", "session"]
    amount: Annotated[StrictInt, Field(ge=0, le=MAX_MINOR_AMOUNT)] | None


class RealityCheckBody(Body):
    minutes: Annotated[StrictInt, Field(ge=10, le=60)]


class BreakBody(Body):
    days: Annotated[StrictInt, Field(ge=1, le=92)]


class ExclusionBody(Body):
    months: Literal[6, 12, 60]


LimitIn = Annotated[LimitBody, typed_body(LimitBody)]
RealityCheckIn = Annotated[RealityCheckBody, typed_body(RealityCheckBody)]
BreakIn = Annotated[BreakBody, typed_body(BreakBody)]
ExclusionIn = Annotated[ExclusionBody, typed_body(ExclusionBody)]


def _player_only(who: Principal) -> None:
    if who.is_operator:
        raise Forbidden("the operator has no limits of their own", code="players_only")


# --- the player's own ---------------------------------------------------------------------------
@router.get("/me/protection", responses=documented(ProtectionAnswer))
def my_protection(*, server: ServerDep, who: Caller) -> dict[str, Any]:
    """The caller's limits with what is used and left in each period, the raises waiting and
    when they apply, the session's time, the reality check's interval, a break or exclusion."""
    now, day = server.settings.clock.now(), server.settings.gaming_day
    return server.uow.read(lambda s: protection.state(s, who.user_id, now, day))


@router.post("/me/limits", responses=documented(LimitChanged))
def set_my_limit(
    *, server: ServerDep, who: Caller, limit: LimitIn, once: RequestOnce
) -> JSONResponse:
    """A decrease (or a first limit) applies at once; a raise or a removal 24 hours on
    (``effective_at``)."""
    _player_only(who)
    kind, period = LimitKind(limit.kind), Period(limit.period)
    status, reply = server.casino.handle(
        SetProtectionLimit(who, None, kind, period, limit.amount), once
    )
    return JSONResponse(reply, status)


@router.post("/me/reality-check", responses=documented(LimitChanged))
def set_my_reality_check(
    *,
    server: ServerDep,
    who: Caller,
    interval: RealityCheckIn,
    once: RequestOnce,
) -> JSONResponse:
    """How often (10 to 60 minutes) the player's open pages are told the session's figures;
    it applies at once (answered as a limit of kind ``reality_check``)."""
    _player_only(who)
    command = SetProtectionLimit(
        who, None, LimitKind.REALITY_CHECK, Period.SESSION, interval.minutes
    )
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


def _paused(server: Server, who: Principal, kind: PauseKind, answer: JSONResponse) -> JSONResponse:
    """After the pause is committed: every socket of the player closes at once (4403)."""
    if answer.status_code == 200:
        server.sockets.pause(who.user_id, protection.PAUSED[kind])
    return answer


@router.post("/me/break", responses=documented(PauseTaken))
def take_break(
    *, server: ServerDep, who: Caller, pause: BreakIn, once: RequestOnce
) -> JSONResponse:
    """A break of 1 to 92 days from now: no seat, bet or back bet, open sockets closed; the
    wallet stays the player's. Nothing lifts it before its end."""
    _player_only(who)
    status, reply = server.casino.handle(TakePause(who, PauseKind.BREAK, pause.days), once)
    answer = JSONResponse(reply, status)
    return _paused(server, who, PauseKind.BREAK, answer)


@router.post("/me/self-exclusion", responses=documented(PauseTaken))
def self_exclude(
    *,
    server: ServerDep,
    who: Caller,
    pause: ExclusionIn,
    once: RequestOnce,
) -> JSONResponse:
    """Self-exclusion for 6, 12 or 60 months from now, as a break; nothing lifts it early."""
    _player_only(who)
    command = TakePause(who, PauseKind.SELF_EXCLUSION, pause.months)
    status, reply = server.casino.handle(command, once)
    answer = JSONResponse(reply, status)
    return _paused(server, who, PauseKind.SELF_EXCLUSION, answer)


# --- the operator's -----------------------------------------------------------------------------
@router.get("/operator/players/{username}/protection", responses=documented(ProtectionAnswer))
def player_protection(*, server: ServerDep, who: Operator, username: str) -> dict[str, Any]:
    """A player's protection as the player reads it (``GET /me/protection``)."""
    now, day = server.settings.clock.now(), server.settings.gaming_day

    def read(session: Session) -> dict[str, Any]:
        return protection.state(session, wallets.user_id_of(session, username), now, day)

    return server.uow.read(read)


@router.post("/operator/players/{username}/limits", responses=documented(LimitChanged))
def set_player_limit(
    *,
    server: ServerDep,
    who: Operator,
    username: str,
    limit: LimitIn,
    once: RequestOnce,
) -> JSONResponse:
    """The operator's limit on a player, at once either way; the lower of the player's and
    the operator's applies. It cannot lift a break or a self-exclusion (no route does)."""
    kind, period = LimitKind(limit.kind), Period(limit.period)
    command = SetProtectionLimit(who, username, kind, period, limit.amount)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


# --- the table's socket -------------------------------------------------------------------------
def pause_of(session: Session, who: Principal, now: float) -> str | None:
    """``on_break`` or ``self_excluded`` while the player is paused (an open socket asks now
    and then: a pause taken through another server process closes it too)."""
    if who.is_operator:
        return None
    pause = protection.pause_of(session, who.user_id, now)
    return None if pause is None else protection.PAUSED[PauseKind(pause.kind)]


def verify_may_watch(running: Server, who: Principal) -> None:
    if not who.is_operator:
        now = running.settings.clock.now()
        running.uow.read(lambda s: protection.verify_not_paused(s, who.user_id, now))


class RealityChecks:
    """A player's socket's reality checks (issue 27, item 2): every interval the player chose
    since their session began, the session's time played, net and amount wagered
    (``protection.reality``), as ``{"type": "reality_check", ...}``. Every open page of the
    player gets its own: each socket counts from the session's start."""

    def __init__(self, running: Server, who: Principal) -> None:
        self.running = running
        self.who = who
        self.due: float | None = None
        """When the next check is due (the server's clock); ``None``: never (the operator)."""

    def _figures(self) -> dict[str, Any]:
        now = self.running.settings.clock.now()
        user_id = self.who.user_id
        return self.running.uow.read(lambda s: protection.reality(s, user_id, now))

    def _next_after(self, figures: dict[str, Any], now: float) -> float:
        interval = float(figures["interval_minutes"] * 60)
        started = float(figures["started_at"])
        return started + (max(0.0, now - started) // interval + 1) * interval

    async def start(self) -> None:
        if self.who.is_operator:
            return
        figures = await asyncio.to_thread(self._figures)
        self.due = self._next_after(figures, self.running.settings.clock.now())

    def wait(self, checking: float) -> float:
        """How long the socket may wait before it looks again (real seconds)."""
        if self.due is None:
            return checking
        return max(0.0, min(checking, self.due - self.running.settings.clock.now()))

    async def send_if_due(self, websocket: WebSocket) -> None:
        now = self.running.settings.clock.now()
        if self.due is None or now < self.due:
            return
        figures = await asyncio.to_thread(self._figures)
        self.due = self._next_after(figures, now)
        await websocket.send_text(json.dumps(figures))
