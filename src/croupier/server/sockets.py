"""Which open WebSockets belong to which session, so that ending a session closes them
(issue 10, item 4).

A socket registers under its session's token hash and waits on an ``asyncio.Event``; signing
out (a route in a worker thread) sets the events of that session's sockets from any thread.
A socket closed this way gets close code ``SESSION_ENDED`` (4401), the code a socket with no
live session gets on connecting. A player who takes a break or excludes themselves (issue 27,
item 3) has every socket of theirs closed, whatever its session, with ``PAUSED`` (4403).
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict

SESSION_ENDED = 4401
"""WebSocket close code: the session ended (signed out, idle for 30 minutes, or unknown)."""
PAUSED = 4403
"""WebSocket close code: the player is on a break or self-excluded (``on_break`` or
``self_excluded`` as the reason)."""
TRY_AGAIN_LATER = 1013
"""WebSocket close code (RFC 6455 registry): the server cannot serve the socket now."""


class SessionSockets:
    """Open sockets by session (token hash), each a loop and the event that closes it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = defaultdict(
            set
        )
        self._players: dict[asyncio.Event, tuple[int, str]] = {}
        """A player's socket's event -> the player and its session."""
        self._why: dict[asyncio.Event, tuple[int, str]] = {}
        """An event set for another reason than its session's end: the close code and reason."""

    def register(self, session: str, user_id: int | None = None) -> asyncio.Event:
        """An event set when ``session`` ends (or its player pauses); call from the socket's
        event loop."""
        ended = asyncio.Event()
        with self._lock:
            self._open[session].add((asyncio.get_running_loop(), ended))
            if user_id is not None:
                self._players[ended] = (user_id, session)
        return ended

    def unregister(self, session: str, ended: asyncio.Event) -> None:
        with self._lock:
            entries = self._open.get(session, set())
            entries.difference_update({entry for entry in entries if entry[1] is ended})
            if not entries:
                self._open.pop(session, None)
            self._players.pop(ended, None)
            self._why.pop(ended, None)

    def pause(self, user_id: int, reason: str) -> int:
        """Close every socket of player ``user_id``, any session, with ``PAUSED`` and
        ``reason`` (safe from any thread); how many."""
        with self._lock:
            events = [event for event, (user, _s) in self._players.items() if user == user_id]
            entries = [
                (loop, ended)
                for event in events
                for loop, ended in self._open.get(self._players[event][1], set())
                if ended is event
            ]
            for _loop, ended in entries:
                self._why[ended] = (PAUSED, reason)
        for loop, ended in entries:
            loop.call_soon_threadsafe(ended.set)
        return len(entries)

    def close_code(self, ended: asyncio.Event) -> tuple[int, str]:
        """Why ``ended`` was set: ``(PAUSED, reason)`` or the session's end."""
        with self._lock:
            return self._why.get(ended, (SESSION_ENDED, "the session ended"))

    def end(self, session: str) -> int:
        """Tell every socket of ``session`` to close (safe from any thread); how many."""
        with self._lock:
            entries = list(self._open.pop(session, set()))
        for loop, ended in entries:
            loop.call_soon_threadsafe(ended.set)
        return len(entries)
