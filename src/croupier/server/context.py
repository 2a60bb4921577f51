"""What the routes share: the settings, the unit of work, the tables, the caller."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, TypeVar

from anyio import CapacityLimiter, to_thread
from fastapi import Depends, Header, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from croupier.audit import actor as audit_actor
from croupier.clock import Clock, SystemClock
from croupier.gaming_day import GamingDay
from croupier.reports.retention import DEFAULT_RETENTION_YEARS
from croupier.reports.returns import Returns
from croupier.server.defaults import DEFAULT_RATE_LIMIT, DEFAULT_TOKEN_RATE_LIMIT
from croupier.server.metrics import Metrics
from croupier.server.rate_limits import RateLimits, client_address
from croupier.server.schemas import (
    ActionBody,
    BetBody,
    Consent,
    Credentials,
    Empty,
    Limits,
    Move,
    NewTable,
    parse,
)
from croupier.server.sockets import SessionSockets
from croupier.service.accounts import KnownCallers, Principal, authenticate, identify
from croupier.service.claim import TablesClaim
from croupier.service.commands import Once
from croupier.service.errors import AuthenticationError, Forbidden, PayloadTooLarge, RequestError
from croupier.service.leases import LEASE_SECONDS, Ownership
from croupier.service.publishing import Broadcaster
from croupier.service.tables import Casino
from croupier.service.unit_of_work import KEY, UnitOfWork

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


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
    """``redis://...``: publish table changes over Redis pub/sub and keep the rate limits'
    counts there; ``None``: within this process. One process runs a database's tables
    (``service.claim``: SQLite) or shares them with others (``service.leases``: PostgreSQL)."""
    lease_seconds: float = LEASE_SECONDS
    """PostgreSQL: how long a table's lease lasts unrenewed (``service.leases``): a process
    that dies loses its tables to another within this and a second."""
    advertise_url: str | None = None
    """PostgreSQL: where the other processes reach this one (``http://host:port``)."""
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
    audit_head: Path | None = None
    """R15: where the audit chain's head is written for publication, at start, every
    ``audit_head_seconds`` and at shutdown (``croupier serve`` passes one; ``None``: not written)."""
    audit_head_seconds: float = 3600.0
    audit_key: Path | None = None
    """R15: the key the written heads are signed with (HMAC-SHA256), made at first start with
    0600 permissions (``croupier serve`` passes one; ``None``: heads written unsigned)."""
    verify_chain: bool = False
    """Verify the audit chain (R15) before start: a database whose chain or audited rows do
    not verify is refused (``ChainDoesNotVerify``; ``croupier serve`` sets it; issue 25)."""
    accept_broken_chain: bool = False
    """With ``verify_chain``: start on a chain that does not verify, logged and recorded."""
    session_check_seconds: float = 10.0
    """How often an open WebSocket checks that its session still lives (R16, issue 10 item 4);
    a sign-out in this process closes its sockets at once."""
    gaming_day: GamingDay = field(default_factory=GamingDay)
    """When the house's day begins and in which zone: the daily report's day (issue 27;
    default 06:00 in the server's zone, docs/reports.md)."""
    analyse_returns: bool = False
    """Compute, in a process of its own, the exact analysis of every open table's rules that
    the disk cache lacks (at start and when a table opens), so that the rules panel's return
    to player and the daily report's theoretical win are ready (``reports.returns``);
    ``croupier serve`` turns it on. Off: only what the cache holds is shown."""
    retention_years: int = DEFAULT_RETENTION_YEARS
    """How long rounds, ledger and audit records are kept (``reports.retention``): croupier
    deletes none of them, ever; the setting is what the operator declares and reports."""


@dataclass
class Server:
    settings: Settings
    uow: UnitOfWork
    casino: Casino
    broadcaster: Broadcaster
    operator_token: str | None = None
    claim: TablesClaim | None = None
    """This process's claim on a SQLite database's tables (``service.claim``), released at
    shutdown."""
    leases: Ownership = field(default_factory=Ownership)
    """The tables this process runs of those it shares (PostgreSQL, ``service.leases``)."""
    notes: list[str] = field(default_factory=list)
    rate_limits: RateLimits = field(default_factory=RateLimits)
    sockets: SessionSockets = field(default_factory=SessionSockets)
    password_threads: CapacityLimiter | None = None
    returns: Returns = field(default_factory=Returns)
    """Each table's return to player and variance by wager (``reports.returns``)."""
    metrics: Metrics = field(default_factory=Metrics)
    """What ``GET /metrics`` answers (``server.metrics``), one registry per process."""

    callers: KnownCallers = field(init=False)
    """The callers read lately (``accounts.KnownCallers``): kept only where this process is
    the database's one server (SQLite)."""

    def __post_init__(self) -> None:
        self.metrics.watch(self.casino, lambda: self.leases)
        self.uow.timed = self.metrics.time_stage
        self.callers = KnownCallers(enabled=self.uow.engine.dialect.name == "sqlite")

    def release(self) -> None:
        """Give the database's tables up (``service.claim``): whoever started the server
        (``server.app.start``) releases it when it stops; a process that dies releases it
        all the same."""
        self.leases.release()
        if self.claim is not None:
            self.claim.release()


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


BEARER = HTTPBearer(
    scheme_name="bearer",
    description="The token `POST /auth/signin` answers with (the operator's is the one "
    "`croupier serve` prints or is given).",
    auto_error=False,
)
"""Documents the scheme in the OpenAPI schema (a generated client sends the header itself);
the token is read from the header by ``bearer``."""


async def caller(
    request: Request,
    _scheme: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)],
) -> Principal:
    """The caller, named as the actor of what the request records in the audit chain (R15;
    set in the request's own context, which the route's thread then copies).

    ``async``: a caller read moments ago is answered from memory on the event loop, where a
    plain function would cost every request a hop to the thread pool and back, about a
    tenth of the server's CPU under load (issue 28, item 8); only a caller read from the
    database goes to a thread (``_caller_from_database``). Its server is read from the
    request, not as a dependency of its own: FastAPI solves a dependency's own dependencies
    again wherever it is named, even when its value is cached, and a command's request
    names the caller twice (the route, ``request_once``): with ``server_of`` and the actor's
    naming as dependencies of their own, a bet solved 14 dependencies, now 10 (item 8)."""
    who = await _identified(request.app.state.server, request)
    audit_actor.set_actor(f"{who.role}:{who.username}")
    return who


