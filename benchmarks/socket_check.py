"""What an open table socket's periodic check costs the server, against the two reads it was.

Every ``session_check_seconds`` (10 s) each open socket asks the database whether its session
is still alive (``accounts.last_seen``) and whether its player has taken a break or excluded
themselves through another process (``protection_routes.pause_of``). Under
``benchmarks/load.py``, with a socket per seated player, those checks run ten times a second.
They were two reads, each a hand-off to a worker thread and a read transaction of its own;
``routes.session_check`` makes them one. This prints the process's CPU per check of each,
interleaved, on three players' in-process server (``request_cost.py``'s table), and the
ratio measured in the same run.

    uv run python benchmarks/socket_check.py [--checks 2000] [--pairs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))

import request_cost
from croupier.server.protection_routes import pause_of
from croupier.server.routes import session_check
from croupier.service.accounts import authenticate, last_seen


def cpu_per_check(check: Callable[[], Any], checks: int) -> float:
    """Microseconds of the process's CPU per ``check()``, each one awaited in a worker thread
    from an event loop, as the socket's loop does."""

    async def run() -> None:
        for _ in range(checks):
            await check()

    started = time.process_time()
    asyncio.run(run())
    return (time.process_time() - started) / checks * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checks", type=int, default=2000, help="checks in each timed run")
    parser.add_argument("--pairs", type=int, default=5, help="runs of each, interleaved")
    options = parser.parse_args()
    with request_cost.players() as table:
        table.play_round()
        server = cast(Any, table.client.app).state.server
        token = table.tokens[1]
        who = server.uow.run(lambda s: authenticate(s, token, server.settings.clock.now()))

        async def two_reads() -> tuple[float | None, str | None]:
            seen = await asyncio.to_thread(server.uow.read, lambda s: last_seen(s, token))
            now = server.settings.clock.now()
            paused = await asyncio.to_thread(server.uow.read, lambda s: pause_of(s, who, now))
            return seen, paused

        async def one_read() -> tuple[float | None, str | None]:
            return await asyncio.to_thread(session_check, server, token, who)

        assert asyncio.run(two_reads()) == asyncio.run(one_read())  # the same answer
        before: list[float] = []
        after: list[float] = []
        for _ in range(options.pairs):
            before.append(cpu_per_check(two_reads, options.checks))
            after.append(cpu_per_check(one_read, options.checks))
    print(f"CPU per check, {options.pairs} runs of {options.checks} checks each, interleaved:")
    print(f"  two reads (the reference): {' '.join(f'{x:.0f}' for x in before)} us")
    print(f"  one read (the server's):   {' '.join(f'{x:.0f}' for x in after)} us")
    ratio = statistics.median(after) / statistics.median(before)
    print(f"one read / two reads, medians: {ratio:.3f}")


if __name__ == "__main__":
    main()
