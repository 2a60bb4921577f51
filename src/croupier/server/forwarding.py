"""Any process answers any player (issue 29, item 2): a request for a table run elsewhere is
forwarded to its owner.

Chosen over running the command here under the fence: a table's round lives in its owner's
memory (its engine, its shoe, its deadlines), and running a command elsewhere would mean
rebuilding the table from the database for each command and taking its lease from the owner
(the tables would move at every request, each move a rebuild and a lost renewal). Forwarding
costs one local HTTP hop for the requests that land on another process, keeps one writer per
table, and the answer, its idempotency (the owner stores it, keyed as ever) and its error
codes are the owner's own, byte for byte.

How: a request whose path names a table that another live process runs goes to it at once;
any other request runs here first. A table this process does not run is a 404
``no_such_table`` raised before anything is read or written (``Casino.handle`` checks the
table first), so only such an answer is held back; when a live process owns the table
(``table_leases`` and ``serve_processes``, ``service.leases``), the request goes to it again,
marked ``X-Croupier-Forwarded`` (with this process's name) so that it is never forwarded
twice, and the owner's answer is the answer. The owner counts where each of its tables'
requests come from, and hands a table to the peer its requests come through
(``service.leases``: the lease follows the requests, and the hop goes). An owner that cannot be reached (it died; its lease has not run out yet)
answers 503 ``table_moved`` with ``Retry-After``: the table is taken over within seconds.
The lobby (``GET /tables``) lists the tables of every live process, and those in motion
between two (``Forwarder._in_motion``). A WebSocket to a table run elsewhere is relayed to
its owner; when the owner goes, or hands the table on, the socket closes with 1013 and the
page reconnects, reaching the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import httpx
import websockets
from sqlalchemy import text
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from croupier.server import errors
from croupier.service import sharing
from croupier.service.leases import TableLeases, TableMoved, is_process_name

if TYPE_CHECKING:
    from croupier.server.context import Server

log = logging.getLogger("croupier.forwarding")

FORWARDED = "x-croupier-forwarded"
"""Set on a forwarded request, to the forwarding process's name: the owner answers it
itself, never forwards it again, and counts the request as come through that peer."""
FORWARDED_BYTES = FORWARDED.encode()

OWNER = text(
    "SELECT l.owner, p.address FROM game_tables g "
    "LEFT JOIN table_leases l ON l.table_id = g.id AND l.expires_at > clock_timestamp() "
    "LEFT JOIN serve_processes p ON p.owner = l.owner AND p.expires_at > clock_timestamp() "
    "WHERE g.id = :table"
)
PEERS = text(
    "SELECT address FROM serve_processes WHERE owner <> :me AND address IS NOT NULL "
    "AND expires_at > clock_timestamp()"
)
PAGE = re.compile(r"^/table/(\d+)$")
TABLE_PATH = re.compile(r"^/(?:dealer/|operator/)?tables?/(\d+)(?:/|$)")
"""A path that names its table: ``/tables/{id}/...``, the table's page, the dealer's and the
operator's table routes."""
HOP_BY_HOP = frozenset(
    {b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"host", b"content-length"}
)
TIMEOUT_SECONDS = 30.0
TABLES = text("SELECT id FROM game_tables")
LOBBY_WAIT_SECONDS = 2.0
"""How long the lobby waits for a table in motion to be listed by its new owner: a table
handed on between rounds is run again within one pass of the leases (about a second); one
whose owner died waits for its lease to run out (``--lease-seconds``), longer than a lobby
should keep a player waiting, and is listed by the lobbies after its takeover."""
LOBBY_POLL_SECONDS = 0.1
LOBBY_ASKS = 3


MOVING = "moving"
"""``owner_of``'s answer for a table that exists but that no live process runs this
instant (its owner died and its lease has not run out, or it is being taken over)."""


def owner_of(leases: TableLeases, table_id: int) -> tuple[str, str] | None:
    """The name of the live process that runs ``table_id`` and where it answers (``MOVING``
    while no live process runs it: ``("", MOVING)``); ``None`` when there is no such table."""
    with leases.engine.connect() as connection:
        found = connection.execute(OWNER, {"table": table_id}).first()
    if found is None:
        return None
    if found[0] == leases.owner:
        return leases.owner, str(found[1] or "")  # this process's, whatever its address
    if found[1] is None:
        return "", MOVING
    return str(found[0]), str(found[1])


