"""Time at the live tables: the betting window closes, a decision's default is applied.

``tick`` (called about every 50 ms by the server) applies every deadline that has passed,
each as a command of its table (``Casino.run``). A deadline that fails (a database fault, a
round the engine refuses) is tried again after 1 s, 2 s, 4 s ... at most every minute, and
logged once when it starts failing and once when it is applied again: never a tight loop of
the same line. One table's fault never stops the others' clocks.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from croupier.clock import Clock
from croupier.errors import CroupierError
from croupier.service import absence
from croupier.service.live import LiveTable
from croupier.service.rounds import Rounds

log = logging.getLogger("croupier.tables")

RETRY_FIRST_SECONDS = 1.0
RETRY_MOST_SECONDS = 60.0
"""A deadline that fails is tried again after 1 s, then 2, 4, ... at most every 60 s."""

Run = Callable[[int, Callable[[Session, LiveTable], Any]], Any]
"""``Casino.run``: a table's command under its lock, in one transaction."""


class Deadlines:
    def __init__(
        self,
        clock: Clock,
        tables: dict[int, LiveTable],
        rounds: Rounds,
        run: Run,
        is_halted: Callable[[], bool],
    ) -> None:
        self.clock = clock
        self.tables = tables
        self.rounds = rounds
        self.run = run
        self.is_halted = is_halted
        """R17: time stands still while the fail safe is engaged."""
        self._ticking = threading.Lock()

    def tick(self, *, wait: bool = False) -> None:
        """Apply every deadline that has passed: close betting, or a decision's default.
        One tick at a time: a second caller meanwhile returns at once, unless it ``wait``s
        (a caller that must see this moment's deadlines applied: the running tick may have
        passed its table before the deadline fell due)."""
        if self.is_halted():
            return  # R17: time stands still for rounds interrupted by a fault
        if not self._ticking.acquire(blocking=wait):
            return
        try:
            self._tick()
        finally:
            self._ticking.release()

    def _tick(self) -> None:
        now = self.clock.now()
        for live in list(self.tables.values()):
            if live.deadline is None or live.deadline > now:
                continue
            if live.retry_at is not None and live.retry_at > now:
                continue
            try:
                self.run(live.id, self.expire)
            except Exception as error:  # one table's fault never stops the others' clocks
                live.deadline_failures += 1
                delay = RETRY_FIRST_SECONDS * 2 ** min(live.deadline_failures - 1, 16)
                live.retry_at = now + min(delay, RETRY_MOST_SECONDS)
                if live.deadline_failures == 1:
                    log.warning(
                        "table %s: its deadline failed (%s: %s); retried with back-off",
                        live.name,
                        type(error).__name__,
                        error,
                        exc_info=not isinstance(error, CroupierError),
                    )
                continue
            if live.deadline_failures:
                log.warning(
                    "table %s: deadline applied after %d failed attempts",
                    live.name,
                    live.deadline_failures,
                )
            live.deadline_failures, live.retry_at = 0, None

    def expire(self, session: Session, live: LiveTable) -> None:
        """The table's deadline, if it has passed: the deal (or, short of players, a wait
        for them), or the pending decision's default."""
        if live.deadline is None or live.deadline > self.clock.now():
            return
        if live.void_waiting is not None:
            return  # the round stands still while its void waits (docs/rules.md#D-GEN-18)
        rounds = self.rounds
        if live.game_round.is_betting:
            rounds.return_undealable(session, live, "the betting deadline passed")
            if not rounds.may_deal(live):
                live.deadline = None  # the dealer makes the shoe first; then it deals
                rounds.save(session, live)
            elif rounds.enough_players(live):
                rounds.deal(session, live)
            else:
                # Too few bets to deal (none, or Casino Hold'em's one): the seats without a
                # bet missed a round (D-GEN-15). The next window runs while a seat without a
                # bet is still taken; else the bets wait for players (Hold'em needs two).
                # A close retried after a failure (the database refusing it, and the players'
                # bets as well) ends a window nobody could bet in: no round missed.
                if not live.deadline_failures:
                    absence.window_closed(session, live)
                idle = live.is_open and any(seat not in live.held for seat in live.seats)
                live.deadline = self.clock.now() + live.betting_seconds if idle else None
                rounds.save(session, live)
        else:
            # A decision's default; a round waiting for the dealer's card waits for no one.
            decision = live.game_round.pending()
            if decision is not None:
                rounds.decide(session, live, decision.seat, decision.default, timeout=True)
