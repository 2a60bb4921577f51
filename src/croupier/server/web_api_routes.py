"""The few reads the pages need that the table server's other routes do not offer (yet).

- ``GET /web/api/profiles``: the public facts of each shipped profile and of each table's own
  profile (an operator's file sets its own limits) for the lobby and the table page: its game,
  seats, seats per player, and every wager with its limits (whole units); and under ``tables``,
  each table's own (its limits as the operator set them for the round under way).
- ``GET /web/api/operator/players``: every player with their wallet's balance (minor units).
- ``GET /web/api/operator/shoes``: every shoe's commitment and whether it has been revealed.
- ``GET /web/api/tables/{id}/back-bets``: the back bets of the round under way that concern the
  caller: those it asked for, and those on its own boxes waiting for its consent (spain-1979).

They only read, through the service's queries (``table_facts``, ``wallets``) as every other
route does: money still moves through the server's own routes.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

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
from croupier.service import table_facts, wallets

router = APIRouter(prefix="/web/api", tags=["web pages"])


@router.get("/profiles", responses=documented(ProfilesAnswer))
def profiles(*, server: ServerDep) -> dict[str, Any]:
    """The shipped profiles, and those of open tables dealt under an operator's own file."""
    found = {name: load_profile(name) for name in shipped_profile_names()}
    for live in list(server.casino.tables.values()):
        found.setdefault(live.profile.name, live.profile)
    # A table's own limits (the operator's, docs/rules.md §6) make its profile differ from the
    # shipped one of the same name: each table's facts, as its round under way is dealt.
    by_table = {
        str(live.id): table_facts.profile_facts(live.profile)
        for live in server.casino.tables.values()
    }
    return {
        "profiles": [table_facts.profile_facts(profile) for profile in found.values()],
        "tables": by_table,
    }


@router.get("/operator/players", responses=documented(PlayersAnswer))
def players(*, server: ServerDep, who: Operator) -> dict[str, Any]:
    return {"players": server.uow.read(wallets.players)}


@router.get("/operator/shoes", responses=documented(ShoesAnswer))
def shoes(*, server: ServerDep, who: Operator, limit: int = 50) -> dict[str, Any]:
    count = min(max(limit, 1), 500)
    return {"shoes": server.uow.read(lambda session: table_facts.shoes(session, count))}


@router.get("/tables/{table_id}/back-bets", responses=documented(BackBetsAnswer))
def back_bets(*, server: ServerDep, who: Caller, table_id: Id) -> dict[str, Any]:
    live = server.casino.table(table_id)
    round_id = live.round_id
    owned = {seat for seat, user in live.seats.items() if user == who.user_id}
    concerning = server.uow.read(
        lambda session: table_facts.back_bets_of(session, round_id, who.user_id, owned)
    )
    return {"round": round_id, "back_bets": concerning}
