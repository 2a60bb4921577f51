"""The interface every game's round offers: one small state machine per round.

A round is made from a profile and a shoe (chance is injected, never global). Bets are placed,
``deal()`` closes them and plays every step that needs nobody, then the round waits on
``pending()``: the one decision it needs next, from which seat, with its legal actions and
the regulation's default if the seat's time runs out. ``act()`` applies a decision (or raises
``IllegalActionError`` and changes nothing). When ``is_done``, ``results()`` lists every
wager's stake and payout. ``events`` is the whole record; ``view(seat)`` is what that seat
may see now (``None``: the public at large).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from croupier.errors import NotationError
from croupier.games.events import Event
from croupier.money import is_ascii_number
from croupier.rules.base import Profile


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


@dataclass(frozen=True, slots=True)
class WagerResult:
    seat: int
    wager: str
    stake: Fraction
    payout: Fraction
    result: str
    hand: int | None = None


@dataclass(frozen=True)
class RoundResult:
    """Every wager of a finished round: the ledger's postings derive from this."""

    wagers: tuple[WagerResult, ...]
    details: dict[str, Any] = field(default_factory=dict)

    def seats(self) -> list[int]:
        return sorted({wager.seat for wager in self.wagers})

    def staked(self, seat: int) -> Fraction:
        return sum((w.stake for w in self.wagers if w.seat == seat), Fraction(0))

    def returned(self, seat: int) -> Fraction:
        return sum((w.payout for w in self.wagers if w.seat == seat), Fraction(0))

    def net(self, seat: int) -> Fraction:
        return self.returned(seat) - self.staked(seat)

    @property
    def house_net(self) -> Fraction:
        return -sum((self.net(seat) for seat in self.seats()), Fraction(0))


class GameRound(ABC):
    """One round of one game under one profile."""

    game: ClassVar[str]
    private_card_purposes: ClassVar[frozenset[str]] = frozenset()
    """``CardDrawn`` purposes whose cards stay their seat's own even after the round (Casino
    Hold'em's hole cards: Art. 9d forbids showing them to others); recall masks them."""
    profile: Profile
    events: list[Event]

    @abstractmethod
    def place_bet(self, seat: int, wager: str, amount: int) -> Sequence[Event]:
        """Place (or, at 0, withdraw) a wager while bets are open."""

    @abstractmethod
    def deal(self) -> Sequence[Event]:
        """Close bets and play on until a decision is needed or the round is done."""

    def undealable(self) -> dict[int, str]:
        """Seats whose bets cannot be dealt as they stand, each with the reason: a side bet
        without the main wager it rides on. ``deal()`` refuses while any is left; a live table
        refuses the bet that makes one, and at its deadline returns what is left
        (``return_bets``). A game without such a bet has none."""
        return {}

    @abstractmethod
    def return_bets(self, seat: int, reason: str) -> Sequence[Event]:
        """Give back every bet of ``seat`` while bets are open (``BetsReturned``): the round
        goes on without the box."""

    @abstractmethod
    def pending(self) -> Decision | None:
        """The decision the round waits for, or ``None`` (betting, or done)."""

    def legal_actions(self) -> tuple[Action, ...]:
        decision = self.pending()
        return () if decision is None else decision.legal

    @abstractmethod
    def act(self, seat: int, action: Action) -> Sequence[Event]:
        """Apply ``seat``'s decision; an illegal one raises and changes nothing."""

    @property
    @abstractmethod
    def is_done(self) -> bool: ...

    @abstractmethod
    def results(self) -> RoundResult:
        """Every wager's stake and payout, once the round is done."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """The round as ``seat`` may see it now, as JSON: nothing hidden leaks (R6)."""
