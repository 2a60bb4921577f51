"""A table's WebSocket refused on connecting, through a real uvicorn as a browser meets it.

The HTTP API guide (docs/http-api.md) and the table page agree: a socket with no live session is
closed with 4401 (the page then sends the person to sign in) and one of no table with 4404 (the
page says so). The server closed those sockets before accepting them; Starlette's test client
reports that close with its code, but uvicorn answers such a handshake with HTTP 403 and a
browser sees only 1006, so the page retried for ever ("reconnecting") with its ended token. The
socket is now accepted first, then closed with its code."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from croupier.server.app import create_app, start
from croupier.server.context import Settings
from page_scenes import served_in_thread

OPERATOR = "operator-token-for-socket-tests-0123456789"


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'croupier.sqlite'}",
        operator_token=OPERATOR,
        demo_tables=True,
        rate_limit="100000/minute",
        token_rate_limit="100000/minute",
    )
    app = create_app(settings, server=start(settings))
    with served_in_thread(app, "socket-codes") as port:
        yield f"127.0.0.1:{port}"


def _close_code(url: str) -> int | None:
    """The close code the server sent, or ``None`` when it sent a state (the socket lives)."""

    async def connect() -> int | None:
        async with websockets.connect(url, open_timeout=10) as socket:
            try:
                message = await asyncio.wait_for(socket.recv(), 10)
            except websockets.ConnectionClosed as closed:
                return None if closed.rcvd is None else closed.rcvd.code
            assert '"type":"state"' in str(message)
            return None

    # In a thread of its own: after Playwright's sync API in the same worker (the browser
    # tests), this thread may already run an event loop, where asyncio.run refuses.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, connect()).result()


def test_a_refused_socket_hears_its_close_code_through_uvicorn(base: str) -> None:
    http = httpx.Client(base_url=f"http://{base}")
    credentials = {"username": "ann", "password": "password-of-ann"}
    assert http.post("/auth/signup", json=credentials).status_code == 201
    token = http.post("/auth/signin", json=credentials).json()["token"]
    table = http.get("/tables", headers={"Authorization": f"Bearer {token}"}).json()["tables"][0]
    assert _close_code(f"ws://{base}/tables/{table['id']}/ws?token={token}") is None
    assert _close_code(f"ws://{base}/tables/{table['id']}/ws") == 4401
    assert _close_code(f"ws://{base}/tables/{table['id']}/ws?token={'x' * 43}") == 4401
    assert _close_code(f"ws://{base}/tables/99999/ws?token={token}") == 4404
    ended = http.post(
        "/auth/signout", headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "k-1"}
    )
    assert ended.status_code == 200, ended.text
    assert _close_code(f"ws://{base}/tables/{table['id']}/ws?token={token}") == 4401
