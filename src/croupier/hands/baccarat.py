"""Baccarat points and the third-card rule (Dragon Six Baccarat Plus, Peru 2016, Arts. 6, 10, 11).

Pure functions over cards and over point values (0-9), so that the live engine, the settlement
tool and the exact analysis all draw by the same table. The third-card rule is kept as data
(``PLAYER_DRAWS_ON``, ``BANKER_DRAWS_WHEN_PLAYER_STOOD``, ``BANKER_DRAWS_ON_PLAYER_THIRD``),
each entry citing the article it comes from.

>>> from croupier.cards import parse_cards
>>> total(parse_cards("9s 7h"))
6
>>> is_natural(total(parse_cards("Kd 8c")))
True
>>> player_draws(player_total=5, banker_total=7)
True
>>> banker_draws(banker_total=3, player_total=5, player_third=8)
False
>>> play_coup([4, 3, 1, 5, 8])  # Banker 3+5 = 8, a natural: nobody draws
CoupOutcome(player_total=5, banker_total=8, cards_used=4, player_third=None, banker_third=None)
>>> play_coup([2, 3, 1, 0, 8, 9])  # P 3 draws an 8 -> 1; Banker 3 stands on a Player 8
CoupOutcome(player_total=1, banker_total=3, cards_used=5, player_third=8, banker_third=None)
>>> burn_count(parse_cards("Qh")[0]), burn_count(parse_cards("Ac")[0])
(10, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from croupier.cards import Card, Rank
from croupier.errors import ShoeError

POINT_VALUES = range(10)
"""Every point value a card can have (Art. 10: A=1, 2-9 face value, T/J/Q/K = 0)."""

NATURALS = frozenset({8, 9})
"""Art. 11 a): two cards of Player or Banker totalling 8 or 9: no third card for either."""

PLAYER_DRAWS_ON = frozenset({0, 1, 2, 3, 4, 5})
"""Art. 11 b)-c) and "Reglas para el Punto": Player draws on 0-5 and stands on 6-7."""

BANKER_DRAWS_WHEN_PLAYER_STOOD = frozenset({0, 1, 2, 3, 4, 5})
"""docs/rules.md §4 (the excerpt's tables cover only a Player who drew): if Player stood,
Banker draws on 0-5 and stands on 6-7."""

_EVERY_THIRD = frozenset(POINT_VALUES)

BANKER_DRAWS_ON_PLAYER_THIRD: Mapping[int, frozenset[int]] = MappingProxyType(
    {
        # Art. 11 d): with 0-2 the Banker always draws ("siempre toma una carta").
        0: _EVERY_THIRD,
        1: _EVERY_THIRD,
        2: _EVERY_THIRD,
        # Art. 11 e) and "Reglas para la Banca": 3 draws on 0-7 and 9, not on 8.
        3: _EVERY_THIRD - {8},
        # 4 draws on 2-7 (stands on 0, 1, 8, 9).
        4: frozenset({2, 3, 4, 5, 6, 7}),
        # 5 draws on 4-7 (stands on 0-3, 8, 9).
        5: frozenset({4, 5, 6, 7}),
        # 6 draws on 6-7 (stands on 0-5, 8, 9).
        6: frozenset({6, 7}),
        # Art. 11 d): with 7 the Banker stands ("se planta").
        7: frozenset(),
    }
)
"""When Player drew: the Banker's two-card total -> the Player third-card values on which
the Banker draws (Art. 11 d)-e) and its table "Reglas para la Banca")."""


_POINTS_OF_RANK: Mapping[Rank, int] = MappingProxyType({rank: rank.baccarat_value for rank in Rank})


def points(card: Card) -> int:
    """Art. 10: A=1, 2-9 face value, T/J/Q/K = 0."""
    return _POINTS_OF_RANK[card.rank]


def total(cards: Iterable[Card]) -> int:
    """A hand's total: the sum of its points modulo 10."""
    return sum(_POINTS_OF_RANK[card.rank] for card in cards) % 10


def is_natural(two_card_total: int) -> bool:
    """Art. 11 a): 8 or 9 on the first two cards."""
    return two_card_total in NATURALS


def player_draws(player_total: int, banker_total: int) -> bool:
    """Whether Player takes a third card, given both two-card totals (Art. 11 a)-c))."""
    if is_natural(player_total) or is_natural(banker_total):
        return False
    return player_total in PLAYER_DRAWS_ON


def banker_draws(banker_total: int, player_total: int, player_third: int | None) -> bool:
    """Whether Banker takes a third card (Art. 11 a), d), e)).

    ``player_total`` is Player's two-card total; ``player_third`` the point value of
    Player's third card, or ``None`` if Player stood.
    """
    if is_natural(player_total) or is_natural(banker_total):
        return False
    if player_third is None:
        return banker_total in BANKER_DRAWS_WHEN_PLAYER_STOOD
    return player_third in BANKER_DRAWS_ON_PLAYER_THIRD[banker_total]


def burn_count(card: Card) -> int:
    """Art. 6 d): how many further cards the first card of a new shoe burns.

    docs/rules.md §4: A=1, 2-9 face value, ten and faces = 10 (not their baccarat points of 0).
    """
    if card.rank is Rank.ACE:
        return 1
    return min(card.rank.value, 10)


@dataclass(frozen=True, slots=True)
class CoupOutcome:
    """A coup played from point values: the final totals and how many cards it took."""

    player_total: int
    banker_total: int
    cards_used: int
    player_third: int | None
    banker_third: int | None

    @property
    def winner(self) -> str:
        """``player``, ``banker`` or ``tie``: the higher total wins (Art. 8)."""
        if self.player_total > self.banker_total:
            return "player"
        if self.banker_total > self.player_total:
            return "banker"
        return "tie"


def play_coup(values: Sequence[int]) -> CoupOutcome:
    """Play a coup from the point values of the cards in shoe order (Art. 10: P, B, P, B,
    then Player's third card if any, then Banker's). Extra values are left unused."""
    needed = 4
    if len(values) < needed:
        raise ShoeError(f"a coup needs at least 4 cards, not {len(values)}")
    player_total = (values[0] + values[2]) % 10
    banker_total = (values[1] + values[3]) % 10
    player_third: int | None = None
    banker_third: int | None = None
    if player_draws(player_total, banker_total):
        needed += 1
        if len(values) < needed:
            raise ShoeError(f"Player's third card is card {needed}: only {len(values)} given")
        player_third = values[needed - 1]
    if banker_draws(banker_total, player_total, player_third):
        needed += 1
        if len(values) < needed:
            raise ShoeError(f"Banker's third card is card {needed}: only {len(values)} given")
        banker_third = values[needed - 1]
    final_player = (player_total + (player_third or 0)) % 10
    final_banker = (banker_total + (banker_third or 0)) % 10
    return CoupOutcome(final_player, final_banker, needed, player_third, banker_third)
