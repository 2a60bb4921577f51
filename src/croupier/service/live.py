"""A live table in memory: what its engine needs, and what the database must hold the same.

Every part of the table service (``registry``, ``rounds``, ``players``, ``money``,
``deadlines``, ``publishing``) works on a ``LiveTable`` under its lock; ``durable_state`` is
what a fresh load from the database must equal after any command (issue 10, item 3).
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table

from croupier.cards import Card
from croupier.errors import CardNeeded, IllegalActionError
from croupier.games.base import GameRound
from croupier.games.commands import Command
from croupier.games.events import Event
from croupier.rules.base import Profile
from croupier.service import engines
from croupier.service.errors import Conflict
from croupier.service.models import RoundPlayer, RoundRecord, RoundStatus
from croupier.shoe import Shoe

# The hot path writes these with Core statements: loading a round's record into the ORM to
# change it cost more than the write itself.
ROUNDS = cast(Table, RoundRecord.__table__)
PLAYERS = cast(Table, RoundPlayer.__table__)


@dataclass
class LiveTable:
    """What a table's engine needs in memory; the database holds the same, durably."""

    id: int
    name: str
    profile: Profile
    is_open: bool
    betting_seconds: float
    decision_seconds: float
    seats: dict[int, int]
    escrow: int
    shoe_id: int = 0
    shoe: Shoe | None = None
    is_physical: bool = False
    """The dealer deals from a real shoe and enters each card (``service.physical``)."""
    procedures: list[str] = field(default_factory=list)
    """A physical shoe's procedures confirmed so far (``ShoeRecord.procedures``)."""
    opening: list[Card] = field(default_factory=list)
    """A physical shoe's burns entered so far (``ShoeRecord.opening``)."""
    start_position: int = 0
    """Cards out of the shoe when the round under way started (``RoundRecord.start_position``)."""
    round_id: int = 0
    round: GameRound | None = None
    deadline: float | None = None
    ready: set[int] = field(default_factory=set)
    held: dict[int, dict[str, int]] = field(default_factory=dict)
    """Seat -> {"user": owner who staked, "minor": units held in escrow}."""
    players: set[tuple[int, int]] = field(default_factory=set)
    """(seat, user) pairs the round's record already lists as players."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    published: dict[str, Any] | None = None
    """The table as of its last commit, for readers (see ``Publisher.snapshot``)."""
    next_profile: Profile | None = None
    """The profile with the operator's new limits, adopted when the next round opens: a round
    keeps the limits it opened with (docs/rules.md §6, limits are the operator's)."""
    is_stale: bool = False
    """A command failed and the table could not be rebuilt from the database then (the
    database away): it is rebuilt before its next command."""
    deadline_failures: int = 0
    """Deadlines in a row that could not be applied (``Deadlines.tick`` backs off)."""
    retry_at: float | None = None
    """When ``Deadlines.tick`` next tries a deadline that failed."""
    back_bets: list[dict[str, Any]] = field(default_factory=list)
    """The round's accepted back bets (spain-1979, docs/rules.md#D-BJ-28), for the felt:
    ``{"id", "seat", "user", "backer" (their name), "minor"}``, in the order accepted."""
    absences: dict[int, int] = field(default_factory=dict)
    """Seat -> rounds its player let pass in a row without a bet (``service.absence``)."""
    sit_out_after: int = 3
    """Rounds missed in a row before a seat sits out (docs/rules.md#D-GEN-15)."""
    free_after: int = 3
    """Further rounds missed before a seat sitting out is freed (docs/rules.md#D-GEN-15)."""
    outcomes: dict[int, dict[str, Any] | None] = field(default_factory=dict)
    """The lobby's last results, by round id (``table_facts.recent_results``): a cache of
    what complete rounds' records say, never part of the table's state."""
    void_waiting: int | None = None
    """The approval a void of the round under way waits for (``service.approvals``): the
    round stands still until an inspector answers (docs/rules.md#D-GEN-18)."""

    def durable_state(self) -> dict[str, Any]:
        """Everything in memory that the database must hold the same (issue 10, item 3):
        after any command, this equals ``Casino.rebuilt(table_id).durable_state()``."""
        return {
            "id": self.id,
            "name": self.name,
            "rules": engines.rules_version(self.profile),
            "next_rules": None
            if self.next_profile is None
            else engines.rules_version(self.next_profile),
            "is_open": self.is_open,
            "timing": (self.betting_seconds, self.decision_seconds),
            "seats": dict(sorted(self.seats.items())),
            "escrow": self.escrow,
            "shoe": (
                self.shoe_id,
                None if self.shoe is None else (self.shoe.position, self.shoe.cut_card_at),
            ),
            "physical": (self.is_physical, list(self.procedures), [str(c) for c in self.opening]),
            "round": self.round_id,
            "events": None if self.round is None else events_json(self.round.events),
            "status": self.status,
            "deadline": self.deadline,
            "ready": sorted(self.ready),
            "held": {seat: dict(value) for seat, value in sorted(self.held.items())},
            "players": sorted(self.players),
            "back_bets": [dict(back) for back in self.back_bets],
            "absences": dict(sorted(self.absences.items())),
            "absence_rounds": (self.sit_out_after, self.free_after),
            "void_waiting": self.void_waiting,
        }

    @property
    def status(self) -> RoundStatus:
        """The round under way as its record stores it, from what its engine says: betting,
        past betting (a decision or the dealer's card awaited), or done (being settled)."""
        if self.round is None or self.round.is_betting:
            return RoundStatus.BETTING
        return RoundStatus.COMPLETE if self.round.is_done else RoundStatus.PLAYING

    @property
    def game_round(self) -> GameRound:
        if self.round is None:
            raise Conflict(f"table {self.name!r} has no round under way")
        return self.round

    def apply(self, command: Command) -> None:
        """Give the round under way ``command`` (the deal, a decision, a correction): the
        engine checks and carries it out. A physical shoe's round that stops for a card it
        has not been given waits there (``GameRound.card_needed``), ready to carry on from
        that command (``GameRound.enter``)."""
        with contextlib.suppress(CardNeeded):
            self.game_round.apply(command)

    def verify_betting(self) -> None:
        """Raise ``bets_closed`` unless the round takes bets: for what the table adds to the
        engine's own bets (a player's ready, a back bet and its consent)."""
        if not self.game_round.is_betting:
            raise IllegalActionError(
                f"no more bets: round {self.round_id} is {self.status}",
                code="bets_closed",
                round=self.round_id,
            )

    def verify_not_waiting(self) -> None:
        """Raise ``Conflict`` while a void of the round waits for an inspector: nothing of the
        round moves under the inspector's feet (docs/rules.md#D-GEN-18)."""
        if self.void_waiting is not None:
            raise Conflict(
                f"round {self.round_id}: its void awaits an inspector's approval "
                f"({self.void_waiting}); the round stands still until then",
                code="void_awaiting_approval",
                round=self.round_id,
                approval=self.void_waiting,
            )

    def adopt_next_profile(self) -> None:
        """The operator's new limits take effect (a round is opening)."""
        if self.next_profile is not None:
            self.profile, self.next_profile = self.next_profile, None


def events_json(events: list[Event]) -> list[dict[str, Any]]:
    return [item.to_json() for item in events]
