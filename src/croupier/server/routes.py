"""The player's API: its HTTP routes, each of which reads its input, builds the service call
and returns its answer, and the table's WebSocket (``/tables/{table_id}/ws``), which pushes the
table as the player may see it after every change.

Every mutating route takes an ``Idempotency-Key`` header (R8) except signing up, in and out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import suppress
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from croupier.audit import actor as audit_actor
from croupier.errors import CroupierError
from croupier.server import errors
from croupier.server.answers import (
    AuditAnswer,
    BackBetAnswer,
    BetAnswer,
    DecisionTaken,
    LimitsSet,
    MeAnswer,
    MyRoundsAnswer,
    ReadyAnswer,
    RoundRecordAnswer,
    ShoeAnswer,
    SignedIn,
    SignedOut,
    SignedUp,
    StatementAnswer,
    TableCreated,
    TableOpened,
    TablesAnswer,
    TableState,
    WalletMoved,
    documented,
)
from croupier.server.context import (
    Bet,
    Caller,
    ConsentBody,
    CredentialsBody,
    Decision,
    LimitsBody,
    MoveBody,
    NewTableBody,
    NoBody,
    Operator,
    RequestOnce,
    Server,
    ServerDep,
    bearer,
    password_work,
)
from croupier.server.forwarding import FORWARDED, find_owner, relay_socket
from croupier.server.protection_routes import RealityChecks, pause_of, verify_may_watch
from croupier.server.rate_limits import client_address
from croupier.server.schemas import MAX_ID, MAX_TABLE_NAME, Id
from croupier.server.sockets import PAUSED, SESSION_ENDED, TRY_AGAIN_LATER
from croupier.service import history, limits, table_facts, wallets
from croupier.service.accounts import (
    IDLE_SECONDS,
    Principal,
    authenticate,
    last_seen,
    sign_in,
    sign_out,
    sign_up,
    token_hash,
)
from croupier.service.commands import (
    AskBackBet,
    CreateTable,
    Credit,
    Debit,
    Decide,
    Leave,
    PlaceBet,
    Ready,
    SetLimits,
    SetOpen,
    Sit,
)
from croupier.service.commands import Consent as ConsentTo
from croupier.service.errors import AuthenticationError, Conflict, RateLimited, RequestError
from croupier.service.leases import TableLeases
from croupier.service.tables import LiveTable

router = APIRouter()
table_router = APIRouter()
"""A table's own routes, the ones players call all round (the state, seats, bets, ready,
decisions, back bets, the socket): the app tries them first. FastAPI tries an app's routes
one after another, a few microseconds each, and twice over the included router that holds
the match: behind every other router they cost 40-50 tries a request (issue 28, item 8)."""

MAX_OFFSET = 1_000_000
"""How far back a history or a statement pages (a larger offset reads as this one)."""


# --- accounts and sessions ------------------------------------------------------------------
@router.post("/auth/signup", status_code=201, responses=documented(SignedUp, 201))
async def signup(*, server: ServerDep, login: CredentialsBody, request: Request) -> dict[str, Any]:
    """Argon2 work runs in its own worker thread, one hash at a time, after the address's
    rate limit: a flood of sign-ups neither blocks the event loop nor takes the threads that
    serve the tables (issue 10, item 6)."""
    await server.rate_limits.hit_async("signup", client_address(request))
    audit_actor.set_actor(f"player:{login.username}")  # R15: who the chain names
    now = server.settings.clock.now()
    who = await password_work(
        server, lambda: server.uow.run(lambda s: sign_up(s, login.username, login.password, now))
    )
    return {"user": who.user_id, "username": who.username}


@router.post("/auth/signin", responses=documented(SignedIn))
async def signin(*, server: ServerDep, login: CredentialsBody, request: Request) -> dict[str, Any]:
    """One answer for an unknown name, a wrong password and a locked account (R16, issue 10
    item 5); rate limited per client address before any hash is computed (item 6)."""
    address = client_address(request)
    await server.rate_limits.hit_async("signin", address)
    audit_actor.set_actor(f"sign-in:{login.username}")  # R15: who the chain names
    now = server.settings.clock.now()
    outcome = await password_work(
        server,
        lambda: server.uow.run(lambda s: sign_in(s, login.username, login.password, now, address)),
    )
    if isinstance(outcome, CroupierError):
        raise outcome
    token, who = outcome
    return {"token": token, "user": who.user_id, "username": who.username}


@router.post("/auth/signout", responses=documented(SignedOut))
def signout(*, server: ServerDep, who: Caller, request: Request) -> dict[str, Any]:
    """Ends the session and closes its WebSockets (close code 4401, issue 10 item 4)."""
    token = bearer(request.headers.get("authorization")) or ""
    server.uow.run(lambda s: sign_out(s, token))
    server.callers.forget(token)
    server.sockets.end(token_hash(token))
    return {"signed_out": who.username}


@router.get("/me", responses=documented(MeAnswer))
def me(*, server: ServerDep, who: Caller) -> dict[str, Any]:
    balance = server.uow.read(lambda s: wallets.balance_of(s, who.user_id))
    return {"user": who.user_id, "username": who.username, "role": who.role, "balance": balance}


@router.get("/me/rounds", responses=documented(MyRoundsAnswer))
def my_rounds(
    *,
    server: ServerDep,
    who: Caller,
    limit: int = 10,
    offset: int = 0,
    table_id: Annotated[int | None, Query(ge=0, le=MAX_ID)] = None,
) -> dict[str, Any]:
    """The caller's rounds, newest first by time; ``offset`` pages back; ``table_id`` keeps
    those of one table (the table page's last round)."""
    count, skip = min(max(limit, 1), 100), min(max(offset, 0), MAX_OFFSET)
    rounds = server.uow.read(lambda s: history.rounds_of(s, who.user_id, count, skip, table_id))
    return {"rounds": rounds, "offset": skip, "limit": count}


@router.get("/me/ledger", responses=documented(StatementAnswer))
def my_ledger(
    *, server: ServerDep, who: Caller, limit: int = 50, offset: int = 0
) -> dict[str, Any]:
    """The caller's wallet statement, newest first; ``offset`` pages back."""
    count, skip = min(max(limit, 1), 500), min(max(offset, 0), MAX_OFFSET)
    entries = server.uow.read(lambda s: wallets.entries_of(s, who.user_id, count, skip))
    return {"entries": entries, "offset": skip, "limit": count}


# --- the operator --------------------------------------------------------------------------
@router.post("/operator/wallets/{username}/credit", responses=documented(WalletMoved))
def credit(
    *,
    server: ServerDep,
    who: Operator,
    username: str,
    move: MoveBody,
    once: RequestOnce,
) -> JSONResponse:
    status, reply = server.casino.handle(Credit(who, username, move.amount), once)
    return JSONResponse(reply, status)


@router.post("/operator/wallets/{username}/debit", responses=documented(WalletMoved))
def debit(
    *,
    server: ServerDep,
    who: Operator,
    username: str,
    move: MoveBody,
    once: RequestOnce,
) -> JSONResponse:
    status, reply = server.casino.handle(Debit(who, username, move.amount), once)
    return JSONResponse(reply, status)


@router.post("/operator/tables", status_code=201, responses=documented(TableCreated, 201))
def create_table(
    *, server: ServerDep, who: Operator, table: NewTableBody, once: RequestOnce
) -> JSONResponse:
    settings = server.settings
    name = table.name
    if not name.isprintable() or name != name.strip():
        raise RequestError(
            f"table name {name!r}: 1 to {MAX_TABLE_NAME} printable characters, no leading or "
            "trailing space"
        )
    if "\x00" in table.profile:
        raise RequestError(f"profile {table.profile!r}: a name or a path, without NUL")
    command = CreateTable(
        name,
        table.profile,
        table.betting_seconds or settings.betting_seconds,
        table.decision_seconds or settings.decision_seconds,
        sit_out_after=table.sit_out_after,
        free_after=table.free_after,
        shoe=table.shoe,
    )
    status, reply = server.casino.handle(command, once)
    answer = JSONResponse(reply, status)
    # Its return to player read, or computed in the background, before a player asks.
    server.returns.warm(live.profile for live in server.casino.tables.values() if live.name == name)
    return answer


@router.post("/operator/tables/{table_id}/limits", responses=documented(LimitsSet))
def set_limits(
    *,
    server: ServerDep,
    who: Operator,
    table_id: Id,
    once: RequestOnce,
    limits_asked: LimitsBody,
) -> JSONResponse:
    """One wager's table limits, in whole units, from the next round on (docs/rules.md §6)."""
    wager, minimum, maximum = limits_asked.wager, limits_asked.minimum, limits_asked.maximum
    status, reply = server.casino.handle(SetLimits(table_id, wager, minimum, maximum), once)
    return JSONResponse(reply, status)


@router.post("/operator/tables/{table_id}/{state}", responses=documented(TableOpened))
def open_or_close(
    *,
    server: ServerDep,
    who: Operator,
    table_id: Id,
    state: Literal["open", "close"],
    once: RequestOnce,
    _body: NoBody,
) -> JSONResponse:
    """A table is ``open``ed or ``close``d (the schema lists both; anything else is a 422)."""
    status, reply = server.casino.handle(SetOpen(table_id, state == "open"), once)
    return JSONResponse(reply, status)


@router.get("/operator/audit", responses=documented(AuditAnswer))
def audit(*, server: ServerDep, who: Operator) -> dict[str, Any]:
    return server.uow.read(wallets.audit_report)


# --- tables --------------------------------------------------------------------------------
@table_router.get("/tables", responses=documented(TablesAnswer))
def tables(*, server: ServerDep, who: Caller) -> dict[str, Any]:
    """Every table as the lobby lists it: its name and rules (``title``), who sits where,
    its limits, how many players a round needs (``min_players``: Casino Hold'em's two,
    Art. 9), and its round: ``status`` and the seats with a bet (``bets``), as of the
    table's last commit; ``recent``: its last rounds' outcomes, newest first
    (``table_facts.recent_results``)."""
    listed = []
    live_tables = list(server.casino.tables.values())
    recent = server.uow.read(
        lambda session: {live.id: table_facts.recent_results(session, live) for live in live_tables}
    )
    for live in live_tables:
        now = server.casino.publisher.snapshot(live, None)
        listed.append(
            {
                "id": live.id,
                "name": live.name,
                "game": live.profile.game,
                "profile": live.profile.name,
                "title": live.profile.title,
                "is_open": live.is_open,
                "seats": now["table"]["seats"],
                "seat_count": live.profile.table.seats,
                "min_players": live.profile.table.min_players,
                "round": {
                    "id": now["round"]["id"],
                    "status": now["round"]["status"],
                    "bets": len(now["round"]["stakes"]),
                },
                "limits": limits.wagers_json(live.profile),
                "next_limits": None
                if live.next_profile is None
                else limits.wagers_json(live.next_profile),
                "recent": recent.get(live.id, []),
            }
        )
    return {"tables": listed}


@table_router.get("/tables/{table_id}", responses=documented(TableState))
def table_state(*, server: ServerDep, who: Caller, table_id: Id) -> dict[str, Any]:
    return server.casino.publisher.snapshot(server.casino.table(table_id), who)


@table_router.post("/tables/{table_id}/seats/{seat}", responses=documented(TableState))
def sit(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    seat: Id,
    once: RequestOnce,
    _body: NoBody,
) -> JSONResponse:
    status, reply = server.casino.handle(Sit(table_id, who, seat), once)
    return JSONResponse(reply, status)


@table_router.delete("/tables/{table_id}/seats/{seat}", responses=documented(TableState))
def leave(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    seat: Id,
    once: RequestOnce,
    _body: NoBody,
) -> JSONResponse:
    status, reply = server.casino.handle(Leave(table_id, who, seat), once)
    return JSONResponse(reply, status)


@table_router.post("/tables/{table_id}/bets", responses=documented(BetAnswer))
def bet(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    wager: Bet,
    once: RequestOnce,
) -> JSONResponse:
    command = PlaceBet(table_id, who, wager.seat, wager.wager, wager.amount)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


@table_router.post("/tables/{table_id}/ready", responses=documented(ReadyAnswer))
def ready(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    _body: NoBody,
    once: RequestOnce,
) -> JSONResponse:
    status, reply = server.casino.handle(Ready(table_id, who), once)
    return JSONResponse(reply, status)


@table_router.post("/tables/{table_id}/actions", responses=documented(DecisionTaken))
def act(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    decision: Decision,
    once: RequestOnce,
) -> JSONResponse:
    command = Decide(table_id, who, decision.seat, decision.action)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


@table_router.post("/tables/{table_id}/back-bets", responses=documented(BackBetAnswer))
def back_bet(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    wager: Bet,
    once: RequestOnce,
) -> JSONResponse:
    command = AskBackBet(table_id, who, wager.seat, wager.wager, wager.amount)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


@table_router.post(
    "/tables/{table_id}/back-bets/{back_bet_id}/consent",
    responses=documented(BackBetAnswer),
)
def consent(
    *,
    server: ServerDep,
    who: Caller,
    table_id: Id,
    back_bet_id: Id,
    answer: ConsentBody,
    once: RequestOnce,
) -> JSONResponse:
    command = ConsentTo(table_id, who, back_bet_id, answer.accept)
    status, reply = server.casino.handle(command, once)
    return JSONResponse(reply, status)


# --- the table's socket --------------------------------------------------------------------
def _last_seen(running: Server, token: str | None) -> float | None:
    return running.uow.read(lambda s: last_seen(s, token))


def session_check(
    running: Server, token: str | None, who: Principal
) -> tuple[float | None, str | None]:
    """An open socket's periodic check: its session's last activity and its player's pause,
    if any, in one read. They were two reads, each a hand-off to a worker thread and a
    transaction of their own: 0.53-0.55 ms of CPU a check, 0.36-0.37 ms as one
    (``benchmarks/socket_check.py``, 0.68x). With a socket per seat checking every
    ``session_check_seconds``, ``benchmarks/load.py``'s 105 players make ten checks a second:
    5.7 ms of CPU a second before, 3.8 after, of the about 120 ms a second the server spent on
    their 30 requests a second (4.09 ms each, that benchmark's figure; issue 28, item 8)."""
    now = running.settings.clock.now()
    return running.uow.read(lambda s: (last_seen(s, token), pause_of(s, who, now)))


RECEIVED = -1
"""Said in a socket's queue of its table's changes (table ids, never negative) when a message
from the client has come (or the client has gone)."""
ENDED = -2
"""Said in that queue when the socket's session has ended (``ended``)."""
WOKEN = -3
"""Said in that queue when the socket's time to look again has come (a session or reality
check may be due)."""


async def _push_table(  # noqa: PLR0917 - the socket's whole context
    websocket: WebSocket,
    running: Server,
    live: LiveTable,
    who: Principal,
    token: str | None,
    ended: asyncio.Event,
) -> None:
    def state() -> str:
        return running.casino.publisher.state_message(live, who)

    checking = running.settings.session_check_seconds
    clock = running.settings.clock
    loop = asyncio.get_running_loop()
    checked_at = loop.time()
    reality = RealityChecks(running, who)
    async with running.broadcaster.subscribe(live.id) as changes:
        # The socket's four waits (a change of the table, a message from the client, the
        # session's end, the time to look again) each say they are done in the one queue the
        # loop reads, the table's changes: one wake-up of this task a change. ``asyncio.wait``
        # on them, with a task for each next change, cost about twice the CPU a push on the
        # event loop, the server's busiest thread (issue 28, item 8). A wait still pending on
        # the way out is cancelled and awaited: one dropped while pending is what asyncio logs
        # as "Task was destroyed but it is pending!" (issue 13, item 9).
        def heard(said: int) -> Callable[[object], None]:
            return lambda _done: changes.put_nowait(said)

        receiving = asyncio.ensure_future(websocket.receive_text())
        receiving.add_done_callback(heard(RECEIVED))
        ending = asyncio.ensure_future(ended.wait())
        ending.add_done_callback(heard(ENDED))
        # The time to look again is one timer, kept while it is early enough: a timeout
        # around each wait (``asyncio.timeout``) made and cancelled a timer for every change
        # pushed, and the wait cost twice the CPU (``benchmarks/push_cost.py``; issue 28,
        # item 8). A timer earlier than needed only wakes the loop to find nothing due.
        waking: asyncio.TimerHandle | None = None
        try:
            if running.casino.tables.get(live.id) is not live:
                # It moved to another process between the socket's check and its subscribing
                # (``service.leases``): the news went out before this socket could hear it.
                await websocket.close(code=TRY_AGAIN_LATER, reason="the table moved")
                return
            seen_at = await asyncio.to_thread(_last_seen, running, token)
            # The reality check's clock starts before the first state goes out: a page that
            # reads its state and then sees time pass must get the check that time makes due
            # (started after, the first check was counted from the later time and skipped).
            await reality.start()
            await websocket.send_text(state())
            while True:
                look_at = min(checked_at + checking, loop.time() + reality.wait(checking))
                if waking is None or waking.when() > look_at:
                    if waking is not None:
                        waking.cancel()
                    waking = loop.call_at(look_at, changes.put_nowait, WOKEN)
                news = [await changes.get()]
                while not changes.empty():
                    news.append(changes.get_nowait())
                if WOKEN in news:
                    waking = None
                if RECEIVED in news:
                    receiving.result()  # raises on disconnect; messages are pings
                    receiving = asyncio.ensure_future(websocket.receive_text())
                    receiving.add_done_callback(heard(RECEIVED))
                # Ask the database now and then (another server process may have ended the
                # session), and whenever the last activity seen is 30 minutes old: activity
                # only moves it later, so no view is pushed past the idle end (R16).
                idle = seen_at is None or clock.now() - seen_at > IDLE_SECONDS
                if not ended.is_set() and (idle or loop.time() - checked_at >= checking):
                    checked_at = loop.time()
                    seen_at, paused = await asyncio.to_thread(session_check, running, token, who)
                    if seen_at is None or clock.now() - seen_at > IDLE_SECONDS:
                        ended.set()
                    if paused is not None:  # taken through another server process
                        await websocket.close(code=PAUSED, reason=paused)
                        return
                if ended.is_set():
                    code, reason = running.sockets.close_code(ended)
                    await websocket.close(code=code, reason=reason)
                    return
                await reality.send_if_due(websocket)
                if any(said >= 0 for said in news):  # the table changed (its id)
                    changed_at = loop.time()
                    if running.casino.tables.get(live.id) is not live:
                        # The table moved to another process (``service.leases``): the client
                        # reconnects and finds it there.
                        await websocket.close(code=TRY_AGAIN_LATER, reason="the table moved")
                        return
                    await websocket.send_text(state())
                    running.metrics.push_latency.observe(loop.time() - changed_at)
        except (WebSocketDisconnect, RuntimeError):
            pass
        except errors.UNAVAILABLE:
            # The session cannot be checked: close rather than push a view it may not see.
            with suppress(Exception):
                await websocket.close(code=TRY_AGAIN_LATER, reason="the database is unavailable")
        finally:
            if waking is not None:
                waking.cancel()
            tasks = (receiving, ending)
            for task in tasks:
                if task.done() and not task.cancelled():
                    # Read, if left unread by a return above (the client gone as its table
                    # moved): asyncio logs an unread disconnect as an error (chaos runs).
                    task.exception()
            pending = [task for task in tasks if not task.done()]
            for task in pending:
                task.cancel()
            if pending:  # (``asyncio.wait`` lets the server's own cancellation through)
                await asyncio.wait(pending)


@table_router.websocket("/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: Id, token: str | None = None) -> None:
    """Pushes ``{"type": "state", ...}``: the table as this client may see it, at once on
    connecting (so a reconnecting client has the current state) and after every change.

    The socket lives as long as its session: signing out, or the session idling out,
    closes it with code 4401 (``SESSION_ENDED``) before another private view is sent."""
    running: Server = websocket.app.state.server
    # Accepted before anything is checked: a socket closed before its handshake is
    # answered reaches the client as an HTTP 403 (a browser sees 1006), never the close
    # code that tells the page to sign in again (4401) or that there is no table (4404).
    await websocket.accept()
    leased = running.leases
    if isinstance(leased, TableLeases) and table_id not in running.casino.tables:
        # Run by another process (issue 29): relayed to it, which checks the caller.
        owner = await find_owner(running, table_id)
        if owner is not None and FORWARDED in websocket.headers:
            # Relayed here by a peer that found this process the owner, which has handed the
            # table on since: it exists and is moving (never 4404, "no table"); the page
            # reconnects and is relayed to its new owner.
            await websocket.close(code=TRY_AGAIN_LATER, reason="the table moved")
            return
        if owner is not None:
            leased.arrivals.forwarded(table_id)
            await relay_socket(websocket, owner[1], table_id, token or "")
            return
    now = running.settings.clock.now()
    try:
        who = await asyncio.to_thread(running.uow.run, lambda s: authenticate(s, token, now))
        live = running.casino.table(table_id)
    except AuthenticationError as refused:
        reason = str(refused)
        try:
            if token:
                running.rate_limits.hit("token", client_address(websocket))
        except RateLimited as limited:
            reason = str(limited)
        await websocket.close(code=SESSION_ENDED, reason=reason[:120])
        return
    except CroupierError as error:
        await websocket.close(code=4404, reason=str(error)[:120])
        return
    except errors.UNAVAILABLE as trouble:  # the database is away: "try again later"
        errors.log.warning("socket refused, database unavailable: %s", type(trouble).__name__)
        await websocket.close(code=TRY_AGAIN_LATER, reason="the database is unavailable")
        return
    try:  # a player on a break or self-excluded watches no table (issue 27, item 3)
        await asyncio.to_thread(verify_may_watch, running, who)
    except Conflict as paused:
        await websocket.close(code=PAUSED, reason=paused.code)
        return
    session = token_hash(token or "")
    ended = running.sockets.register(session, None if who.is_operator else who.user_id)
    running.metrics.websockets.inc()
    try:
        await _push_table(websocket, running, live, who, token, ended)
    finally:
        running.metrics.websockets.dec()
        running.sockets.unregister(session, ended)


# --- recall and fairness -------------------------------------------------------------------
@router.get("/rounds/{round_id}", responses=documented(RoundRecordAnswer))
def round_record(*, server: ServerDep, who: Caller, round_id: Id) -> dict[str, Any]:
    return server.uow.read(lambda s: history.round_document(s, round_id, who))


@router.get("/shoes/{shoe_id}", responses=documented(ShoeAnswer))
def shoe(*, server: ServerDep, who: Caller, shoe_id: Id) -> dict[str, Any]:
    return server.uow.read(lambda s: history.shoe_document(s, shoe_id, who, with_rounds=False))


@router.get("/shoes/{shoe_id}/export", responses=documented(ShoeAnswer))
def shoe_export(*, server: ServerDep, who: Caller, shoe_id: Id) -> dict[str, Any]:
    return server.uow.read(lambda s: history.shoe_document(s, shoe_id, who, with_rounds=True))