async def find_owner(server: Server, table_id: int) -> tuple[str, str] | None:
    """``owner_of`` a table, if another process runs it (or none does: ``MOVING``); ``None``
    when there is no such table, or this process runs it: a table a peer has just handed here
    is rebuilt from its record first (``sharing.adopt_handed``), as its next pass would.

    A table whose lease is this process's but which its memory does not run yet, even after
    that, is ``MOVING`` too: this process's own pass has just taken it over and is rebuilding
    it (or is between the takeover's commit and noting the table held). The chaos run met
    it as a 404 ``no_such_table`` for a table that existed; it is a 503 ``table_moved``,
    which a client tries again."""
    leases = server.leases
    assert isinstance(leases, TableLeases)
    owner = await asyncio.to_thread(owner_of, leases, table_id)
    if owner is None or owner[0] != leases.owner:
        return owner
    if table_id not in server.casino.tables:
        await asyncio.to_thread(sharing.adopt_handed, server.casino, leases)
    if table_id not in server.casino.tables:
        return leases.owner, MOVING
    return None


def unlisted(leases: TableLeases, listed: set[int]) -> set[int]:
    """The tables of the casino that no lobby listed (``listed``: the ids that were)."""
    with leases.engine.connect() as connection:
        return {int(table_id) for table_id in connection.execute(TABLES).scalars()} - listed


def peer_addresses(leases: TableLeases) -> list[str]:
    with leases.engine.connect() as connection:
        return [str(a) for a in connection.execute(PEERS, {"me": leases.owner}).scalars()]


