"""One point through which every table change is published (to WebSocket clients).

``InProcessBroadcaster`` fans out inside one process. ``RedisBroadcaster`` (``croupier serve
--broadcast redis://...``) sends each change over Redis pub/sub, so that every server process
sharing the database hears it, with the same two methods. A message is only a table id: the
table's state itself is always read from where it is kept, so no message carries state that
matters, and a lost message costs a client one push, never money.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

import redis
import redis.asyncio

log = logging.getLogger("croupier.broadcast")


class Broadcaster(Protocol):
    def publish(self, table_id: int) -> None:
        """Say that ``table_id`` changed (callable from any thread)."""
        ...

    def subscribe(self, table_id: int) -> AbstractAsyncContextManager[asyncio.Queue[int]]:
        """An async context manager yielding a queue that receives each change."""
        ...


class InProcessBroadcaster:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]]] = {}

    def publish(self, table_id: int) -> None:
        with self._lock:
            targets = list(self._subscribers.get(table_id, ()))
        for loop, queue in targets:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, table_id)
            except RuntimeError:  # the loop has closed: the client is gone
                continue

    @asynccontextmanager
    async def subscribe(self, table_id: int) -> AsyncIterator[asyncio.Queue[int]]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        entry = (asyncio.get_running_loop(), queue)
        with self._lock:
            self._subscribers.setdefault(table_id, set()).add(entry)
        try:
            yield queue
        finally:
            with self._lock:
                self._subscribers[table_id].discard(entry)


class RedisBroadcaster:
    """Table changes over Redis pub/sub, one channel per table under ``namespace``.

    ``publish`` (from any thread, after the change has committed) sends the table id to its
    channel. The process listens to every table of its namespace on one connection and hands
    each message to its own WebSocket subscribers, as ``InProcessBroadcaster`` does. When
    Redis cannot be reached, a change is still pushed to this process's own clients (and
    logged): the command that caused it has committed and must not fail for want of a push.
    """

    def __init__(self, url: str, namespace: str = "croupier") -> None:
        self.url = url
        self.namespace = namespace
        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._local = InProcessBroadcaster()
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()

    def channel(self, table_id: int) -> str:
        return f"{self.namespace}:table:{table_id}"

    def publish(self, table_id: int) -> None:
        try:
            self._client.publish(self.channel(table_id), str(table_id))
        except redis.RedisError as error:
            log.warning("table %s: Redis publish failed (%s); pushing locally", table_id, error)
            self._local.publish(table_id)

    @asynccontextmanager
    async def subscribe(self, table_id: int) -> AsyncIterator[asyncio.Queue[int]]:
        await self._listen_once()
        async with self._local.subscribe(table_id) as queue:
            yield queue

    async def _listen_once(self) -> None:
        if self._listener is None or self._listener.done():
            self._listening = asyncio.Event()
            self._listener = asyncio.create_task(self._listen(self._listening))
        # Subscribed before the first state is sent, so no change falls in between; a
        # Redis that does not answer delays the socket by at most the timeout.
        try:
            await asyncio.wait_for(self._listening.wait(), timeout=2)
        except TimeoutError:
            log.warning("Redis at %s does not answer: pushes are local only", self.url)

    async def _listen(self, listening: asyncio.Event) -> None:
        pattern = f"{self.namespace}:table:*"
        while True:
            try:
                client = redis.asyncio.Redis.from_url(self.url, socket_connect_timeout=2)
                async with client, client.pubsub() as pubsub:
                    await pubsub.psubscribe(pattern)
                    listening.set()
                    async for message in pubsub.listen():
                        if message["type"] == "pmessage":
                            self._local.publish(int(message["data"]))
            except (redis.RedisError, OSError, ValueError) as error:
                log.warning("Redis subscription lost (%s); retrying in 1 s", error)
                await asyncio.sleep(1)

    def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
        self._client.close()
