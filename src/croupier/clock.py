"""Time, injected: sessions, locks, deadlines and the audit chain read it, tests move it
(R16). Below the audit and the service, which both read it."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to.

    >>> clock = ManualClock(100.0)
    >>> clock.advance(1800); clock.now()
    1900.0
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds
