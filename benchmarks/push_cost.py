"""What a table's change costs to draw and encode for its sockets, beside the way it was done.

``uv run python benchmarks/push_cost.py [--repeat 2000]``

Three players at a blackjack table of an in-process server (``request_cost.players``), their
bets placed and the cards dealt, a decision pending. Timed in the same run, each against its
reference (issue 28, item 8):

- every seat's view and the public's drawn at once (``RoundViews.views``), against each drawn
  on its own (``view(viewer)`` for each, as ``Publisher.publishable`` did before ``b654f20``);
- a seat's view encoded as the pushes encode it (``publishing._compact_json``: orjson),
  against ``json.dumps(..., separators=(",", ":"), ensure_ascii=False)``, checked to be the
  same text first;
- a socket's wait for its table's next change, on the server's event loop (uvloop): with the
  socket's one timer for its next check (``server.routes._push_table``), against a timeout
  around each wait (``asyncio.timeout``, as it was before issue 28's timer); a change is put
  in the queue at each turn of the loop, the socket taking each as the server's does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import uvloop
from fastapi import FastAPI

sys.path.insert(0, str(Path(__file__).resolve().parent))

from croupier.service import publishing
from request_cost import players


def per_call(work: Callable[[], Any], repeat: int) -> float:
    """Seconds a call of ``work``: the best of three runs of ``repeat`` calls."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        for _ in range(repeat):
            work()
        best = min(best, (time.perf_counter() - began) / repeat)
    return best


CHECK_SECONDS = 10.0
"""The socket's check interval (``Settings.session_check_seconds``' default)."""


async def _socket_waits(changes: int, *, timer: bool) -> None:
    """A socket's loop over ``changes`` changes, each waited for as ``_push_table`` waits
    (``timer``) or within a timeout of its own."""
    queue: asyncio.Queue[int] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    async def socket() -> None:
        waking: asyncio.TimerHandle | None = None
        taken = 0
        while taken < changes:
            if timer:
                look_at = loop.time() + CHECK_SECONDS
                if waking is None or waking.when() > look_at:
                    if waking is not None:
                        waking.cancel()
                    waking = loop.call_at(look_at, queue.put_nowait, -3)
                news = [await queue.get()]
            else:
                news = []
                try:
                    async with asyncio.timeout(CHECK_SECONDS):
                        news.append(await queue.get())
                except TimeoutError:
                    pass
            while not queue.empty():
                news.append(queue.get_nowait())
            taken += len(news)
        if waking is not None:
            waking.cancel()

    waiting = asyncio.ensure_future(socket())
    for change in range(changes):
        queue.put_nowait(change)
        await asyncio.sleep(0)  # the socket's task runs: one change a wake-up
    await waiting


def wait_per_change(changes: int, *, timer: bool) -> float:
    """CPU seconds a change: the best of three runs, each on a new uvloop loop."""
    best = float("inf")
    for _ in range(3):
        began = time.process_time()
        uvloop.run(_socket_waits(changes, timer=timer))
        best = min(best, (time.process_time() - began) / changes)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2000)
    arguments = parser.parse_args()
    with players() as table:  # request_cost's in-process server, three players seated
        for seat, token in table.tokens.items():
            body = {"seat": seat, "wager": "main", "amount": 1}
            table._post(f"/tables/{table.table}/bets", table._headers(token), body)
        for token in table.tokens.values():
            table._post(f"/tables/{table.table}/ready", table._headers(token), {})
        server = cast(FastAPI, table.client.app).state.server
        game_round = server.casino.tables[table.table].game_round
        viewers: list[int | None] = [None, *sorted(table.tokens)]
        assert game_round.pending() is not None, "the cards are dealt, a decision waits"
        assert game_round.views(viewers) == {v: game_round.view(v) for v in viewers}
        alone = per_call(lambda: [game_round.view(v) for v in viewers], arguments.repeat)
        at_once = per_call(lambda: game_round.views(viewers), arguments.repeat)
        seat_view = game_round.view(viewers[1])
        encoded = publishing._compact_json(seat_view)
        as_json = json.dumps(seat_view, separators=(",", ":"), ensure_ascii=False)
        assert encoded == as_json
        by_json = per_call(
            lambda: json.dumps(seat_view, separators=(",", ":"), ensure_ascii=False),
            arguments.repeat,
        )
        by_orjson = per_call(lambda: publishing._compact_json(seat_view), arguments.repeat)
    print(
        f"{len(viewers)} views (3 seats and the public): drawn at once {at_once * 1e6:.1f} us, "
        f"each alone {alone * 1e6:.1f} us -> {at_once / alone:.2f}x"
    )
    print(
        f"a seat's view ({len(encoded)} bytes) encoded: orjson {by_orjson * 1e6:.2f} us, "
        f"json {by_json * 1e6:.2f} us -> {by_orjson / by_json:.2f}x (the same text)"
    )
    changes = arguments.repeat * 25
    with_timer = wait_per_change(changes, timer=True)
    with_timeout = wait_per_change(changes, timer=False)
    print(
        f"a socket's wait for a change (and taking it): one timer {with_timer * 1e6:.2f} us, "
        f"a timeout each {with_timeout * 1e6:.2f} us -> {with_timer / with_timeout:.2f}x"
    )


if __name__ == "__main__":
    main()
