"""Tallies of the baccarat and Casino Hold'em kernels: the ``Tally`` plus the kernel's own
time (so that ``seconds`` and ``hands_per_second`` count the simulation, shuffling included,
and not the set-up or compilation) and what each game adds to its JSON."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from croupier.simulation.baccarat_counting import BaccaratCounting
from croupier.simulation.tally import Tally


@dataclass(frozen=True)
class Clock:
    """Wall and CPU seconds of a piece of work, as ``timed`` measures them."""

    seconds: float = 0.0
    cpu_seconds: float = 0.0


@contextmanager
def timed() -> Iterator[list[Clock]]:
    """``with timed() as clock:`` ... then ``clock[0]`` holds the block's time."""
    holder: list[Clock] = []
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        yield holder
    finally:
        holder.append(Clock(time.perf_counter() - wall, time.process_time() - cpu))


@dataclass(frozen=True)
class TimedTally(Tally):
    seconds: float = 0.0
    """The kernel's own wall time (shuffling included; set-up and compilation excluded)."""
    cpu_seconds: float = 0.0
    """The same, as CPU time (less sensitive to a loaded machine)."""

    @classmethod
    def of(cls, tally: Tally, clock: Clock, **extra: Any) -> Any:
        fields = {name: getattr(tally, name) for name in Tally.__dataclass_fields__}
        return cls(**fields, seconds=clock.seconds, cpu_seconds=clock.cpu_seconds, **extra)

    def _added(self, other: Tally) -> dict[str, Any]:
        base = Tally.__add__(self, other)
        fields = {name: getattr(base, name) for name in Tally.__dataclass_fields__}
        return {
            **fields,
            "seconds": self.seconds + getattr(other, "seconds", 0.0),
            "cpu_seconds": self.cpu_seconds + getattr(other, "cpu_seconds", 0.0),
        }

    def __add__(self, other: Tally) -> TimedTally:
        return TimedTally(**self._added(other))


@dataclass(frozen=True)
class BaccaratTally(TimedTally):
    counting: BaccaratCounting | None = field(default=None)
    """With a count: the coups by the tie count's true count and by the pair probability."""

    def __add__(self, other: Tally) -> BaccaratTally:
        mine, theirs = self.counting, getattr(other, "counting", None)
        if (mine is None) != (theirs is None):
            raise ValueError("cannot add a counted baccarat tally to one without the count")
        counting = mine + theirs if mine is not None and theirs is not None else None
        return BaccaratTally(**self._added(other), counting=counting)


@dataclass(frozen=True)
class CasinoHoldemTally(TimedTally):
    meter_seen_total: Fraction = Fraction(0)
    """Summed over games: the meter box 1's progressive was settled on."""

    def __add__(self, other: Tally) -> CasinoHoldemTally:
        seen = self.meter_seen_total + getattr(other, "meter_seen_total", Fraction(0))
        return CasinoHoldemTally(**self._added(other), meter_seen_total=seen)

    @property
    def mean_meter(self) -> Fraction:
        return self.meter_seen_total / max(1, self.rounds)
