"""What the routes share: the settings, the unit of work, the tables, the caller."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Header, Request

from croupier.service.accounts import Principal, authenticate, identify
from croupier.service.broadcast import Broadcaster
from croupier.service.clock import Clock, SystemClock
from croupier.service.errors import Forbidden, RequestError
from croupier.service.tables import Casino
from croupier.service.unit_of_work import UnitOfWork


@dataclass
class Settings:
    database_url: str = "sqlite:///croupier.sqlite"
    operator_token: str | None = None
    clock: Clock = field(default_factory=SystemClock)
    betting_seconds: float = 15.0
    decision_seconds: float = 20.0
    demo_tables: bool = True
    tick_seconds: float = 0.1
    broadcast_url: str | None = None
    """``redis://...``: publish table changes over Redis pub/sub (several server processes);
    ``None``: within this process."""
    code_manifest: Path | None = None
    """R17: the SHA-256 manifest of the installed code, written at first start and checked at
    every start and while serving (``croupier serve`` passes one; ``None``: no check)."""
    fail_safe_seconds: float = 1.0
    """R17: how often the fail safe probes the entropy source, the database and the code."""


@dataclass
class Server:
    settings: Settings
    uow: UnitOfWork
    casino: Casino
    broadcaster: Broadcaster
    operator_token: str | None = None
    notes: list[str] = field(default_factory=list)


async def server_of(request: Request) -> Server:
    # ``async``: a plain function dependency would cost a hop to the thread pool.
    server: Server = request.app.state.server
    return server


ServerDep = Annotated[Server, Depends(server_of)]


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def caller(server: ServerDep, authorization: Annotated[str | None, Header()] = None) -> Principal:
    token = bearer(authorization)
    now = server.settings.clock.now()
    # Most requests only read the session; the write (activity, idle end) is rare (R16).
    found = server.uow.read(lambda session: identify(session, token, now))
    if found is not None:
        return found
    return server.uow.run(lambda session: authenticate(session, token, now))


Caller = Annotated[Principal, Depends(caller)]


async def operator(who: Caller) -> Principal:
    if not who.is_operator:
        raise Forbidden("only the operator may do this")
    return who


Operator = Annotated[Principal, Depends(operator)]


async def json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError as error:  # malformed JSON, bad UTF-8, a number of 5,000 digits
        raise RequestError(f"malformed JSON body: {error}") from None
    if not isinstance(body, dict):
        raise RequestError(f"the body is a JSON object, not {type(body).__name__}")
    return body


Body = Annotated[dict[str, Any], Depends(json_body)]

IdempotencyKey = Annotated[str | None, Header(alias="Idempotency-Key")]
