"""Commands: what a round is told to do, as frozen values with a notation that round-trips.

A round changes only by a command: ``bet`` (place, or at 0 withdraw, a wager), ``return``
(give back a seat's bets before the deal), ``deal``, ``act`` (a seat's decision) and ``void``
(end a round that cannot go on); and the dealer's corrections of the cards (docs/rules.md
§6, D-GEN-11 to D-GEN-14): ``face-up`` (a card found face up in the shoe),
``dealt-in-error`` (a card that left the shoe where none was due), ``exposed PLACE`` (a
face-down card shown in error) and ``confused-deal``. What a round waits for is a
``Decision``: a seat, its legal ``Action``s and the default. The live table, the
``settle`` tool, ``replay`` and the tests give the engine the same commands; each is written
and read back in one line.

>>> command = parse_command("act 2 double 5")
>>> command
parse_command('act 2 double 5')
>>> command.seat, command.action
(2, Action.parse('double 5'))
>>> [str(parse_command(text)) for text in ("bet 1 21+3 5", "deal", "void shoe ran out")]
['bet 1 21+3 5', 'deal', 'void shoe ran out']
>>> parse_command("face-up Td"), parse_command("exposed seat 2 hand 0")
(parse_command('face-up Td'), parse_command('exposed seat 2 hand 0'))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from croupier.cards import Card
from croupier.errors import NotationError
from croupier.money import is_ascii_number


@dataclass(frozen=True, slots=True)
class Action:
    """A decision in notation: a name and, for some, an amount (``double 5``, ``insurance 2``).

    >>> Action.parse("double 5")
    Action.parse('double 5')
    >>> str(Action("stand"))
    'stand'
    """

    name: str
    amount: int | None = None

    @classmethod
    def parse(cls, text: str) -> Action:
        if not isinstance(text, str):
            raise NotationError(f"an action is text such as 'hit' or 'double 5', not {text!r}")
        parts = text.strip().split()
        if len(parts) == 1 and parts[0]:
            return cls(parts[0].lower())
        if len(parts) == 2 and is_ascii_number(parts[1]):
            return cls(parts[0].lower(), int(parts[1]))
        raise NotationError(
            f"unknown action {text!r}: expected a name and an optional whole amount"
        )

    def __str__(self) -> str:
        return self.name if self.amount is None else f"{self.name} {self.amount}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Decision:
    """What the round waits for: ``seat`` (and ``hand``) must choose one of ``legal``."""

    seat: int
    question: str
    legal: tuple[Action, ...]
    default: Action
    hand: int | None = None

    def allows(self, action: Action) -> bool:
        """``legal`` lists ``double`` for a ranged amount as ``Action('double', max)``."""
        for option in self.legal:
            if option.name != action.name:
                continue
            if option.amount is None:
                return action.amount is None
            return action.amount is None or 1 <= action.amount <= option.amount
        return False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "question": self.question,
            "hand": self.hand,
            "legal": [str(action) for action in self.legal],
        }


class _Notation:
    """A command is written as its ``verb`` and its fields, in order, but for a field it
    leaves out (``None``); its ``repr`` is that notation, read back by ``parse_command``."""

    __slots__ = ()
    verb: ClassVar[str]

    def __str__(self) -> str:
        every = fields(self)  # type: ignore[arg-type]  # each command is a dataclass
        values = (getattr(self, item.name) for item in every)
        return " ".join([self.verb, *(str(value) for value in values if value is not None)])

    def __repr__(self) -> str:
        return f"parse_command({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Bet(_Notation):
    """Set ``seat``'s ``wager`` to ``amount`` whole units while bets are open (0 withdraws)."""

    verb = "bet"
    seat: int
    wager: str
    amount: int


@dataclass(frozen=True, slots=True, repr=False)
class Deal(_Notation):
    """Close bets and play on until a decision is needed or the round is done."""

    verb = "deal"


@dataclass(frozen=True, slots=True, repr=False)
class Act(_Notation):
    """``seat``'s decision; ``by_default``: the seat's time ran out and the house applied
    the regulation's default for it (written ``act 2 stand (default)``)."""

    verb = "act"
    seat: int
    action: Action
    by_default: bool = False

    def __str__(self) -> str:
        return f"act {self.seat} {self.action}{' (default)' if self.by_default else ''}"


@dataclass(frozen=True, slots=True, repr=False)
class Void(_Notation):
    """End a round that cannot go on: every stake still in play is returned."""

    verb = "void"
    reason: str


@dataclass(frozen=True, slots=True, repr=False)
class Return(_Notation):
    """Give back every bet of ``seat`` while bets are open: its box cannot be dealt as it
    stands (a side bet without the main wager it rides on)."""

    verb = "return"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True, repr=False)
