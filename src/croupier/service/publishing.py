"""What clients see of a live table: one snapshot per commit, and the news that it changed.

Everything any client may be shown is computed once per change, under the table's lock
(``publishable``); readers (GET, the WebSocket pushes) then read that, never the live round,
so they never wait on a command. A seat's own view comes from the engine (``view(seat)``),
with what that seat may not see masked (R6).

The news goes through one point, a ``Broadcaster``: ``InProcessBroadcaster`` fans out
inside one process; ``RedisBroadcaster`` (``croupier serve --broadcast redis://...``) sends
each change over Redis pub/sub, so that every server process sharing the database hears it,
with the same two methods. A message is only a table id: the table's state itself is always
read from where it is kept (the snapshot above), so no message carries state that matters,
and a lost message costs a client one push, never money.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol

import orjson
import redis
import redis.asyncio

from croupier.service import absence, limits, table_facts
from croupier.service.accounts import Principal
from croupier.service.live import LiveTable

log = logging.getLogger("croupier.broadcast")


class Publisher:
    """Snapshots and pushes for every table of one server process."""

    def __init__(self, broadcaster: Broadcaster, usernames: dict[int, str]) -> None:
        self.broadcaster = broadcaster
        self.usernames = usernames
        """User id -> name, for the seats a table shows."""

    def snapshot(
        self, live: LiveTable, who: Principal | None, *, fresh: bool = False
    ) -> dict[str, Any]:
        """The table as ``who`` may see it now: public state and their own seats' views (R6).

        Built from ``published``, the table as it stood at its last commit, so that readers
        (the WebSocket pushes, GET) never wait on a command holding the table's lock.
        """
        published = self.publishable(live) if fresh or live.published is None else live.published
        mine = sorted(
            s for s, u in published["owners"].items() if who is not None and u == who.user_id
        )
        views = published["views"]
        return {
            "table": published["table"],
            "round": {
                **published["round"],
                "mine": {str(seat): views[seat] for seat in mine if seat in views},
            },
        }

    def state_message(self, live: LiveTable, who: Principal | None) -> str:
        """``{"type": "state", ...}`` with ``snapshot(live, who)``, as JSON text for a WebSocket
        push. What every client shares is encoded once per change, not once per client."""
        published = live.published if live.published is not None else self.publishable(live)
        shared: str | None = published.get("encoded")
        if shared is None:
            public_round = _compact_json(published["round"])
            shared = (
                f'{{"type":"state","table":{_compact_json(published["table"])},'
                f'"round":{public_round[:-1]}'  # the round object, still open for "mine"
            )
            published["encoded"] = shared
        views = published["views"]
        mine = {
            str(seat): views[seat]
            for seat, user in sorted(published["owners"].items())
            if who is not None and user == who.user_id and seat in views
        }
        return f'{shared},"mine":{_compact_json(mine)}}}}}'

    def publishable(self, live: LiveTable) -> dict[str, Any]:
        """Everything any client may be shown, computed once per change (under the lock)."""
        game_round = live.game_round
        waiting = game_round.is_betting or game_round.card_needed is not None
        decision = None if waiting else game_round.pending()
        seated = sorted(live.seats)
        views = game_round.views([None, *seated])
        return {
            "owners": dict(live.seats),
            "views": {seat: views[seat] for seat in seated},
            "table": {
                "id": live.id,
                "name": live.name,
                "game": live.profile.game,
                "profile": live.profile.name,
                "is_open": live.is_open,
                "seats": {
                    str(s): self.usernames.get(u, str(u)) for s, u in sorted(live.seats.items())
                },
                # Seats whose player missed the rounds to sit out (docs/rules.md#D-GEN-15):
                # shown to everyone, not dealt in, not waited for.
                "sitting_out": absence.sitting_out(live),
                "absence_rounds": {"sit_out": live.sit_out_after, "free": live.free_after},
                "shoe": live.shoe_id,
                "shoe_cards": table_facts.shoe_progress(live),
                "shoe_kind": "physical" if live.is_physical else "random",
                "limits": limits.wagers_json(live.profile),
                "next_limits": None
                if live.next_profile is None
                else limits.wagers_json(live.next_profile),
            },
            "round": {
                "id": live.round_id,
                "status": live.status,
                "deadline": live.deadline,
                "stakes": {str(s): v["minor"] for s, v in sorted(live.held.items())},
                # Back bets ride on their box's felt, seen by all (spain-1979, D-BJ-28).
                "back_bets": [
                    {"seat": b["seat"], "backer": b["backer"], "amount_minor": b["minor"]}
                    for b in live.back_bets
                ],
                "pending": None
                if decision is None
                else {
                    "seat": decision.seat,
                    "hand": decision.hand,
                    "question": decision.question,
                    "legal": [str(a) for a in decision.legal],
                    "default": str(decision.default),
                },
                "card_needed": None
                if game_round.card_needed is None
                else game_round.card_needed.to_json(),
                "public": views[None],
            },
        }

    def publish(self, live: LiveTable) -> None:
        """Freeze the table's committed state for readers, and tell the subscribers."""
        with live.lock:
            live.published = self.publishable(live)
        self.broadcaster.publish(live.id)


def _compact_json(value: Any) -> str:
    """``value`` as JSON text, with no spaces, non-ASCII as it is: what ``json.dumps(value,
    separators=(",", ":"), ensure_ascii=False)`` writes for a view's values (numbers, text,
    booleans, null; ``tests/server/test_push_encoding.py``), by orjson: every change encodes
    the table once and each player's own seats once per socket, on the event loop, and a
    seat's view takes orjson about a seventh of ``json``'s time (``benchmarks/push_cost.py``;
    issue 28, item 8). A value orjson cannot write (an integer past 64 bits) goes to ``json``."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- the news: which table changed, to its subscribers ----------------------------------
class Broadcaster(Protocol):
    def publish(self, table_id: int) -> None:
        """Say that ``table_id`` changed (callable from any thread)."""
        ...

    def subscribe(self, table_id: int) -> AbstractAsyncContextManager[asyncio.Queue[int]]:
        """An async context manager yielding a queue that receives each change."""
        ...


def _tell(queues: list[asyncio.Queue[int]], table_id: int) -> None:
    for queue in queues:
        queue.put_nowait(table_id)


class InProcessBroadcaster:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]]] = {}

    def publish(self, table_id: int) -> None:
        with self._lock:
            targets = list(self._subscribers.get(table_id, ()))
        # One hand-over to each event loop, not one per subscriber: each wakes the loop
        # through its pipe, a system call, and a table's seats all listen on one loop.
        by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Queue[int]]] = {}
        for loop, queue in targets:
            by_loop.setdefault(loop, []).append(queue)
        for loop, queues in by_loop.items():
            try:
                loop.call_soon_threadsafe(_tell, queues, table_id)
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
