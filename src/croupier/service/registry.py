"""The live tables of one server process: opening one, the operator's settings, and
bringing each back from the database (at start, and after any command that failed).

A table's rules are read from its row (``profile_document``), never from a file again; the
round under way is rebuilt by the one ``replay`` from its events, dealt from its shoe (the
seed, the round's starting place); a round that cannot be rebuilt is voided with every stake
returned (R11), and a table whose rules cannot be read stays out of play, its stakes held.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.clock import Clock
from croupier.errors import CroupierError, ProfileError
from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.ledger import book
from croupier.rules.base import Profile
from croupier.rules.registry import load_profile
from croupier.service import absence, engines, limits, pace, physical, table_rules
from croupier.service.commands import CreateTable, SetLimits
from croupier.service.errors import Conflict
from croupier.service.live import LiveTable
from croupier.service.models import (
    IN_PROGRESS,
    BackBet,
    BackBetStatus,
    GameTable,
    RoundPlayer,
    RoundRecord,
    ShoeRecord,
    User,
)
from croupier.service.publishing import Publisher
from croupier.service.rounds import Rounds
from croupier.service.staff import ApprovalKind, ApprovalStatus
from croupier.service.staff_models import ApprovalRecord
from croupier.service.unit_of_work import UnitOfWork, on_commit
from croupier.shoe import Shoe

log = logging.getLogger("croupier.tables")

KEPT_ON_RELOAD = ("lock", "published", "deadline_failures", "retry_at")
"""What a table keeps of itself when it is rebuilt in place from the database."""


class Registry:
    """Every live table of one server process, by id."""

    def __init__(self, uow: UnitOfWork, clock: Clock, rounds: Rounds, publisher: Publisher) -> None:
        self.uow = uow
        self.clock = clock
        self.rounds = rounds
        self.publisher = publisher
        self.tables: dict[int, LiveTable] = {}

    # --- the operator's -------------------------------------------------------------------
    def create_table(self, session: Session, command: CreateTable) -> dict[str, Any]:
        """A new table of ``command.profile``; ``sit_out_after`` and ``free_after`` are its
        absent-player rounds (docs/rules.md#D-GEN-15), ``None`` for the server's defaults;
        ``shoe``: ``random`` (the server's own shuffled shoe) or ``physical`` (a dealer deals
        from a real shoe, ``service.physical``)."""
        name, profile_name, shoe = command.name, command.profile, command.shoe
        profile = load_profile(profile_name)
        engines.round_class(profile)  # the game must be playable before the table opens
        if session.scalar(select(GameTable.id).where(GameTable.name == name)) is not None:
            raise Conflict(f"a table named {name!r} exists", code="table_name_taken", name=name)
        document = table_rules.document(profile)
        record = GameTable(
            name=name,
            game=profile.game,
            profile=profile_name,  # a shipped name, or the path of the operator's own file
            # The rules themselves: no later start reads the file again (issue 10, item 1).
            profile_document=document,
            rules_version=table_rules.version_of(profile.name, document),
            is_open=True,
            betting_seconds=command.betting_seconds,
            decision_seconds=command.decision_seconds,
            seats={},
            sit_out_after=command.sit_out_after,
            free_after=command.free_after,
            shoe=physical.PHYSICAL if shoe == physical.PHYSICAL else None,
        )
        session.add(record)
        session.flush()
        live = _live_table(session, record, profile)
        self.rounds.new_shoe(session, live)
        self.rounds.new_round(session, live)
        live.published = self.publisher.publishable(live)

        def register() -> None:
            self.tables[live.id] = live

        # Only a committed table is live: a failed commit leaves no table in memory.
        on_commit(session, register)
        return {"table": live.id, "name": live.name, "profile": live.profile.name}

    def set_open(self, session: Session, live: LiveTable, is_open: bool) -> dict[str, Any]:
        record = session.get(GameTable, live.id)
        assert record is not None
        record.is_open = is_open
        live.is_open = is_open
        if live.game_round.is_betting and not live.held:
            # A closed table counts no rounds missed: nobody can bet there (D-GEN-15).
            opens = is_open and bool(live.seats)
            live.deadline = self.clock.now() + live.betting_seconds if opens else None
            self.rounds.save(session, live)
        return {"table": live.id, "is_open": is_open}

    def set_limits(self, session: Session, live: LiveTable, command: SetLimits) -> dict[str, Any]:
        """The operator's limits for one wager, from the table's next round on; an impossible
        value is a ``ProfileError`` naming it, and changes nothing."""
        table_id, wager = live.id, command.wager
        minimum, maximum = command.minimum, command.maximum
        record = session.get(GameTable, table_id)
        assert record is not None
        kept = record.limits or {}
        overrides = {**kept.get("wagers", {}), wager: {"minimum": minimum, "maximum": maximum}}
        profile = limits.with_limits(_stored_profile(record), overrides)
        record.limits = limits.stored(kept, wager, minimum, maximum, live.round_id)
        live.next_profile = profile
        return {
            "table": table_id,
            "wager": wager,
            "minimum": minimum,
            "maximum": maximum,
            "from_round_after": live.round_id,
            "limits": limits.wagers_json(profile),
            "rules_version": engines.rules_version(profile),
        }

    # --- recovery ---------------------------------------------------------------------
    def load(self) -> list[str]:
        """Bring every table back from the database (server start); returns what was done."""
        notes: list[str] = []
        table_ids = self.uow.read(
            lambda s: list(s.scalars(select(GameTable.id).order_by(GameTable.id)))
        )
        for table_id in table_ids:
            notes += self.uow.run(lambda s, tid=table_id: self._load_table(s, tid))  # type: ignore[misc]
        return notes

    def load_table(self, table_id: int, check: Callable[[Session], None]) -> list[str]:
        """Bring one table back from the database, as at start (a table whose lease this
        process has just taken, ``service.leases``); ``check(session)`` runs last in the same
        transaction (the lease's fence), and the table is live only once that commits."""

        def work(session: Session) -> list[str]:
            notes = self._load_table(session, table_id)
            live = self.tables.pop(table_id, None)
            check(session)
            if live is not None:
                on_commit(session, lambda: self.tables.__setitem__(table_id, live))
            return notes

        return self.uow.run(work)

    def _load_table(self, session: Session, table_id: int) -> list[str]:
        record = session.get(GameTable, table_id)
        assert record is not None
        if record.profile_document is None:
            # A table from before revision 0003 whose file could not be read when the
            # database was migrated: the file once more, and then never again.
            try:
                profile = load_profile(record.profile)
            except ProfileError as error:
                return [_left_out(record, error)]
            record.profile_document = table_rules.document(profile)
            record.rules_version = table_rules.version_of(profile.name, record.profile_document)
        try:
            live, notes = self._built(session, record, resuming=True)
        except ProfileError as error:
            return [_left_out(record, error)]
        for user in session.scalars(select(User).where(User.id.in_(live.seats.values()))):
            self.publisher.usernames[user.id] = user.username
        live.published = self.publisher.publishable(live)
        self.tables[live.id] = live
        return notes

    def _built(
        self, session: Session, record: GameTable, *, resuming: bool
    ) -> tuple[LiveTable, list[str]]:
        """The table as the database holds it: rules, seats, and the round under way."""
        in_progress = session.scalar(
            select(RoundRecord.id).where(
                RoundRecord.table_id == record.id, RoundRecord.status.in_(IN_PROGRESS)
            )
        )
        profile, next_profile = limits.profiles_at_start(
            _stored_profile(record), record.limits, in_progress
        )
        live = _live_table(session, record, profile, next_profile)
        notes = self._restore_round(session, live, resuming=resuming)
        return live, notes

    def _restore_round(self, session: Session, live: LiveTable, *, resuming: bool) -> list[str]:
        """Rebuild the round under way from its record, or void it with every stake returned."""
        rounds = self.rounds
        current = session.scalar(
            select(RoundRecord)
            .where(RoundRecord.table_id == live.id, RoundRecord.status.in_(IN_PROGRESS))
            .order_by(RoundRecord.id.desc())
        )
        if current is None:
            rounds.new_shoe_if_needed(session, live)
            rounds.new_round(session, live)
            return [f"table {live.name}: no round under way; a new one is open for bets"]
        shoe_record = session.get(ShoeRecord, current.shoe_id)
        assert shoe_record is not None
        live.shoe_id = shoe_record.id
        live.round_id = current.id
        live.start_position = current.start_position
        live.deadline = current.deadline
        live.ready = {int(user) for user in current.ready}
        live.held = {int(seat): dict(value) for seat, value in current.stakes.items()}
        live.players = {
            (int(seat), int(user))
            for seat, user in session.execute(
                select(RoundPlayer.seat, RoundPlayer.user_id).where(
                    RoundPlayer.round_id == current.id
                )
            )
        }
        live.back_bets = accepted_back_bets(session, current.id)
        # A void that waits for an inspector survives the restart: the round stands still.
        live.void_waiting = session.scalar(
            select(ApprovalRecord.id).where(
                ApprovalRecord.round_id == current.id,
                ApprovalRecord.kind == str(ApprovalKind.VOID),
                ApprovalRecord.status == str(ApprovalStatus.AWAITING),
            )
        )
        try:
            shoe: Shoe
            if live.is_physical:
                # Every card out of the shoe, this round's the last: the replay deals this
                # round's again from its start and stops where it waits for a card.
                shoe = physical.shoe_of(session, shoe_record).at(current.start_position)
                physical.restore(session, live, shoe_record)
            else:
                seed = bytes.fromhex(shoe_record.seed_hex)
                shoe = engines.shoe_at(live.profile, seed, current.start_position)
            # The one replay (``games.replay.replay``): the commands the events were made by,
            # dealt again from the live shoe, must give the same events, card for card.
            game_round = replay(
                [Event.from_json(item) for item in current.events], live.profile, shoe=shoe
            )
        except (CroupierError, ValueError, KeyError) as error:
            rounds.void(session, live, current, f"interrupted: cannot be rebuilt ({error})")
            rounds.new_shoe_if_needed(session, live, force=True)
            rounds.new_round(session, live)
            return [f"table {live.name}: round {current.id} voided, stakes returned: {error}"]
        live.shoe = shoe
        live.round = game_round
        if not resuming:
            return []
        now = self.clock.now()
        if not game_round.is_betting and live.deadline is not None:
            # The outage is not the player's delay: the decision gets its full time again,
            # however much was left, from when the pages can reach the server (``pace``).
            live.deadline = now + live.decision_seconds + pace.RECONNECT_SECONDS
            current.deadline = live.deadline
        elif live.deadline is not None and live.deadline < now:
            # A betting window that ran out while nobody could bet is no round missed
            # (docs/rules.md#D-GEN-15): it runs again from now.
            live.deadline = now + live.betting_seconds
            current.deadline = live.deadline
        if game_round.is_done:
            rounds.settle(session, live)  # the crash came between the last decision and settling
            return [f"table {live.name}: round {current.id} settled on restart"]
        return [f"table {live.name}: round {current.id} resumes ({live.status})"]

    def reload(self, table_id: int) -> None:
        """Throw the in-memory table away and rebuild it, in place, from the database. If
        that fails too (the database away), the table is marked stale and rebuilt before its
        next command."""
        live = self.tables.get(table_id)
        if live is None:
            return
        with live.lock:
            live.is_stale = True
            fresh = self.uow.run(lambda s: self._rebuilt(s, table_id))
            for item in fields(LiveTable):
                if item.name not in KEPT_ON_RELOAD:
                    setattr(live, item.name, getattr(fresh, item.name))
            live.is_stale = False

    def rebuilt(self, table_id: int) -> LiveTable:
        """A fresh copy of the table from the database, read only (what a restart would
        rebuild, before resuming): for checks that memory equals the database."""
        return self.uow.read(lambda s: self._rebuilt(s, table_id))

    def _rebuilt(self, session: Session, table_id: int) -> LiveTable:
        record = session.get(GameTable, table_id)
        assert record is not None
        fresh, _notes = self._built(session, record, resuming=False)
        return fresh


def _live_table(
    session: Session, record: GameTable, profile: Profile, next_profile: Profile | None = None
) -> LiveTable:
    """The table as its row holds it, before any round: its rules, settings and seats."""
    return LiveTable(
        id=record.id,
        name=record.name,
        profile=profile,
        is_open=record.is_open,
        betting_seconds=record.betting_seconds,
        decision_seconds=record.decision_seconds,
        seats={int(seat): int(user) for seat, user in record.seats.items()},
        escrow=book.open_account(session, "escrow", f"table:{record.id}"),
        next_profile=next_profile,
        absences={int(seat): int(n) for seat, n in (record.absences or {}).items()},
        sit_out_after=absence.SIT_OUT_AFTER_ROUNDS
        if record.sit_out_after is None
        else record.sit_out_after,
        free_after=absence.FREE_AFTER_ROUNDS if record.free_after is None else record.free_after,
        is_physical=record.shoe == physical.PHYSICAL,
    )


def accepted_back_bets(session: Session, round_id: int) -> list[dict[str, Any]]:
    """The round's accepted back bets as the live table keeps them (``LiveTable.back_bets``)."""
    rows = session.execute(
        select(BackBet, User.username)
        .join(User, User.id == BackBet.user_id)
        .where(BackBet.round_id == round_id, BackBet.status == str(BackBetStatus.ACCEPTED))
        .order_by(BackBet.id)
    ).all()
    return [
        {"id": b.id, "seat": b.seat, "user": b.user_id, "backer": name, "minor": b.amount}
        for b, name in rows
    ]


def _stored_profile(record: GameTable) -> Profile:
    """The table's own rules (before the operator's limits), as its row stores them."""
    if record.profile_document is None or record.rules_version is None:
        raise ProfileError(
            f"table {record.name!r}: no rules are stored with it",
            code="table_rules_missing",
            table=record.name,
        )
    return table_rules.from_document(record.game, record.profile_document, record.rules_version)


def _left_out(record: GameTable, error: CroupierError) -> str:
    """A table whose rules cannot be read stays out of play; its round's stakes stay in
    escrow, untouched, until its rules are back (one table never stops the server)."""
    note = f"table {record.name}: left out of play, its stakes held in escrow: {error}"
    log.error(note)
    return note
