"""Reads of a table besides its round (``service.table_facts``): its posted rules and, at a
baccarat table, the roads of the shoe in play. Public to every signed-in person, as they are
at a real table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from croupier.reports.returns import posted_returns
from croupier.server.answers import TableRoads, TableRules, documented
from croupier.server.context import Caller, ServerDep
from croupier.server.schemas import Id
from croupier.service import table_facts

router = APIRouter()


@router.get("/tables/{table_id}/rules", responses=documented(TableRules))
def table_rules(*, server: ServerDep, who: Caller, table_id: Id) -> dict[str, Any]:
    """The table's paytables, the dealer's and the table's rules and each wager's limits,
    from its profile as the round under way is dealt; each line names its words by a
    catalogue key (``words``) with its figures. Each wager has its ``return_to_player`` (1
    minus the exact house edge of these rules, blackjack's under the basic strategy in
    ``returns.strategy``), read from the analysis made at the table's opening or the
    server's start: ``null`` only while that first analysis runs (``returns.ready``)."""
    live = server.casino.table(table_id)
    return posted_returns(table_facts.rules_of(live), server.returns.of(live.profile))


@router.get("/tables/{table_id}/roads", responses=documented(TableRoads))
def table_roads(*, server: ServerDep, who: Caller, table_id: Id) -> dict[str, Any]:
    """Baccarat: the bead plate and the big road of the shoe in play, from its recorded
    rounds (``roads`` is ``null`` at a table of another game)."""
    live = server.casino.table(table_id)
    return server.uow.read(lambda session: table_facts.roads_of(session, live))
