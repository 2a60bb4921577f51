"""Baccarat's roads: the shoe's coups as a baccarat table's scoreboard draws them.

A player at a baccarat table reads the shoe so far from its roads. Two are drawn here, from
the coups of the current shoe in the order they were dealt (each read from its recorded
events, so the roads are the record's, not the page's):

- the **bead plate**: one bead per coup, six to a column, filled down then right;
- the **big road**: one column per run of Player or Banker wins; a tie starts no entry but
  is counted on the entry before it (ties before the shoe's first win are counted on its first
  entry, ``ties_before``); a run longer than six, or one that meets a cell already filled,
  turns right along its last row (the "dragon tail").

>>> coups = [Coup(winner=w, player_total=0, banker_total=0) for w in "BBPTPPB"]
>>> [(cell.column, cell.row, cell.winner, cell.ties) for cell in big_road(coups)]
[(0, 0, 'B', 0), (0, 1, 'B', 0), (1, 0, 'P', 1), (1, 1, 'P', 0), (1, 2, 'P', 0), (2, 0, 'B', 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from croupier.cards import Card
from croupier.games.baccarat import CoupDecided
from croupier.games.events import CardDrawn, Event, Purpose
from croupier.hands.baccarat import is_natural, points

ROWS = 6
"""Both roads are six cells high, as on every baccarat scoreboard."""

WINNERS = {"player": "P", "banker": "B", "tie": "T"}


@dataclass(frozen=True, slots=True)
class Coup:
    """One coup as the roads need it: who won (``P``, ``B``, ``T``) and how."""

    winner: str
    player_total: int
    banker_total: int
    player_pair: bool = False
    banker_pair: bool = False
    natural: bool = False
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Bead:
    column: int
    row: int
    winner: str
    total: int
    """The winning hand's total (either on a tie)."""
    player_pair: bool
    banker_pair: bool
    natural: bool
    round: int | None


@dataclass(frozen=True, slots=True)
class RoadCell:
    column: int
    row: int
    winner: str
    ties: int
    """Ties dealt after this win (before the next)."""
    ties_before: int
    """Ties dealt before the shoe's first win, counted on its first entry."""
    player_pair: bool
    banker_pair: bool
    natural: bool
    banker_six: bool
    """A Banker win with 6 (Dragon Six Art. 8: paid half)."""


def coup_of(
    events: Iterable[Event], *, pair_by_rank: bool = True, round_id: int | None = None
) -> Coup | None:
    """The coup a round's events record, or ``None`` for a round with no decided coup (voided)."""
    player: list[Card] = []
    banker: list[Card] = []
    decided: CoupDecided | None = None
    for event in events:
        if isinstance(event, CardDrawn):
            if event.purpose is Purpose.PLAYER:
                player.append(event.card)
            elif event.purpose is Purpose.BANKER:
                banker.append(event.card)
        elif isinstance(event, CoupDecided):
            decided = event
    if decided is None or len(player) < 2 or len(banker) < 2:
        return None

    def pair(cards: Sequence[Card]) -> bool:
        first, second = cards[0], cards[1]
        return first.rank == second.rank if pair_by_rank else points(first) == points(second)

    two = [(points(hand[0]) + points(hand[1])) % 10 for hand in (player, banker)]
    return Coup(
        winner=WINNERS[decided.winner],
        player_total=decided.player_total,
        banker_total=decided.banker_total,
        player_pair=pair(player),
        banker_pair=pair(banker),
        natural=any(is_natural(total) for total in two),
        round=round_id,
    )


def bead_plate(coups: Sequence[Coup]) -> list[Bead]:
    """One bead per coup, down each column of six, then the next column."""
    return [
        Bead(
            column=index // ROWS,
            row=index % ROWS,
            winner=coup.winner,
            total=coup.banker_total if coup.winner == "B" else coup.player_total,
            player_pair=coup.player_pair,
            banker_pair=coup.banker_pair,
            natural=coup.natural,
            round=coup.round,
        )
        for index, coup in enumerate(coups)
    ]


def big_road(coups: Sequence[Coup]) -> list[RoadCell]:
    """The runs of wins, a column each, ties marked on the entry before them."""
    cells: list[dict[str, Any]] = []
    taken: set[tuple[int, int]] = set()
    leading_ties = 0
    run_start = -1  # the column the current run began in
    column = row = 0
    turned = False  # the run under way has turned right (its dragon tail)
    for coup in coups:
        if coup.winner == "T":
            if cells:
                cells[-1]["ties"] += 1
            else:
                leading_ties += 1
            continue
        if not cells or cells[-1]["winner"] != coup.winner:
            run_start += 1
            column, row, turned = run_start, 0, False
            while (column, row) in taken:  # a tail from before runs along this column's top
                column += 1
            run_start = column
        elif not turned and row + 1 < ROWS and (column, row + 1) not in taken:
            row += 1
        else:
            column, turned = column + 1, True  # the dragon tail: right, along its row
        taken.add((column, row))
        cells.append(
            {
                "column": column,
                "row": row,
                "winner": coup.winner,
                "ties": 0,
                "ties_before": leading_ties if not cells else 0,
                "player_pair": coup.player_pair,
                "banker_pair": coup.banker_pair,
                "natural": coup.natural,
                "banker_six": coup.winner == "B" and coup.banker_total == 6,
            }
        )
    return [RoadCell(**cell) for cell in cells]


def roads_document(coups: Sequence[Coup]) -> dict[str, Any]:
    """Both roads as JSON, with the counts a scoreboard prints beside them."""
    return {
        "rows": ROWS,
        "coups": len(coups),
        "counts": {side: sum(1 for coup in coups if coup.winner == side) for side in "PBT"},
        "bead_plate": [asdict(bead) for bead in bead_plate(coups)],
        "big_road": [asdict(cell) for cell in big_road(coups)],
    }
