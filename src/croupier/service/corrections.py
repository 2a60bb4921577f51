"""The dealer's corrections at a live table (issue 14, item 3; docs/rules.md#D-GEN-14).

A card found face up in the shoe, a card exposed or dealt in error, a confused deal, and a
round the dealer cannot finish (its void) are commands of the round like a bet or a decision
(``games.commands``: ``Correction``). Only a dealer assigned to the table may give one
(``staff.verify_dealer_at``). The engine checks it (``GameRound.verify_correction``) and
records it as its own events, after everything before it; in the same transaction the staff
action is recorded with who and when, and the round's record is saved: both rows enter the
R15 chain as they are written. A correction that ends the round (a void) settles it, every
stake still in play returned through the ledger, and the next round opens.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from croupier.clock import Clock
from croupier.games.commands import ConfusedDeal, Correction, Exposed, Void
from croupier.games.corrections import CORRECTION_EVENTS
from croupier.ledger.book import round_reference
from croupier.service import approvals, staff
from croupier.service.accounts import Principal
from croupier.service.errors import RequestError
from croupier.service.live import LiveTable
from croupier.service.rounds import Rounds


class DealerCorrections:
    """``correct``: the one entry point of every dealer's correction at a live table."""

    def __init__(self, clock: Clock, rounds: Rounds) -> None:
        self.clock = clock
        self.rounds = rounds

    def legal(self, session: Session, live: LiveTable, who: Principal) -> dict[str, Any]:
        """What the table's dealer may correct now, for the dealer's console: each kind, with
        the place of every card lying face down for ``exposed`` (never the card itself)."""
        staff.verify_dealer_at(session, who, live.id)
        # A round whose void waits for an inspector takes no correction (D-GEN-18).
        playing = live.void_waiting is None
        legal = live.game_round.legal_corrections() if playing else []
        kinds = {str(command).split(" ")[0] for command in legal}
        if playing and live.game_round.can_void():
            kinds.add("void")
        places = [command.place for command in legal if isinstance(command, Exposed)]
        return {"table": live.id, "round": live.round_id, "kinds": sorted(kinds), "places": places}

    def correct(
        self, session: Session, live: LiveTable, who: Principal, command: Correction
    ) -> dict[str, Any]:
        """Make ``command`` on the table's round; a refusal raises and changes nothing.

        The answer holds the correction's own events only: those every viewer may see (the
        card found face up, the card exposed, the cards of a confused deal). A card dealt
        face down in place of an exposed one stays out of it (R6)."""
        live.verify_not_waiting()
        game, round_id = live.game_round, live.round_id
        # At a physical shoe the dealer names a card taken out, and the engine refuses one
        # unnamed (``card_to_name``: it is the one that knows no card is entered past it).
        if not live.is_physical and getattr(command, "card", None) is not None:
            # The live shoe is the server's: a dealer who could name a card could probe it.
            raise RequestError(
                f"card: {command}: this table's shoe is the server's: name no card",
                code="bad_request_fields",
                fields="card",
            )
        if isinstance(command, Void | ConfusedDeal) and approvals.is_card_seen(live):
            # Both return the stakes in play once a card was seen: an inspector approves
            # first (issue 25, docs/rules.md#D-GEN-18), and the round stands still till then.
            reason = command.reason if isinstance(command, Void) else "confused deal"
            return {
                **approvals.ask_void(
                    session, self.rounds, who, live, reason, self.clock.now(), command.verb
                ),
                "correction": str(command),
            }
        start = len(game.events)
        if isinstance(command, Void):
            # The one void of a live round (the operator's and the dealer's alike): stakes
            # back, the record marked interrupted, the next round opened.
            self.rounds.void_live(session, live, command.reason)
        else:
            live.apply(command)
            game = live.game_round
        made = [e.to_json() for e in game.events[start:] if isinstance(e, CORRECTION_EVENTS)]
        action = staff.record_action(
            session,
            who,
            staff.StaffAction.ROUND_CORRECTED,
            round_reference(round_id),
            {"table": live.id, "round": round_id, "correction": str(command), "events": made},
            now=self.clock.now(),
        )
        done = game.is_done
        if isinstance(command, Void):
            pass  # settled and the next round opened by void_live
        elif done:
            self.rounds.settle(session, live)
        else:
            if game.card_needed is not None:
                live.deadline = None  # the replacement card is the dealer's to enter first
            self.rounds.save(session, live)
        return {
            "table": live.id,
            "round": round_id,
            "correction": str(command),
            "events": made,
            "round_over": done,
            "action": action,
        }
