"""Casino Hold'em (docs/rules.md §5): the Ante + Bet game, exactly, under the optimal call/fold.

The player sees two hole cards and the flop, then folds (loses the Ante) or Bets
``call_multiple`` Antes; the turn, the river and the dealer's two cards follow. The optimal
player calls exactly when the expected net of calling, over every turn, river and dealer
hand still possible given the five cards seen, is above the folded Ante (-1). Every figure
here is an exact ``Fraction`` over one 52-card deck (Art. 7; burns are unseen cards and change
nothing).

How it is counted (the expensive part, independent of the paytable):

1. The 22,100 flops fall in 1,755 classes under the 24 permutations of the suits (the game
   treats no suit differently); each class carries its number of flops as a weight.
2. For each class, each of the C(49, 2) = 1,176 turn + river pairs makes a five-card board.
   All C(47, 2) = 1,081 two-card hands of the other 47 cards are valued once on that board
   with the game's own evaluator (``croupier.hands.poker.strength_of``) and sorted. A suit
   permutation that maps the flop onto itself (the two suits absent from a two-tone flop,
   the three beside a monotone one, a pair's two suits) maps each turn + river onto another
   with the same counts for the permuted holes, so only one turn + river per orbit is valued
   (921 class-equivalents of work instead of 1,755; the counts are the same integers).
3. Every one of those 1,081 hands is also a possible player hole. The dealer holds two of the
   45 cards left: the 1,081 hands minus the 91 that share a card with the player's hole.
   How many of them do not qualify, lose to, tie or beat the player is read off the sorted
   order by inclusion-exclusion: the count among all 1,081 hands, minus the count among the
   46 hands holding the player's first card, minus those holding the second, plus the
   player's own hand (counted in both). Positions in the sorted order are found in one pass.
4. The counts are summed per (flop class, player hole) into 22 bins: lose, push, a win by
   the player's final category (10 bins) and a dealer who does not qualify by the player's
   final category (10 bins). Each row sums to 1,081 x 990 = 1,070,190 completions.

That table (1,755 x 1,176 x 22 counts, about 180 MB in memory, 27 MB compressed on disk)
depends only on the deck, the dealer's qualifier and the evaluator; it is cached on disk
(``cache_directory()``, keyed by all three), so another
paytable costs only the cheap decision step: value each row with the paytable, call where
the row's expected net exceeds -1, and add up the rows with their class weights.

>>> from croupier.analysis.casino_holdem_exact import flop_classes
>>> flops, weights = flop_classes()
>>> len(flops), int(weights.sum())
(1755, 22100)
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from math import comb, lcm
from pathlib import Path

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.result_cache import cache_directory
from croupier.cards import Card, Rank
from croupier.errors import NotationError
from croupier.hands import poker
from croupier.hands.poker import CATEGORY_SHIFT, CODE_OF_CATEGORY, strength_of
from croupier.rules.casino_holdem import (
    AnteWhenDealerDoesNotQualify,
    CasinoHoldemRules,
    PokerCategory,
)

CATEGORY_ORDER: tuple[PokerCategory, ...] = tuple(PokerCategory)
"""Bin order of the categories: 0 royal flush ... 9 high card, as ``PokerCategory`` lists them."""

LOSE, PUSH = 0, 1
WIN_BASE = 2
NOT_QUALIFIED_BASE = 12
BINS = 22
"""Bins of a called hand: lose, push, win by the player's category (10), dealer does not
qualify by the player's category (10)."""

HOLES = comb(49, 2)
"""Player holes beside one flop: 1,176."""
DEALER_HANDS = comb(45, 2)
"""Dealer hands beside the player's hole and a full board: 990."""
COMPLETIONS = comb(47, 2) * DEALER_HANDS
"""Turn + river pairs times dealer hands, for one (flop, hole): 1,070,190."""
DEALS = comb(52, 3) * HOLES * COMPLETIONS
"""Every (flop, hole, turn + river, dealer hand): the denominator of every probability."""

TABLE_FORMAT = 2
"""Bump when the table's layout or meaning changes (it is part of the cache key)."""


# --- the flops, up to suit symmetry --------------------------------------------------------


