"""Absent players (docs/rules.md#D-GEN-15): a seat whose player lets betting windows pass
without a bet sits out, then is freed.

A betting window closes (the deal, or its deadline with no round to deal) and every occupied
seat without a stake in it has missed one more round; a seat with a stake has missed none.
After ``sit_out_after`` rounds missed in a row the seat sits out: every client sees it, and
the window no longer waits for its player's "ready". After ``free_after`` more it is freed. A
seat with a stake in escrow is never freed (it has missed nothing), so no stake is stranded;
a player who bets again comes back at once (``rounds.Rounds.place_bet`` forgets the count).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from croupier.service.live import LiveTable
from croupier.service.models import GameTable

SIT_OUT_AFTER_ROUNDS = 3
"""Rounds missed in a row before a seat sits out, unless the table sets its own (D-GEN-15)."""
FREE_AFTER_ROUNDS = 3
"""Further rounds missed, sitting out, before the seat is freed (D-GEN-15)."""


def is_sitting_out(live: LiveTable, seat: int) -> bool:
    return live.absences.get(seat, 0) >= live.sit_out_after


def sitting_out(live: LiveTable) -> list[int]:
    """The occupied seats that sit out, in order."""
    return [seat for seat in sorted(live.seats) if is_sitting_out(live, seat)]


def present_users(live: LiveTable) -> set[int]:
    """The players the betting window waits for: those of a seat that does not sit out."""
    return {user for seat, user in live.seats.items() if not is_sitting_out(live, seat)}


def window_closed(session: Session, live: LiveTable) -> list[int]:
    """A betting window closed: each occupied seat without a stake misses one more round, a
    seat with one has missed none; returns the seats freed (missed the rounds to sit out and
    those sitting out), which are freed here."""
    freed: list[int] = []
    changed = False
    for seat in sorted(live.seats):
        if seat in live.held:
            changed |= live.absences.pop(seat, None) is not None
            continue
        live.absences[seat] = live.absences.get(seat, 0) + 1
        changed = True
        if live.absences[seat] >= live.sit_out_after + live.free_after:
            del live.seats[seat]
            del live.absences[seat]
            freed.append(seat)
    if changed:
        store_seats(session, live)
    return freed


def forget(live: LiveTable, seat: int) -> None:
    """The seat is taken or left: its count starts afresh (the caller stores the seats)."""
    live.absences.pop(seat, None)


def store_seats(session: Session, live: LiveTable) -> None:
    """The seats and the rounds each missed, as the table's row holds them."""
    record = session.get(GameTable, live.id)
    assert record is not None
    record.seats = {str(s): u for s, u in live.seats.items()}
    # ``None`` when no seat missed a round: the row of a table from before revision
    # revision 0008 (absent seats) keeps its audited digest (R15) until a seat is missed.
    record.absences = {str(s): n for s, n in sorted(live.absences.items())} or None
