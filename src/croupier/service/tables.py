"""Live tables: one ``Casino`` per server process, and the one way a command reaches a table.

The table service is in parts, each readable on its own:

- ``live``: a table in memory (``LiveTable``) and what the database must hold the same;
- ``registry``: the tables, the operator's settings, and recovery from the database;
- ``players``: what a player does (sit, leave, bet, ready, decide);
- ``rounds``: a round's life (its shoe, opening, the deal, each step, settlement, void);
- ``money``: stakes, settlement postings, voids, and Spain 1979's back bets;
- ``deadlines``: the betting window and each decision's time, with back-off on failure;
- ``absence``: seats whose player lets rounds pass without a bet sit out, then are freed;
- ``publishing``: the snapshot readers get and the pushes to subscribers.

``Casino`` wires them and owns ``run``: each handler runs under its table's lock and inside
one unit of work, so a state change and the money it moves commit together (R10); after any
failure, memory is rebuilt from what the database holds.
"""

from __future__ import annotations

import logging
from typing import Any

from croupier.clock import Clock
from croupier.errors import CroupierError
from croupier.service.broadcast import Broadcaster
from croupier.service.corrections import DealerCorrections
from croupier.service.deadlines import Deadlines
from croupier.service.fail_safe import FailSafe
from croupier.service.live import PLAYERS, LiveTable
from croupier.service.money import Money
from croupier.service.players import Players
from croupier.service.publishing import Publisher
from croupier.service.registry import Registry
from croupier.service.rounds import Rounds
from croupier.service.unit_of_work import UnitOfWork

__all__ = ["PLAYERS", "Casino", "LiveTable"]

log = logging.getLogger("croupier.tables")


class Casino:
    """Every live table of one server process, and the handlers that drive them."""

    def __init__(self, uow: UnitOfWork, clock: Clock, broadcaster: Broadcaster) -> None:
        self.uow = uow
        self.clock = clock
        self.broadcaster = broadcaster
        self.usernames: dict[int, str] = {}
        self.fail_safe = FailSafe()
        """R17: no table command while a fault stands (``fail_safe.install`` gives it probes)."""
        self.money = Money(clock)
        self.rounds = Rounds(clock, self.money)
        self.publisher = Publisher(broadcaster, self.usernames)
        self.registry = Registry(uow, clock, self.rounds, self.publisher)
        self.tables = self.registry.tables
        self.players = Players(clock, self.rounds, self.publisher)
        self.deadlines = Deadlines(
            clock, self.tables, self.rounds, self.run, lambda: self.fail_safe.is_engaged
        )
        # The entry points the server calls; a handler runs inside ``run``.
        self.table = self.registry.table
        self.create_table = self.registry.create_table
        self.set_open = self.registry.set_open
        self.set_limits = self.registry.set_limits
        self.load = self.registry.load
        self.reload = self.registry.reload
        self.rebuilt = self.registry.rebuilt
        self.sit = self.players.sit
        self.leave = self.players.leave
        self.place_bet = self.players.place_bet
        self.ready = self.players.ready
        self.act = self.players.act
        corrections = DealerCorrections(clock, self.rounds)
        self.correct = corrections.correct
        self.legal_corrections = corrections.legal
        self.back_bet = self.money.back_bet
        self.consent = self.money.consent
        self.confirm_procedure = self.rounds.confirm_procedure
        self.enter_card = self.rounds.enter_card
        self.tick = self.deadlines.tick
        self.snapshot = self.publisher.snapshot
        self.state_message = self.publisher.state_message
        self.publish = self.publisher.publish

    def run(self, table_id: int, work: Any) -> Any:
        """``work(session, live)`` under the table's lock in one transaction.

        After any failure, memory equals what the database holds (issue 10, item 3): a
        failed statement, flush or commit, or a refusal after the engine changed, rebuilds the
        table from the database; a transaction retried ("database is locked", 40001, 40P01)
        starts again from the rebuilt table, so nothing of the failed attempt is applied twice.

        While the fail safe is engaged (R17), or when the failure was a fault it finds, the
        answer is ``FailSafeEngaged``.
        """
        self.fail_safe.verify_clear()
        try:
            return self._run(table_id, work)
        except Exception as error:
            refusal = self.fail_safe.refusal_for(error)
            if refusal is None:
                raise
            raise refusal from error

    def _run(self, table_id: int, work: Any) -> Any:
        live = self.table(table_id)
        with live.lock:
            if live.is_stale:
                self.reload(table_id)  # the database was away when a command last failed
            before = _fingerprint(live)
            try:
                result = self.uow.run(
                    lambda session: work(session, live), before_retry=lambda: self.reload(table_id)
                )
            except BaseException as error:
                # A refusal before anything changed needs no rebuild (most bad requests).
                if not isinstance(error, CroupierError) or _fingerprint(live) != before:
                    self._rebuild_after_failure(live)
                raise
            live.published = self.publisher.publishable(live)
        self.broadcaster.publish(table_id)
        return result

    def _rebuild_after_failure(self, live: LiveTable) -> None:
        try:
            self.reload(live.id)
        except Exception as error:  # the command's own error is what the caller hears
            log.warning(
                "table %s: not rebuilt after a failed command (%s): rebuilt before the next",
                live.name,
                error,
            )
            return
        self.publish(live)


def _fingerprint(live: LiveTable) -> tuple[Any, ...]:
    """What a command may change in memory, cheaply: a refusal that leaves it the same
    changed nothing."""
    events = -1 if live.round is None else len(live.round.events)
    return (
        id(live.round),
        events,
        live.round_id,
        live.status,
        live.deadline,
        sorted(live.ready),
        repr(sorted(live.held.items())),
        sorted(live.seats.items()),
        live.is_open,
        live.shoe_id,
        id(live.shoe),
        None if live.shoe is None else live.shoe.position,
        len(live.players),
        id(live.profile),
        id(live.next_profile),
    )