@cache
def flop_classes() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One flop per class under suit permutations (smallest sorted form), and its weight."""
    weights: dict[tuple[int, ...], int] = {}
    permutations = list(itertools.permutations(range(4)))
    for flop in itertools.combinations(range(52), 3):
        canonical = min(
            tuple(sorted((card & ~3) | permutation[card & 3] for card in flop))
            for permutation in permutations
        )
        weights[canonical] = weights.get(canonical, 0) + 1
    keys = sorted(weights)
    return (
        np.array(keys, dtype=np.int64).reshape(len(keys), 3),
        np.array([weights[key] for key in keys], dtype=np.int64),
    )


def qualifier_threshold(rules: CasinoHoldemRules) -> int:
    """The lowest ``strength_of`` value with which the dealer qualifies (Art. 13 g: a pair
    of 4s or better), read as the engine reads it (``CasinoHoldemRound.qualifying_strength``)."""
    qualifier = rules.dealer_qualifier
    rank = Rank.parse(qualifier.pair_rank_at_least).value - 2
    return (CODE_OF_CATEGORY[qualifier.category] << CATEGORY_SHIFT) | (rank << 16)


# --- the kernel ----------------------------------------------------------------------------


SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
"""The 24 permutations of the suits, the identity first."""


@numba.njit(cache=True, nogil=True)
def flop_symmetries(
    flop: npt.NDArray[np.int64], rest: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], int]:  # pragma: no cover - compiled
    """The suit permutations that map ``flop`` onto itself, each as a map of positions among
    the 49 ``rest`` cards (row 0 the identity), and how many there are (1, 2 or 6)."""
    position = np.full(52, -1, dtype=np.int64)
    for i in range(49):
        position[rest[i]] = i
    maps = np.empty((24, 49), dtype=np.int64)
    count = 0
    for p in range(24):
        fixed = True
        for card in flop:
            image = (card & ~3) | SUIT_PERMUTATIONS[p, card & 3]
            if image != flop[0] and image != flop[1] and image != flop[2]:
                fixed = False
        if fixed:
            for i in range(49):
                card = rest[i]
                maps[count, i] = position[(card & ~3) | SUIT_PERMUTATIONS[p, card & 3]]
            count += 1
    return maps, count


@numba.njit(cache=True, nogil=True)
def _order_by_strength(
    strength: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    spare: npt.NDArray[np.int64],
    buckets: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:  # pragma: no cover - compiled
    """The hands' indices by increasing strength: a stable radix sort, three passes of 8 bits
    (a ``strength_of`` value is below 2**24), a little quicker than the comparison sort of
    ``(strength << 11) | hand`` keys it replaced."""
    n = strength.shape[0]
    for h in range(n):
        order[h] = h
    source, target = order, spare
    for shift in (0, 8, 16):
        buckets[:] = 0
        for i in range(n):
            buckets[(strength[source[i]] >> shift) & 255] += 1
        total = 0
        for b in range(256):
            size = buckets[b]
            buckets[b] = total
            total += size
        for i in range(n):
            h = source[i]
            digit = (strength[h] >> shift) & 255
            target[buckets[digit]] = h
            buckets[digit] += 1
        source, target = target, source
    return source


@numba.njit(cache=True, nogil=True)
def flop_table(
    flop: npt.NDArray[np.int64], threshold: int
) -> npt.NDArray[np.int32]:  # pragma: no cover - compiled
    """Counts by bin (see the module docstring) for each player hole beside ``flop``.

    Row ``i * (97 - i) // 2 + j - i - 1`` is the hole made of the ``i``-th and ``j``-th
    (``i < j``) of the 49 cards not on the flop, in increasing card order.

    Suit symmetry within the flop: a suit permutation that maps the flop onto itself (the
    two suits absent from a two-tone flop, the three beside a monotone one, the suits of a
    pair) maps each turn + river onto another with the same counts for the permuted holes,
    so only one turn + river per orbit is valued and its counts are added to each image.
    """
    rest = np.empty(49, dtype=np.int64)
    on_flop = np.zeros(52, dtype=np.bool_)
    for card in flop:
        on_flop[card] = True
    k = 0
    for card in range(52):
        if not on_flop[card]:
            rest[k] = card
            k += 1
    maps, symmetries = flop_symmetries(flop, rest)
    image_map = np.empty(symmetries, dtype=np.int64)
    image_low = np.empty(symmetries, dtype=np.int64)
    image_high = np.empty(symmetries, dtype=np.int64)
    table = np.zeros((1176, 22), dtype=np.int32)
    seven = np.empty(7, dtype=np.int64)
    seven[0] = flop[0]
    seven[1] = flop[1]
    seven[2] = flop[2]
    hand_first = np.empty(1081, dtype=np.int64)  # positions among the 47 cards
    hand_second = np.empty(1081, dtype=np.int64)
    strength = np.empty(1081, dtype=np.int64)
    order = np.empty(1081, dtype=np.int64)
    spare = np.empty(1081, dtype=np.int64)
    buckets = np.empty(256, dtype=np.int64)
    below = np.empty(1081, dtype=np.int64)  # among all hands: weaker than this one
    at_most = np.empty(1081, dtype=np.int64)  # among all hands: not stronger
    first_below = np.empty(1081, dtype=np.int64)  # among hands holding its first card
    first_at_most = np.empty(1081, dtype=np.int64)
    second_below = np.empty(1081, dtype=np.int64)
    second_at_most = np.empty(1081, dtype=np.int64)
    seen = np.zeros(47, dtype=np.int64)
    unqualified_with = np.zeros(47, dtype=np.int64)
    left = np.empty(47, dtype=np.int64)  # position among the 49 of each of the 47 cards
    for turn in range(49):
        for river in range(turn + 1, 49):
            # One turn + river per orbit: the smallest; then its distinct images.
            images = 0
            smallest = True
            for g in range(symmetries):
                x = maps[g, turn]
                y = maps[g, river]
                low = min(x, y)
                high = max(x, y)
                if low < turn or (low == turn and high < river):
                    smallest = False
                    break
                repeated = False
                for e in range(images):
                    if image_low[e] == low and image_high[e] == high:
                        repeated = True
                if not repeated:
                    image_map[images] = g
                    image_low[images] = low
                    image_high[images] = high
                    images += 1
            if not smallest:
                continue
            seven[3] = rest[turn]
            seven[4] = rest[river]
            k = 0
            for i in range(49):
                if i != turn and i != river:  # noqa: PLR1714 - plain compares in the kernel
                    left[k] = i
                    k += 1
            hand = 0
            unqualified = 0
            for c in range(47):
                unqualified_with[c] = 0
                seen[c] = 0
            for a in range(47):
                seven[5] = rest[left[a]]
                for b in range(a + 1, 47):
                    seven[6] = rest[left[b]]
                    value = strength_of(seven)
                    strength[hand] = value
                    hand_first[hand] = a
                    hand_second[hand] = b
                    if value < threshold:
                        unqualified += 1
                        unqualified_with[a] += 1
                        unqualified_with[b] += 1
                    hand += 1
            ordered = _order_by_strength(strength, order, spare, buckets)
            # One pass over the sorted order, a group of equal strengths at a time.
            start = 0
            while start < 1081:
                value = strength[ordered[start]]
                end = start + 1
                while end < 1081 and strength[ordered[end]] == value:
                    end += 1
                for g in range(start, end):
                    h = ordered[g]
                    below[h] = start
                    at_most[h] = end
                    first_below[h] = seen[hand_first[h]]
                    second_below[h] = seen[hand_second[h]]
                for g in range(start, end):
                    h = ordered[g]
                    seen[hand_first[h]] += 1
                    seen[hand_second[h]] += 1
                for g in range(start, end):
                    h = ordered[g]
                    first_at_most[h] = seen[hand_first[h]]
                    second_at_most[h] = seen[hand_second[h]]
                start = end
            for h in range(1081):
                value = strength[h]
                a = hand_first[h]
                b = hand_second[h]
                category = 9 - (value >> 20)
                # Dealer hands share no card with the player's hole: inclusion-exclusion.
                not_qualified = unqualified - unqualified_with[a] - unqualified_with[b]
                if value < threshold:
                    not_qualified += 1
                    lose = 990 - not_qualified
                    push = 0
                    win = 0
                else:
                    weaker = below[h] - first_below[h] - second_below[h]
                    not_stronger = at_most[h] - first_at_most[h] - second_at_most[h] + 1
                    win = weaker - not_qualified
                    push = not_stronger - weaker
                    lose = 990 - not_stronger
                ia = left[a]
                ib = left[b]
                for e in range(images):
                    x = maps[image_map[e], ia]
                    y = maps[image_map[e], ib]
                    i = min(x, y)
                    j = max(x, y)
                    row = i * (97 - i) // 2 + j - i - 1
                    table[row, 0] += lose
                    table[row, 1] += push
                    table[row, 2 + category] += win
                    table[row, 12 + category] += not_qualified
    return table


@numba.njit(cache=True, nogil=True, parallel=True)
def flop_tables(
    flops: npt.NDArray[np.int64], threshold: int
) -> npt.NDArray[np.int32]:  # pragma: no cover - compiled
    """``flop_table`` for each row of ``flops``, spread over every core."""
    result = np.empty((flops.shape[0], 1176, 22), dtype=np.int32)
    for f in numba.prange(flops.shape[0]):
        result[f] = flop_table(flops[f], threshold)
    return result


def hole_row(flop: Sequence[int], hole: Sequence[int]) -> int:
    """The row of ``flop_table(flop)`` that holds the player's ``hole`` (card indices)."""
    rest = [card for card in range(52) if card not in flop]
    i, j = sorted(rest.index(card) for card in hole)
    return i * (97 - i) // 2 + j - i - 1


