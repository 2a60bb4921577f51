"""A player's seat at a live table: sit and leave (what they do in a round, bet, say ready
and decide, is the round's: ``Rounds.place_bet``, ``Rounds.ready``, ``Rounds.decide``).

``Casino.handle`` has checked the caller (their own seat, not the house's staff). Every
handler runs under the table's lock, in one transaction with what it writes.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from croupier.clock import Clock
from croupier.service import absence
from croupier.service.accounts import Principal
from croupier.service.errors import Conflict, RequestError
from croupier.service.live import LiveTable
from croupier.service.publishing import Publisher
from croupier.service.rounds import Rounds


class Players:
    """The seats of every table of one server process: a player sits and leaves."""

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
            if not self.rounds.deal_if_everyone_is_ready(session, live):
                self.rounds.save(session, live)
        return self.publisher.snapshot(live, who, fresh=True)
