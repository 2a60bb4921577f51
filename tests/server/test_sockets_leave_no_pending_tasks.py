"""Issue 13, item 9: no error in the server's log during normal play. A table's WebSocket
waits on three things at once (the table's changes, the client's pings, the session's end);
before the fix each wait it stopped waiting on was left pending, and asyncio logged "Task was
destroyed but it is pending!" (and "cannot reuse already awaited coroutine") as the sockets
closed."""

from __future__ import annotations

import gc
import logging
import warnings

import pytest
from server_support import Api, Table

from croupier.server.app import playable_profiles

PROFILES = playable_profiles()
pytestmark = pytest.mark.skipif(not PROFILES, reason="no game engine has landed yet")

TROUBLE = ("Task was destroyed but it is pending", "cannot reuse already awaited coroutine")


def test_a_round_played_with_sockets_open_logs_no_pending_task(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    table = Table(api, "veintiuno-real", ["ann", "ben"])
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        with (
            api.client.websocket_connect(f"/tables/{table.id}/ws?token={table.tokens['ann']}") as a,
            api.client.websocket_connect(f"/tables/{table.id}/ws?token={table.tokens['ben']}") as b,
        ):
            assert a.receive_json()["type"] == "state"
            assert b.receive_json()["type"] == "state"
            a.send_text("ping")
            table.play_round()
            assert a.receive_json()["type"] == "state"
        with api.client.websocket_connect(
            f"/tables/{table.id}/ws?token={table.tokens['ann']}"
        ) as again:
            assert again.receive_json()["type"] == "state"
            table.play_round()
        gc.collect()
    logged = [r.getMessage() for r in caplog.records if any(t in r.getMessage() for t in TROUBLE)]
    assert logged == []
    assert [str(w.message) for w in warned if "coroutine" in str(w.message)] == []
