"""One point through which every table change is published (to WebSocket clients).

``InProcessBroadcaster`` fans out inside one process. A deployment of several server
processes swaps in a broadcaster over Redis pub/sub with the same two methods; the table
state itself is always read from the database, so no message carries state that matters.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol


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
