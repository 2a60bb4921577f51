"""What a player does at a live table: sit, leave, bet, say ready, decide.

Each handler checks the request against the table (whose seat, which phase), then gives the
engine a typed command; the engine checks its own rules (``verify_*``) and the service never
checks one twice. Every handler runs inside ``Casino.run``: under the table's lock, in one
transaction with the money it moves.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from croupier.errors import BetError, IllegalActionError
from croupier.games.commands import Action, Bet
from croupier.service.accounts import Principal
from croupier.service.clock import Clock
from croupier.service.errors import Conflict, Forbidden, RequestError
from croupier.service.live import PLAYERS, LiveTable
from croupier.service.models import GameTable
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
            raise Conflict(f"table {live.name!r} is closed")
        seats = live.profile.table.seats
        if not 1 <= seat <= seats:
            raise RequestError(f"seat {seat}: the table has seats 1 to {seats}")
        if seat in live.seats:
            if live.seats[seat] == who.user_id:
                return self.publisher.snapshot(live, who, fresh=True)
            raise Conflict(f"seat {seat} is taken")
        mine = [s for s, user in live.seats.items() if user == who.user_id]
        most = live.profile.table.seats_per_player
        if len(mine) >= most:
            raise Conflict(f"a player holds at most {most} seat(s) here")
        live.seats[seat] = who.user_id
        self.publisher.usernames[who.user_id] = who.username
        _store_seats(session, live)
        return self.publisher.snapshot(live, who, fresh=True)

    def leave(self, session: Session, live: LiveTable, who: Principal, seat: int) -> dict[str, Any]:
        if live.seats.get(seat) != who.user_id:
            raise Forbidden(f"seat {seat} is not yours")
        if seat in live.held:
            raise Conflict(f"seat {seat} has a bet in the round under way")
        del live.seats[seat]
        _store_seats(session, live)
        return self.publisher.snapshot(live, who, fresh=True)

    @staticmethod
    def _own_seat(live: LiveTable, who: Principal, seat: int) -> int:
        if live.seats.get(seat) != who.user_id:
            raise Forbidden(f"seat {seat} is not yours")
        return seat

    # --- betting ----------------------------------------------------------------------------
    def place_bet(
        self,
        session: Session,
        live: LiveTable,
        who: Principal,
        *,
        seat: int,
        wager: str,
        amount: int,
    ) -> dict[str, Any]:
        """A wager in whole table units (docs/rules.md §6); 0 withdraws it while bets are open.
        The request body is typed (``server.schemas.BetBody``): seat, name and amount are
        an int, a str and whole units already."""
        seat = self._own_seat(live, who, seat)
        if not live.is_open:
            raise Conflict(f"table {live.name!r} is closed")
        if live.status != "betting":
            raise IllegalActionError(f"no more bets: round {live.round_id} is {live.status}")
        live.game_round.apply(Bet(seat, wager, amount))
        problem = live.game_round.undealable().get(seat)
        if problem is not None:
            # A bet that leaves its box undealable (a side bet without its main wager) is
            # refused now, not at the deal; ``run`` rebuilds the round from the database.
            raise BetError(f"seat {seat} {wager} {amount}: refused: {problem}")
        self.rounds.money.collect_stakes(session, live, "bet")
        if live.deadline is None:
            live.deadline = self.clock.now() + live.betting_seconds
        self.rounds.save(session, live)
        if (seat, who.user_id) not in live.players:
            session.connection().execute(
                insert(PLAYERS).values(round_id=live.round_id, seat=seat, user_id=who.user_id)
            )
            live.players.add((seat, who.user_id))
        return {
            "round": live.round_id,
            "seat": seat,
            "wager": wager,
            "amount": amount,
            "held": live.held.get(seat, {}).get("minor", 0),
        }

    def ready(self, session: Session, live: LiveTable, who: Principal) -> dict[str, Any]:
        """The player is done betting; when every seated player is, the deal comes at once."""
        if who.user_id not in live.seats.values():
            raise Forbidden("only a seated player says ready")
        if live.status != "betting":
            raise IllegalActionError(f"no more bets: round {live.round_id} is {live.status}")
        live.ready.add(who.user_id)
        if set(live.seats.values()) <= live.ready:
            self.rounds.return_undealable(session, live, "every seated player was ready")
        if (
            set(live.seats.values()) <= live.ready
            and self.rounds.enough_players(live)
            and self.rounds.may_deal(live)
        ):
            round_id = live.round_id
            self.rounds.deal(session, live)
            return {"round": round_id, "dealt": True}
        self.rounds.save(session, live)
        return {"round": live.round_id, "dealt": False}

    # --- decisions --------------------------------------------------------------------------
    def act(
        self, session: Session, live: LiveTable, who: Principal, seat: int, action: str
    ) -> dict[str, Any]:
        seat = self._own_seat(live, who, seat)
        if live.status != "playing":
            raise IllegalActionError(f"round {live.round_id} is {live.status}: nothing to decide")
        decision = live.game_round.pending()
        if decision is None or decision.seat != seat:
            waiting = "nobody" if decision is None else f"seat {decision.seat}"
            raise IllegalActionError(f"not seat {seat}'s turn: the round waits for {waiting}")
        parsed = Action.parse(action)
        return self.rounds.decide(session, live, seat, str(parsed), timeout=False)


def _store_seats(session: Session, live: LiveTable) -> None:
    record = session.get(GameTable, live.id)
    assert record is not None
    record.seats = {str(s): u for s, u in live.seats.items()}
