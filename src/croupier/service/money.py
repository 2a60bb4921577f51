"""A table's money: stakes between wallet and escrow, settlement, voids, and back bets.

Every movement is a balanced posting in the ledger (``ledger.book``), in the transaction of
the command that causes it (R10): a stake follows the engine's own ``stakes()`` seat by seat,
a settlement pays what the engine's ``results()`` say, a void returns what escrow holds.
Spain 1979's back bets (a bet on another player's box, with the owner's consent) are here
too: they share their box's fortune at settlement.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.clock import Clock
from croupier.errors import BetError, LedgerError
from croupier.games.base import RoundResult
from croupier.gaming_day import GamingDay
from croupier.ledger import book
from croupier.ledger.book import (
    MINOR_PER_UNIT,
    Ledger,
    Leg,
    bet_legs,
    round_reference,
    settlement_legs,
    to_minor,
)
from croupier.rules.base import Profile
from croupier.service import engines, protection
from croupier.service.accounts import Principal
from croupier.service.commands import AskBackBet
from croupier.service.errors import Forbidden, NotFound, RequestError
from croupier.service.live import LiveTable
from croupier.service.models import BackBet, BackBetStatus, RoundPlayer, RoundRecord, User


def box_maximum(profile: Profile) -> int:
    """What may ride on one box in all, its own bet and the back bets on it, in whole units:
    the maximum of the box's own wager, the table's first (``TableRecord.wagers`` lists them
    in placing order)."""
    return next(iter(profile.table.wagers.values())).maximum


PLAYERS_STAKING = frozenset({"bet", "decision"})
"""``collect_stakes``'s reasons that are a player's own stake (the deal and the void are not)."""


class Money:
    """The postings of every table of one server process."""

    def __init__(
        self, clock: Clock, ledger: Ledger | None = None, gaming_day: GamingDay | None = None
    ) -> None:
        self.clock = clock
        self.ledger: Ledger = book if ledger is None else ledger
        self.gaming_day = gaming_day or GamingDay()
        """The house's day, which a player's limits are counted by (``protection``)."""
        self._wallets: dict[int, int] = {}
        """User -> wallet account id, for accounts that existed before (see ``wallet``)."""

    def wallet(self, session: Session, user_id: int) -> int:
        """The player's wallet account. An account is never deleted or renumbered, so an id
        found in the database is kept; one created in this transaction is not (a rollback
        would unmake it)."""
        cached = self._wallets.get(user_id)
        if cached is not None:
            return cached
        found = self.ledger.find_account(session, *book.wallet(user_id))
        if found is None:
            return self.ledger.open_account(session, *book.wallet(user_id))
        self._wallets[user_id] = found
        return found

    # --- stakes ---------------------------------------------------------------------------
    def collect_stakes(self, session: Session, live: LiveTable, reason: str) -> None:
        """Move what the engine now has at stake, seat by seat, between wallet and escrow.

        A player's stake that grows by their own command (``reason``: a bet, or a decision
        that adds a stake: a double, a split, insurance, a call) is first checked against
        their protection (``protection.verify_stake``): a refusal raises before anything
        is posted."""
        wanted = live.game_round.stakes()
        legs: list[Leg] = []
        for seat in sorted(set(wanted) | set(live.held)):
            minor = to_minor(wanted.get(seat, Fraction(0)))
            held = live.held.get(seat, {"user": live.seats.get(seat, 0), "minor": 0})
            delta = minor - held["minor"]
            if delta == 0:
                continue
            owner = held["user"] if held["minor"] else live.seats[seat]
            if delta > 0 and reason in PLAYERS_STAKING:
                protection.verify_stake(session, owner, delta, self.clock.now(), self.gaming_day)
            legs += bet_legs(wallet=self.wallet(session, owner), escrow=live.escrow, minor=delta)
            if minor:
                live.held[seat] = {"user": owner, "minor": minor}
            else:
                live.held.pop(seat, None)
        if legs:
            reference = round_reference(live.round_id, reason)
            self.ledger.post(session, "stake", reference, legs, self.clock.now())

    # --- the progressive jackpot ----------------------------------------------------------
    def jackpot(self, session: Session, live: LiveTable) -> int:
        return self.ledger.open_account(session, "jackpot", f"table:{live.id}")

    def meter(self, session: Session, live: LiveTable) -> Fraction | None:
        """The progressive meter as the jackpot account holds it; ``None`` before the house
        first seeds it (the engine then opens at the profile's seed)."""
        if not engines.round_class(live.profile).takes_meter:
            return None
        held = self.ledger.balance(session, self.jackpot(session, live))
        return Fraction(held, MINOR_PER_UNIT) if held else None

    # --- settlement and voids -------------------------------------------------------------
    def settle(self, session: Session, live: LiveTable, results: RoundResult) -> None:
        """Pay out a finished round from escrow: each wager's payout to its owner, the rest
        to the house, back bets by their box, the meter's change to the jackpot account."""
        staked = live.game_round.stakes()
        for seat in sorted(set(staked) | set(live.held)):
            if to_minor(staked.get(seat, Fraction(0))) != live.held.get(seat, {}).get("minor", 0):
                raise LedgerError(
                    f"seat {seat}: escrow holds other than the engine's stakes",
                    code="escrow_mismatch",
                    seat=seat,
                )
        payouts: dict[int, int] = {}
        for wager in results.wagers:
            owner = live.held[wager.seat]["user"]
            wallet = self.wallet(session, owner)
            payouts[wallet] = payouts.get(wallet, 0) + to_minor(wager.payout)
        held_total = sum(value["minor"] for value in live.held.values())
        held_total += self._settle_back_bets(session, live, results, payouts)
        house = self.ledger.open_account(session, *book.HOUSE, may_go_negative=True)
        legs = list(
            settlement_legs(escrow=live.escrow, house=house, held=held_total, payouts=payouts)
        )
        if "meter_after" in results.details:
            # The meter's change (fed by stakes, paid out by prizes, reseeded by the house)
            # moves between the house and the table's jackpot account.
            jackpot = self.jackpot(session, live)
            change = to_minor(results.details["meter_after"]) - self.ledger.balance(
                session, jackpot
            )
            legs += [Leg(jackpot, change), Leg(house, -change)]
        reference = round_reference(live.round_id)
        self.ledger.post(session, "settlement", reference, legs, self.clock.now())

    def _settle_back_bets(
        self, session: Session, live: LiveTable, results: RoundResult, payouts: dict[int, int]
    ) -> int:
        """Back bets share their box's fortune: each returns its stake times the box's
        return ratio (payouts over stakes), rounded down to the minor unit (a decision)."""
        held = 0
        for back in session.scalars(
            select(BackBet).where(
                BackBet.round_id == live.round_id, BackBet.status == str(BackBetStatus.ACCEPTED)
            )
        ):
            back.payout = results.back_bet_payout(back.seat, back.amount)
            back.status = str(BackBetStatus.SETTLED)
            held += back.amount
            wallet = self.wallet(session, back.user_id)
            payouts[wallet] = payouts.get(wallet, 0) + back.payout
        return held

    def refund(self, session: Session, live: LiveTable, record: RoundRecord) -> None:
        """Return every stake held for the round, back bets included (R11)."""
        legs: list[Leg] = []
        for value in record.stakes.values():
            legs += bet_legs(
                wallet=self.wallet(session, int(value["user"])),
                escrow=live.escrow,
                minor=-int(value["minor"]),
            )
        for back in session.scalars(
            select(BackBet).where(
                BackBet.round_id == record.id, BackBet.status == str(BackBetStatus.ACCEPTED)
            )
        ):
            legs += bet_legs(
                wallet=self.wallet(session, back.user_id), escrow=live.escrow, minor=-back.amount
            )
            back.status = str(BackBetStatus.REFUNDED)
        if legs:
            self.ledger.post(session, "void", round_reference(record.id), legs, self.clock.now())
        live.held = {}
        live.back_bets = []

    # --- back bets (spain-1979) -----------------------------------------------------------
    def back_bet(self, session: Session, live: LiveTable, asked: AskBackBet) -> dict[str, Any]:
        """Ask to back-bet on another player's box (where the profile allows it)."""
        who, seat, wager, amount = asked.by, asked.seat, asked.wager, asked.amount
        if not live.profile.table.back_betting:
            raise BetError(
                f"{live.profile.name} does not allow back betting",
                code="back_betting_not_allowed",
                profile=live.profile.name,
            )
        if seat not in live.seats:
            raise RequestError(
                f"seat {seat!r} has no player to back", code="no_player_to_back", seat=seat
            )
        if live.seats[seat] == who.user_id:
            raise BetError(
                "a player does not back-bet on their own box", code="back_own_box", seat=seat
            )
        live.verify_betting()
        if amount == 0:
            raise BetError("a back bet of 0 is no bet", code="back_bet_zero", seat=seat)
        # What no consent could ever accept is refused now, not left waiting for the owner.
        maximum = box_maximum(live.profile)
        if amount > maximum:
            raise BetError(
                f"box {seat}: a back bet of {amount} passes the box maximum {maximum}",
                code="back_bet_over_maximum",
                seat=seat,
                amount=amount,
                maximum=maximum,
            )
        balance = self.ledger.balance(session, self.wallet(session, who.user_id))
        if to_minor(amount) > balance:
            raise BetError(
                f"box {seat}: a back bet of {amount} is more than the balance",
                code="back_bet_over_balance",
                seat=seat,
                amount=amount,
                balance_minor=balance,
            )
        protection.verify_stake(
            session, who.user_id, to_minor(amount), self.clock.now(), self.gaming_day
        )
        back = BackBet(
            round_id=live.round_id,
            seat=seat,
            user_id=who.user_id,
            wager=wager,
            amount=to_minor(amount),
            status=str(BackBetStatus.ASKED),
        )
        session.add(back)
        session.flush()
        return {"back_bet": back.id, "status": back.status}

    def consent(
        self, session: Session, live: LiveTable, who: Principal, back_bet_id: int, accept: bool
    ) -> dict[str, Any]:
        """The box owner accepts (the stake moves to escrow) or refuses a back bet."""
        back = session.get(BackBet, back_bet_id)
        if back is None or back.round_id != live.round_id or back.status != BackBetStatus.ASKED:
            raise NotFound(
                f"no back bet {back_bet_id} waiting for consent in this round",
                code="no_back_bet_waiting",
                back_bet=back_bet_id,
            )
        if live.seats.get(back.seat) != who.user_id:
            raise Forbidden(
                f"only the owner of box {back.seat} consents",
                code="consent_owner_only",
                seat=back.seat,
            )
        live.verify_betting()
        if accept and back.seat not in live.held:
            # A back bet rides on the box's own bet: without one it could never be dealt.
            raise BetError(
                f"box {back.seat} has no bet of its own to back",
                code="back_box_without_bet",
                seat=back.seat,
            )
        if not accept:
            back.status = str(BackBetStatus.REFUSED)
            return {"back_bet": back.id, "status": back.status}
        maximum = box_maximum(live.profile)
        box = live.held.get(back.seat, {}).get("minor", 0)
        others = sum(
            b.amount
            for b in session.scalars(
                select(BackBet).where(
                    BackBet.round_id == live.round_id,
                    BackBet.seat == back.seat,
                    BackBet.status == str(BackBetStatus.ACCEPTED),
                )
            )
        )
        if box + others + back.amount > to_minor(maximum):
            raise BetError(
                f"box {back.seat}: back bets would pass the box maximum {maximum}",
                code="back_bets_over_box_maximum",
                seat=back.seat,
                maximum=maximum,
            )
        # The backer's stake moves now: their protection is checked as at the asking.
        protection.verify_stake(
            session, back.user_id, back.amount, self.clock.now(), self.gaming_day
        )
        legs = bet_legs(
            wallet=self.wallet(session, back.user_id), escrow=live.escrow, minor=back.amount
        )
        self.ledger.post(
            session,
            "back-bet",
            round_reference(live.round_id, "back", back.id),
            legs,
            self.clock.now(),
        )
        back.status = str(BackBetStatus.ACCEPTED)
        backer = session.get(User, back.user_id)
        live.back_bets.append(
            {
                "id": back.id,
                "seat": back.seat,
                "user": back.user_id,
                "backer": "" if backer is None else backer.username,
                "minor": back.amount,
            }
        )
        if (back.seat, back.user_id) not in live.players:  # a second back bet on the box
            session.add(
                RoundPlayer(
                    round_id=live.round_id, seat=back.seat, user_id=back.user_id, role="backer"
                )
            )
            live.players.add((back.seat, back.user_id))
        return {"back_bet": back.id, "status": back.status}
