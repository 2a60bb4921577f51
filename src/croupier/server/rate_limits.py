"""Limits per client address on the paths an attacker uses without a session (issue 10, item 6).

Sign-ins and sign-ups (each path counted apart) and requests whose token is unknown, ended or
idle are counted per client address in a moving window (the ``limits`` library); past the
limit the answer is 429 with ``Retry-After`` and no work is done (no Argon2 hash, no write).
Separate addresses are never counted together. The counts live in this process's memory, or
in Redis when the server runs with ``--broadcast redis://...`` (they outlive a restart). The
client address is the connection's own unless a proxy named by ``serve --trusted-proxy`` says
otherwise in ``X-Forwarded-For`` (issue 25, item 6).

>>> limits = RateLimits("2/minute")
>>> limits.hit("signin", "10.0.0.1"); limits.hit("signin", "10.0.0.1")
>>> limits.hit("signin", "10.0.0.2")  # another address has its own count
>>> limits.hit("signin", "10.0.0.1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
croupier.service.errors.RateLimited: too many signin requests from 10.0.0.1 (2 per 1 minute); retry in ... s
"""

from __future__ import annotations

import logging
import math
import time
from typing import TYPE_CHECKING

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.concurrency import run_in_threadpool

from croupier.server.defaults import DEFAULT_RATE_LIMIT, DEFAULT_TOKEN_RATE_LIMIT
from croupier.service.errors import RateLimited

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

log = logging.getLogger("croupier.server")

KINDS = ("signin", "signup", "token")


def parse_limit(text: str) -> RateLimitItem:
    """``"10/minute"`` as a rate limit item, or ``ValueError`` naming the text."""
    try:
        return parse(text)
    except ValueError:
        raise ValueError(f"rate limit {text!r}: expected e.g. '10/minute' or '100/hour'") from None


class RateLimits:
    """Moving-window counts per (path kind, client address)."""

    def __init__(
        self,
        rate_limit: str = DEFAULT_RATE_LIMIT,
        token_rate_limit: str = DEFAULT_TOKEN_RATE_LIMIT,
        storage_url: str | None = None,
    ) -> None:
        self.items = {
            "signin": parse_limit(rate_limit),
            "signup": parse_limit(rate_limit),
            "token": parse_limit(token_rate_limit),
        }
        self.storage: Storage = MemoryStorage()
        if storage_url:
            shared = storage_from_string(storage_url)
            assert isinstance(shared, Storage)  # a redis:// URL gives the synchronous store
            self.storage = shared
        self.limiter = MovingWindowRateLimiter(self.storage)

    def hit(self, kind: str, address: str) -> None:
        """Count one request of ``kind`` from ``address``; ``RateLimited`` past the limit."""
        item = self.items[kind]
        try:
            allowed = self.limiter.hit(item, "croupier", kind, address)
        except Exception as error:  # the counter's store is away (Redis down)
            # Fail open: the per-(account, address) lock still guards passwords (R16).
            log.warning("rate limit store unavailable, not counting: %s", error)
            return
        if allowed:
            return
        stats = self.limiter.get_window_stats(item, "croupier", kind, address)
        retry_after = max(1, math.ceil(stats.reset_time - time.time()))
        raise RateLimited(
            f"too many {kind} requests from {address} ({item}); retry in {retry_after} s",
            retry_after=retry_after,
        )

    async def hit_async(self, kind: str, address: str) -> None:
        """``hit`` from the event loop: at once in memory, in a worker thread for Redis."""
        if isinstance(self.storage, MemoryStorage):
            self.hit(kind, address)
        else:
            await run_in_threadpool(self.hit, kind, address)


def client_address(connection: HTTPConnection) -> str:
    """The client's address as the server sees it (behind a proxy named by ``serve
    --trusted-proxy``: what its ``X-Forwarded-For`` says; no proxy is trusted by default)."""
    return connection.client.host if connection.client else "unknown"
