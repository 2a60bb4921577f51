"""Live tables: one ``Casino`` per server process, and the one way a command reaches a table.

The table service is in parts, each readable on its own:

- ``live``: a table in memory (``LiveTable``) and what the database must hold the same;
- ``registry``: the tables, the operator's settings, and recovery from the database;
- ``players``: a player's seat (sit, leave);
- ``rounds``: a round's life (its shoe, opening, the bets, ready, the deal, each decision,
  settlement, void);
- ``money``: stakes, settlement postings, voids, and Spain 1979's back bets;
- ``deadlines``: the betting window and each decision's time, with back-off on failure;
- ``absence``: seats whose player lets rounds pass without a bet sit out, then are freed;
- ``publishing``: the snapshot readers get and the pushes to subscribers.

``Casino`` wires them and owns ``handle``, the one way a command (``commands``) reaches a
table or the office's books (a credit, a role, a dispute): the caller's check, idempotency,
the table's lock and one unit of work (``run``: ``UnitOfWork.run``), so a state change and
the money it moves commit together (R10); after any failure, memory is rebuilt from what the database holds.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy.orm import Session

from croupier.clock import Clock
from croupier.errors import CroupierError
from croupier.gaming_day import GamingDay
from croupier.ledger.book import Ledger
from croupier.service import (
    approvals,
    disputes,
    engines,
    history,
    payout_corrections,
    physical,
    protection,
    staff,
    wallets,
)
from croupier.service.accounts import Principal
from croupier.service.commands import (
    CREATES,
    MOVES_MONEY,
    AnswerApproval,
    AskBackBet,
    AssignDealer,
    Command,
    ConfirmProcedure,
    Consent,
    Correct,
    CreateTable,
    Credit,
    Debit,
    Decide,
    DecideCorrection,
    DecideDispute,
    EnterCard,
    FileDispute,
    GrantRole,
    Leave,
    Once,
    PlaceBet,
    ProposeCorrection,
    Ready,
    RemoveRole,
    SetLimits,
    SetOpen,
    SetProtectionLimit,
    Sit,
    TakePause,
    UnassignDealer,
    VoidRound,
)
from croupier.service.corrections import DealerCorrections
from croupier.service.deadlines import Deadlines
from croupier.service.errors import Forbidden, NotFound
from croupier.service.fail_safe import FailSafe
from croupier.service.leases import Ownership, TableMoved, run_elsewhere
from croupier.service.live import PLAYERS, LiveTable
from croupier.service.money import Money
from croupier.service.players import Players
from croupier.service.protection import PauseKind, Setter
from croupier.service.publishing import Broadcaster, Publisher
from croupier.service.registry import Registry
from croupier.service.rounds import RoundRows, Rounds
from croupier.service.staff import ApprovalKind
from croupier.service.unit_of_work import (
    Answer,
    Answers,
    Stage,
    StoredAnswers,
    UnitOfWork,
    check_key,
)

__all__ = ["PLAYERS", "Casino", "LiveTable"]

log = logging.getLogger("croupier.tables")


class Casino:
    """Every live table of one server process: ``handle`` carries out a command, the rest
    are named queries (``table``, ``legal_corrections``, ``rebuilt``) and the server's own
    steps (``load``, ``reload``, ``tick``, ``publish``); what readers see of a table is the
    ``publisher``'s (``Publisher.snapshot``, ``Publisher.state_message``)."""

    def __init__(
        self,
        uow: UnitOfWork,
        clock: Clock,
        broadcaster: Broadcaster,
        answers: Answers | None = None,
        *,
        ledger: Ledger | None = None,
        round_rows: RoundRows | None = None,
        gaming_day: GamingDay | None = None,
    ) -> None:
        """``answers``, ``ledger`` and ``round_rows`` are the repositories a command writes
        through (the database's when ``None``; a test's in memory: ``tests/service``);
        ``gaming_day`` is the house's day, which a player's limits are counted by."""
        self.uow = uow
        self.answers = answers or StoredAnswers()
        """Each keyed request's answer (R8), kept in its command's transaction."""
        self.clock = clock
        self.broadcaster = broadcaster
        self.usernames: dict[int, str] = {}
        self.fail_safe = FailSafe()
        """R17: no table command while a fault stands (``fail_safe.install`` gives it probes)."""
        self.leases = Ownership()
        """Which tables this process runs (``sharing.install``): every command is fenced."""
        self.money = Money(clock, ledger, gaming_day)
        self.rounds = Rounds(clock, self.money, round_rows)
        self.publisher = Publisher(broadcaster, self.usernames)
        self.registry = Registry(uow, clock, self.rounds, self.publisher)
        self.tables = self.registry.tables
        self.players = Players(clock, self.rounds, self.publisher)
        self.corrections = DealerCorrections(clock, self.rounds)
        self.deadlines = Deadlines(
            clock, self.tables, self.rounds, self.run, lambda: self.fail_safe.is_engaged
        )

    # --- the one entry point of every command ----------------------------------------------
    def handle(self, command: Command, once: Once | None = None) -> Answer:
        """Carry out ``command`` and answer ``(status, body)``: 201 for something new (a table,
        a role, a dispute, a proposed correction: ``commands.CREATES``), 202 for a request that
        waits for a second inspector (``approvals``), else 200.

        In order: the table (404), the request's key (``once``: R8; ``None`` only for the
        server's own commands), the fail safe (R17), the table's lock and one transaction
        (``run``): the unit of work's command transaction (``UnitOfWork.run``), in which a
        repeat finds its stored answer, the caller is checked (``_verify_caller``), the command
        is carried out (``_carry_out``: the engine, money, saving, audit rows), its answer is
        stored and, last, the lease's fence is checked (issue 29); then the table is
        published. A command of the office (``commands.OfficeCommand``) holds no table: one
        transaction of its own, refused by the fail safe where it moves money
        (``commands.MOVES_MONEY``). A new check on every command (a player's limit) goes in
        ``_verify_caller``.
        """
        table_id = self._table_of(command)
        if table_id is not None:
            self.table(table_id)  # 404 before anything else
        if once is not None:
            check_key(once.key)

        def work(session: Session, live: LiveTable | None) -> Answer:
            self._verify_caller(session, live, command)
            body = self._carry_out(session, live, command)
            return _status_of(command, body), body

        answer: Answer
        if table_id is None:
            if isinstance(command, MOVES_MONEY):  # R17, as a table's command
                self.fail_safe.verify_clear(type(command).__name__)
            answer = self.uow.run(
                lambda session: work(session, None), once=once, answers=self.answers
            )
        else:
            answer = self.run(table_id, work, once)
        if isinstance(command, CreateTable):  # the engine ready before the first player waits
            engines.warm_up(self.table(answer[1]["table"]).profile)
        return answer

    def _table_of(self, command: Command) -> int | None:
        """The table whose lock ``command`` runs under, if any."""
        match command:
            case (
                CreateTable()
                | DecideDispute()
                | Credit()
                | Debit()
                | GrantRole()
                | RemoveRole()
                | FileDispute()
                | ProposeCorrection()
                | DecideCorrection()
                | SetProtectionLimit()
                | TakePause()
            ):
                return None  # the cashier's or the staff's office: one transaction of its own
            case VoidRound(round=round_id):
                return self.uow.read(lambda session: history.table_of_round(session, round_id))
            case AnswerApproval(approval=approval_id):
                kind, table_id = self.uow.read(
                    lambda session: approvals.kind_and_table(session, approval_id)
                )
                # A void is answered under its table's lock; a dispute's answer touches none.
                return table_id if kind is ApprovalKind.VOID else None
            case _:
                return command.table

    def _verify_caller(self, session: Session, live: LiveTable | None, command: Command) -> None:
        """Whether the caller may give ``command`` at all (the engine checks the rest): their
        own seat, a player who is not the house's staff (docs/rules.md#D-GEN-17), the dealer
        assigned to the table. The operator's commands were checked at the edge (``Operator``)."""
        match command:
            case Leave(by=by, seat=seat) | PlaceBet(by=by, seat=seat) | Decide(by=by, seat=seat):
                assert live is not None
                if live.seats.get(seat) != by.user_id:
                    raise Forbidden(f"seat {seat} is not yours", code="seat_not_yours", seat=seat)
            case Ready(by=by):
                assert live is not None
                if by.user_id not in live.seats.values():
                    raise Forbidden("only a seated player says ready", code="ready_not_seated")
        match command:
            case Sit(by=by) | PlaceBet(by=by) | AskBackBet(by=by):
                now = self.clock.now()
                protection.verify_not_staff(session, by, now)
                if isinstance(command, Sit):  # a stake's check is where its amount is known
                    protection.verify_not_paused(session, by.user_id, now)
            case (
                ConfirmProcedure(table=table_id, by=by)
                | EnterCard(table=table_id, by=by)
                | Correct(table=table_id, by=by)
            ):
                staff.verify_dealer_at(session, by, table_id)
            case VoidRound(by=by):
                assert live is not None
                staff.verify_runs_table(
                    session, by, live.id, "voids its round", code="void_dealer_only"
                )

    def _carry_out(
        self, session: Session, live: LiveTable | None, command: Command
    ) -> dict[str, Any]:
        """``command`` on its table: one case per command, each the service's one call."""
        now = self.clock.now()
        match command:  # the office's: no table, or (an approval) the table's if any
            case CreateTable():
                created = self.registry.create_table(session, command)
                self.leases.grant(session, created["table"])  # issue 29: its creator runs it
                return created
            case AnswerApproval():
                return approvals.decide(session, self.rounds, live, command, now)
            case DecideDispute(by=by, dispute=dispute, decision=decision, reason=reason):
                return disputes.decide(
                    session, by, dispute, decision, reason, command.corrections, now
                )
            case Credit(username=username, amount=amount):
                day = self.money.gaming_day  # a deposit limit's periods
                ledger = self.money.ledger
                return wallets.move(
                    session, ledger, username, amount, "credit", now, gaming_day=day
                )
            case Debit(username=username, amount=amount):
                return wallets.move(session, self.money.ledger, username, amount, "debit", now)
            case SetProtectionLimit(by=by, player=None, kind=kind, period=period):
                return protection.set_limit(
                    session,
                    by.user_id,
                    by.user_id,
                    Setter.PLAYER,
                    kind,
                    period,
                    command.amount,
                    now,
                )
            case SetProtectionLimit(by=by, player=str(player), kind=kind, period=period):
                user_id = wallets.user_id_of(session, player)
                return protection.set_limit(
                    session, user_id, by.user_id, Setter.OPERATOR, kind, period, command.amount, now
                )
            case TakePause(by=by, kind=PauseKind.BREAK, length=days):
                return protection.take_break(session, by.user_id, days, now)
            case TakePause(by=by, kind=PauseKind.SELF_EXCLUSION, length=months):
                return protection.self_exclude(
                    session, by.user_id, months, now, self.money.gaming_day
                )
            case GrantRole(by=by, username=username, role=role):
                return staff.grant(session, by, username, role, now)
            case RemoveRole(by=by, username=username, role=role):
                return staff.remove(session, by, username, role, now)
            case FileDispute(by=by, round=round_id, text=text):
                return disputes.file_dispute(session, by, round_id, text, now)
            case ProposeCorrection(by=by, round=round_id, username=username):
                amount, reason = command.amount, command.reason
                return payout_corrections.propose(
                    session, by, round_id, username, amount, reason, now
                )
            case DecideCorrection(by=by, correction=correction_id, decision=decision):
                return payout_corrections.decide(
                    session, by, correction_id, decision, command.reason, now
                )
        assert live is not None
        match command:
            case Sit(by=by, seat=seat):
                return self.players.sit(session, live, by, seat)
            case Leave(by=by, seat=seat):
                return self.players.leave(session, live, by, seat)
            case PlaceBet():
                return self.rounds.place_bet(session, live, command)
            case Ready():
                return self.rounds.ready(session, live, command.by)
            case Decide(seat=seat):
                return self.rounds.decide(session, live, seat, command.action(), timeout=False)
            case AskBackBet():
                return self.money.back_bet(session, live, command)
            case Consent(by=by, back_bet=back_bet, accept=accept):
                return self.money.consent(session, live, by, back_bet, accept)
            case ConfirmProcedure(by=by, procedure=procedure):
                return physical.confirm(session, live, procedure, by.username, self.rounds)
            case EnterCard(by=by, card=card):
                live.verify_not_waiting()
                return physical.enter(session, live, card, self.rounds, by)
            case Correct(by=by, correction=correction):
                return self.corrections.correct(session, live, by, correction)
            case VoidRound(by=by, round=round_id, reason=reason):
                return payout_corrections.void_round(
                    session, self.rounds, live, by, round_id, reason, now
                )
            case SetOpen(is_open=is_open):
                return self.registry.set_open(session, live, is_open)
            case SetLimits():
                return self.registry.set_limits(session, live, command)
            case AssignDealer(by=by, table=table_id, username=username):
                return staff.assign_dealer(session, by, table_id, username, now)
            case UnassignDealer(by=by, table=table_id, username=username):
                return staff.unassign_dealer(session, by, table_id, username, now)
        raise AssertionError(f"no case for {command!r}")  # pragma: no cover

    # --- one table's transaction -----------------------------------------------------------
    def run(self, table_id: int, work: Any, once: Once | None = None) -> Any:
        """``work(session, live)`` under the table's lock in one transaction, fenced (issue
        29), answered once for ``once``'s key (R8: ``UnitOfWork.run``).

        After any failure, memory equals what the database holds (issue 10, item 3): a
        failed statement, flush or commit, or a refusal after the engine changed, rebuilds the
        table from the database; a transaction retried ("database is locked", 40001, 40P01)
        starts again from the rebuilt table, so nothing of the failed attempt is applied twice.

        While the fail safe is engaged (R17), or when the failure was a fault it finds, the
        answer is ``FailSafeEngaged``.
        """
        self.fail_safe.verify_clear()
        try:
            return self._run(table_id, work, once)
        except Exception as error:
            refusal = self.fail_safe.refusal_for(error)
            if refusal is None:
                raise
            raise refusal from error

    def _run(self, table_id: int, work: Any, once: Once | None) -> Any:
        live = self.table(table_id)
        asked = time.perf_counter()
        with live.lock:
            self.uow.timed(Stage.TABLE_LOCK_WAIT, time.perf_counter() - asked)
            if self.tables.get(table_id) is not live:
                # Forgotten while this command waited for its lock: its lease lost (issue 29),
                # its memory perhaps holding what the fence refused to commit (a round never
                # stored, which a bet's row would name: a foreign-key error, 500, in the
                # chaos runs). Its new owner answers (the forwarding retries it there).
                raise run_elsewhere(table_id)
            if live.is_stale:
                self.reload(table_id)  # the database was away when a command last failed
            before, round_before = _fingerprint(live), live.round_id
            try:
                result = self.uow.run(
                    lambda session: work(session, live),
                    before_retry=lambda: self.reload(table_id),
                    once=once,
                    answers=self.answers,
                    fence=self.leases.fencing,
                    table=table_id,
                )
            except BaseException as error:
                moved = (
                    None
                    if isinstance(error, TableMoved) or not isinstance(error, Exception)
                    else self.leases.lost_meanwhile(table_id)
                )
                if moved is not None:  # failed on memory another process has moved past
                    raise moved from error
                # A refusal before anything changed needs no rebuild (most bad requests).
                if not isinstance(error, CroupierError) or _fingerprint(live) != before:
                    self._rebuild_after_failure(live)
                raise
            built = time.perf_counter()
            live.published = self.publisher.publishable(live)
            self.uow.timed(Stage.PUBLISH, time.perf_counter() - built)
        self.broadcaster.publish(table_id)
        if live.round_id != round_before:
            self.leases.round_ended(table_id)  # issue 29: the moment a table may move
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

    # --- queries ----------------------------------------------------------------------------
    def table(self, table_id: int) -> LiveTable:
        """The live table ``table_id`` (``self.tables`` is the registry's own), or 404."""
        live = self.tables.get(table_id)
        if live is None:
            raise NotFound(f"no table {table_id}", code="no_such_table", table=table_id)
        return live

    def legal_corrections(self, table_id: int, who: Principal) -> dict[str, Any]:
        """What the table's dealer may correct now (nothing is written)."""
        live = self.table(table_id)
        with live.lock:  # the round as it stands between two commands
            answer: dict[str, Any] = self.uow.read(
                lambda session: self.corrections.legal(session, live, who)
            )
        return answer

    def rebuilt(self, table_id: int) -> LiveTable:
        return self.registry.rebuilt(table_id)

    # --- the server's own steps -------------------------------------------------------------
    def load(self) -> list[str]:
        return self.registry.load()

    def reload(self, table_id: int) -> None:
        self.registry.reload(table_id)

    def tick(self, *, wait: bool = False) -> None:
        self.deadlines.tick(wait=wait)

    def publish(self, live: LiveTable) -> None:
        self.publisher.publish(live)


def _status_of(command: Command, body: dict[str, Any]) -> int:
    """The answer's HTTP status: one place for what four eyes hold back (issue 25)."""
    if body.get("status") == approvals.AWAITING:
        return 202
    return 201 if isinstance(command, CREATES) else 200


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
