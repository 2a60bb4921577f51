"""What a player does at a live table: sit, leave, bet, say ready (a decision: ``Rounds.decide``).

``Casino.handle`` has checked the caller (their own seat, not the house's staff); each
handler here gives the engine a typed command, and the engine checks its own rules
(``verify_*``): the service never checks one twice. Every handler runs under the table's
lock, in one transaction with the money it moves.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from croupier.clock import Clock
from croupier.errors import BetError
from croupier.games.commands import Bet
from croupier.service import absence
from croupier.service.accounts import Principal
from croupier.service.commands import PlaceBet
from croupier.service.errors import Conflict, RequestError
from croupier.service.live import LiveTable
from croupier.service.publishing import Publisher
from croupier.service.rounds import Rounds


class Players:
    """The players' handlers for every table of one server process."""

    def __init__(self, clock: Clock, rounds: Rounds, publisher: Publisher) -> None:
        self.clock = clock
        self.rounds = rounds
        self.publisher = publisher

    # --- seats ----------------------------------------------------------------------------
    def sit(self, session: Session, live: LiveTable, who: Principal, seat: int) -> dict[str, Any]:
        if not live.is_open:
            raise Conflict(f"table {live.name!r} is closed", code="table_closed", table=live.name)
        seats = live.profile.table.seats
        if not 1 <= seat <= seats:
            raise RequestError(
                f"seat {seat}: the table has seats 1 to {seats}",
                code="no_such_seat",
                seat=seat,
                seats=seats,
            )
        if seat in live.seats:
            if live.seats[seat] == who.user_id:
                return self.publisher.snapshot(live, who, fresh=True)
            raise Conflict(f"seat {seat} is taken", code="seat_taken", seat=seat)
        mine = [s for s, user in live.seats.items() if user == who.user_id]
        most = live.profile.table.seats_per_player
        if len(mine) >= most:
            raise Conflict(
                f"a player holds at most {most} seat(s) here", code="seats_per_player", most=most
            )
        live.seats[seat] = who.user_id
        absence.forget(live, seat)
        self.publisher.usernames[who.user_id] = who.username
        absence.store_seats(session, live)
        if live.game_round.is_betting and live.deadline is None and not live.held:
            # A seated player makes the table's betting windows run (D-GEN-15): one that
            # passes without their bet is a round they missed.
            live.deadline = self.clock.now() + live.betting_seconds
            self.rounds.save(session, live)
        return self.publisher.snapshot(live, who, fresh=True)

    def leave(self, session: Session, live: LiveTable, who: Principal, seat: int) -> dict[str, Any]:
        if seat in live.held:
            raise Conflict(
                f"seat {seat} has a bet in the round under way", code="seat_has_bet", seat=seat
            )
        del live.seats[seat]
        absence.forget(live, seat)
        absence.store_seats(session, live)
        if who.user_id not in live.seats.values():
            live.ready.discard(who.user_id)
            # The players still seated may all be ready: they wait for nobody now.
            if not self._deal_if_everyone_is_ready(session, live):
                self.rounds.save(session, live)
        return self.publisher.snapshot(live, who, fresh=True)

    # --- betting ----------------------------------------------------------------------------
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
        self.rounds.money.collect_stakes(session, live, "bet")
        if live.deadline is None or (first and live.held):
            # The round's first bet opens its full betting window (D-GEN-7); the window run
            # before it only counted the rounds the seated players missed (D-GEN-15).
            live.deadline = self.clock.now() + live.betting_seconds
        if seat in live.held:
            absence.came_back(session, live, seat)
        self.rounds.save(session, live)
        if (seat, who.user_id) not in live.players:
            self.rounds.rows.add_player(session, live.round_id, seat, who.user_id)
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
        dealt = self._deal_if_everyone_is_ready(session, live)
        if not dealt:
            self.rounds.save(session, live)
        return {"round": round_id, "dealt": dealt}

    def _deal_if_everyone_is_ready(self, session: Session, live: LiveTable) -> bool:
        """Betting closes as soon as every present seated player has said ready (D-GEN-7; a
        seat sitting out is not waited for, D-GEN-15): the deal comes at once, if the bets
        make a round. Whether it dealt."""
        if not live.game_round.is_betting or not absence.present_users(live) <= live.ready:
            return False
        self.rounds.return_undealable(session, live, "every seated player was ready")
        if not (self.rounds.enough_players(live) and self.rounds.may_deal(live)):
            return False
        self.rounds.deal(session, live)
        return True
