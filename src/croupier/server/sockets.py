"""Which open WebSockets belong to which session, so that ending a session closes them
(issue 10, item 4).

A socket registers under its session's token hash and waits on an ``asyncio.Event``; signing
out (a route in a worker thread) sets the events of that session's sockets from any thread.
A socket closed this way gets close code ``SESSION_ENDED`` (4401), the code a socket with no
live session gets on connecting.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict

SESSION_ENDED = 4401
"""WebSocket close code: the session ended (signed out, idle for 30 minutes, or unknown)."""


class SessionSockets:
    """Open sockets by session (token hash), each a loop and the event that closes it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = defaultdict(
            set
        )

    def register(self, session: str) -> asyncio.Event:
        """An event set when ``session`` ends; call from the socket's event loop."""
        ended = asyncio.Event()
        with self._lock:
            self._open[session].add((asyncio.get_running_loop(), ended))
        return ended

    def unregister(self, session: str, ended: asyncio.Event) -> None:
        with self._lock:
            entries = self._open.get(session, set())
            entries.difference_update({entry for entry in entries if entry[1] is ended})
            if not entries:
                self._open.pop(session, None)

    def end(self, session: str) -> int:
        """Tell every socket of ``session`` to close (safe from any thread); how many."""
        with self._lock:
            entries = list(self._open.pop(session, set()))
        for loop, ended in entries:
            loop.call_soon_threadsafe(ended.set)
        return len(entries)
