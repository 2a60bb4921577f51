"""Explicit chance, as OpenSpiel models it: at a draw the round lists the cards the shoe can
give, each with its exact probability, and carries on with the one chosen.

The seam is the engine's own physical shoe (``PhysicalShoe``): a round dealt from a shoe that
holds no card yet stops at each draw (``card_needed``), and ``enter`` gives the command that
stopped again with the chosen card. ``ChanceShoe`` is such a shoe over any composition (a full
shoe, one deck with cards removed, a tiny shoe for a test), so the cards it can give are its
composition less what the round has drawn, each with the chance of its copies among them.

``expectimax`` values a round over the engine itself: chance nodes by their outcomes, decision
nodes by a policy's actions (one fixed action, the basic strategy's say) or the best of
several. It is the third check of the math beside ``croupier analyze`` and the simulator
(``tests/consistency/test_expectimax_agrees_with_analysis.py``).

A round of peru-2016 at one box, its four deal cards chosen one by one:

>>> from croupier.cards import parse_cards
>>> from croupier.games.blackjack import BlackjackRound
>>> from croupier.games.commands import Deal
>>> from croupier.rules import load_profile
>>> profile = load_profile("peru-2016")
>>> shoe = ChanceShoe.of(parse_cards("As Kd 7c 7h"), decks=profile.decks)
>>> game = BlackjackRound(profile, shoe)
>>> _ = game.place_bet(1, "main", 1)
>>> game = apply_command(game, Deal())
>>> is_chance_node(game), chance_outcomes(game)
(True, [(Card.parse('7h'), Fraction(1, 4)), (Card.parse('7c'), Fraction(1, 4)), \
(Card.parse('Kd'), Fraction(1, 4)), (Card.parse('As'), Fraction(1, 4))])
>>> for card in parse_cards("As 7c Kd 7h"):
...     game = apply_chance(game, card)
>>> game.is_done, game.results().net(1)  # a blackjack against the dealer's 14: paid 3:2
(True, Fraction(3, 2))
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction

from croupier.cards import FULL_DECK, Card
from croupier.errors import CardNeeded, CardRefused, IllegalActionError, ShoeError
from croupier.games.base import GameRound
from croupier.games.commands import Act, Action, Command, Decision
from croupier.shoe import PhysicalShoe

__all__ = [
    "ChanceShoe",
    "Policy",
    "apply_chance",
    "apply_command",
    "chance_outcomes",
    "expectimax",
    "is_chance_node",
]


DECK_ORDER = {card: index for index, card in enumerate(FULL_DECK)}
"""Outcomes are listed in the order of a fresh deck."""


class ChanceShoe(PhysicalShoe):
    """A shoe of a given ``composition`` whose cards are chosen as they are needed: the
    chance nodes of a round. ``cards`` are those chosen so far, in order.

    >>> from croupier.cards import parse_cards
    >>> shoe = ChanceShoe.of(parse_cards("As As Kd"), decks=2)
    >>> shoe.enter(Card.parse("As")); shoe.left()
    Counter({Card.parse('As'): 1, Card.parse('Kd'): 1})
    >>> shoe.enter(Card.parse("7c"))
    Traceback (most recent call last):
    ...
    croupier.errors.CardRefused: 7c: this shoe holds no 7c (left: As Kd)
    """

    def __init__(
        self,
        composition: Mapping[Card, int],
        decks: int,
        cards: Sequence[Card] = (),
        *,
        position: int = 0,
    ) -> None:
        super().__init__(cards, decks, position=position)
        self.composition = Counter({card: count for card, count in composition.items() if count})
        for card, count in self.composition.items():
            if count > decks:
                raise ShoeError(
                    f"a shoe of {decks} deck{'s' if decks > 1 else ''} holds at most {decks} "
                    f"{card}, not {count}"
                )
        if Counter(cards) - self.composition:
            raise ShoeError("the cards chosen are not all in the composition")

    @classmethod
    def of(cls, cards: Iterable[Card], decks: int) -> ChanceShoe:
        """The shoe that holds ``cards`` (in no order)."""
        return cls(Counter(cards), decks)

    @classmethod
    def full(cls, decks: int) -> ChanceShoe:
        """``decks`` whole decks."""
        return cls(Counter({card: decks for card in FULL_DECK}), decks)

    def left(self) -> Counter[Card]:
        """The cards the shoe still holds: its composition less those chosen."""
        return self.composition - Counter(self.entered)

    def verify_enter(self, card: Card) -> None:
        if self.left()[card] < 1:
            listed = " ".join(str(item) for item in sorted(self.left().elements(), key=str))
            raise CardRefused(
                f"{card}: this shoe holds no {card} (left: {listed or 'none'})",
                code="card_not_left",
                card=str(card),
            )

    def at(self, position: int) -> ChanceShoe:
        return ChanceShoe(self.composition, self.decks, self.entered, position=position)

    @property
    def size(self) -> int:
        return self.composition.total()


def is_chance_node(game: GameRound) -> bool:
    """The round waits for a card (``card_needed``): the next step is chance's."""
    return game.card_needed is not None


