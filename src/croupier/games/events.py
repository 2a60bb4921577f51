"""Events: the ordered, JSON-serialisable record of a round (docs/rules.md §6).

Every change a round goes through is a frozen event appended to its log: bets, every card
drawn with its purpose (burns included), each decision as the operation it was (``Doubled``,
``Split``, ``Called``...), each payout, and any dealer correction. The log is the game-recall
record; replaying it through the engine rebuilds the same round. Events common to every game
live here; a game adds its own with ``@event``.

Records written before the operation records (a ``Decided`` followed, for a double, a split,
insurance or a call, by a ``BetPlaced`` of the extra stake) still read: ``upgrade`` turns
them into today's records, which is what ``replay`` compares a rebuilt round with.

>>> from croupier.cards import Card
>>> drawn = CardDrawn(card=Card.parse("Td"), purpose=Purpose.PLAYER, seat=1, hand=0)
>>> drawn.to_json()
{'kind': 'CardDrawn', 'card': 'Td', 'purpose': 'player', 'seat': 1, 'hand': 0}
>>> Event.from_json(drawn.to_json()) == drawn
True
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, StrEnum
from fractions import Fraction
from typing import Any, ClassVar, TypeVar, dataclass_transform, get_type_hints

from croupier.cards import Card
from croupier.errors import NotationError
from croupier.games.commands import Action
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
        if isinstance(kind, str) and kind not in EVENT_KINDS:
            _register_every_game()
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


def _register_every_game() -> None:
    """Each game declares its own events in its module: import them all, once."""
    import importlib

    from croupier.games import GAME_MODULES

    for path in GAME_MODULES.values():
        importlib.import_module(path)


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
    if isinstance(value, Enum):
        return value.value
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
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(raw)
        except ValueError:
            raise NotationError(f"unknown {hint.__name__.lower()} {raw!r}") from None
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


class Purpose(StrEnum):
    """Where a drawn card goes, for every game: the ``purpose`` of its ``CardDrawn``."""

    PLAYER = "player"
    """A seat's hand (blackjack, Casino Hold'em hole cards) or baccarat's Player hand."""
    DEALER = "dealer"
    HOLE = "hole"
    """Blackjack's dealer card dealt face down."""
    BANKER = "banker"
    BOARD = "board"
    BURN = "burn"
    REMOVED = "removed"
    """A card taken out of the game: found face up in the shoe (Spain V.3.c, D-GEN-11)."""
    SHOWN_BURN = "shown-burn"
    """A card burnt after every viewer saw it (found face up, dealt in error: D-GEN-11,
    D-GEN-12): not one of the shoe's secret burns, never masked."""


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
    purpose: Purpose
    seat: int | None = None
    hand: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.purpose, Purpose):  # a purpose written as its JSON string
            object.__setattr__(self, "purpose", Purpose(self.purpose))


@event
class Decided(Event):
    """A seat's decision in the notation of ``Action``, as records before the operation
    records wrote it. Still read (``upgrade``); no engine writes it any more."""

    seat: int
    action: str
    hand: int | None = None


@event
class DefaultApplied(Event):
    """``seat``'s time to decide ran out: the house applied the regulation's default for it
    (``Decision.default``), which is the operation recorded next."""

    seat: int


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
class CardFoundFaceUp(Event):
    """The dealer's correction (docs/rules.md#D-GEN-11): ``card``, the shoe's next card, was
    found face up; it left the shoe (its ``CardDrawn`` just before) and was ``disposal``
    (``removed`` or ``burnt``, from the profile's ``corrections.face_up_in_shoe``).
    ``awaited``: found while a physical shoe's round waited for a card, going where this says
    (the round's draw took it out; no command of its own)."""

    card: Card
    disposal: str
    awaited: str | None = None


@event
class CardDealtInError(Event):
    """The dealer's correction (docs/rules.md#D-GEN-12): ``card`` left the shoe where the round
    called for none (its ``CardDrawn`` just before, a shown burn); the round goes on.
    ``awaited``: as ``CardFoundFaceUp``'s."""

    card: Card
    awaited: str | None = None


@event
class CardExposed(Event):
    """The dealer's correction: the face-down ``card`` at ``place`` was shown in error, and
    ``outcome`` followed (``replaced``: burnt in view, the next card's ``CardDrawn`` takes its
    place face down, D-BJ-31; ``void``: the round is void, D-CH-11). The card's own deal is
    not rewritten."""

    place: str
    card: Card
    outcome: str