class FaceUp(_Notation):
    """A card found face up in the shoe: the next card leaves it, removed or burnt as the
    profile says (``corrections.face_up_in_shoe``, docs/rules.md#D-GEN-11). ``card``, when
    given (a record, a ``settle`` document), must be that next card; ``None`` takes it as it
    is (the live table, whose dealer names no card of a shoe nobody may see)."""

    verb = "face-up"
    card: Card | None = None


@dataclass(frozen=True, slots=True, repr=False)
class DealtInError(_Notation):
    """A card that left the shoe where the round called for none: burnt in view, and the
    round goes on as it stood (docs/rules.md#D-GEN-12). ``card`` as for ``FaceUp``."""

    verb = "dealt-in-error"
    card: Card | None = None


@dataclass(frozen=True, slots=True, repr=False)
class Exposed(_Notation):
    """The face-down card at ``place`` was shown in error (``hole``, ``seat 2 hand 0``,
    ``dealer 1``, ``seat 3 card 2``: the places ``GameRound.face_down_places`` lists); the
    profile's ``corrections.exposed_card`` says what follows."""

    verb = "exposed"
    place: str


@dataclass(frozen=True, slots=True, repr=False)
class ConfusedDeal(_Notation):
    """The deal was confused: its cards are burnt, never reconstructed, and the round is void
    (the Veintiuno Real sheet, item 14; docs/rules.md#D-GEN-13)."""

    verb = "confused-deal"


Correction = FaceUp | DealtInError | Exposed | ConfusedDeal | Void
"""A dealer's correction: one of the cards, or the void of a round the dealer cannot finish."""

Command = Bet | Deal | Act | Return | Void | FaceUp | DealtInError | Exposed | ConfusedDeal


def _seat(text: str, line: str) -> int:
    if not is_ascii_number(text):
        raise NotationError(f"command {line!r}: a seat is a whole number, not {text!r}")
    return int(text)


def parse_command(text: str) -> Command:
    """A command from its notation: ``bet SEAT WAGER AMOUNT``, ``deal``, ``act SEAT ACTION``,
    ``void REASON``."""
    if not isinstance(text, str):
        raise NotationError(f"a command is text such as 'deal', not {text!r}")
    verb, _, rest = text.strip().partition(" ")
    parts = rest.split()
    if verb == "bet" and len(parts) == 3 and is_ascii_number(parts[2]):
        return Bet(_seat(parts[0], text), parts[1], int(parts[2]))
    if verb == "deal" and not parts:
        return Deal()
    if verb == "act" and len(parts) >= 2:
        by_default = parts[-1] == "(default)"
        action = parts[1:-1] if by_default else parts[1:]
        return Act(_seat(parts[0], text), Action.parse(" ".join(action)), by_default)
    if verb == "return" and len(parts) >= 2:
        return Return(_seat(parts[0], text), " ".join(parts[1:]))
    if verb == "void" and parts:
        return Void(rest.strip())
    if verb in ("face-up", "dealt-in-error") and len(parts) <= 1:
        card = Card.parse(parts[0]) if parts else None
        return FaceUp(card) if verb == "face-up" else DealtInError(card)
    if verb == "exposed" and parts:
        return Exposed(" ".join(parts))
    if verb == "confused-deal" and not parts:
        return ConfusedDeal()
    raise NotationError(
        f"unknown command {text!r}: expected 'bet SEAT WAGER AMOUNT', 'deal', "
        "'act SEAT ACTION', 'return SEAT REASON', 'void REASON', 'face-up [CARD]', "
        "'dealt-in-error [CARD]', 'exposed PLACE' or 'confused-deal'"
    )


def to_step(command: Command) -> dict[str, Any]:
    """The live table's step of ``command``: what ``from_step`` reads back."""
    if isinstance(command, Bet):
        return {"op": "bet", "seat": command.seat, "wager": command.wager, "amount": command.amount}
    if isinstance(command, Deal):
        return {"op": "deal"}
    if isinstance(command, Act):
        step: dict[str, Any] = {"op": "act", "seat": command.seat, "action": str(command.action)}
        return step | {"timeout": True} if command.by_default else step
    if isinstance(command, Return):
        return {"op": "return", "seat": command.seat, "reason": command.reason}
    if isinstance(command, Void):
        return {"op": "void", "reason": command.reason}
    return {"op": "correction", "command": str(command)}


def from_step(step: dict[str, Any]) -> Command:
    """A command from the live table's stored step (``{"op": "bet", "seat": 2, ...}``)."""
    op = step.get("op")
    if op == "bet":
        return Bet(int(step["seat"]), str(step["wager"]), int(step["amount"]))
    if op == "deal":
        return Deal()
    if op == "act":
        return Act(int(step["seat"]), Action.parse(str(step["action"])), bool(step.get("timeout")))
    if op == "return":
        return Return(int(step["seat"]), str(step["reason"]))
    if op == "void":
        return Void(str(step["reason"]))
    if op == "correction":
        return parse_command(str(step["command"]))
    raise NotationError(f"unknown recorded step {op!r}")
