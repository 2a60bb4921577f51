"""What the routes share: the settings, the unit of work, the tables, the caller."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, TypeVar

from anyio import CapacityLimiter, to_thread
from fastapi import Depends, Header, Request

from croupier.server.rate_limits import (
    DEFAULT_RATE_LIMIT,
    DEFAULT_TOKEN_RATE_LIMIT,
    RateLimits,
    client_address,
)
from croupier.server.sockets import SessionSockets
from croupier.service.accounts import Principal, authenticate, identify
from croupier.service.broadcast import Broadcaster
from croupier.service.clock import Clock, SystemClock
from croupier.service.errors import AuthenticationError, Forbidden, PayloadTooLarge, RequestError
from croupier.service.tables import Casino
from croupier.service.unit_of_work import UnitOfWork

T = TypeVar("T")


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
    rate_limit: str = DEFAULT_RATE_LIMIT
    """Sign-ins and sign-ups per client address (each path counted apart), in the ``limits``
    notation ("10/minute"); kept in Redis when ``broadcast_url`` is given, else in memory."""
    token_rate_limit: str = DEFAULT_TOKEN_RATE_LIMIT
    """Requests with an unknown, ended or idle token per client address before 429."""
    session_check_seconds: float = 10.0
    """How often an open WebSocket checks that its session still lives (R16, issue 10 item 4);
    a sign-out in this process closes its sockets at once."""


@dataclass
class Server:
    settings: Settings
    uow: UnitOfWork
    casino: Casino
    broadcaster: Broadcaster
    operator_token: str | None = None
    notes: list[str] = field(default_factory=list)
    rate_limits: RateLimits = field(default_factory=RateLimits)
    sockets: SessionSockets = field(default_factory=SessionSockets)
    password_threads: CapacityLimiter | None = None


async def server_of(request: Request) -> Server:
    # ``async``: a plain function dependency would cost a hop to the thread pool.
    server: Server = request.app.state.server
    return server


ServerDep = Annotated[Server, Depends(server_of)]

PASSWORD_THREADS = 1
"""Argon2 hashes computed at once: a sign-in flood uses at most one core and none of the
threads that serve the tables (issue 10, item 6)."""


async def password_work(server: Server, work: Callable[[], T]) -> T:
    """``work`` (it hashes or verifies a password) in the password thread, off the loop."""
    if server.password_threads is None:
        server.password_threads = CapacityLimiter(PASSWORD_THREADS)
    return await to_thread.run_sync(work, limiter=server.password_threads)


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def caller(
    server: ServerDep, request: Request, authorization: Annotated[str | None, Header()] = None
) -> Principal:
    token = bearer(authorization)
    now = server.settings.clock.now()
    try:
        # Most requests only read the session; the write (activity, idle end) is rare (R16).
        found = server.uow.read(lambda session: identify(session, token, now))
        if found is not None:
            return found
        return server.uow.run(lambda session: authenticate(session, token, now))
    except AuthenticationError:
        # A forged or stale token costs the address one of its failures (issue 10, item 6);
        # no token at all costs nothing to refuse and is not counted.
        if token:
            server.rate_limits.hit("token", client_address(request))
        raise


Caller = Annotated[Principal, Depends(caller)]


async def operator(who: Caller) -> Principal:
    if not who.is_operator:
        raise Forbidden("only the operator may do this", code="operator_only")
    return who


Operator = Annotated[Principal, Depends(operator)]


MAX_BODY_BYTES = 16 * 1024
"""The largest request body the API reads (413 above): every body it takes is a few fields."""

MAX_BODY_DEPTH = 8
"""How deeply a body's JSON may nest (the API's bodies are flat objects)."""


async def read_body(request: Request) -> bytes:
    """The body, refused with 413 once it passes ``MAX_BODY_BYTES`` (declared or streamed)."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise PayloadTooLarge(f"a body of {declared} bytes: at most {MAX_BODY_BYTES} are read")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise PayloadTooLarge(f"a body of over {MAX_BODY_BYTES} bytes: at most that is read")
        chunks.append(chunk)
    return b"".join(chunks)


def depth_of(value: Any) -> int:
    """How deeply ``value`` nests lists and objects, counted without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            stack.extend(
                (child, depth + 1) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


def parse_json(raw: bytes) -> Any:
    """JSON from a client, or ``RequestError`` (never ``RecursionError``: item 7)."""
    try:
        value = json.loads(raw)
    except RecursionError:
        raise RequestError(f"the body nests deeper than {MAX_BODY_DEPTH} levels") from None
    except ValueError as error:  # malformed JSON, bad UTF-8, a number of 5,000 digits
        raise RequestError(f"malformed JSON body: {error}") from None
    if depth_of(value) > MAX_BODY_DEPTH:
        raise RequestError(f"the body nests deeper than {MAX_BODY_DEPTH} levels")
    return value


async def json_body(request: Request) -> dict[str, Any]:
    raw = await read_body(request)
    if not raw:
        return {}
    body = parse_json(raw)
    if not isinstance(body, dict):
        raise RequestError(f"the body is a JSON object, not {type(body).__name__}")
    return body


Body = Annotated[dict[str, Any], Depends(json_body)]

IdempotencyKey = Annotated[str | None, Header(alias="Idempotency-Key")]