def completion_counts(
    rules: CasinoHoldemRules, hole_and_flop: Sequence[Card]
) -> npt.NDArray[np.int32]:
    """Counts by bin of the 1,070,190 turns, rivers and dealer hands after these five cards."""
    indices = [card.index for card in hole_and_flop]
    if len(indices) != 5 or len(set(indices)) != 5:
        raise NotationError("two hole cards and a three-card flop, all different, are needed")
    flop = np.array(sorted(indices[2:]), dtype=np.int64)
    row: npt.NDArray[np.int32] = flop_table(flop, qualifier_threshold(rules))[
        hole_row(indices[2:], indices[:2])
    ]
    return row


def call_value(rules: CasinoHoldemRules, hole_and_flop: Sequence[Card]) -> Fraction:
    """The exact expected net, per Ante, of calling with these hole cards and this flop (the
    optimal player calls when it is above -1, the folded Ante)."""
    counts = completion_counts(rules, hole_and_flop)
    total = sum(
        (int(count) * value for count, value in zip(counts, bin_values(rules), strict=True)),
        Fraction(0),
    )
    return total / COMPLETIONS


# --- the cache -----------------------------------------------------------------------------


@cache
def _evaluator_fingerprint() -> str:
    """A digest of the evaluator's source: a changed evaluator never reads an old table."""
    return hashlib.sha256(inspect.getsource(poker).encode()).hexdigest()[:16]


