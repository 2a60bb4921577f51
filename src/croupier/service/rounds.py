"""A round's life at a live table: its shoe, opening, the deal, each step on, settlement, void.

1. **betting**: a round opens on the table's shoe (a new shoe, committed first, once the
   last one's cut card is out, or for every round where a game shuffles every round); the
   seated players bet (``place_bet``) and say ready (``ready``).
2. **playing**: ``deal()``; then each ``pending()`` decision waits for its seat's owner
   until its deadline (``deadlines``), when the regulation's default is applied.
3. **settlement**: one transaction pays out from ``results()`` (``money``), and the next
   round opens.

Every step writes the round's record (``save``: its events, the stakes held, its status and
deadline) in the transaction of the command that made it.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, Protocol

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from croupier.cards import Card
from croupier.clock import Clock
from croupier.errors import BetError
from croupier.fairness import commitment, revealed_document
from croupier.games.commands import Act, Action, Bet, Deal, Return, Void
from croupier.games.events import CardDrawn, Purpose, RoundVoided
from croupier.rules.base import Profile
from croupier.service import absence, engines, pace, physical, table_rules
from croupier.service.accounts import Principal
from croupier.service.commands import PlaceBet
from croupier.service.errors import Conflict
from croupier.service.faults import crash_point
from croupier.service.live import PLAYERS, ROUNDS, LiveTable, events_json
from croupier.service.models import RoundRecord, RoundStatus, RuleSet, ShoeRecord
from croupier.service.money import Money
from croupier.service.unit_of_work import on_commit
from croupier.shoe import PhysicalShoe, Shoe

log = logging.getLogger("croupier.tables")


class RoundRows(Protocol):
    """Where a round's record is written as the round goes on: the database's table
    (``StoredRounds``), or a test's dictionary (``tests/service/fakes.py``)."""

    def save(self, session: Any, round_id: int, values: dict[str, Any]) -> None:
        """Write ``values`` (columns of ``RoundRecord``) to the round's record."""

    def add_player(self, session: Any, round_id: int, seat: int, user_id: int) -> None:
        """Note that ``user_id`` plays the round at ``seat`` (``RoundPlayer``)."""


SAVE_ROUND = update(ROUNDS).where(ROUNDS.c.id == bindparam("saved_round"))
"""A round's record, its columns set from the parameters' other keys: built once (every
command saves its round, and building the statement cost more than running it)."""
ADD_PLAYER = insert(PLAYERS)


class StoredRounds:
    """The rounds' records in the database, written with Core statements: loading a record
    into the ORM to change it cost more than the write itself."""

    def save(self, session: Any, round_id: int, values: dict[str, Any]) -> None:
        session.flush()  # ORM changes made earlier in the transaction land first
        session.connection().execute(SAVE_ROUND, {**values, "saved_round": round_id})

    def add_player(self, session: Any, round_id: int, seat: int, user_id: int) -> None:
        session.connection().execute(
            ADD_PLAYER, {"round_id": round_id, "seat": seat, "user_id": user_id}
        )


