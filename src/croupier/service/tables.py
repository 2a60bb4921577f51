"""Live tables: seats, the betting window, each decision in turn, settlement, the shoe's life.

Each handler runs under its table's lock and inside one unit of work, so a state change and
the money it moves commit together (R10). The engine (any ``GameRound``) is kept in memory
for speed, and is rebuilt from the database - the shoe's seed, the round's starting place in
the shoe and its events, replayed - after a restart or whenever a transaction fails.

The round at a table, in order:

1. **betting**: players on their seats place wagers; each stake moves wallet -> escrow in the
   transaction that records the bet. The window closes at its deadline (counted from the
   first bet), or at once when every seated player has said ``ready``.
2. **playing**: ``deal()``; then each ``pending()`` decision waits for its seat's owner until
   its deadline, when the regulation's default (``Decision.default``) is applied.
3. **settlement**: one transaction moves escrow -> wallets and house from ``results()``.
4. the shoe: once its cut card is out (or after every round where a game shuffles every
   round), its seed and order are revealed and a new shoe, committed first, takes its place.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, cast

from sqlalchemy import Table, event, insert, select, update
from sqlalchemy.orm import Session

from croupier.errors import BetError, CroupierError, IllegalActionError, LedgerError, ProfileError
from croupier.fairness import commitment, revealed_document
from croupier.games.base import Action, GameRound, replay
from croupier.games.commands import Act, Bet, Return
from croupier.games.events import Event, RoundVoided
from croupier.ledger import book
from croupier.ledger.postings import MINOR_PER_UNIT, Leg, bet_legs, settlement_legs, to_minor
from croupier.money import parse_amount
from croupier.rules.base import Profile
from croupier.rules.registry import load_profile
from croupier.service import engines, limits, table_rules
from croupier.service.accounts import Principal, wallet_of
from croupier.service.broadcast import Broadcaster
from croupier.service.clock import Clock
from croupier.service.errors import Conflict, Forbidden, NotFound, RequestError
from croupier.service.fail_safe import FailSafe
from croupier.service.faults import crash_point
from croupier.service.models import (
    BackBet,
    GameTable,
    RoundPlayer,
    RoundRecord,
    RuleSet,
    ShoeRecord,
    User,
)
from croupier.service.unit_of_work import UnitOfWork
from croupier.shoe import Shoe

log = logging.getLogger("croupier.tables")

IN_PROGRESS = ("betting", "playing")

RETRY_FIRST_SECONDS = 1.0
RETRY_MOST_SECONDS = 60.0
"""A deadline that fails is tried again after 1 s, then 2, 4, ... at most every 60 s."""

# The hot path writes these with Core statements: loading a round's record into the ORM to
# change it cost more than the write itself.
ROUNDS = cast(Table, RoundRecord.__table__)
PLAYERS = cast(Table, RoundPlayer.__table__)


@dataclass
class LiveTable:
    """What a table's engine needs in memory; the database holds the same, durably."""

    id: int
    name: str
    profile: Profile
    is_open: bool
    betting_seconds: float
    decision_seconds: float
    seats: dict[int, int]
    escrow: int
    shoe_id: int = 0
    shoe: Shoe | None = None
    round_id: int = 0
    round: GameRound | None = None
    status: str = "betting"
    deadline: float | None = None
    ready: set[int] = field(default_factory=set)
    held: dict[int, dict[str, int]] = field(default_factory=dict)
    """Seat -> {"user": owner who staked, "minor": units held in escrow}."""
    players: set[tuple[int, int]] = field(default_factory=set)
    """(seat, user) pairs the round's record already lists as players."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    published: dict[str, Any] | None = None
    """The table as of its last commit, for readers (see ``Casino.snapshot``)."""
    next_profile: Profile | None = None
    """The profile with the operator's new limits, adopted when the next round opens: a round
    keeps the limits it opened with (RULES.md §6, limits are the operator's)."""
    is_stale: bool = False
    """A command failed and the table could not be rebuilt from the database then (the
    database away): it is rebuilt before its next command."""
    deadline_failures: int = 0
    """Deadlines in a row that could not be applied (``Casino.tick`` backs off)."""
    retry_at: float | None = None
    """When ``Casino.tick`` next tries a deadline that failed."""

    def durable_state(self) -> dict[str, Any]:
        """Everything in memory that the database must hold the same (issue 10, item 3):
        after any command, this equals ``Casino.rebuilt(table_id).durable_state()``."""
        return {
            "id": self.id,
            "name": self.name,
            "rules": engines.rules_version(self.profile),
            "next_rules": None
            if self.next_profile is None
            else engines.rules_version(self.next_profile),
            "is_open": self.is_open,
            "timing": (self.betting_seconds, self.decision_seconds),
            "seats": dict(sorted(self.seats.items())),
            "escrow": self.escrow,
            "shoe": (self.shoe_id, None if self.shoe is None else self.shoe.position),
            "round": self.round_id,
            "events": None if self.round is None else _events_json(self.round.events),
            "status": self.status,
            "deadline": self.deadline,
            "ready": sorted(self.ready),
            "held": {seat: dict(value) for seat, value in sorted(self.held.items())},
            "players": sorted(self.players),
        }

    @property
    def game_round(self) -> GameRound:
        if self.round is None:
            raise Conflict(f"table {self.name!r} has no round under way")
        return self.round


def _voided(reason: str) -> Event:
    # ``@event`` builds the dataclass at run time; mypy does not see its fields.
    voided: Event = cast(Any, RoundVoided)(reason=reason)
    return voided


def _held_json(held: dict[int, dict[str, int]]) -> dict[str, Any]:
    return {str(seat): dict(value) for seat, value in held.items()}


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _events_json(events: list[Event]) -> list[dict[str, Any]]:
    return [event.to_json() for event in events]


class Casino:
    """Every live table of one server process, and the handlers that drive them."""

    def __init__(self, uow: UnitOfWork, clock: Clock, broadcaster: Broadcaster) -> None:
        self.uow = uow
        self.clock = clock
        self.broadcaster = broadcaster
        self.tables: dict[int, LiveTable] = {}
        self.usernames: dict[int, str] = {}
        self._registry_lock = threading.Lock()
        self._ticking = threading.Lock()
        self._rule_sets: set[str] = set()
        """Rules versions known to be stored (``_recorded_rules``)."""
        self._wallets: dict[int, int] = {}
        """User -> wallet account id, for accounts that existed before (see ``_wallet``)."""
        self.fail_safe = FailSafe()
        """R17: no table command while a fault stands (``fail_safe.install`` gives it probes)."""

    def _wallet(self, session: Session, user_id: int) -> int:
        """The player's wallet account. An account is never deleted or renumbered, so an id
        found in the database is kept; one created in this transaction is not (a rollback
        would unmake it)."""
        cached = self._wallets.get(user_id)
        if cached is not None:
            return cached
        found = book.find_account(session, "wallet", str(user_id))
        if found is None:
            return wallet_of(session, user_id)
        self._wallets[user_id] = found
        return found

    # --- the registry -----------------------------------------------------------------
    def table(self, table_id: int) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
            raise NotFound(f"no table {table_id}")
        return live

    def create_table(
        self,
        session: Session,
        name: str,
        profile_name: str,
        betting_seconds: float,
        decision_seconds: float,
    ) -> LiveTable:
        profile = load_profile(profile_name)
        engines.round_class(profile)  # the game must be playable before the table opens
        if session.scalar(select(GameTable.id).where(GameTable.name == name)) is not None:
            raise Conflict(f"a table named {name!r} exists")
        document = table_rules.document(profile)
        record = GameTable(
            name=name,
            game=profile.game,
            profile=profile_name,  # a shipped name, or the path of the operator's own file
            # The rules themselves: no later start reads the file again (issue 10, item 1).
            profile_document=document,
            rules_version=table_rules.version_of(profile.name, document),
            is_open=True,
            betting_seconds=betting_seconds,
            decision_seconds=decision_seconds,
            seats={},
        )
        session.add(record)
        session.flush()
        live = LiveTable(
            id=record.id,
            name=name,
            profile=profile,
            is_open=True,
            betting_seconds=betting_seconds,
            decision_seconds=decision_seconds,
            seats={},
            escrow=book.open_account(session, "escrow", f"table:{record.id}"),
        )
        self._new_shoe(session, live)
        self._new_round(session, live)
        live.published = self._publishable(live)

        def register(_session: Session) -> None:
            self.tables[live.id] = live

        # Only a committed table is live: a failed commit leaves no table in memory.
        event.listen(session, "after_commit", register, once=True)
        return live

    def set_open(self, session: Session, table_id: int, is_open: bool) -> None:
        live = self.table(table_id)
        record = session.get(GameTable, table_id)
        assert record is not None
        record.is_open = is_open
        live.is_open = is_open

    def set_limits(
        self, session: Session, table_id: int, wager: str, minimum: object, maximum: object
    ) -> dict[str, Any]:
        """The operator's limits for one wager, from the table's next round on; an impossible
        value is a ``ProfileError`` naming it, and changes nothing."""
        live = self.table(table_id)
        record = session.get(GameTable, table_id)
        assert record is not None
        kept = record.limits or {}
        overrides = {**kept.get("wagers", {}), wager: {"minimum": minimum, "maximum": maximum}}
        profile = limits.with_limits(self._stored_profile(record), overrides)
        record.limits = limits.stored(
            kept, wager, cast(int, minimum), cast(int, maximum), live.round_id
        )
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

    @staticmethod
    def _adopt_next_profile(live: LiveTable) -> None:
        if live.next_profile is not None:
            live.profile, live.next_profile = live.next_profile, None

    @staticmethod
    def _stored_profile(record: GameTable) -> Profile:
        """The table's own rules (before the operator's limits), as its row stores them."""
        if record.profile_document is None or record.rules_version is None:
            raise ProfileError(f"table {record.name!r}: no rules are stored with it")
        return table_rules.from_document(record.game, record.profile_document, record.rules_version)

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

    def _load_table(self, session: Session, table_id: int) -> list[str]:
        record = session.get(GameTable, table_id)
        assert record is not None
        if record.profile_document is None:
            # A table from before revision 0003 whose file could not be read when the
            # database was migrated: the file once more, and then never again.
            try:
                profile = load_profile(record.profile)
            except ProfileError as error:
                return [self._left_out(record, error)]
            record.profile_document = table_rules.document(profile)
            record.rules_version = table_rules.version_of(profile.name, record.profile_document)
        try:
            live, notes = self._built(session, record, resuming=True)
        except ProfileError as error:
            return [self._left_out(record, error)]
        for user in session.scalars(select(User).where(User.id.in_(live.seats.values()))):
            self.usernames[user.id] = user.username
        live.published = self._publishable(live)
        self.tables[live.id] = live
        return notes

    @staticmethod
    def _left_out(record: GameTable, error: CroupierError) -> str:
        """A table whose rules cannot be read stays out of play; its round's stakes stay in
        escrow, untouched, until its rules are back (one table never stops the server)."""
        note = f"table {record.name}: left out of play, its stakes held in escrow: {error}"
        log.error(note)
        return note

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
            self._stored_profile(record), record.limits, in_progress
        )
        live = LiveTable(
            id=record.id,
            name=record.name,
            profile=profile,
            is_open=record.is_open,
            betting_seconds=record.betting_seconds,
            decision_seconds=record.decision_seconds,
            seats={int(seat): int(user) for seat, user in record.seats.items()},
            escrow=book.open_account(session, "escrow", f"table:{record.id}"),
            next_profile=next_profile,
        )
        notes = self._restore_round(session, live, resuming=resuming)
        return live, notes

    def _restore_round(self, session: Session, live: LiveTable, *, resuming: bool) -> list[str]:
        """Rebuild the round under way from its record, or void it with every stake returned."""
        current = session.scalar(
            select(RoundRecord)
            .where(RoundRecord.table_id == live.id, RoundRecord.status.in_(IN_PROGRESS))
            .order_by(RoundRecord.id.desc())
        )
        if current is None:
            self._new_shoe_if_needed(session, live)
            self._new_round(session, live)
            return [f"table {live.name}: no round under way; a new one is open for bets"]
        shoe_record = session.get(ShoeRecord, current.shoe_id)
        assert shoe_record is not None
        live.shoe_id = shoe_record.id
        live.round_id = current.id
        live.status = current.status
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
        try:
            shoe = engines.open_shoe(live.profile, bytes.fromhex(shoe_record.seed_hex))
            while shoe.position < current.start_position:
                shoe.draw()
            # The one replay (``games.base.replay``): the commands the events were made by,
            # dealt again from the live shoe, must give the same events, card for card.
            game_round = replay(
                [Event.from_json(item) for item in current.events], live.profile, shoe=shoe
            )
        except (CroupierError, ValueError, KeyError) as error:
            self._void(session, live, current, f"interrupted: cannot be rebuilt ({error})")
            self._new_shoe_if_needed(session, live, force=True)
            self._new_round(session, live)
            return [f"table {live.name}: round {current.id} voided, stakes returned: {error}"]
        live.shoe = shoe
        live.round = game_round
        if not resuming:
            return []
        now = self.clock.now()
        if live.status == "playing" and live.deadline is not None and live.deadline < now:
            # The outage is not the player's delay: the decision gets its full time again.
            live.deadline = now + live.decision_seconds
            current.deadline = live.deadline
        if live.status == "playing" and game_round.is_done:
            self._settle(session, live)  # the crash came between the last decision and settling
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
                if item.name not in ("lock", "published", "deadline_failures", "retry_at"):
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

    # --- the command wrapper ----------------------------------------------------------
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
            before = self._fingerprint(live)
            try:
                result = self.uow.run(
                    lambda session: work(session, live), before_retry=lambda: self.reload(table_id)
                )
            except BaseException as error:
                # A refusal before anything changed needs no rebuild (most bad requests).
                if not isinstance(error, CroupierError) or self._fingerprint(live) != before:
                    self._rebuild_after_failure(live)
                raise
            live.published = self._publishable(live)
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

    @staticmethod
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

    # --- shoes --------------------------------------------------------------------------
    def _new_shoe(self, session: Session, live: LiveTable) -> None:
        seed = secrets.token_bytes(32)  # R1: only the OS source decides a live shoe
        version = self._recorded_rules(session, live.profile)
        table = live.profile.table
        document = revealed_document(seed, table.decks, table.cut_card_from_bottom, version)
        shoe = engines.open_shoe(live.profile, seed)
        record = ShoeRecord(
            table_id=live.id,
            seed_hex=seed.hex(),
            commitment=commitment(document),
            rules_version=version,
            decks=table.decks,
            cut_card_from_bottom=table.cut_card_from_bottom,
            opening=[],  # the burns are the first round's own events
            position=shoe.position,
            is_revealed=False,
            created_at=self.clock.now(),
        )
        session.add(record)
        session.flush()
        live.shoe_id = record.id
        live.shoe = shoe

    def _new_shoe_if_needed(
        self, session: Session, live: LiveTable, *, force: bool = False
    ) -> None:
        self._adopt_next_profile(live)
        record = session.get(ShoeRecord, live.shoe_id) if live.shoe_id else None
        if record is None:
            record = session.scalar(
                select(ShoeRecord)
                .where(ShoeRecord.table_id == live.id, ShoeRecord.is_revealed.is_(False))
                .order_by(ShoeRecord.id.desc())
            )
        needs_new = (
            force
            or record is None
            or record.is_revealed
            or (
                live.profile.table.is_one_round_per_shoe
                and session.scalar(select(RoundRecord.id).where(RoundRecord.shoe_id == record.id))
                is not None
            )
        )
        if record is not None and not needs_new:
            if live.shoe is not None and live.shoe_id == record.id:
                shoe = live.shoe
            else:
                shoe = engines.open_shoe(live.profile, bytes.fromhex(record.seed_hex))
                while shoe.position < record.position:
                    shoe.draw()
            # The round in which the cut card came out was the shoe's last (RULES.md §6).
            needs_new = shoe.is_cut_card_out
            live.shoe_id, live.shoe = record.id, shoe
        if needs_new:
            if record is not None:
                record.is_revealed = True
            self._new_shoe(session, live)

    # --- rounds -------------------------------------------------------------------------
    def _new_round(self, session: Session, live: LiveTable) -> None:
        assert live.shoe is not None
        self._adopt_next_profile(live)
        version = self._recorded_rules(session, live.profile)
        start_position = live.shoe.position  # before the new-shoe procedure's burns
        game_round = engines.new_round(live.profile, live.shoe, self._meter(session, live))
        record = RoundRecord(
            table_id=live.id,
            shoe_id=live.shoe_id,
            rules_version=version,
            status="betting",
            start_position=start_position,
            events=_events_json(game_round.events),
            stakes={},
            ready=[],
            deadline=None,
            created_at=self.clock.now(),
        )
        session.add(record)
        session.flush()
        live.round_id, live.round, live.status = record.id, game_round, "betting"
        live.deadline, live.ready, live.held = None, set(), {}
        live.players = set()

    def _recorded_rules(self, session: Session, profile: Profile) -> str:
        """``profile``'s rules version, its rules stored under it (``RuleSet``) if they are
        not yet: whatever a shoe or round records, the database can give its rules back."""
        text = table_rules.document(profile)
        version = table_rules.version_of(profile.name, text)
        if version in self._rule_sets:
            return version
        if session.get(RuleSet, version) is None:
            session.add(RuleSet(rules_version=version, game=profile.game, document=text))
            session.flush()

            def known(_session: Session) -> None:  # a rollback would unmake the row
                self._rule_sets.add(version)

            event.listen(session, "after_commit", known, once=True)
        else:
            self._rule_sets.add(version)
        return version

    def _jackpot(self, session: Session, live: LiveTable) -> int:
        return book.open_account(session, "jackpot", f"table:{live.id}")

    def _meter(self, session: Session, live: LiveTable) -> Fraction | None:
        """The progressive meter as the jackpot account holds it; ``None`` before the house
        first seeds it (the engine then opens at the profile's seed)."""
        if not engines.round_class(live.profile).takes_meter:
            return None
        held = book.balance(session, self._jackpot(session, live))
        return Fraction(held, MINOR_PER_UNIT) if held else None

    def _save(self, session: Session, live: LiveTable, *, ended_at: float | None = None) -> None:
        """Write the round as it now stands to its record: one Core UPDATE from what is in
        memory, without loading the record first."""
        values: dict[str, Any] = {
            "events": _events_json(live.game_round.events),
            "stakes": _held_json(live.held),
            "status": live.status,
            "deadline": live.deadline,
            "ready": sorted(live.ready),
        }
        if ended_at is not None:
            values["ended_at"] = ended_at
        session.flush()  # ORM changes made earlier in the transaction land first
        session.connection().execute(
            update(ROUNDS).where(ROUNDS.c.id == live.round_id).values(**values)
        )

    def _collect_stakes(self, session: Session, live: LiveTable, reason: str) -> None:
        """Move what the engine now has at stake, seat by seat, between wallet and escrow."""
        wanted = live.game_round.stakes()
        legs: list[Leg] = []
        for seat in sorted(set(wanted) | set(live.held)):
            minor = to_minor(wanted.get(seat, Fraction(0)))
            held = live.held.get(seat, {"user": live.seats.get(seat, 0), "minor": 0})
            delta = minor - held["minor"]
            if delta == 0:
                continue
            owner = held["user"] if held["minor"] else live.seats[seat]
            legs += bet_legs(wallet=self._wallet(session, owner), escrow=live.escrow, minor=delta)
            if minor:
                live.held[seat] = {"user": owner, "minor": minor}
            else:
                live.held.pop(seat, None)
        if legs:
            book.post(session, "stake", f"round:{live.round_id}:{reason}", legs, self.clock.now())

    def _advance(self, session: Session, live: LiveTable) -> None:
        """After the deal or a decision: settle a finished round, else time the next decision."""
        if live.game_round.is_done:
            self._settle(session, live)
        else:
            live.deadline = self.clock.now() + live.decision_seconds

    def _deal(self, session: Session, live: LiveTable) -> None:
        events = live.game_round.deal()
        del events
        live.status = "playing"
        live.ready = set()
        self._collect_stakes(session, live, "deal")
        self._advance(session, live)
        if live.status == "playing":
            self._save(session, live)

    def _settle(self, session: Session, live: LiveTable) -> None:
        game_round = live.game_round
        results = game_round.results()
        staked = game_round.stakes()
        for seat in sorted(set(staked) | set(live.held)):
            if to_minor(staked.get(seat, Fraction(0))) != live.held.get(seat, {}).get("minor", 0):
                raise LedgerError(f"seat {seat}: escrow holds other than the engine's stakes")
        payouts: dict[int, int] = {}
        for wager in results.wagers:
            owner = live.held[wager.seat]["user"]
            wallet = self._wallet(session, owner)
            payouts[wallet] = payouts.get(wallet, 0) + to_minor(wager.payout)
        held_total = sum(value["minor"] for value in live.held.values())
        held_total += self._settle_back_bets(session, live, results, payouts)
        house = book.open_account(session, *book.HOUSE, may_go_negative=True)
        legs = list(
            settlement_legs(escrow=live.escrow, house=house, held=held_total, payouts=payouts)
        )
        if "meter_after" in results.details:
            # The meter's change (fed by stakes, paid out by prizes, reseeded by the house)
            # moves between the house and the table's jackpot account.
            jackpot = self._jackpot(session, live)
            change = to_minor(results.details["meter_after"]) - book.balance(session, jackpot)
            legs += [Leg(jackpot, change), Leg(house, -change)]
        book.post(session, "settlement", f"round:{live.round_id}", legs, self.clock.now())
        live.status = "complete"
        live.deadline = None
        self._save(session, live, ended_at=self.clock.now())
        shoe_record = session.get(ShoeRecord, live.shoe_id)
        assert shoe_record is not None and live.shoe is not None
        shoe_record.position = live.shoe.position
        self._new_shoe_if_needed(session, live)
        self._new_round(session, live)
        crash_point("settlement")  # all written, nothing committed yet

    def _settle_back_bets(
        self, session: Session, live: LiveTable, results: Any, payouts: dict[int, int]
    ) -> int:
        """Back bets share their box's fortune: each returns its stake times the box's
        return ratio (payouts over stakes), rounded down to the minor unit (a decision)."""
        held = 0
        for back in session.scalars(
            select(BackBet).where(BackBet.round_id == live.round_id, BackBet.status == "accepted")
        ):
            stake = results.staked(back.seat)
            ratio = results.returned(back.seat) / stake if stake else Fraction(1)
            back.payout = int(back.amount * ratio)
            back.status = "settled"
            held += back.amount
            wallet = self._wallet(session, back.user_id)
            payouts[wallet] = payouts.get(wallet, 0) + back.payout
        return held

    def _void(self, session: Session, live: LiveTable, record: RoundRecord, reason: str) -> None:
        """Return every stake held for the round (R11) and mark it interrupted."""
        legs: list[Leg] = []
        for value in record.stakes.values():
            legs += bet_legs(
                wallet=self._wallet(session, int(value["user"])),
                escrow=live.escrow,
                minor=-int(value["minor"]),
            )
        for back in session.scalars(
            select(BackBet).where(BackBet.round_id == record.id, BackBet.status == "accepted")
        ):
            legs += bet_legs(
                wallet=self._wallet(session, back.user_id), escrow=live.escrow, minor=-back.amount
            )
            back.status = "refunded"
        if legs:
            book.post(session, "void", f"round:{record.id}", legs, self.clock.now())
        record.events = [*record.events, _voided(reason).to_json()]
        record.status = "interrupted"
        record.stakes = {}
        record.deadline = None
        record.ended_at = self.clock.now()
        live.held = {}
        log.warning("round %s voided: %s", record.id, reason)

    # --- the handlers -------------------------------------------------------------------
    def sit(self, session: Session, live: LiveTable, who: Principal, seat: int) -> dict[str, Any]:
        if not live.is_open:
            raise Conflict(f"table {live.name!r} is closed")
        seats = live.profile.table.seats
        if not 1 <= seat <= seats:
            raise RequestError(f"seat {seat}: the table has seats 1 to {seats}")
        if seat in live.seats:
            if live.seats[seat] == who.user_id:
                return self.snapshot(live, who, fresh=True)
            raise Conflict(f"seat {seat} is taken")
        mine = [s for s, user in live.seats.items() if user == who.user_id]
        most = live.profile.table.seats_per_player
        if len(mine) >= most:
            raise Conflict(f"a player holds at most {most} seat(s) here")
        live.seats[seat] = who.user_id
        self.usernames[who.user_id] = who.username
        record = session.get(GameTable, live.id)
        assert record is not None
        record.seats = {str(s): u for s, u in live.seats.items()}
        return self.snapshot(live, who, fresh=True)

    def leave(self, session: Session, live: LiveTable, who: Principal, seat: int) -> dict[str, Any]:
        if live.seats.get(seat) != who.user_id:
            raise Forbidden(f"seat {seat} is not yours")
        if seat in live.held:
            raise Conflict(f"seat {seat} has a bet in the round under way")
        del live.seats[seat]
        record = session.get(GameTable, live.id)
        assert record is not None
        record.seats = {str(s): u for s, u in live.seats.items()}
        return self.snapshot(live, who, fresh=True)

    def _own_seat(self, live: LiveTable, who: Principal, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise RequestError(f"seat {seat!r} is not a seat number")
        if live.seats.get(seat) != who.user_id:
            raise Forbidden(f"seat {seat} is not yours")
        return seat

    def place_bet(
        self,
        session: Session,
        live: LiveTable,
        who: Principal,
        *,
        seat: object,
        wager: object,
        amount: object,
    ) -> dict[str, Any]:
        """A wager in whole table units (RULES.md §6); 0 withdraws it while bets are open."""
        seat = self._own_seat(live, who, seat)
        if not live.is_open:
            raise Conflict(f"table {live.name!r} is closed")
        if live.status != "betting":
            raise IllegalActionError(f"no more bets: round {live.round_id} is {live.status}")
        if not isinstance(wager, str):
            raise RequestError(f"wager {wager!r} is not a wager name")
        units = parse_amount(amount, wager)
        live.game_round.apply(Bet(seat, wager, units))
        problem = live.game_round.undealable().get(seat)
        if problem is not None:
            # A bet that leaves its box undealable (a side bet without its main wager) is
            # refused now, not at the deal; ``run`` rebuilds the round from the database.
            raise BetError(f"seat {seat} {wager} {units}: refused: {problem}")
        self._collect_stakes(session, live, "bet")
        if live.deadline is None:
            live.deadline = self.clock.now() + live.betting_seconds
        self._save(session, live)
        if (seat, who.user_id) not in live.players:
            session.connection().execute(
                insert(PLAYERS).values(round_id=live.round_id, seat=seat, user_id=who.user_id)
            )
            live.players.add((seat, who.user_id))
        return {
            "round": live.round_id,
            "seat": seat,
            "wager": wager,
            "amount": units,
            "held": live.held.get(seat, {}).get("minor", 0),
        }

    def _return_undealable(self, session: Session, live: LiveTable, why: str) -> None:
        """Give back the bets of every box that cannot be dealt as it stands (``BetsReturned``
        in the round's events), so that the round goes on without it."""
        returned = False
        for seat, reason in sorted(live.game_round.undealable().items()):
            live.game_round.apply(Return(seat, f"{why}: {reason}"))
            returned = True
        if returned:
            self._collect_stakes(session, live, "returned")

    def _enough_players(self, live: LiveTable) -> bool:
        bettors = {value["user"] for value in live.held.values()}
        return bool(bettors) and len(bettors) >= live.profile.table.min_players

    def ready(self, session: Session, live: LiveTable, who: Principal) -> dict[str, Any]:
        """The player is done betting; when every seated player is, the deal comes at once."""
        if who.user_id not in live.seats.values():
            raise Forbidden("only a seated player says ready")
        if live.status != "betting":
            raise IllegalActionError(f"no more bets: round {live.round_id} is {live.status}")
        live.ready.add(who.user_id)
        if set(live.seats.values()) <= live.ready:
            self._return_undealable(session, live, "every seated player was ready")
        if set(live.seats.values()) <= live.ready and self._enough_players(live):
            round_id = live.round_id
            self._deal(session, live)
            return {"round": round_id, "dealt": True}
        self._save(session, live)
        return {"round": live.round_id, "dealt": False}

    def act(
        self, session: Session, live: LiveTable, who: Principal, seat: object, action: object
    ) -> dict[str, Any]:
        seat = self._own_seat(live, who, seat)
        if live.status != "playing":
            raise IllegalActionError(f"round {live.round_id} is {live.status}: nothing to decide")
        decision = live.game_round.pending()
        if decision is None or decision.seat != seat:
            waiting = "nobody" if decision is None else f"seat {decision.seat}"
            raise IllegalActionError(f"not seat {seat}'s turn: the round waits for {waiting}")
        if not isinstance(action, str):
            raise RequestError(f"action {action!r} is not text such as 'hit'")
        parsed = Action.parse(action)
        return self._apply(session, live, seat, str(parsed), timeout=False)

    def _apply(
        self, session: Session, live: LiveTable, seat: int, action: str, *, timeout: bool
    ) -> dict[str, Any]:
        round_id = live.round_id
        live.game_round.apply(Act(seat, Action.parse(action), by_default=timeout))
        self._collect_stakes(session, live, "decision")
        self._advance(session, live)
        if live.round_id == round_id:
            self._save(session, live)
        return {"round": round_id, "seat": seat, "action": action, "timeout": timeout}

    def back_bet(
        self,
        session: Session,
        live: LiveTable,
        who: Principal,
        *,
        seat: object,
        wager: object,
        amount: object,
    ) -> dict[str, Any]:
        """Ask to back-bet on another player's box (where the profile allows it)."""
        if not live.profile.table.back_betting:
            raise BetError(f"{live.profile.name} does not allow back betting")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in live.seats:
            raise RequestError(f"seat {seat!r} has no player to back")
        if live.seats[seat] == who.user_id:
            raise BetError("a player does not back-bet on their own box")
        if live.status != "betting":
            raise IllegalActionError(f"no more bets: round {live.round_id} is {live.status}")
        if not isinstance(wager, str):
            raise RequestError(f"wager {wager!r} is not a wager name")
        units = parse_amount(amount, wager)
        if units == 0:
            raise BetError("a back bet of 0 is no bet")
        back = BackBet(
            round_id=live.round_id,
            seat=seat,
            user_id=who.user_id,
            wager=wager,
            amount=to_minor(units),
            status="asked",
        )
        session.add(back)
        session.flush()
        return {"back_bet": back.id, "status": back.status}

    def consent(
        self, session: Session, live: LiveTable, who: Principal, back_bet_id: int, accept: object
    ) -> dict[str, Any]:
        """The box owner accepts (the stake moves to escrow) or refuses a back bet."""
        back = session.get(BackBet, back_bet_id)
        if back is None or back.round_id != live.round_id or back.status != "asked":
            raise NotFound(f"no back bet {back_bet_id} waiting for consent in this round")
        if live.seats.get(back.seat) != who.user_id:
            raise Forbidden(f"only the owner of box {back.seat} consents")
        if live.status != "betting":
            raise IllegalActionError(f"no more bets: round {live.round_id} is {live.status}")
        if not isinstance(accept, bool):
            raise RequestError("accept is true or false")
        if accept and back.seat not in live.held:
            # A back bet rides on the box's own bet: without one it could never be dealt.
            raise BetError(f"box {back.seat} has no bet of its own to back")
        if accept:
            # The box's own wager (its first) bounds what rides on it, back bets included.
            maximum = next(iter(live.profile.table.wagers.values())).maximum
            box = live.held.get(back.seat, {}).get("minor", 0)
            others = sum(
                b.amount
                for b in session.scalars(
                    select(BackBet).where(
                        BackBet.round_id == live.round_id,
                        BackBet.seat == back.seat,
                        BackBet.status == "accepted",
                    )
                )
            )
            if box + others + back.amount > to_minor(maximum):
                raise BetError(f"box {back.seat}: back bets would pass the box maximum {maximum}")
            legs = bet_legs(
                wallet=self._wallet(session, back.user_id), escrow=live.escrow, minor=back.amount
            )
            book.post(
                session, "back-bet", f"round:{live.round_id}:back:{back.id}", legs, self.clock.now()
            )
            back.status = "accepted"
            if (back.seat, back.user_id) not in live.players:  # a second back bet on the box
                session.add(
                    RoundPlayer(
                        round_id=live.round_id, seat=back.seat, user_id=back.user_id, role="backer"
                    )
                )
                live.players.add((back.seat, back.user_id))
        else:
            back.status = "refused"
        return {"back_bet": back.id, "status": back.status}

    # --- time -------------------------------------------------------------------------
    def tick(self) -> None:
        """Apply every deadline that has passed: close betting, or a decision's default.

        A deadline that fails (a database fault, a round the engine refuses) is tried again
        after 1 s, 2 s, 4 s ... at most every minute, and logged once when it starts failing
        and once when it is applied again: never a tight loop of the same line. One tick at
        a time: a second caller meanwhile returns at once."""
        if self.fail_safe.is_engaged:
            return  # R17: time stands still for rounds interrupted by a fault
        if not self._ticking.acquire(blocking=False):
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
                self.run(live.id, self._expire)
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

    def _expire(self, session: Session, live: LiveTable) -> None:
        if live.deadline is None or live.deadline > self.clock.now():
            return
        if live.status == "betting":
            self._return_undealable(session, live, "the betting deadline passed")
            if self._enough_players(live):
                self._deal(session, live)
            else:
                live.deadline = None  # wait for players (Casino Hold'em needs two)
                self._save(session, live)
        elif live.status == "playing":
            decision = live.game_round.pending()
            if decision is not None:
                self._apply(session, live, decision.seat, str(decision.default), timeout=True)

    # --- what clients see ---------------------------------------------------------------
    def snapshot(
        self, live: LiveTable, who: Principal | None, *, fresh: bool = False
    ) -> dict[str, Any]:
        """The table as ``who`` may see it now: public state and their own seats' views (R6).

        Built from ``published``, the table as it stood at its last commit, so that readers
        (the WebSocket pushes, GET) never wait on a command holding the table's lock.
        """
        published = self._publishable(live) if fresh or live.published is None else live.published
        mine = sorted(
            s for s, u in published["owners"].items() if who is not None and u == who.user_id
        )
        views = published["views"]
        return {
            "table": published["table"],
            "round": {
                **published["round"],
                "mine": {str(seat): views[seat] for seat in mine if seat in views},
            },
        }

    def state_message(self, live: LiveTable, who: Principal | None) -> str:
        """``{"type": "state", ...}`` with ``snapshot(live, who)``, as JSON text for a WebSocket
        push. What every client shares is encoded once per change, not once per client."""
        published = live.published if live.published is not None else self._publishable(live)
        shared: str | None = published.get("encoded")
        if shared is None:
            public_round = _compact_json(published["round"])
            shared = (
                f'{{"type":"state","table":{_compact_json(published["table"])},'
                f'"round":{public_round[:-1]}'  # the round object, still open for "mine"
            )
            published["encoded"] = shared
        views = published["views"]
        mine = {
            str(seat): views[seat]
            for seat, user in sorted(published["owners"].items())
            if who is not None and user == who.user_id and seat in views
        }
        return f'{shared},"mine":{_compact_json(mine)}}}}}'

    def _publishable(self, live: LiveTable) -> dict[str, Any]:
        """Everything any client may be shown, computed once per change (under the lock)."""
        game_round = live.game_round
        decision = game_round.pending() if live.status == "playing" else None
        return {
            "owners": dict(live.seats),
            "views": {seat: game_round.view(seat) for seat in sorted(live.seats)},
            "table": {
                "id": live.id,
                "name": live.name,
                "game": live.profile.game,
                "profile": live.profile.name,
                "is_open": live.is_open,
                "seats": {
                    str(s): self.usernames.get(u, str(u)) for s, u in sorted(live.seats.items())
                },
                "shoe": live.shoe_id,
                "limits": limits.wagers_json(live.profile),
                "next_limits": None
                if live.next_profile is None
                else limits.wagers_json(live.next_profile),
            },
            "round": {
                "id": live.round_id,
                "status": live.status,
                "deadline": live.deadline,
                "stakes": {str(s): v["minor"] for s, v in sorted(live.held.items())},
                "pending": None
                if decision is None
                else {
                    "seat": decision.seat,
                    "hand": decision.hand,
                    "question": decision.question,
                    "legal": [str(a) for a in decision.legal],
                    "default": str(decision.default),
                },
                "public": game_round.view(None),
            },
        }

    def publish(self, live: LiveTable) -> None:
        """Freeze the table's committed state for readers, and tell the subscribers."""
        with live.lock:
            live.published = self._publishable(live)
        self.broadcaster.publish(live.id)