async def _identified(server: Server, request: Request) -> Principal:
    token = bearer(request.headers.get("authorization"))
    now = server.settings.clock.now()
    # A session read moments ago is not read again (``KnownCallers``), unless the fail safe
    # is engaged: then every caller meets the database's state, as the commands do.
    engaged = server.casino.fail_safe.is_engaged
    if token and not engaged:
        known = server.callers.known(token, now)
        if known is not None:
            return known
    return await run_in_threadpool(_caller_from_database, server, request, token, now, engaged)


def _caller_from_database(
    server: Server, request: Request, token: str | None, now: float, engaged: bool
) -> Principal:
    try:
        # Most requests only read the session; the write (activity, idle end) is rare (R16).
        generation = server.callers.generation()
        found = server.uow.read_one(lambda connection: identify(connection, token, now))
        if found is not None:
            if token and not engaged:
                server.callers.keep(token, found, generation, now)
            return found[0]
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


class DuplicateKeyError(ValueError):
    """An object of a request body names one key twice (``_refuse_duplicate_keys``)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s object hook: a key twice (``{"amount": 1, "amount": 2}``) is refused,
    never last-wins, so no two readers of one body (a proxy, a log, this server) can read
    different amounts from it (issue 25, item 6)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise DuplicateKeyError(key)
        found[key] = value
    return found


def parse_json(raw: bytes) -> Any:
    """JSON from a client, or ``RequestError`` (never ``RecursionError``: item 7; a key
    twice in one object: ``duplicate_key``). Every route's body is read here."""
    try:
        value = json.loads(raw, object_pairs_hook=_refuse_duplicate_keys)
    except DuplicateKeyError as twice:
        raise RequestError(
            f"the body names {twice.key[:40]!r} twice: each key once",
            code="duplicate_key",
            key=twice.key[:40],
        ) from None
    except RecursionError:
        raise RequestError(f"the body nests deeper than {MAX_BODY_DEPTH} levels") from None
    except ValueError as error:  # malformed JSON, bad UTF-8, a number of 5,000 digits
        raise RequestError(f"malformed JSON body: {error}") from None
    if depth_of(value) > MAX_BODY_DEPTH:
        raise RequestError(f"the body nests deeper than {MAX_BODY_DEPTH} levels")
    return value


async def json_body(request: Request) -> dict[str, Any]:
    """The body as a JSON object (``{}`` when there is none), as the client sent it: the
    route's typed body is read from it, and the request's idempotency fingerprint is of it
    (``request_once``)."""
    raw = await read_body(request)
    body = parse_json(raw) if raw else {}
    if not isinstance(body, dict):
        raise RequestError(f"the body is a JSON object, not {type(body).__name__}")
    return body


def request_hash(method: str, path: str, body: Any) -> str:
    """What a request asked, as its stored answer remembers it (R8): a repeat of its key with
    another method, path or body is another request (``IdempotencyKeyReused``)."""
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def typed_body(model: type[M]) -> Any:
    """A dependency: the request's body read within its limits (``json_body``), then as
    ``model`` (``schemas.parse``: the domain's own errors). ``server.openapi`` documents the
    body of every route that takes one as the model's named component."""

    async def read(body: Annotated[dict[str, Any], Depends(json_body)]) -> M:
        return parse(model, body)

    read.body_model = model  # type: ignore[attr-defined]
    return Depends(read)


CredentialsBody = Annotated[Credentials, typed_body(Credentials)]
MoveBody = Annotated[Move, typed_body(Move)]
NewTableBody = Annotated[NewTable, typed_body(NewTable)]
LimitsBody = Annotated[Limits, typed_body(Limits)]
Bet = Annotated[BetBody, typed_body(BetBody)]
Decision = Annotated[ActionBody, typed_body(ActionBody)]
ConsentBody = Annotated[Consent, typed_body(Consent)]
NoBody = Annotated[Empty, typed_body(Empty)]
"""Routes that read nothing from their body still read it as JSON within the limits, and its
idempotency fingerprint is of what was sent."""

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="A key of the client's choosing, one per request (R8): a repeat with the "
        "same key and body answers as the first did; with another body it is refused.",
        # Documented, not checked here: ``unit_of_work.check_key`` refuses a bad key (400).
        json_schema_extra={"pattern": KEY.pattern},
    ),
]


async def request_once(
    request: Request,
    who: Caller,
    body: Annotated[dict[str, Any], Depends(json_body)],
    key: IdempotencyKey = None,
) -> Once:
    """What makes a command's effect happen once (R8): the caller, the request's
    ``Idempotency-Key`` and its fingerprint (``request_hash``: its method, path and body as
    sent). The body is the one the route's typed body was read from (FastAPI reads it once a
    request). ``async``: a few microseconds of hashing, where a plain function would cost a
    hop to the thread pool. A route gives it to the one handler with its command:
    ``server.casino.handle(command, once)``."""
    return Once(who.user_id, key, request_hash(request.method, request.scope["path"], body))


RequestOnce = Annotated[Once, Depends(request_once)]