def chance_outcomes(game: GameRound) -> list[tuple[Card, Fraction]]:
    """Each card the shoe can give at this draw, with its exact probability (its copies among
    the cards left), in the shoe's card order; ``[]`` where no card is awaited."""
    if game.card_needed is None:
        return []
    shoe = _chance_shoe(game)
    left = shoe.left()
    total = left.total()
    return [
        (card, Fraction(count, total))
        for card, count in sorted(left.items(), key=lambda item: DECK_ORDER[item[0]])
    ]


def apply_chance(game: GameRound, card: Card) -> GameRound:
    """The round after chance gave ``card`` (a new round; ``game`` is unchanged): on until the
    next draw or decision. A card the shoe does not hold raises ``CardRefused``."""
    _chance_shoe(game)
    return game.enter(card)


def apply_command(game: GameRound, command: Command) -> GameRound:
    """The round after ``command`` (a bet, the deal, a decision), as a new round: ``game`` is
    unchanged, so a search may try every action from it. The round stops at its next draw
    (a chance node) or decision."""
    if game.card_needed is not None:
        raise IllegalActionError(
            f"{command} refused: chance deals first ({game.card_needed})",
            code="chance_deals_first",
        )
    branch = game._copy()  # the engine's own copy of a round as it stands
    branch.shoe = _chance_shoe(game).at(game.shoe.position)
    with contextlib.suppress(CardNeeded):  # stopped at a draw: chance's turn (card_needed)
        branch.apply(command)
    return branch


def _chance_shoe(game: GameRound) -> ChanceShoe:
    if not isinstance(game.shoe, ChanceShoe):
        raise IllegalActionError(
            f"{game.game}: explicit chance needs a round dealt from a ChanceShoe, not "
            f"{type(game.shoe).__name__}",
            code="not_a_chance_shoe",
        )
    return game.shoe


Policy = Callable[[GameRound, Decision], Sequence[Action]]
"""The actions a search tries at a decision: one (a fixed strategy) or several (it takes the
best for the seats it values)."""


def expectimax(
    game: GameRound,
    policy: Policy,
    *,
    seats: Iterable[int] | None = None,
    same: Callable[[Card], Hashable] | None = None,
) -> Fraction:
    """The exact expected net of ``seats`` (every seat with a bet: ``None``) from ``game`` on,
    in units, over the engine's own round: at a draw the mean over ``chance_outcomes``, at a
    decision the largest value among ``policy``'s actions, at the end the settled net.

    ``same`` merges cards that the value cannot tell apart (a blackjack main bet reads a card's
    value, not its suit): one card of each class is dealt, with the class's probability. The
    maximum is over the whole state, so where a card lies face down before a decision (a hole
    card) only a policy that reads the seat's view (one action) gives the seat's true value.
    """
    counted = tuple(seats) if seats is not None else tuple(sorted(game.bets))
    return _value(game, policy, counted, same)


def _value(
    game: GameRound,
    policy: Policy,
    seats: tuple[int, ...],
    same: Callable[[Card], Hashable] | None,
) -> Fraction:
    if game.is_done:
        result = game.results()
        return sum((result.net(seat) for seat in seats), Fraction(0))
    if is_chance_node(game):
        outcomes = chance_outcomes(game)
        if not outcomes:
            raise IllegalActionError(
                f"the shoe is empty at a draw ({game.card_needed}): a shoe this small cannot "
                "finish the round",
                code="shoe_empty",
            )
        classes: dict[Hashable, tuple[Card, Fraction]] = {}
        for card, probability in outcomes:
            key = card if same is None else same(card)
            first, total = classes.get(key, (card, Fraction(0)))
            classes[key] = (first, total + probability)
        return sum(
            (
                probability * _value(apply_chance(game, card), policy, seats, same)
                for card, probability in classes.values()
            ),
            Fraction(0),
        )
    decision = game.pending()
    if decision is None:
        raise IllegalActionError(f"the round is in {game.phase}: deal it first", code="not_dealt")
    return max(
        _value(apply_command(game, Act(decision.seat, action)), policy, seats, same)
        for action in policy(game, decision)
    )
