"""Table changes over Redis pub/sub (issue 4, item 7): a change that one server process
publishes reaches the WebSocket subscribers of another, against a real Redis
(``tools/redis_server.py``: the machine's, or a throwaway one; skipped where there is none)."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from server_support import Api, Table, make_api

import redis_server
from croupier.server.app import playable_profiles
from croupier.service.publishing import RedisBroadcaster

T = TypeVar("T")
REDIS_URL = redis_server.server_url()
pytestmark = pytest.mark.skipif(REDIS_URL is None, reason="no Redis server and no redis-server")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own: the browser tests leave an event loop running in
    the main thread of the same pytest process."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=30)


def namespace() -> str:
    return f"croupier-test-{uuid.uuid4().hex}"  # tests never hear each other


def test_a_change_published_by_one_process_reaches_the_subscribers_of_another() -> None:
    assert REDIS_URL is not None
    name = namespace()
    publisher, listener = RedisBroadcaster(REDIS_URL, name), RedisBroadcaster(REDIS_URL, name)

    async def scenario() -> tuple[int, bool]:
        async with listener.subscribe(7) as seven, listener.subscribe(8) as eight:
            await asyncio.to_thread(publisher.publish, 7)
            heard = await asyncio.wait_for(seven.get(), timeout=5)
            await asyncio.sleep(0.2)
            return heard, eight.empty()

    try:
        heard, other_table_quiet = run(scenario())
    finally:
        publisher.close()
        listener.close()
    assert heard == 7
    assert other_table_quiet


def test_another_namespace_hears_nothing() -> None:
    assert REDIS_URL is not None
    publisher = RedisBroadcaster(REDIS_URL, namespace())
    listener = RedisBroadcaster(REDIS_URL, namespace())

    async def scenario() -> bool:
        async with listener.subscribe(7) as seven:
            await asyncio.to_thread(publisher.publish, 7)
            await asyncio.sleep(0.3)
            return seven.empty()

    try:
        assert run(scenario())
    finally:
        publisher.close()
        listener.close()


def test_without_redis_a_change_still_reaches_this_process_and_publish_never_raises() -> None:
    # Port 1 on loopback: nothing listens. The command behind a change has committed; its
    # push must not fail the request.
    broadcaster = RedisBroadcaster("redis://127.0.0.1:1/0", namespace())

    async def scenario() -> int:
        async with broadcaster.subscribe(3) as three:
            await asyncio.to_thread(broadcaster.publish, 3)
            return await asyncio.wait_for(three.get(), timeout=5)

    try:
        assert run(scenario()) == 3
    finally:
        broadcaster.close()


@pytest.fixture
def redis_api(tmp_path: Path) -> Iterator[Api]:
    assert REDIS_URL is not None
    yield from make_api(f"sqlite:///{tmp_path}/redis.sqlite", broadcast_url=REDIS_URL)


def test_a_live_table_pushes_its_changes_through_redis(redis_api: Api) -> None:
    assert REDIS_URL is not None
    table = Table(redis_api, playable_profiles()[0], ["ann", "ben"])
    # Another process's view of the channel: it must hear the table's change too.
    outsider = RedisBroadcaster(REDIS_URL)
    with ThreadPoolExecutor(1) as pool:
        subscribed = threading.Event()

        async def listen() -> int:
            async with outsider.subscribe(table.id) as changes:
                subscribed.set()
                return await asyncio.wait_for(changes.get(), timeout=10)

        heard = pool.submit(asyncio.run, listen())
        assert subscribed.wait(5)
        with redis_api.client.websocket_connect(
            f"/tables/{table.id}/ws?token={table.tokens['ann']}"
        ) as socket:
            first = socket.receive_json()
            assert first["round"]["stakes"] == {}
            round_id = table.bet_all()
            pushed = socket.receive_json()
            while pushed["round"]["stakes"] != {"1": table.stake * 100, "2": table.stake * 100}:
                pushed = socket.receive_json()
        assert heard.result(timeout=10) == table.id
    outsider.close()
    assert pushed["round"]["id"] == round_id
