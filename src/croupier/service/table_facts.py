"""What a player reads at a table besides the round: its posted rules, how much of the shoe
is dealt, and (baccarat) the roads of the shoe so far.

All of it is public at a real table: the rules are posted, the discard tray shows how many
cards have left the shoe (never their order, R6), and a baccarat scoreboard shows every coup
of the shoe. The rules come from the table's own profile (its limits as the operator set them
for the round under way, docs/rules.md §6); the roads from the recorded rounds of the shoe in
play, so they show what the record holds.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.games.baccarat_roads import Coup, coup_of, roads_document
from croupier.games.events import Event
from croupier.rules.baccarat import BaccaratRules, PairBy
from croupier.rules.posted import posted_rules
from croupier.service.live import LiveTable
from croupier.service.models import RoundRecord


def rules_of(live: LiveTable) -> dict[str, Any]:
    """The table's posted rules (``rules.posted``), as its round under way is dealt."""
    return {"table": live.id, **posted_rules(live.profile)}


def shoe_progress(live: LiveTable) -> dict[str, int] | None:
    """How many cards have left the shoe in play, of how many, and where the cut card sits
    (cards before it); ``None`` where every round is dealt from a fresh deck (Casino Hold'em)."""
    shoe = live.shoe
    if shoe is None or live.profile.table.is_one_round_per_shoe:
        return None
    return {
        "dealt": shoe.position,
        "cards": shoe.size,
        "cut_card_at": shoe.size if shoe.cut_card_at is None else shoe.cut_card_at,
    }


def roads_of(session: Session, live: LiveTable) -> dict[str, Any]:
    """The roads of the shoe in play, from its complete rounds in the order they were dealt
    (a voided round decided no coup and is not on them)."""
    profile = live.profile
    if not isinstance(profile, BaccaratRules):
        return {"table": live.id, "shoe": live.shoe_id, "roads": None}
    rows = session.execute(
        select(RoundRecord.id, RoundRecord.events)
        .where(
            RoundRecord.table_id == live.id,
            RoundRecord.shoe_id == live.shoe_id,
            RoundRecord.status == "complete",
        )
        .order_by(RoundRecord.id)
    ).all()
    coups: list[Coup] = []
    for round_id, events in rows:
        coup = coup_of(
            (Event.from_json(event) for event in events),
            pair_by_rank=profile.pair_by is PairBy.RANK,
            round_id=round_id,
        )
        if coup is not None:
            coups.append(coup)
    return {"table": live.id, "shoe": live.shoe_id, "roads": roads_document(coups)}