class Rounds:
    """Opens, steps on, settles and voids the rounds of every table of one server process."""

    def __init__(self, clock: Clock, money: Money, rows: RoundRows | None = None) -> None:
        self.clock = clock
        self.money = money
        self.rows: RoundRows = StoredRounds() if rows is None else rows
        self._rule_sets: set[str] = set()
        """Rules versions known to be stored (``recorded_rules``)."""
        self.dealt = 0
        """Rounds dealt by this process since it started, counted as they commit (metrics)."""
        self.settled = 0
        """Rounds settled by this process since it started, counted as they commit."""

    # --- shoes --------------------------------------------------------------------------
    def new_shoe(self, session: Session, live: LiveTable) -> None:
        """The table's next shoe, recorded. A random shoe is shuffled from a seed that only the
        OS source decides (R1) and committed to; a physical shoe is a real one about to be made
        by the dealer: no seed, no order, nothing committed (the cards are known only as they
        come out), its procedures and burns to follow."""
        table = live.profile.table
        version = self.recorded_rules(session, live.profile)
        shoe: Shoe
        if live.is_physical:
            seed, sealed, shoe = b"", "", PhysicalShoe(decks=table.decks)
        else:
            seed = secrets.token_bytes(32)
            document = revealed_document(seed, table.decks, table.cut_card_from_bottom, version)
            sealed, shoe = commitment(document), engines.open_shoe(live.profile, seed)
        record = ShoeRecord(
            table_id=live.id,
            seed_hex=seed.hex(),
            commitment=sealed,
            rules_version=version,
            decks=table.decks,
            cut_card_from_bottom=table.cut_card_from_bottom,
            opening=[],  # a random shoe's burns are its first round's own events
            position=shoe.position,
            is_revealed=False,
            created_at=self.clock.now(),
        )
        if live.is_physical:
            record.procedures = []
            live.procedures, live.opening = [], []
        session.add(record)
        session.flush()
        live.shoe_id, live.shoe = record.id, shoe

    def new_shoe_if_needed(self, session: Session, live: LiveTable, *, force: bool = False) -> None:
        live.adopt_next_profile()
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
        if record is not None and not needs_new and live.is_physical:
            if live.shoe is None or live.shoe_id != record.id:
                live.shoe = physical.shoe_of(session, record)
                physical.restore(session, live, record)
            live.shoe_id = record.id
            needs_new = physical.Procedure.CUT_CARD_OUT in live.procedures
        elif record is not None and not needs_new:
            if live.shoe is not None and live.shoe_id == record.id:
                shoe = live.shoe
            else:
                seed = bytes.fromhex(record.seed_hex)
                shoe = engines.shoe_at(live.profile, seed, record.position)
            # The round in which the cut card came out was the shoe's last (docs/rules.md §6).
            needs_new = shoe.is_cut_card_out
            live.shoe_id, live.shoe = record.id, shoe
        if needs_new:
            if record is not None:
                record.is_revealed = True
            self.new_shoe(session, live)

    # --- opening a round ------------------------------------------------------------------
    def new_round(self, session: Session, live: LiveTable) -> None:
        assert live.shoe is not None
        live.adopt_next_profile()
        version = self.recorded_rules(session, live.profile)
        start_position = live.shoe.position  # before the new-shoe procedure's burns
        game_round = engines.new_round(live.profile, live.shoe, self.money.meter(session, live))
        # With a seat taken, the betting window runs from the opening (D-GEN-15): one that
        # passes with no bet at all is a round each seated player missed.
        deadline = self.clock.now() + live.betting_seconds if live.seats and live.is_open else None
        record = RoundRecord(
            table_id=live.id,
            shoe_id=live.shoe_id,
            rules_version=version,
            status=str(RoundStatus.BETTING),
            start_position=start_position,
            events=events_json(game_round.events),
            stakes={},
            ready=[],
            deadline=deadline,
            created_at=self.clock.now(),
        )
        session.add(record)
        session.flush()
        live.round_id, live.round = record.id, game_round
        live.start_position = start_position
        live.deadline, live.ready, live.held = deadline, set(), {}
        live.players = set()
        live.back_bets = []

    def recorded_rules(self, session: Session, profile: Profile) -> str:
        """``profile``'s rules version, its rules stored under it (``RuleSet``) if they are
        not yet: whatever a shoe or round records, the database can give its rules back."""
        text = table_rules.document(profile)
        version = table_rules.version_of(profile.name, text)
        if version in self._rule_sets:
            return version
        if session.get(RuleSet, version) is None:
            session.add(RuleSet(rules_version=version, game=profile.game, document=text))
            session.flush()

        # Known once committed: the row found may be this transaction's own (a new shoe's,
        # then its first round's), which a failed commit unmakes with it.
        on_commit(session, lambda: self._rule_sets.add(version))
        return version

    def save(self, session: Session, live: LiveTable, *, ended_at: float | None = None) -> None:
        """Write the round as it now stands to its record (``rows``), from what is in memory,
        without loading the record first."""
        values: dict[str, Any] = {
            "events": events_json(live.game_round.events),
            "stakes": {str(seat): dict(value) for seat, value in live.held.items()},
            "status": str(live.status),
            "deadline": live.deadline,
            "ready": sorted(live.ready),
        }
        if ended_at is not None:
            values["ended_at"] = ended_at
        self.rows.save(session, live.round_id, values)

    # --- a player's bet and ready (their decision: ``decide``) ------------------------------
    def place_bet(self, session: Session, live: LiveTable, bet: PlaceBet) -> dict[str, Any]:
        """A wager in whole table units (docs/rules.md §6); 0 withdraws it while bets are open."""
        seat, wager, amount, who = bet.seat, bet.wager, bet.amount, bet.by
        if not live.is_open:
            raise Conflict(f"table {live.name!r} is closed", code="table_closed", table=live.name)
        live.game_round.apply(Bet(seat, wager, amount))  # the engine's: bets closed, limits
        problem = live.game_round.undealable().get(seat)
        if problem is not None:
            # A bet that leaves its box undealable (a side bet without its main wager) is
            # refused now, not at the deal; ``run`` rebuilds the round from the database.
            raise BetError(
                f"seat {seat} {wager} {amount}: refused: {problem}",
                code="bet_leaves_box_undealable",
                seat=seat,
                wager=wager,
                amount=amount,
            )
        first = not live.held
        self.money.collect_stakes(session, live, "bet")
        if live.deadline is None or (first and live.held):
            # The round's first bet opens its full betting window (D-GEN-7); the window run
            # before it only counted the rounds the seated players missed (D-GEN-15).
            live.deadline = self.clock.now() + live.betting_seconds
        if seat in live.held and live.absences.pop(seat, None) is not None:
            # Its player bet again: the rounds the seat missed are forgotten (D-GEN-15).
            absence.store_seats(session, live)
        self.save(session, live)
        if (seat, who.user_id) not in live.players:
            self.rows.add_player(session, live.round_id, seat, who.user_id)
            live.players.add((seat, who.user_id))
        return {
            "round": live.round_id,
            "seat": seat,
            "wager": wager,
            "amount": amount,
            "held": live.held.get(seat, {}).get("minor", 0),
        }

    def ready(self, session: Session, live: LiveTable, who: Principal) -> dict[str, Any]:
        """The player is done betting; when every seated player present is (not sitting out,
        docs/rules.md#D-GEN-15), the deal comes at once."""
        live.verify_betting()
        live.ready.add(who.user_id)
        round_id = live.round_id
        dealt = self.deal_if_everyone_is_ready(session, live)
        if not dealt:
            self.save(session, live)
        return {"round": round_id, "dealt": dealt}

    def deal_if_everyone_is_ready(self, session: Session, live: LiveTable) -> bool:
        """Betting closes as soon as every present seated player has said ready (D-GEN-7; a
        seat sitting out is not waited for, D-GEN-15): the deal comes at once, if the bets
        make a round. Whether it dealt."""
        if not live.game_round.is_betting or not absence.present_users(live) <= live.ready:
            return False
        self.return_undealable(session, live, "every seated player was ready")
        if not (self.enough_players(live) and self.may_deal(live)):
            return False
        self.deal(session, live)
        return True

    # --- the deal and the steps on --------------------------------------------------------
    def return_undealable(self, session: Session, live: LiveTable, why: str) -> None:
        """Give back the bets of every box that cannot be dealt as it stands (``BetsReturned``
        in the round's events), so that the round goes on without it."""
        returned = False
        for seat, reason in sorted(live.game_round.undealable().items()):
            live.game_round.apply(Return(seat, f"{why}: {reason}"))
            returned = True
        if returned:
            self.money.collect_stakes(session, live, "returned")

    @staticmethod
    def enough_players(live: LiveTable) -> bool:
        bettors = {value["user"] for value in live.held.values()}
        return bool(bettors) and len(bettors) >= live.profile.table.min_players

    @staticmethod
    def may_deal(live: LiveTable) -> bool:
        """A physical shoe deals once the dealer has made and burnt it."""
        return not live.is_physical or physical.is_ready(live)

    def deal(self, session: Session, live: LiveTable) -> None:
        before, round_id = len(live.game_round.events), live.round_id
        live.apply(Deal())
        on_commit(session, self._count_dealt)
        absence.window_closed(session, live)  # the seats without a bet missed this round
        live.ready = set()
        self.money.collect_stakes(session, live, "deal")
        self.advance(session, live, drawn=cards_since(live, before))
        if live.round_id == round_id:  # not settled at once (every box a natural, say)
            self.save(session, live)

    def decide(
        self, session: Session, live: LiveTable, seat: int, action: Action, *, timeout: bool
    ) -> dict[str, Any]:
        """``seat``'s decision (``timeout``: the default applied at its deadline). Whose turn
        it is, and whether ``action`` is allowed, is the engine's to say (``verify_act``)."""
        live.verify_not_waiting()
        round_id = live.round_id
        before = len(live.game_round.events)
        live.apply(Act(seat, action, by_default=timeout))
        self.money.collect_stakes(session, live, "decision")
        self.advance(session, live, drawn=cards_since(live, before))
        if live.round_id == round_id:
            self.save(session, live)
        return {"round": round_id, "seat": seat, "action": str(action), "timeout": timeout}

    def advance(self, session: Session, live: LiveTable, *, drawn: int = 0) -> None:
        """After the deal or a decision: settle a finished round, else time the next decision.
        ``drawn``: the cards the command dealt, which the page turns up one by one before the
        decision's clock starts (``pace``)."""
        if live.game_round.is_done:
            self.settle(session, live)
        elif live.game_round.card_needed is not None:
            live.deadline = None  # the dealer's card comes first; no player's clock runs
        else:
            drawing = pace.drawing_seconds(drawn)
            live.deadline = self.clock.now() + drawing + live.decision_seconds

    # --- a physical shoe: the dealer's procedures and cards ----------------------------------
    def confirm_procedure(
        self, session: Session, live: LiveTable, procedure: physical.Procedure, by: str
    ) -> dict[str, Any]:
        return physical.confirm(session, live, procedure, by, self)

    def enter_card(
        self, session: Session, live: LiveTable, card: Card, by: Principal
    ) -> dict[str, Any]:
        live.verify_not_waiting()
        return physical.enter(session, live, card, self, by)

    # --- the end of a round -----------------------------------------------------------------
    def settle(self, session: Session, live: LiveTable) -> None:
        """Pay the finished round out, close its record, and open the next round."""
        self.money.settle(session, live, live.game_round.results())
        on_commit(session, self._count_settled)
        live.deadline = None
        self.save(session, live, ended_at=self.clock.now())
        shoe_record = session.get(ShoeRecord, live.shoe_id)
        assert shoe_record is not None and live.shoe is not None
        shoe_record.position = live.shoe.position
        self.new_shoe_if_needed(session, live)
        self.new_round(session, live)
        crash_point("settlement")  # all written, nothing committed yet

    def _count_dealt(self) -> None:
        self.dealt += 1

    def _count_settled(self) -> None:
        self.settled += 1

    def void_live(self, session: Session, live: LiveTable, reason: str) -> None:
        """End the round under way that cannot be finished (the dealer's or the operator's
        call): the engine's ``Void`` returns every stake still in play, what was settled
        already stands, and the round is paid out and closed as any other (issue 14, item 3)."""
        voided = live.round_id
        live.game_round.apply(Void(reason))
        self.money.collect_stakes(session, live, "void")
        self.advance(session, live)  # settles (the stakes back) and opens the next round
        # Its record reads as a void, as a round recovery voids does (R11): ``interrupted``.
        self.rows.save(session, voided, {"status": str(RoundStatus.INTERRUPTED)})

    def resume(self, session: Session, live: LiveTable) -> None:
        """The round goes on where it stood (a void an inspector refused): the pending
        decision gets its full time again, or the round waits for the dealer's card."""
        round_id = live.round_id
        self.advance(session, live)
        if live.round_id == round_id:
            self.save(session, live)

    def void(self, session: Session, live: LiveTable, record: RoundRecord, reason: str) -> None:
        """Return every stake held for the round (R11) and mark it interrupted."""
        self.money.refund(session, live, record)
        record.events = [*record.events, RoundVoided(reason=reason).to_json()]
        record.status = str(RoundStatus.INTERRUPTED)
        record.stakes = {}
        record.deadline = None
        record.ended_at = self.clock.now()
        log.warning("round %s voided: %s", record.id, reason)


def cards_since(live: LiveTable, before: int) -> int:
    """The cards dealt onto the felt among the round's events after the first ``before`` (a
    secret burn is not drawn there)."""
    return sum(
        isinstance(event, CardDrawn) and event.purpose != Purpose.BURN
        for event in live.game_round.events[before:]
    )
