"""The gaming day: the span of time a day's report covers.

A casino's day does not end at midnight: it ends when the house closes its books, usually in
the small hours, in the casino's own time zone (the New Jersey daily reports run "from 6:00
a.m." to 6:00 a.m. of the next day, for example). The operator sets both; the default is
06:00 in the server's own zone. Day ``D`` is ``[D at start, D + 1 at start)``: a round
belongs to the day it ended in, a ledger movement to the day it was posted in.

>>> day = GamingDay.parse("06:00", "Europe/Madrid")
>>> start, end = day.window(date(2026, 7, 1))
>>> datetime.fromtimestamp(start, UTC).isoformat(), (end - start) / 3600
('2026-07-01T04:00:00+00:00', 24.0)
>>> start, end = day.window(date(2026, 10, 24))  # clocks go back at 03:00 on the 25th
>>> (end - start) / 3600
25.0
>>> day.day_of(start - 1)
datetime.date(2026, 10, 23)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croupier.errors import CroupierError

DEFAULT_START = time(6, 0)
"""When a gaming day begins unless the operator says otherwise."""

_CLOCK = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


class GamingDayError(CroupierError, ValueError):
    """A gaming day's start or zone, or a report's date, that cannot be read."""


def parse_date(text: str) -> date:
    """A report's date, ``YYYY-MM-DD`` exactly."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise GamingDayError(f"date: {text!r} is not YYYY-MM-DD")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise GamingDayError(f"date: {text!r} is no day of the calendar") from None


@dataclass(frozen=True)
class GamingDay:
    """When the house's day begins (``start``, wall-clock time) and in which zone
    (``zone``: an IANA name; ``None``: the server's own local zone)."""

    start: time = DEFAULT_START
    zone: str | None = None

    @classmethod
    def parse(cls, start: str, zone: str | None = None) -> GamingDay:
        """``start`` as ``HH:MM`` (24-hour clock), ``zone`` an IANA name such as
        ``America/Lima`` (``None`` or empty: the server's zone)."""
        match = _CLOCK.fullmatch(start)
        if match is None:
            raise GamingDayError(f"gaming day start: {start!r} is not HH:MM (00:00 to 23:59)")
        day = cls(time(int(match.group(1)), int(match.group(2))), zone or None)
        day.tz()  # an unknown zone is refused now, not at the first report
        return day

    def tz(self) -> tzinfo:
        if self.zone is None:
            local = datetime.now().astimezone().tzinfo
            assert local is not None
            return local
        try:
            return ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise GamingDayError(f"time zone: {self.zone!r} is not an IANA zone") from None

    @property
    def zone_name(self) -> str:
        return self.zone or str(datetime.now().astimezone().tzname())

    def opening(self, day: date) -> float:
        """When gaming day ``day`` begins, in epoch seconds (the clock the records keep)."""
        return datetime.combine(day, self.start, tzinfo=self.tz()).timestamp()

    def window(self, day: date) -> tuple[float, float]:
        """Gaming day ``day`` as ``[start, end)`` in epoch seconds."""
        return self.opening(day), self.opening(day + timedelta(days=1))

    def day_of(self, seconds: float) -> date:
        """The gaming day an instant (epoch seconds) belongs to."""
        local = datetime.fromtimestamp(seconds, UTC).astimezone(self.tz())
        day = local.date()
        return day if local.time() >= self.start else day - timedelta(days=1)
