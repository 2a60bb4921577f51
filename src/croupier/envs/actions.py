"""The stable action catalogue of each game: a ``Discrete`` index <-> the engine's ``Action``.

Every learning environment (the single one, the vector one, the multi-agent tables) speaks the
same indices, so that a policy trained on one plays on the others. An index is never reused:
new entries go at the end of a game's catalogue, and an entry's ``name`` is its notation.

Each catalogue has three kinds of entry:

- ``bet``: the betting step before the deal, when the agent chooses its stake: ``bet-Nx``
  places ``N`` times the environment's base bet (the unit of the rewards) on the main wager.
  The same ladder in every game (``BET_MULTIPLES``): a card counter's spread of 1 to 16.
- ``wager``: baccarat's betting step: which of the five wagers (Art. 8) the stake goes on.
- ``decision``: a decision the round asks for (``GameRound.pending``), in the engine's words.

Amounts, and why they are fractions. The engine takes a double for less (``double N``, 1 to
the hand's stake, where a profile allows it) and a partial insurance (``insurance N``, 1 to
``insurance_max`` of the bet) in whole units. A ``Discrete`` space cannot list every amount
of every stake, so the catalogue names the full amount once (``double``, ``insurance``: the
engine's own default when no amount is written) and adds a few fixed fractions of the
allowed maximum (``double-1/4``, ``double-1/2``, ``double-3/4``, the same for insurance),
rounded down to whole units. A fraction is legal when it gives at least one unit and less
than the maximum (so that it is a real "for less", never a second name of the full amount).
Fractions of the bet rather than amounts keep one meaning for an index whatever the stake;
quarters suffice because a wager's expected value is linear in its amount, so the best amount
is always an end of the range (nothing, or the full amount): the fractions exist for agents
that model people, not for optimal play. The environments bet 8 units by default, so every
quarter is a whole number of units.

>>> from croupier.games.commands import Action
>>> catalogue = catalogue_of("blackjack")
>>> catalogue.index("double-1/2")
9
>>> legal = (Action("hit"), Action("stand"), Action("double", 8))
>>> [catalogue.names[i] for i in legal_indices(catalogue, legal)]
['stand', 'hit', 'double', 'double-1/4', 'double-1/2', 'double-3/4']
>>> to_action(catalogue, catalogue.index("double-3/4"), legal)
Action.parse('double 6')
>>> legal_mask(catalogue, (Action("hit"), Action("stand"), Action("double"))).tolist()[:10]
[1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.errors import IllegalActionError, SettleInputError
from croupier.games.commands import Action
from croupier.rules.base import Limits

__all__ = [
    "BET_MULTIPLES",
    "Catalogue",
    "Entry",
    "Kind",
    "bet_mask",
    "catalogue_of",
    "entry_at",
    "legal_indices",
    "legal_mask",
    "to_action",
    "wager_mask",
]


class Kind(StrEnum):
    """What an index chooses: a stake, a wager to put it on, or a decision of the round."""

    BET = "bet"
    WAGER = "wager"
    DECISION = "decision"


@dataclass(frozen=True, slots=True)
class Entry:
    """One index of a catalogue.

    ``action``: the engine's action name (``decision``) or wager (``wager``); ``fraction``:
    the share of the allowed maximum a decision with an amount takes (``None``: the full
    amount, the engine's default); ``multiple``: a ``bet`` entry's multiple of the base bet.
    """

    name: str
    kind: Kind
    action: str = ""
    fraction: Fraction | None = None
    multiple: int = 0


BET_MULTIPLES = (1, 2, 3, 4, 6, 8, 12, 16)
"""The betting step's stakes, in base bets: a counter's usual 1-16 spread."""

FRACTIONS = (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4))
"""The shares of the maximum named for a double for less and a partial insurance."""


def _bets() -> tuple[Entry, ...]:
    return tuple(Entry(f"bet-{n}x", Kind.BET, multiple=n) for n in BET_MULTIPLES)


def _with_fractions(action: str) -> tuple[Entry, ...]:
    return tuple(Entry(f"{action}-{share}", Kind.DECISION, action, share) for share in FRACTIONS)


def _decision(action: str) -> Entry:
    return Entry(action, Kind.DECISION, action)


@dataclass(frozen=True, slots=True)
class Catalogue:
    """A game's indices, in their stable order."""

    game: str
    entries: tuple[Entry, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(entry.name for entry in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def index(self, name: str) -> int:
        """The index of the entry called ``name``; a ``ValueError`` naming the known ones."""
        for number, entry in enumerate(self.entries):
            if entry.name == name:
                return number
        raise IllegalActionError(
            f"{self.game} has no action {name!r} (known: {', '.join(self.names)})"
        )

    def indices(self, kind: Kind) -> tuple[int, ...]:
        return tuple(number for number, entry in enumerate(self.entries) if entry.kind is kind)


BLACKJACK = Catalogue(
    "blackjack",
    (
        _decision("stand"),
        _decision("hit"),
        _decision("double"),
        _decision("split"),
        _decision("surrender"),
        _decision("insurance"),
        _decision("no-insurance"),
        _decision("even-money"),
        *_with_fractions("double"),
        *_with_fractions("insurance"),
        *_bets(),
    ),
)
"""Blackjack's decisions (docs/rules.md §1-3): the hand's (Arts. 11-12, D-BJ-32), the
insurance question's (Art. 10, even money Art. 13), the amounts, then the betting ladder."""

BACCARAT = Catalogue(
    "baccarat",
    (
        Entry("player", Kind.WAGER, "player"),
        Entry("banker", Kind.WAGER, "banker"),
        Entry("tie", Kind.WAGER, "tie"),
        Entry("player_pair", Kind.WAGER, "player_pair"),
        Entry("banker_pair", Kind.WAGER, "banker_pair"),
        *_bets(),
    ),
)
"""Baccarat: nobody decides after the deal (Art. 10-11); the agent chooses a wager (Art. 8),
and with a betting step its stake first."""

CASINO_HOLDEM = Catalogue(
    "casino-holdem",
    (_decision("call"), _decision("fold"), *_bets()),
)
"""Casino Hold'em: call or fold after the flop (Art. 13 d); the betting ladder sizes the Ante."""

CATALOGUES = {catalogue.game: catalogue for catalogue in (BLACKJACK, BACCARAT, CASINO_HOLDEM)}


def catalogue_of(game: str) -> Catalogue:
    """The catalogue of ``game`` (a profile's ``game``)."""
    catalogue = CATALOGUES.get(game)
    if catalogue is None:
        raise SettleInputError(f"unknown game {game!r} (known: {', '.join(CATALOGUES)})")
    return catalogue


# --- decisions: the engine's legal actions <-> indices ------------------------------------------


def _amount(entry: Entry, legal: Action) -> int | None:
    """The whole units ``entry`` asks for under the engine's ``legal`` option, or ``None``
    where it names no legal amount (a fraction of less than a unit, or of a fixed amount)."""
    assert entry.fraction is not None
    if legal.amount is None:  # the engine takes the full amount only
        return None
    units = math.floor(entry.fraction * legal.amount)
    return units if 1 <= units < legal.amount else None


def _resolve(entry: Entry, legal: Sequence[Action]) -> Action | None:
    """The engine's action that ``entry`` stands for, when ``legal`` allows it."""
    if entry.kind is not Kind.DECISION:
        return None
    option = next((item for item in legal if item.name == entry.action), None)
    if option is None:
        return None
    if entry.fraction is None:
        return Action(entry.action)  # no amount: the full double, the most insurance
    units = _amount(entry, option)
    return None if units is None else Action(entry.action, units)


def legal_indices(catalogue: Catalogue, legal: Sequence[Action]) -> Iterator[int]:
    """The indices the engine's ``legal`` actions (``GameRound.legal_actions()``) allow."""
    for number, entry in enumerate(catalogue.entries):
        if _resolve(entry, legal) is not None:
            yield number


def legal_mask(catalogue: Catalogue, legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    """``legal`` as a mask over the catalogue: 1 where an index is legal (int8, the type
    ``Discrete.sample(mask=...)`` takes)."""
    mask = np.zeros(len(catalogue), dtype=np.int8)
    mask[list(legal_indices(catalogue, legal))] = 1
    return mask


def to_action(
    catalogue: Catalogue, index: int | np.integer[Any], legal: Sequence[Action]
) -> Action:
    """The engine's ``Action`` for decision ``index``; ``IllegalActionError`` naming the
    index, its action and the legal ones when ``legal`` does not allow it."""
    entry = _entry(catalogue, index)
    action = _resolve(entry, legal)
    if action is None:
        allowed = ", ".join(f"{n} ({catalogue.names[n]})" for n in legal_indices(catalogue, legal))
        raise IllegalActionError(
            f"action {index} ({entry.name}) is not legal now; legal: {allowed or 'none'}",
            code="action_not_legal_now",
            action=entry.name,
        )
    return action


def _entry(catalogue: Catalogue, index: object) -> Entry:
    if not isinstance(index, int | np.integer) or isinstance(index, bool):
        raise IllegalActionError(
            f"an action is an index of the {catalogue.game} catalogue, not {index!r}"
        )
    if not 0 <= int(index) < len(catalogue):
        raise IllegalActionError(
            f"action {index} is outside the {catalogue.game} catalogue (0 to {len(catalogue) - 1})"
        )
    return catalogue.entries[int(index)]


# --- the betting step ------------------------------------------------------------------------


def bet_mask(catalogue: Catalogue, base: int, limits: Limits) -> npt.NDArray[np.int8]:
    """The betting step's mask: each ``bet-Nx`` whose ``N * base`` units the main wager's
    ``limits`` allow (a wager step's entries are all legal: ``wager_mask``)."""
    mask = np.zeros(len(catalogue), dtype=np.int8)
    for number, entry in enumerate(catalogue.entries):
        if entry.kind is Kind.BET and limits.allows(entry.multiple * base):
            mask[number] = 1
    return mask


def wager_mask(catalogue: Catalogue, wagers: Sequence[str]) -> npt.NDArray[np.int8]:
    """The wager step's mask: each ``wager`` entry among the table's ``wagers``."""
    mask = np.zeros(len(catalogue), dtype=np.int8)
    for number, entry in enumerate(catalogue.entries):
        if entry.kind is Kind.WAGER and entry.action in wagers:
            mask[number] = 1
    return mask


def entry_at(catalogue: Catalogue, index: object, mask: npt.NDArray[np.int8]) -> Entry:
    """The entry at ``index`` when ``mask`` allows it (a betting or wager step), else
    ``IllegalActionError`` naming the legal ones."""
    entry = _entry(catalogue, index)
    if not mask[int(index)]:  # type: ignore[call-overload]
        allowed = ", ".join(f"{n} ({catalogue.names[n]})" for n in np.flatnonzero(mask))
        raise IllegalActionError(
            f"action {index} ({entry.name}) is not legal now; legal: {allowed or 'none'}",
            code="action_not_legal_now",
            action=entry.name,
        )
    return entry