@event
class DealConfused(Event):
    """The dealer's correction (the Veintiuno Real sheet, item 14; docs/rules.md#D-GEN-13): the
    deal was confused; ``cards``, every card on the table, are burnt, never reconstructed,
    and the round is void (its ``RoundVoided`` follows)."""

    cards: tuple[Card, ...]


@event
class DealerCorrection(Event):
    """A dealer's correction of a dealing error, recorded as itself (docs/rules.md §6)."""

    description: str


# --- operation records: a decision as what it did ------------------------------------------


@dataclass(frozen=True, slots=True)
class Operation(Event):
    """A seat's decision as what it did. ``action`` is the command that makes it again: its
    ``notation``, with its ``amount`` where the seat chose one (a double, insurance).
    ``adds_stake`` marks the operations whose ``amount`` goes to the seat's stake."""

    notation: ClassVar[str]
    adds_stake: ClassVar[bool] = False
    chosen_amount: ClassVar[bool] = False
    seat: int

    @property
    def action(self) -> Action:
        amount: Fraction | None = getattr(self, "amount", None) if self.chosen_amount else None
        return Action(self.notation, None if amount is None else int(amount))


@event
class Hit(Operation):
    notation = "hit"
    hand: int


@event
class Stood(Operation):
    notation = "stand"
    hand: int


@event
class Doubled(Operation):
    """The hand's bet grew by ``amount`` (the full bet, or less where the profile allows)."""

    notation, adds_stake, chosen_amount = "double", True, True
    hand: int
    amount: Fraction


@event
class Surrendered(Operation):
    """The hand's first two cards were given up for half its bet (late surrender,
    docs/rules.md#D-BJ-32); the hand is settled at once."""

    notation = "surrender"
    hand: int


@event
class Split(Operation):
    """Hand ``hand`` became two: its second card and a bet of ``amount`` went to ``new_hand``."""

    notation, adds_stake = "split", True
    hand: int
    new_hand: int
    amount: Fraction


@event
class InsuranceTaken(Operation):
    notation, adds_stake, chosen_amount = "insurance", True, True
    amount: Fraction


@event
class InsuranceDeclined(Operation):
    notation = "no-insurance"


@event
class EvenMoneyTaken(Operation):
    """A blackjack against an Ace took 1:1 at once (Peru Art. 13)."""

    notation = "even-money"


@event
class Called(Operation):
    """Casino Hold'em: the Bet of ``amount`` (a multiple of the Ante) was placed."""

    notation, adds_stake = "call", True
    amount: Fraction


@event
class Folded(Operation):
    notation = "fold"


OPERATIONS = tuple(kind for kind in EVENT_KINDS.values() if issubclass(kind, Operation))

EXTRA_STAKES = frozenset({"double", "split", "insurance", "bet"})
"""Wagers an old record placed with ``BetPlaced`` after the deal, as part of a decision."""


def upgrade(events: Iterable[Event]) -> list[Event]:
    """A record in today's events: each old ``Decided`` (with the ``BetPlaced`` of the stake
    it added) becomes its operation record; anything else is kept as it is.

    >>> old = [Decided(seat=1, action="double", hand=0),
    ...        BetPlaced(seat=1, wager="double", amount=Fraction(10), hand=0)]
    >>> upgrade(old)
    [Doubled(seat=1, hand=0, amount=Fraction(10, 1))]
    """
    record = list(events)
    upgraded: list[Event] = []
    index = 0
    while index < len(record):
        item = record[index]
        index += 1
        if not isinstance(item, Decided):
            upgraded.append(item)
            continue
        follows = record[index] if index < len(record) else None
        added = (
            follows
            if isinstance(follows, BetPlaced)
            and follows.seat == item.seat
            and follows.wager in EXTRA_STAKES
            else None
        )
        if added is not None:
            index += 1
        upgraded.append(_operation(item, added))
    return upgraded


def _operation(decided: Decided, added: BetPlaced | None) -> Operation:
    cls = next((kind for kind in OPERATIONS if kind.notation == decided.action.split()[0]), None)
    if cls is None:
        raise NotationError(f"seat {decided.seat}: an old record's decision {decided.action!r}")
    names = {field.name for field in dataclasses.fields(cls)}
    values: dict[str, Any] = {"seat": decided.seat, "hand": decided.hand}
    if added is not None:
        values |= {"amount": added.amount, "new_hand": added.hand}
    missing = [name for name in names if values.get(name) is None]
    if missing:
        raise NotationError(f"seat {decided.seat}: {decided.action!r} without its {missing[0]}")
    return cls(**{name: values[name] for name in names})
