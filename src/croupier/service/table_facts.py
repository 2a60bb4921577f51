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

from croupier.errors import CroupierError
from croupier.games.baccarat_roads import Coup, coup_of, roads_document
from croupier.games.base import views
from croupier.games.events import Event
from croupier.rules.baccarat import BaccaratRules, PairBy
from croupier.rules.posted import posted_rules
from croupier.service.live import LiveTable
from croupier.service.models import RoundRecord, RoundStatus


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
            RoundRecord.status == str(RoundStatus.COMPLETE),
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


RECENT_ROUNDS = 8
"""How many of a table's last rounds the lobby shows (its tile's last results)."""


def recent_results(session: Session, live: LiveTable) -> list[dict[str, Any]]:
    """The outcomes of the table's last complete rounds, newest first, as the felt showed
    them at their end to anyone watching: the house's hand (blackjack: the dealer's total
    and how many cards; Casino Hold'em: the dealer's hand and whether it qualified) or
    baccarat's winner and totals. Public, as a casino's lobby shows a table's history. A
    complete round's record never changes: each is replayed once (``live.outcomes``)."""
    ids = list(
        session.scalars(
            select(RoundRecord.id)
            .where(RoundRecord.table_id == live.id, RoundRecord.status == str(RoundStatus.COMPLETE))
            .order_by(RoundRecord.id.desc())
            .limit(RECENT_ROUNDS)
        )
    )
    known = {round_id: live.outcomes[round_id] for round_id in ids if round_id in live.outcomes}
    missing = [round_id for round_id in ids if round_id not in known]
    if missing:
        for round_id, events in session.execute(
            select(RoundRecord.id, RoundRecord.events).where(RoundRecord.id.in_(missing))
        ):
            known[round_id] = _outcome(events)
    live.outcomes = known
    return [
        {"round": round_id, **outcome}
        for round_id in ids
        if (outcome := known.get(round_id)) is not None
    ]


def _outcome(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The end of a round as a spectator saw it, or ``None`` when its record does not replay."""
    try:
        *_, last = views([Event.from_json(event) for event in events], None)
    except (CroupierError, ValueError):
        return None
    if "winner" in last:
        return {
            "winner": last["winner"],
            "player": last["player"]["total"],
            "banker": last["banker"]["total"],
        }
    dealer = last.get("dealer") or {}
    outcome: dict[str, Any] = {"dealer": dealer.get("total"), "cards": len(dealer.get("cards", []))}
    if "qualifies" in dealer:
        outcome["qualifies"] = dealer["qualifies"]
    return outcome
