"""The poker hand evaluator of Casino Hold'em Arts. 10-11: best five of five to seven cards.

A hand's *strength* is one integer, higher is better, that orders every 5-, 6- and 7-card
hand exactly: ``category << 20`` followed by up to five ranks of four bits each, most
significant first, in the order Art. 11 breaks ties (the quads' rank then the kicker, the
trips then the pair, the pairs then the kicker, every card for a flush or high card, the top
card of a straight). Two hands with the same five ranks and class are equal (the decision
of docs/rules.md §5: equal hands push); the wheel A-2-3-4-5 is the lowest straight (docs/rules.md §5).

The core, :func:`strength_of`, is a numba ``@njit`` function over card indices 0..51
(``Card.index``: rank-major, ``(rank - 2) * 4 + suit``) so that the simulator's kernels call
it directly. One pass over the cards builds four 13-bit suit masks; ranks held twice, three
or four times are their intersections; three 8,192-entry tables indexed by a rank mask give
its number of ranks, its highest straight and its top five ranks. No loop over ranks, no
allocation. Checked against ``phevaluator`` and against the exhaustive class counts of all
C(52,5) and C(52,7) hands (``tests/unit/test_poker_evaluator.py``); speed in
``benchmarks/poker_evaluator.py``.

>>> from croupier.cards import parse_cards
>>> value = evaluate(parse_cards("Ah Kh 4c 4d Qh Jh Th"))
>>> value.category, " ".join(str(card) for card in value.best_five)
(<PokerCategory.ROYAL_FLUSH: 'royal flush'>, 'Ah Kh Qh Jh Th')
>>> wheel = evaluate(parse_cards("As 2d 3c 4h 5s 9d Kc"))
>>> six_high = evaluate(parse_cards("2d 3c 4h 5s 6d 9d Kc"))
>>> wheel.category.value, wheel < six_high
('straight', True)
>>> compare(parse_cards("Ks Kd 9c 8h 7s 3d 2c"), parse_cards("Kh Kc Td 8s 7h 4c 2d"))
-1
>>> compare(parse_cards("Ks Kd 9c 8h 7s 3d 2c"), parse_cards("Kh Kc 9d 8s 7h 4c 2d"))  # 3, 4 idle
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import total_ordering

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from croupier.cards import FULL_DECK, Card
from croupier.errors import NotationError
from croupier.rules.casino_holdem import PokerCategory

# --- category codes inside a strength (higher is better) ---------------------------------
HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8
ROYAL_FLUSH = 9
"""A royal flush is the ace-high straight flush (Art. 10a); it gets its own code so that the
category can be read off the strength, which orders it above every other straight flush."""

CATEGORY_SHIFT = 20
ACE = 12
"""Rank indices are 0 (deuce) to 12 (ace): ``Card.rank.value - 2``."""

CATEGORY_OF_CODE: tuple[PokerCategory, ...] = (
    PokerCategory.HIGH_CARD,
    PokerCategory.PAIR,
    PokerCategory.TWO_PAIR,
    PokerCategory.THREE_OF_A_KIND,
    PokerCategory.STRAIGHT,
    PokerCategory.FLUSH,
    PokerCategory.FULL_HOUSE,
    PokerCategory.FOUR_OF_A_KIND,
    PokerCategory.STRAIGHT_FLUSH,
    PokerCategory.ROYAL_FLUSH,
)
CODE_OF_CATEGORY = {category: code for code, category in enumerate(CATEGORY_OF_CODE)}


def _build_tables() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32], npt.NDArray[np.int8]]:
    """Per 13-bit rank mask: the high rank of its best straight plus one (0: none), its top
    five ranks packed four bits each, highest first, and its number of ranks."""
    straight_high = np.zeros(1 << 13, dtype=np.int8)
    popcount = np.array([bin(mask).count("1") for mask in range(1 << 13)], dtype=np.int8)
    top_five = np.zeros(1 << 13, dtype=np.int32)
    windows = [(high, 0b11111 << (high - 4)) for high in range(ACE, 3, -1)]
    wheel = (1 << ACE) | 0b1111  # A-2-3-4-5: the lowest straight, five high (docs/rules.md §5)
    for mask in range(1 << 13):
        for high, window in windows:
            if mask & window == window:
                straight_high[mask] = high + 1
                break
        else:
            if mask & wheel == wheel:
                straight_high[mask] = 3 + 1
        packed = 0
        taken = 0
        for rank in range(ACE, -1, -1):
            if taken < 5 and mask >> rank & 1:
                packed |= rank << (4 * (4 - taken))
                taken += 1
        top_five[mask] = packed
    return straight_high, top_five, popcount


STRAIGHT_HIGH, TOP_FIVE, POPCOUNT = _build_tables()


@njit(cache=True, nogil=True)
def strength_of(cards: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """The strength of the best five of ``cards`` (5 to 7 distinct indices 0..51)."""
    # No allocation, no loop over ranks: four suit masks (13 bits each); a rank held by
    # two, three or four suits shows in their intersections. Lookups in 8,192-entry tables
    # give a mask's highest straight and its top ranks.
    by_suit = 0  # 16 bits a suit, rank bits within: no branch on the suit
    for card in cards:
        by_suit |= 1 << ((card & 3) * 16 + (card >> 2))
    spades = by_suit & 0x1FFF
    hearts = (by_suit >> 16) & 0x1FFF
    diamonds = (by_suit >> 32) & 0x1FFF
    clubs = (by_suit >> 48) & 0x1FFF
    rank_mask = spades | hearts | diamonds | clubs
    # With at most seven cards a flush excludes four of a kind and a full house (they would
    # need eight cards), so the flush suit decides first.
    flush_mask = 0
    if POPCOUNT[spades] >= 5:
        flush_mask = spades
    elif POPCOUNT[hearts] >= 5:
        flush_mask = hearts
    elif POPCOUNT[diamonds] >= 5:
        flush_mask = diamonds
    elif POPCOUNT[clubs] >= 5:
        flush_mask = clubs
    if flush_mask:
        high = int(STRAIGHT_HIGH[flush_mask])
        if high == ACE + 1:
            return (ROYAL_FLUSH << CATEGORY_SHIFT) | (ACE << 16)
        if high:
            return (STRAIGHT_FLUSH << CATEGORY_SHIFT) | ((high - 1) << 16)
        return (FLUSH << CATEGORY_SHIFT) | int(TOP_FIVE[flush_mask])
    fours = spades & hearts & diamonds & clubs
    if fours:
        quad = int(TOP_FIVE[fours]) >> 16
        kicker = int(TOP_FIVE[rank_mask & ~fours]) >> 16
        return (FOUR_OF_A_KIND << CATEGORY_SHIFT) | (quad << 16) | (kicker << 12)
    two_or_more = (
        (spades & hearts)
        | (spades & diamonds)
        | (spades & clubs)
        | (hearts & diamonds)
        | (hearts & clubs)
        | (diamonds & clubs)
    )
    threes = (
        (spades & hearts & diamonds)
        | (spades & hearts & clubs)
        | (spades & diamonds & clubs)
        | (hearts & diamonds & clubs)
    )
    pairs = two_or_more & ~threes
    if threes:
        trip = int(TOP_FIVE[threes]) >> 16
        # Art. 11b: the higher three decide; the pair is the best other rank held twice.
        others = two_or_more & ~(1 << trip)
        if others:
            pair_rank = int(TOP_FIVE[others]) >> 16
            return (FULL_HOUSE << CATEGORY_SHIFT) | (trip << 16) | (pair_rank << 12)
    high = int(STRAIGHT_HIGH[rank_mask])
    if high:
        return (STRAIGHT << CATEGORY_SHIFT) | ((high - 1) << 16)
    if threes:
        trip = int(TOP_FIVE[threes]) >> 16
        kickers = int(TOP_FIVE[rank_mask & ~threes]) >> 12  # the two best other ranks
        return (THREE_OF_A_KIND << CATEGORY_SHIFT) | (trip << 16) | (kickers << 8)
    if pairs:
        top = int(TOP_FIVE[pairs])
        if POPCOUNT[pairs] >= 2:  # Art. 11f: the two best pairs, then the best other card
            pair, second_pair = top >> 16, (top >> 12) & 0xF
            kicker = int(TOP_FIVE[rank_mask & ~(1 << pair) & ~(1 << second_pair)]) >> 16
            return (TWO_PAIR << CATEGORY_SHIFT) | (pair << 16) | (second_pair << 12) | (kicker << 8)
        pair = top >> 16
        kickers = int(TOP_FIVE[rank_mask & ~pairs]) >> 8  # the three best other ranks
        return (PAIR << CATEGORY_SHIFT) | (pair << 16) | (kickers << 4)
    return (HIGH_CARD << CATEGORY_SHIFT) | int(TOP_FIVE[rank_mask])


@njit(cache=True, nogil=True)
def strengths_of(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:  # pragma: no cover
    """``strength_of`` for each row of an (n, 5..7) array of card indices."""
    result = np.empty(hands.shape[0], dtype=np.int64)
    for row in range(hands.shape[0]):
        result[row] = strength_of(hands[row])
    return result


@njit(cache=True, nogil=True, parallel=True)
def strengths_of_parallel(
    hands: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:  # pragma: no cover
    """``strengths_of`` spread over every core (benchmarks and simulation; see STACK.md:
    fork no process pool after this ran, use spawn)."""
    result = np.empty(hands.shape[0], dtype=np.int64)
    for row in prange(hands.shape[0]):
        result[row] = strength_of(hands[row])
    return result


def category_code(strength: int) -> int:
    return strength >> CATEGORY_SHIFT


def category_of(strength: int) -> PokerCategory:
    """The Art. 10 class of a strength."""
    return CATEGORY_OF_CODE[strength >> CATEGORY_SHIFT]


# --- the Python API ------------------------------------------------------------------------


@total_ordering
@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's class, its strength (higher is better) and the five cards that make it.

    Values compare by strength alone: two hands with equal strength are equal hands
    (docs/rules.md §5), whatever their suits.
    """

    category: PokerCategory
    strength: int
    best_five: tuple[Card, ...]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __str__(self) -> str:
        return f"{self.category.value} ({' '.join(str(card) for card in self.best_five)})"


