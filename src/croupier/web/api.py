"""The few reads the pages need that the table server's API does not offer (yet).

- ``GET /web/api/profiles``: the public facts of each shipped profile and of each table's own
  profile (an operator's file sets its own limits) for the lobby and the table page: its game,
  seats, seats per player, and every wager with its limits (whole units); and under ``tables``,
  each table's own (its limits as the operator set them for the round under way).
- ``GET /web/api/operator/players``: every player with their wallet's balance (minor units).
- ``GET /web/api/operator/shoes``: every shoe's commitment and whether it has been revealed.
- ``GET /web/api/tables/{id}/back-bets``: the back bets of the round under way that concern the
  caller: those it asked for, and those on its own boxes waiting for its consent (spain-1979).

They only read: money still moves through the server's own routes.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.rules.base import Limits, Profile
from croupier.rules.registry import load_profile, shipped_profile_names
from croupier.server.answers import (
    BackBetsAnswer,
    PlayersAnswer,
    ProfilesAnswer,
    ShoesAnswer,
    documented,
)
from croupier.server.context import Caller, Operator, ServerDep
from croupier.server.schemas import Id
from croupier.service import engines
from croupier.service.models import Account, BackBet, GameTable, ShoeRecord, User

router = APIRouter(prefix="/web/api", tags=["web pages"])

MAIN_WAGER = "main"
"""The blackjack box's own bet, as the table server names it."""


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


@router.get("/profiles", responses=documented(ProfilesAnswer))
def profiles(*, server: ServerDep) -> dict[str, Any]:
    """The shipped profiles, and those of open tables dealt under an operator's own file."""
    found = {name: load_profile(name) for name in shipped_profile_names()}
    for live in list(server.casino.tables.values()):
        found.setdefault(live.profile.name, live.profile)
    # A table's own limits (the operator's, docs/rules.md §6) make its profile differ from the
    # shipped one of the same name: each table's facts, as its round under way is dealt.
    by_table = {str(live.id): profile_facts(live.profile) for live in server.casino.tables.values()}
    return {"profiles": [profile_facts(profile) for profile in found.values()], "tables": by_table}


def _players(session: Session) -> list[dict[str, Any]]:
    wallets = dict(
        session.execute(
            select(Account.owner, Account.balance).where(Account.kind == "wallet")
        ).all()
    )
    users = session.execute(
        select(User.id, User.username).where(User.role == "player").order_by(User.username)
    ).all()
    return [
        {"id": user_id, "username": username, "balance": wallets.get(str(user_id), 0)}
        for user_id, username in users
    ]


@router.get("/operator/players", responses=documented(PlayersAnswer))
def players(*, server: ServerDep, who: Operator) -> dict[str, Any]:
    return {"players": server.uow.read(_players)}


def _shoes(session: Session, limit: int) -> list[dict[str, Any]]:
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


@router.get("/operator/shoes", responses=documented(ShoesAnswer))
def shoes(*, server: ServerDep, who: Operator, limit: int = 50) -> dict[str, Any]:
    return {"shoes": server.uow.read(lambda s: _shoes(s, min(max(limit, 1), 500)))}


@router.get("/tables/{table_id}/back-bets", responses=documented(BackBetsAnswer))
def back_bets(*, server: ServerDep, who: Caller, table_id: Id) -> dict[str, Any]:
    live = server.casino.table(table_id)
    round_id = live.round_id
    owned = {seat for seat, user in live.seats.items() if user == who.user_id}

    def read(session: Session) -> list[dict[str, Any]]:
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
                "is_mine": back.user_id == who.user_id,
                "awaits_my_consent": back.seat in owned and back.status == "asked",
            }
            for back, username in rows
            if back.user_id == who.user_id or back.seat in owned
        ]

    return {"round": round_id, "back_bets": server.uow.read(read)}