class Forwarder:
    """ASGI middleware: a request for a table run elsewhere, answered by its owner."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._client: httpx.AsyncClient | None = None

    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=TIMEOUT_SECONDS)
        return self._client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        server: Server | None = getattr(scope["app"].state, "server", None)
        if scope["type"] != "http" or server is None or not isinstance(server.leases, TableLeases):
            await self.app(scope, receive, send)
            return
        via = _forwarded_by(scope)
        forwarded = via is not None
        body = await _read_body(receive)
        replay = _replaying(body)
        if scope["method"] == "GET" and scope["path"] == "/tables" and not forwarded:
            await self._lobby(scope, body, send, server.leases)
            return
        named = _table_in_path(scope["path"])
        if named is not None and named in server.leases.held:
            if via is None or is_process_name(via):  # else a client's own header: not counted
                server.leases.arrivals.arrived(named, via)  # where its requests come from
        elif named is not None and named not in server.casino.tables:
            # A table named in the path and run elsewhere: straight to its owner (a table
            # just handed here is rebuilt first; a forwarded request is never sent on).
            owner = await find_owner(server, named)
            if owner is not None and not forwarded:
                if owner[1] == MOVING:
                    await errors.answer(_moving(named))(scope, _no_body, send)
                    return
                await self._forward(scope, body, send, owner, named)
                return
        held: list[Message] = []

        async def holding(message: Message) -> None:
            if held or (
                message["type"] == "http.response.start" and message["status"] in (404, 503)
            ):
                held.append(message)
            else:
                await send(message)

        await self.app(scope, replay, holding)
        if not held:
            return
        content = b"".join(m.get("body", b"") for m in held[1:])
        if held[0]["status"] == 503:
            # Refused by the fence: the table was handed on or taken over as the command
            # waited (nothing of it committed). Its new owner answers it, as a retry would.
            moved = None if forwarded else _moved_table(content)
            owner = None if moved is None else await find_owner(server, moved)
            if moved is None or owner is None or owner[1] == MOVING:
                for message in held:
                    await send(message)
                return
            await self._forward(scope, body, send, owner, moved)
            return
        table_id = _table_of(scope["path"], content)
        if table_id is not None and (forwarded or table_id in server.leases.held):
            # Ours a moment ago or in a moment (given up, lost, or taken and still being
            # rebuilt from its record): the table exists and is moving, try again.
            await errors.answer(_moving(table_id))(scope, _no_body, send)
            return
        owner = None if table_id is None else await find_owner(server, table_id)
        if owner is None:
            if table_id is not None and table_id in server.casino.tables:
                await self.app(scope, _replaying(body), send)  # handed here meanwhile
                return
            for message in held:
                await send(message)
            return
        if owner[1] == MOVING:
            await errors.answer(_moving(table_id))(scope, _no_body, send)
            return
        assert table_id is not None  # an owner was found for it
        await self._forward(scope, body, send, owner, table_id)

    async def _forward(  # noqa: PLR0917 - a request's parts, and whether to try once more
        self,
        scope: Scope,
        body: bytes,
        send: Send,
        owner: tuple[str, str],
        table_id: int,
        again: bool = True,
    ) -> None:
        """The owner's answer; when it answers that the table moved (handed on or taken over
        as the request travelled), once more, to whoever runs it now (here included)."""
        server: Server = scope["app"].state.server
        assert isinstance(server.leases, TableLeases)
        server.leases.arrivals.forwarded(table_id)
        query = scope.get("query_string", b"").decode("latin-1")
        url = owner[1] + scope["path"] + (f"?{query}" if query else "")
        address = owner[1]
        headers = [(k, v) for k, v in scope["headers"] if k not in HOP_BY_HOP]
        headers.append((FORWARDED.encode(), server.leases.owner.encode("latin-1", "replace")))
        try:
            answer = await self.client().request(
                scope["method"], url, content=body, headers=headers
            )
        except httpx.HTTPError as trouble:
            log.warning("table %s: its owner at %s did not answer (%s)", table_id, address, trouble)
            await errors.answer(_moving(table_id))(scope, _no_body, send)
            return
        if again and answer.status_code == 503 and _moved_table(answer.content) == table_id:
            now = await find_owner(server, table_id)
            if now is None and table_id in server.casino.tables:
                await self.app(scope, _replaying(body), send)
                return
            if now is not None and now[1] != MOVING and now != owner:
                await self._forward(scope, body, send, now, table_id, again=False)
                return
        out = [(k, v) for k, v in answer.headers.raw if k.lower() not in HOP_BY_HOP]
        out.append((b"content-length", str(len(answer.content)).encode()))
        await send({"type": "http.response.start", "status": answer.status_code, "headers": out})
        await send({"type": "http.response.body", "body": answer.content})

    async def _lobby(self, scope: Scope, body: bytes, send: Send, leases: TableLeases) -> None:
        """``GET /tables``: this process's tables and every live peer's, by id; a table in
        motion between processes (handed on between rounds, or being taken over) is listed
        once its new owner runs it (``LOBBY_WAIT_SECONDS`` at most), never left out unseen
        because it was on its way at the instant of asking."""
        held = await self._listed_here(scope, body)
        start = held[0]
        if start["status"] != 200:
            for message in held:
                await send(message)
            return
        listed = _json_of(held)
        headers = [(k, v) for k, v in scope["headers"] if k not in HOP_BY_HOP]
        headers.append((FORWARDED.encode(), b"1"))

        async def ask(address: str) -> list[dict[str, Any]]:
            try:
                answer = await self.client().get(address + "/tables", headers=headers)
                if answer.status_code == 200:
                    found: list[dict[str, Any]] = answer.json()["tables"]
                    return found
            except (httpx.HTTPError, ValueError, KeyError) as trouble:
                log.warning("the lobby of %s did not answer (%s)", address, trouble)
            return []

        tables = {table["id"]: table for table in listed["tables"]}
        peers = await asyncio.to_thread(peer_addresses, leases)
        for found in await asyncio.gather(*(ask(address) for address in peers)):
            for table in found:
                tables.setdefault(table["id"], table)
        missing = await asyncio.to_thread(unlisted, leases, set(tables))
        if missing:
            tables.update(await self._in_motion(scope, body, missing, ask))
        merged = json.dumps({**listed, "tables": [tables[k] for k in sorted(tables)]}).encode()
        out = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
        out.append((b"content-length", str(len(merged)).encode()))
        await send({**start, "headers": out})
        await send({"type": "http.response.body", "body": merged})

    async def _listed_here(self, scope: Scope, body: bytes) -> list[Message]:
        """This process's own answer to ``GET /tables``, its messages held."""
        held: list[Message] = []

        async def holding(message: Message) -> None:
            held.append(message)

        await self.app(scope, _replaying(body), holding)
        return held

    async def _in_motion(
        self,
        scope: Scope,
        body: bytes,
        missing: set[int],
        ask: Callable[[str], Awaitable[list[dict[str, Any]]]],
    ) -> dict[int, dict[str, Any]]:
        """The lobby's entries of tables no process listed when asked: each from its owner
        once one runs it (here included: a table just handed here is rebuilt first). A table
        whose live owner still does not list it after ``LOBBY_ASKS`` asks (left out at its
        load, ``TableRegistry``) is not waited for; nor is one past ``LOBBY_WAIT_SECONDS``
        (its owner died and its lease has not run out: it is listed again once taken over)."""
        server: Server = scope["app"].state.server
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LOBBY_WAIT_SECONDS
        found: dict[int, dict[str, Any]] = {}
        asks: dict[int, int] = {}
        while missing and loop.time() < deadline:
            await asyncio.sleep(LOBBY_POLL_SECONDS)
            addresses: set[str] = set()
            here = False
            for table_id in sorted(missing):
                owner = await find_owner(server, table_id)
                if owner is None and table_id not in server.casino.tables:
                    missing.discard(table_id)  # removed meanwhile
                elif owner is None:
                    here = True
                elif owner[1] != MOVING:
                    addresses.add(owner[1])
                else:
                    continue
                asks[table_id] = asks.get(table_id, 0) + 1
            lists = list(await asyncio.gather(*(ask(address) for address in addresses)))
            if here:
                held = await self._listed_here(scope, body)
                if held[0]["status"] == 200:
                    lists.append(_json_of(held)["tables"])
            for tables in lists:
                for table in tables:
                    if table["id"] in missing:
                        found[table["id"]] = table
                        missing.discard(table["id"])
            missing -= {table_id for table_id, count in asks.items() if count >= LOBBY_ASKS}
        return found

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()


