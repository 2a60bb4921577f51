"""What clients see of a live table: one snapshot per commit, pushed to its subscribers.

Everything any client may be shown is computed once per change, under the table's lock
(``publishable``); readers (GET, the WebSocket pushes) then read that, never the live round,
so they never wait on a command. A seat's own view comes from the engine (``view(seat)``),
with what that seat may not see masked (R6).
"""

from __future__ import annotations

import json
from typing import Any

from croupier.service import absence, limits, table_facts
from croupier.service.accounts import Principal
from croupier.service.broadcast import Broadcaster
from croupier.service.live import LiveTable


class Publisher:
    """Snapshots and pushes for every table of one server process."""

    def __init__(self, broadcaster: Broadcaster, usernames: dict[int, str]) -> None:
        self.broadcaster = broadcaster
        self.usernames = usernames
        """User id -> name, for the seats a table shows."""

    def snapshot(
        self, live: LiveTable, who: Principal | None, *, fresh: bool = False
    ) -> dict[str, Any]:
        """The table as ``who`` may see it now: public state and their own seats' views (R6).

        Built from ``published``, the table as it stood at its last commit, so that readers
        (the WebSocket pushes, GET) never wait on a command holding the table's lock.
        """
        published = self.publishable(live) if fresh or live.published is None else live.published
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
        published = live.published if live.published is not None else self.publishable(live)
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

    def publishable(self, live: LiveTable) -> dict[str, Any]:
        """Everything any client may be shown, computed once per change (under the lock)."""
        game_round = live.game_round
        waiting = game_round.is_betting or game_round.card_needed is not None
        decision = None if waiting else game_round.pending()
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
                # Seats whose player missed the rounds to sit out (docs/rules.md#D-GEN-15):
                # shown to everyone, not dealt in, not waited for.
                "sitting_out": absence.sitting_out(live),
                "absence_rounds": {"sit_out": live.sit_out_after, "free": live.free_after},
                "shoe": live.shoe_id,
                "shoe_cards": table_facts.shoe_progress(live),
                "shoe_kind": "physical" if live.is_physical else "random",
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
                # Back bets ride on their box's felt, seen by all (spain-1979, D-BJ-28).
                "back_bets": [
                    {"seat": b["seat"], "backer": b["backer"], "amount_minor": b["minor"]}
                    for b in live.back_bets
                ],
                "pending": None
                if decision is None
                else {
                    "seat": decision.seat,
                    "hand": decision.hand,
                    "question": decision.question,
                    "legal": [str(a) for a in decision.legal],
                    "default": str(decision.default),
                },
                "card_needed": None
                if game_round.card_needed is None
                else game_round.card_needed.to_json(),
                "public": game_round.view(None),
            },
        }

    def publish(self, live: LiveTable) -> None:
        """Freeze the table's committed state for readers, and tell the subscribers."""
        with live.lock:
            live.published = self.publishable(live)
        self.broadcaster.publish(live.id)


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
