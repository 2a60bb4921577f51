"""Events: the ordered, JSON-serialisable record of a round (RULES.md §6).

Every change a round goes through is a frozen event appended to its log: bets, every card
drawn with its purpose (burns included), each decision, each payout, and any dealer
correction. The log is the game-recall record; replaying it through the engine rebuilds the
same round. Events common to every game live here; a game adds its own with ``@event``.

>>> from croupier.cards import Card
>>> drawn = CardDrawn(card=Card.parse("Td"), purpose="player", seat=1, hand=0)
>>> drawn.to_json()
{'kind': 'CardDrawn', 'card': 'Td', 'purpose': 'player', 'seat': 1, 'hand': 0}
>>> Event.from_json(drawn.to_json()) == drawn
True
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, TypeVar, dataclass_transform, get_type_hints

from croupier.cards import Card
from croupier.errors import NotationError
from croupier.money import json_number

JSON = Any
E = TypeVar("E", bound="Event")

EVENT_KINDS: dict[str, type[Event]] = {}


@dataclass_transform(frozen_default=True)  # so that type checkers see each event's fields
def event(cls: type[E]) -> type[E]:
    """Register a frozen event class under its class name, the ``kind`` in JSON."""
    frozen = dataclass(frozen=True, slots=True)(cls)
    EVENT_KINDS[cls.__name__] = frozen
    return frozen


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. Fields are ints, strings, cards, exact amounts, or lists of these."""

    _hints: ClassVar[dict[str, dict[str, Any]]] = {}

    @property
    def kind(self) -> str:
        return type(self).__name__

    def to_json(self) -> dict[str, JSON]:
        document: dict[str, JSON] = {"kind": self.kind}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is not None:
                document[field.name] = _encode(value)
        return document

    @staticmethod
    def from_json(document: dict[str, JSON]) -> Event:
        kind = document.get("kind")
        cls = EVENT_KINDS.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise NotationError(f"unknown event kind {kind!r}")
        hints = _hints_of(cls)
        values = {}
        for name, raw in document.items():
            if name == "kind":
                continue
            if name not in hints:
                raise NotationError(f"event {kind}: unknown field {name!r}")
            values[name] = _decode(raw, hints[name])
        return cls(**values)


def _hints_of(cls: type[Event]) -> dict[str, Any]:
    cached = Event._hints.get(cls.__name__)
    if cached is None:
        hints = get_type_hints(cls)
        cached = {field.name: hints[field.name] for field in dataclasses.fields(cls)}
        Event._hints[cls.__name__] = cached
    return cached


def _encode(value: Any) -> JSON:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Fraction):
        number = json_number(value)
        if isinstance(number, float) and Fraction(repr(number)) != value:
            # A float would round it (a tenth of a jackpot meter fed by halves, many times
            # over): written "n/d" so that the record replays exactly (R14); read back below.
            return f"{value.numerator}/{value.denominator}"
        return number
    if isinstance(value, tuple | list):
        return [_encode(item) for item in value]
    return value


def _decode(raw: JSON, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if raw is None:
            return None
        return _decode(raw, options[0])
    if origin is tuple:
        (item_hint, *_rest) = typing.get_args(hint)
        return tuple(_decode(item, item_hint) for item in raw)
    if hint is Card:
        return Card.parse(raw)
    if hint is Fraction:
        return Fraction(str(raw))
    return raw


# --- events every game uses ---------------------------------------------------------------


@event
class RoundStarted(Event):
    game: str
    profile: str


@event
class BetPlaced(Event):
    seat: int
    wager: str
    amount: Fraction
    hand: int | None = None


@event
class BetsClosed(Event):
    pass


@event
class BetsReturned(Event):
    """Every bet of ``seat`` given back before the deal: its box could not be dealt as it
    stood (a side bet without the main wager it rides on), and the round went on without it."""

    seat: int
    reason: str


@event
class CardDrawn(Event):
    """A card left the shoe. ``purpose`` says where it went: a seat's hand, the dealer,
    the board, or ``burn``."""

    card: Card
    purpose: str
    seat: int | None = None
    hand: int | None = None


@event
class Decided(Event):
    """A seat's decision, in the notation of ``Action`` (``hit``, ``double 5``, ``fold``)."""

    seat: int
    action: str
    hand: int | None = None


@event
class Settled(Event):
    """One wager settled: what it staked and all it returns (stake included)."""

    seat: int
    wager: str
    stake: Fraction
    payout: Fraction
    result: str
    hand: int | None = None


@event
class RoundEnded(Event):
    pass


@event
class RoundVoided(Event):
    """The round cannot go on (a confused deal, an interrupted round): every stake returns."""

    reason: str


@event
class DealerCorrection(Event):
    """A dealer's correction of a dealing error, recorded as itself (RULES.md §6)."""

    description: str
