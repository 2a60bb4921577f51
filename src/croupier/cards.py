"""Playing cards in the notation of docs/rules.md: rank ``A 2-9 T J Q K`` (``10`` accepted) and
suit ``s h d c``.

>>> card = Card.parse("Td")
>>> card
Card.parse('Td')
>>> str(Card.parse("10h"))
'Th'
>>> card.rank.blackjack_value, card.rank.baccarat_value
(10, 0)
>>> parse_cards("As Kd 7c")
(Card.parse('As'), Card.parse('Kd'), Card.parse('7c'))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

from croupier.errors import NotationError

RANK_SYMBOLS = "23456789TJQKA"
SUIT_SYMBOLS = "shdc"


class Rank(IntEnum):
    """Card ranks ordered for poker (2 low, Ace high); the symbol is the notation."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return RANK_SYMBOLS[self.value - 2]

    @property
    def blackjack_value(self) -> int:
        """Faces count ten; an Ace counts 1 here (whether it counts 11 is the hand's business)."""
        if self is Rank.ACE:
            return 1
        return min(self.value, 10)

    @property
    def is_ten_valued(self) -> bool:
        return self.blackjack_value == 10

    @property
    def baccarat_value(self) -> int:
        """Baccarat Art. 10: A=1, 2-9 face value, T/J/Q/K = 0."""
        return self.blackjack_value % 10

    @classmethod
    def parse(cls, text: str) -> Rank:
        symbol = "T" if text == "10" else text.upper()
        if len(symbol) != 1 or symbol not in RANK_SYMBOLS:
            raise NotationError(f"unknown rank {text!r}: expected one of A 2-9 T J Q K (or 10)")
        return cls(RANK_SYMBOLS.index(symbol) + 2)


class Suit(Enum):
    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.lower())
        except ValueError:
            raise NotationError(f"unknown suit {text!r}: expected one of s h d c") from None


@dataclass(frozen=True, slots=True)
class Card:
    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        if not isinstance(text, str) or len(text) not in (2, 3):
            raise NotationError(
                f"unknown card {text!r}: expected rank and suit, e.g. 'Td' or '10h'"
            )
        try:
            return cls(Rank.parse(text[:-1]), Suit.parse(text[-1]))
        except NotationError as error:
            raise NotationError(f"unknown card {text!r}: {error}") from None

    @property
    def index(self) -> int:
        """0..51, rank-major: the index compiled kernels use."""
        return (self.rank.value - 2) * 4 + SUIT_SYMBOLS.index(self.suit.value)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return FULL_DECK[index]

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from a space-separated string or from an iterable of card strings."""
    items = text.split() if isinstance(text, str) else text
    return tuple(Card.parse(item) for item in items)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


FULL_DECK: tuple[Card, ...] = tuple(
    Card(Rank(r), Suit(s)) for r in range(2, 15) for s in SUIT_SYMBOLS
)
"""One 52-card deck in index order."""