INDEX_OF_CARD: dict[Card, int] = {card: index for index, card in enumerate(FULL_DECK)}
"""``Card.index`` looked up rather than computed: the Python API's hot path."""


def _indices(cards: Sequence[Card]) -> list[int]:
    indices = [INDEX_OF_CARD[card] for card in cards]
    if not 5 <= len(indices) <= 7:
        raise NotationError(f"a poker hand has 5 to 7 cards, not {len(indices)}")
    if len(set(indices)) != len(indices):
        raise NotationError(
            f"a poker hand holds each card once: {' '.join(str(card) for card in cards)}"
        )
    return indices


def strength(cards: Sequence[Card]) -> int:
    """The strength of the best five of ``cards``."""
    return int(strength_of(np.array(_indices(cards), dtype=np.int64)))


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The best five of 5 to 7 cards (Arts. 10-11)."""
    indices = _indices(cards)
    value = int(strength_of(np.array(indices, dtype=np.int64)))
    return HandValue(category_of(value), value, _best_five(indices, value))


def compare(first: Sequence[Card], second: Sequence[Card]) -> int:
    """1 if ``first`` is the better hand, -1 if ``second`` is, 0 if they are equal (Art. 11)."""
    a, b = strength(first), strength(second)
    return (a > b) - (a < b)


def evaluate_many(indices: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Strengths of an (n, 5..7) array of card indices, compiled (simulation, benchmarks)."""
    hands = np.ascontiguousarray(indices, dtype=np.int64)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise NotationError(f"evaluate_many needs an (n, 5..7) array, not shape {hands.shape}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        raise NotationError("card indices run 0..51")
    result: npt.NDArray[np.int64] = strengths_of(hands)
    return result


def _best_five(indices: list[int], value: int) -> tuple[Card, ...]:
    """The five cards a strength stands for, best-first in the order Art. 11 reads them."""
    code = value >> CATEGORY_SHIFT
    ranks = [(value >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
    ordered = sorted(indices)
    if code in (FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH):
        suits = [index & 3 for index in ordered]
        flush_suit = max(suits, key=suits.count)
        ordered = [index for index in ordered if index & 3 == flush_suit]
    if code in (STRAIGHT, STRAIGHT_FLUSH, ROYAL_FLUSH):
        high = ranks[0]
        wanted = [high - step for step in range(5)] if high > 3 else [3, 2, 1, 0, ACE]
    else:
        wanted = [
            rank
            for rank, count in zip(ranks, GROUP_SIZES.get(code, (1, 1, 1, 1, 1)), strict=False)
            for _ in range(count)
        ]
    by_rank: dict[int, list[int]] = {}
    for index in ordered:
        by_rank.setdefault(index >> 2, []).append(index)
    return tuple(FULL_DECK[by_rank[rank].pop(0)] for rank in wanted)


GROUP_SIZES = {
    FOUR_OF_A_KIND: (4, 1),
    FULL_HOUSE: (3, 2),
    THREE_OF_A_KIND: (3, 1, 1),
    TWO_PAIR: (2, 2, 1),
    PAIR: (2, 1, 1, 1),
}
"""How many cards of each rank in the strength a class's five cards hold."""
