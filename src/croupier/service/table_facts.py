"""What a player reads at a table besides the round: its posted rules, how much of the shoe
is dealt, and (baccarat) the roads of the shoe so far.

All of it is public at a real table: the rules are posted, the discard tray shows how many
cards have left the shoe (never their order, R6), and a baccarat scoreboard shows every coup
of the shoe. The rules come from the table's own profile (its limits as the operator set them
for the round under way, docs/rules.md §6); the roads from the recorded rounds of the shoe in
play, so they show what the record holds.

Also what the pages read beside (``server.web_api_routes``): each profile's public facts, the
shoes' commitments, and the back bets of a round that concern a player.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.games.baccarat_roads import Coup, coup_of, roads_document
from croupier.games.events import Event
from croupier.games.replay import views
from croupier.rules.baccarat import BaccaratRules, PairBy
from croupier.rules.base import Limits, Profile
from croupier.rules.posted import posted_rules
from croupier.service import engines
from croupier.service.live import LiveTable
from croupier.service.models import (
    BackBet,
    BackBetStatus,
    GameTable,
    RoundRecord,
    RoundStatus,
    ShoeRecord,
    User,
)

MAIN_WAGER = "main"
"""The blackjack box's own bet, as the table server names it."""


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


# --- what the pages read beside (``server.web_api_routes``) ----------------------------------
def _limits(name: str, limits: Limits, *, optional: bool = False) -> dict[str, Any]:
    return {
        "name": name,
        "minimum": limits.minimum,
        "maximum": limits.maximum,
        "optional": optional,
    }


def wagers_of(profile: Profile) -> list[dict[str, Any]]:
    """Each wager a seat may place under ``profile``, its limits in whole units, first the
    one a seat must place (blackjack's box bet, the Casino Hold'em Ante)."""
    limits = getattr(profile, "limits", None)
    wagers: list[dict[str, Any]] = []
    if isinstance(limits, dict):  # baccarat: one limit per wager, none required (Art. 8)
        wagers += [_limits(str(name), value, optional=True) for name, value in limits.items()]
    elif isinstance(limits, Limits):
        wagers.append(_limits(MAIN_WAGER, limits))
    side = getattr(profile, "twenty_one_plus_three", None)
    if side is not None:
        wagers.append(_limits("21+3", side.limits, optional=True))
    ante = getattr(profile, "ante_limits", None)
    if isinstance(ante, Limits):
        wagers.append(_limits("ante", ante))
    progressive = getattr(profile, "progressive", None)
    if progressive is not None:
        stake = int(progressive.bet)
        wagers.append(_limits("progressive", Limits(minimum=stake, maximum=stake), optional=True))
    return wagers


def profile_facts(profile: Profile) -> dict[str, Any]:
    """The lobby's and the table page's facts of ``profile``: its game, seats and wagers, and
    whether this build has its game's engine (``playable``)."""
    try:
        engines.round_class(profile)
        playable = True
    except (ModuleNotFoundError, LookupError):
        playable = False
    return {
        "name": profile.name,
        "game": profile.game,
        "title": profile.title,
        "seats": profile.table.seats,
        "seats_per_player": profile.table.seats_per_player,
        "min_players": profile.table.min_players,
        "back_betting": profile.table.back_betting,
        "wagers": wagers_of(profile),
        "playable": playable,
    }


def shoes(session: Session, limit: int) -> list[dict[str, Any]]:
    """The last ``limit`` shoes, newest first: each one's table, its commitment (R18) and
    whether its seed has been revealed."""
    rows = session.execute(
        select(ShoeRecord.id, GameTable.name, ShoeRecord.commitment, ShoeRecord.is_revealed)
        .join(GameTable, GameTable.id == ShoeRecord.table_id)
        .order_by(ShoeRecord.id.desc())
        .limit(limit)
    ).all()
    return [
        {"id": shoe_id, "table": table, "commitment": commitment, "is_revealed": revealed}
        for shoe_id, table, commitment, revealed in rows
    ]


def back_bets_of(
    session: Session, round_id: int, user_id: int, owned: set[int]
) -> list[dict[str, Any]]:
    """The back bets of round ``round_id`` that concern ``user_id``: those it placed, and
    those on the boxes it owns (``owned``), which wait for its consent while ``asked``."""
    rows = session.execute(
        select(BackBet, User.username)
        .join(User, User.id == BackBet.user_id)
        .where(BackBet.round_id == round_id)
        .order_by(BackBet.id)
    ).all()
    return [
        {
            "id": back.id,
            "seat": back.seat,
            "wager": back.wager,
            "amount": back.amount,
            "status": back.status,
            "backer": username,
            "is_mine": back.user_id == user_id,
            "awaits_my_consent": back.seat in owned and back.status == BackBetStatus.ASKED,
        }
        for back, username in rows
        if back.user_id == user_id or back.seat in owned
    ]
