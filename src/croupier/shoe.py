"""The shoe: a finite sequence of cards from ``decks`` decks, dealt front to back.

A shoe is either shuffled (from a ``RandomSource``, then cut, with a cut card placed) or
stacked in a given order (tests, ``croupier settle``, replay). It never holds more copies of
a card than its decks (docs/rules.md §6) and a card leaves it once (R5). Which cards a game burns
on a new shoe is the game's business; the shoe only counts what is drawn.

>>> shoe = Shoe.stacked(parse_cards("As Kd 7c"), decks=1)
>>> shoe.draw(), shoe.remaining
(Card.parse('As'), 2)
>>> str(shoe)
'Kd 7c'
>>> Shoe.stacked(parse_cards("As As"), decks=1)
Traceback (most recent call last):
...
croupier.errors.ShoeError: stacked shoe holds 2 copies of As but 1 deck allows 1
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from croupier.cards import FULL_DECK, Card, parse_cards
from croupier.errors import CardNeeded, CardRefused, ShoeError
from croupier.randomness import RandomSource, shuffle_in_place, uniform_below


class Shoe:
    """Cards in dealing order, a position, and where the cut card sits (if anywhere)."""

    is_physical = False
    """A shoe the dealer deals from by hand (``PhysicalShoe``)."""

    def __init__(self, cards: Sequence[Card], decks: int, *, cut_card_at: int | None = None):
        if not 1 <= decks <= 8:
            raise ShoeError(f"a shoe holds 1 to 8 decks, not {decks}")
        copies = Counter(cards)
        for card, count in copies.items():
            if count > decks:
                plural = "deck allows" if decks == 1 else "decks allow"
                raise ShoeError(
                    f"stacked shoe holds {count} copies of {card} but {decks} {plural} {decks}"
                )
        if cut_card_at is not None and not 0 <= cut_card_at <= len(cards):
            raise ShoeError(f"cut card position {cut_card_at} outside a shoe of {len(cards)}")
        self.decks = decks
        self._cards = list(cards)
        self._position = 0
        self.cut_card_at = cut_card_at

    # --- making shoes -------------------------------------------------------------------
    @classmethod
    def stacked(cls, cards: Sequence[Card], decks: int = 8) -> Shoe:
        """A shoe that deals exactly ``cards`` in order, with no cut card."""
        return cls(cards, decks)

    @classmethod
    def parse(cls, text: str, decks: int = 8) -> Shoe:
        return cls.stacked(parse_cards(text), decks)

    @classmethod
    def shuffled(
        cls, decks: int, source: RandomSource, *, cut_card_from_bottom: int | None = None
    ) -> Shoe:
        """``decks`` full decks shuffled from ``source``, cut, and the cut card placed.

        The cut moves the cards above a uniformly chosen point to the bottom (the player's
        cut, drawn from the same source); it keeps the order uniform and is recorded so that
        a shoe rebuilt from its seed is the same shoe.
        """
        cards = [card for _ in range(decks) for card in FULL_DECK]
        shuffle_in_place(cards, source)
        cut = uniform_below(source, len(cards))
        cards = cards[cut:] + cards[:cut]
        cut_card_at = None if cut_card_from_bottom is None else len(cards) - cut_card_from_bottom
        return cls(cards, decks, cut_card_at=cut_card_at)

    # --- dealing -----------------------------------------------------------------------
    def draw(self) -> Card:
        if self._position >= len(self._cards):
            raise ShoeError(f"the shoe is empty after {self._position} cards")
        card = self._cards[self._position]
        self._position += 1
        return card

    def draw_many(self, count: int) -> tuple[Card, ...]:
        return tuple(self.draw() for _ in range(count))

    @property
    def position(self) -> int:
        """How many cards have left the shoe."""
        return self._position

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._position

    @property
    def size(self) -> int:
        return len(self._cards)

    @property
    def is_cut_card_out(self) -> bool:
        """The cut card has come out: the round under way is the last of this shoe."""
        return self.cut_card_at is not None and self._position >= self.cut_card_at

    def peek_order(self) -> tuple[Card, ...]:
        """The whole order, dealt and undealt. Secret while the shoe is live (R6)."""
        return tuple(self._cards)

    def undealt(self) -> tuple[Card, ...]:
        return tuple(self._cards[self._position :])

    def __str__(self) -> str:
        return " ".join(str(card) for card in self._cards[self._position :])

    def __repr__(self) -> str:
        return f"<Shoe {self.decks} decks, {self.remaining} of {self.size} left>"


class PhysicalShoe(Shoe):
    """A real shoe at a table with a dealer: its cards are those the dealer enters as they
    leave it, nothing is shuffled here and no order exists before a card is out.

    ``draw`` deals the entered cards in order; past the last one it raises ``CardNeeded``
    (the round says where the card goes). ``enter`` refuses a card the shoe's decks cannot
    hold any more (docs/rules.md §6: a shoe never holds more copies than its decks).

    >>> shoe = PhysicalShoe(decks=1)
    >>> shoe.enter(Card.parse("Td")); shoe.draw()
    Card.parse('Td')
    >>> shoe.draw()
    Traceback (most recent call last):
    ...
    croupier.errors.CardNeeded: a card is needed: the next card
    >>> shoe.enter(Card.parse("Td"))
    Traceback (most recent call last):
    ...
    croupier.errors.CardRefused: Td: 1 deck holds 1 Td and it is already out of this shoe
    """

    is_physical = True

    def __init__(self, cards: Sequence[Card] = (), decks: int = 8, *, position: int = 0):
        super().__init__(cards, decks)
        self._position = position

    def enter(self, card: Card) -> None:
        """The dealer's next card, as it left the real shoe."""
        self.verify_enter(card)
        self._cards.append(card)

    def verify_enter(self, card: Card) -> None:
        """Raise ``CardRefused`` unless the shoe's decks can still hold ``card``."""
        out = sum(1 for item in self._cards if item == card)
        if out >= self.decks:
            noun = "deck holds" if self.decks == 1 else "decks hold"
            raise CardRefused(
                f"{card}: {self.decks} {noun} {self.decks} {card} and "
                f"{'it is' if out == 1 else 'all are'} already out of this shoe",
                code="card_not_in_shoe",
                card=str(card),
                decks=self.decks,
                out=out,
            )

    def at(self, position: int) -> PhysicalShoe:
        """The same cards, dealt again from ``position`` (a round replayed from its start)."""
        shoe = PhysicalShoe(self._cards, self.decks, position=position)
        shoe.cut_card_at = self.cut_card_at
        return shoe

    def cut_card_out(self) -> None:
        """The dealer saw the cut card come out: the next card drawn is past it, so the
        round that draws it is the shoe's last (a baccarat round records ``LastRoundOfShoe``
        after that draw, as from a random shoe)."""
        self.cut_card_at = self._position + 1

    @property
    def entered(self) -> tuple[Card, ...]:
        return tuple(self._cards)

    def draw(self) -> Card:
        if self._position >= len(self._cards):
            raise CardNeeded()
        return super().draw()

    @property
    def remaining(self) -> int:
        """Cards still in the real shoe (its decks less what came out)."""
        return self.size - self._position

    @property
    def size(self) -> int:
        return 52 * self.decks

    def __str__(self) -> str:
        return f"physical shoe, {self._position} cards out"

    def __repr__(self) -> str:
        return f"<PhysicalShoe {self.decks} decks, {self._position} cards out>"