def table_key(threshold: int) -> str:
    """Everything the table depends on: the deck (one of 52), the qualifier, the evaluator."""
    text = f"format={TABLE_FORMAT};deck=52x1;qualifier={threshold};evaluator={_evaluator_fingerprint()};bins={BINS}"
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def table_path(threshold: int) -> Path:
    return cache_directory() / f"casino-holdem-ante-{table_key(threshold)}.npz"


def compute_table(
    threshold: int,
    progress: Callable[[int, int], None] | None = None,
    chunk: int = 36,
) -> npt.NDArray[np.int32]:
    """The full (flop class, hole, bin) table, in chunks so that ``progress(done, total)``
    can report (each chunk runs on every core)."""
    flops, _ = flop_classes()
    parts = []
    for start in range(0, len(flops), chunk):
        parts.append(flop_tables(flops[start : start + chunk], threshold))
        if progress is not None:
            progress(min(start + chunk, len(flops)), len(flops))
    return np.concatenate(parts)


def load_or_compute_table(
    threshold: int, progress: Callable[[int, int], None] | None = None
) -> tuple[npt.NDArray[np.int32], bool]:
    """The table from the disk cache, or computed and stored there; True if it was cached."""
    path = table_path(threshold)
    expected = (len(flop_classes()[0]), HOLES, BINS)
    if path.exists():
        try:
            with np.load(path) as archive:
                stored: npt.NDArray[np.int32] | None = archive["table"]
        except (OSError, ValueError, KeyError):
            stored = None  # unreadable: computed again below
        if stored is not None and stored.shape == expected and stored.dtype == np.int32:
            return stored, True
    table = compute_table(threshold, progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    with partial.open("wb") as stream:
        np.savez_compressed(stream, table=table)  # about 27 MB (180 MB in memory)
    partial.replace(path)  # atomic: a reader never sees half a table
    return table, False


# --- the decision step: the paytable ---------------------------------------------------------


def bin_values(rules: CasinoHoldemRules) -> list[Fraction]:
    """Net result per Ante of each bin of a called hand (Arts. 12-13, docs/rules.md §5)."""
    high_card = rules.ante_paytable[PokerCategory.HIGH_CARD]
    ante = [rules.ante_paytable.get(c, high_card).multiplier for c in CATEGORY_ORDER]
    bet = Fraction(rules.call_multiple)
    values = [-1 - bet, Fraction(0)]
    values += [ante[code] + bet * rules.call_pays.multiplier for code in range(10)]
    if rules.ante_when_dealer_does_not_qualify is AnteWhenDealerDoesNotQualify.EVEN_MONEY:
        values += [Fraction(1)] * 10  # Art. 13g: Ante paid 1:1, the Bet returned
    else:
        values += [ante[code] for code in range(10)]
    return values


def bin_labels() -> list[str]:
    """What each bin of a called hand is, in ``bin_values`` order."""
    labels = ["call, dealer qualifies and wins", "call, push"]
    labels += [f"call, win with {category.value}" for category in CATEGORY_ORDER]
    labels += [
        f"call, dealer does not qualify, player has {category.value}" for category in CATEGORY_ORDER
    ]
    return labels


@numba.njit(cache=True, nogil=True)
def _choose(
    table: npt.NDArray[np.int32], values: npt.NDArray[np.int64], bar: int
) -> npt.NDArray[np.bool_]:  # pragma: no cover - compiled
    calls = np.empty(table.shape[:2], dtype=np.bool_)
    for f in range(table.shape[0]):
        for h in range(table.shape[1]):
            total = 0
            for b in range(table.shape[2]):
                total += np.int64(table[f, h, b]) * values[b]
            calls[f, h] = total > bar
    return calls


@numba.njit(cache=True, nogil=True)
def _tally(
    table: npt.NDArray[np.int32], calls: npt.NDArray[np.bool_], weights: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], int]:  # pragma: no cover - compiled
    counts = np.zeros(table.shape[2], dtype=np.int64)
    folded = 0
    for f in range(table.shape[0]):
        for h in range(table.shape[1]):
            if calls[f, h]:
                for b in range(table.shape[2]):
                    counts[b] += weights[f] * np.int64(table[f, h, b])
            else:
                folded += weights[f]
    return counts, folded