def _moving(table_id: int | None) -> TableMoved:
    return TableMoved(
        f"table {table_id} is being taken over by another server process; try again",
        table=table_id or 0,
    )


async def relay_socket(websocket: WebSocket, address: str, table_id: int, token: str) -> None:
    """Relay an accepted WebSocket to the owner of ``table_id`` until either side closes."""
    url = address.replace("http", "ws", 1) + f"/tables/{table_id}/ws?token={token}"
    if address == MOVING:
        await websocket.close(code=1013, reason="the table is moving")  # the page reconnects
        return
    try:
        async with websockets.connect(url, additional_headers={FORWARDED: "1"}) as owner:

            async def down() -> None:
                async for message in owner:
                    await websocket.send_text(str(message))

            async def up() -> None:
                while True:
                    await owner.send(await websocket.receive_text())

            tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
            done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            code, reason = owner.close_code, owner.close_reason
            for task in done:
                with contextlib.suppress(Exception):
                    task.result()
        if code is not None and code != 1006:
            with contextlib.suppress(Exception):
                await websocket.close(code=code, reason=reason or "")
            return
    except (OSError, websockets.WebSocketException, WebSocketDisconnect):
        pass
    with contextlib.suppress(Exception):
        await websocket.close(code=1013, reason="the table moved")  # the page reconnects


def _json_of(held: list[Message]) -> Any:
    """The JSON body of an answer whose messages were held (its start, then its body)."""
    return json.loads(b"".join(message.get("body", b"") for message in held[1:]))


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def _replaying(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # nothing more: the client's disconnect is not seen here
        raise AssertionError("unreachable")  # pragma: no cover

    return receive


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


def _forwarded_by(scope: Scope) -> str | None:
    """The peer that forwarded this request (``X-Croupier-Forwarded``), or ``None``."""
    for name, value in scope["headers"]:
        if name == FORWARDED_BYTES:
            return str(value.decode("latin-1"))
    return None


def _table_in_path(path: str) -> int | None:
    found = TABLE_PATH.match(path)
    return None if found is None else int(found.group(1))


def _refused_table(content: bytes, code: str) -> int | None:
    """The ``table`` of an error document with ``code``, if ``content`` is one."""
    try:
        refusal = json.loads(content)
    except ValueError:
        return None
    if not isinstance(refusal, dict) or refusal.get("code") != code:
        return None
    params = refusal.get("params")
    table = params.get("table") if isinstance(params, dict) else None
    return table if isinstance(table, int) else None


def _moved_table(content: bytes) -> int | None:
    """The table a 503 ``table_moved`` answer was about, if it was one."""
    return _refused_table(content, TableMoved.code)


def _table_of(path: str, content: bytes) -> int | None:
    """The table a 404 was about: ``no_such_table``'s ``table``, or a table page's id."""
    page = PAGE.match(path)
    if page is not None:
        return int(page.group(1))
    return _refused_table(content, "no_such_table")