def choose(table: npt.NDArray[np.int32], values: list[Fraction]) -> npt.NDArray[np.bool_]:
    """Call (True) or fold per (flop class, hole): call iff the expected net of calling is
    above -1, the folded Ante. Exact: the values are scaled to integers."""
    scale = lcm(*(value.denominator for value in values))
    integers = [int(value * scale) for value in values]
    if max(abs(value) for value in integers) * COMPLETIONS * BINS >= 2**62:
        raise ValueError("paytable ratios too fine for exact 64-bit sums; simplify them")
    calls: npt.NDArray[np.bool_] = _choose(
        table, np.array(integers, dtype=np.int64), -scale * COMPLETIONS
    )
    return calls


def tally(table: npt.NDArray[np.int32], calls: npt.NDArray[np.bool_]) -> tuple[list[int], int]:
    """Under the strategy ``calls``: the class-weighted count of called completions in each
    bin, and of folded completions (together every deal: ``DEALS``)."""
    _, weights = flop_classes()
    counts, folded = _tally(table, calls, weights)
    return [int(count) for count in counts], int(folded) * COMPLETIONS


def decide(
    table: npt.NDArray[np.int32], values: list[Fraction]
) -> tuple[npt.NDArray[np.bool_], list[int], int]:
    """The optimal strategy (``choose``) and its ``tally``."""
    calls = choose(table, values)
    counts, folds = tally(table, calls)
    return calls, counts, folds


def expected_net(counts: list[int], folds: int, values: list[Fraction]) -> Fraction:
    """The expected net per initial Ante of a ``tally``."""
    total = sum((count * value for count, value in zip(counts, values, strict=True)), Fraction(0))
    return (total - folds) / DEALS
