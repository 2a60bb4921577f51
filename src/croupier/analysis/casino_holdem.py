"""Casino Hold'em (docs/rules.md §5): the progressive bet, exactly, as a function of the meter.

The progressive pays on the player's best five cards from the two hole cards and the flop:
five cards dealt from one full deck (Art. 7, one deck shuffled before every game). The kernel
classifies all C(52, 5) = 2,598,960 five-card hands with the game's own evaluator
(``croupier.hands.poker.strength_of``); a prize is either a share of the meter
or a fixed number of units (profile values, docs/rules.md §5 decision); the stake is always
collected (so a winning hand nets its prize minus the stake).

The Ante + Bet game with the optimal call/fold decision is exact in
``croupier.analysis.casino_holdem_exact`` (every flop, turn, river and dealer hand, cached on
disk after its first run). ``estimate_ante_game`` here is the quick cross-check (``croupier
analyze --ante-monte-carlo``): a **Monte Carlo estimate, not an exact figure**: for each
sampled hole cards + flop the call is made when an inner sample of completions says calling
loses less than the folded Ante (a near-optimal strategy: sampling noise near the margin
costs the player a little, so the estimate leans slightly against the player), and the
round is then valued on an independent completion.

>>> from croupier.rules import load_profile
>>> figures = analyse_progressive(load_profile("casino-holdem-peru-2007"))
>>> round(figures.house_edge, 4)
0.623
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.figures import Outcome, WagerFigures
from croupier.cards import Card, Rank
from croupier.hands.poker import CATEGORY_SHIFT, strength_of
from croupier.randomness import SeededRandomSource
from croupier.rules.casino_holdem import (
    AnteWhenDealerDoesNotQualify,
    CasinoHoldemRules,
    PokerCategory,
)

CATEGORY_ORDER: tuple[PokerCategory, ...] = tuple(PokerCategory)
"""Index 0 = royal flush ... 9 = high card, as ``PokerCategory`` lists them."""


@numba.njit(cache=True, inline="always")
def _code(strength: int) -> int:
    """``PokerCategory`` index (0 royal flush ... 9 high card) of a ``strength_of`` value."""
    return 9 - (strength >> CATEGORY_SHIFT)


@numba.njit(cache=True)
def five_card_category_counts() -> npt.NDArray[np.int64]:
    """How many of the 2,598,960 five-card hands fall in each category."""
    result = np.zeros(10, dtype=np.int64)
    hand = np.zeros(5, dtype=np.int64)
    for a in range(52):
        hand[0] = a
        for b in range(a + 1, 52):
            hand[1] = b
            for c in range(b + 1, 52):
                hand[2] = c
                for d in range(c + 1, 52):
                    hand[3] = d
                    for e in range(d + 1, 52):
                        hand[4] = e
                        result[_code(strength_of(hand))] += 1
    return result


# --- the Ante + Bet game (Monte Carlo) -----------------------------------------------------

FOLD, LOSE, PUSH = 0, 1, 2
WIN_BASE = 3
"""Outcome bins: fold, lose, push, then a win by the player's category (10 bins), then a
dealer who does not qualify, by the player's category (10 bins)."""
NOT_QUALIFIED_BASE = 13
BINS = 23


@numba.njit(cache=True, inline="always")
def _next_random(state: npt.NDArray[np.uint64]) -> int:
    # xorshift64*: a fast generator for the estimate only (never deals a live game, R1).
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return int((x * np.uint64(2685821657736338717)) >> np.uint64(11))


@numba.njit(cache=True)
def _call_outcome(
    player: int,
    dealer: int,
    qualifier_code: int,
    qualifier_rank: int,
) -> int:
    dealer_code = _code(dealer)
    qualifies = dealer_code < qualifier_code or (
        dealer_code == qualifier_code and ((dealer >> 16) & 15) >= qualifier_rank
    )
    if not qualifies:
        return NOT_QUALIFIED_BASE + _code(player)
    if player > dealer:
        return WIN_BASE + _code(player)
    if player < dealer:
        return LOSE
    return PUSH


@numba.njit(cache=True)
def _sampled_completion(  # noqa: PLR0917 - numba kernels take positional arguments
    player: npt.NDArray[np.int64],
    dealer: npt.NDArray[np.int64],
    rest: npt.NDArray[np.int64],
    state: npt.NDArray[np.uint64],
    qualifier_code: int,
    qualifier_rank: int,
) -> int:
    """The outcome bin of calling, over one sampled turn, river and dealer hand: four cards
    drawn from the front of ``rest`` (the unseen cards) into both seven-card hands."""
    for i in range(4):
        j = i + _next_random(state) % (47 - i)
        rest[i], rest[j] = rest[j], rest[i]
    player[5] = rest[0]
    player[6] = rest[1]
    dealer[0] = rest[2]
    dealer[1] = rest[3]
    dealer[5] = rest[0]
    dealer[6] = rest[1]
    return _call_outcome(strength_of(player), strength_of(dealer), qualifier_code, qualifier_rank)


@numba.njit(cache=True)
def _mean_call_value(  # noqa: PLR0917 - numba kernels take positional arguments
    player: npt.NDArray[np.int64],
    dealer: npt.NDArray[np.int64],
    rest: npt.NDArray[np.int64],
    inner: int,
    state: npt.NDArray[np.uint64],
    bin_values: npt.NDArray[np.float64],
    qualifier_code: int,
    qualifier_rank: int,
) -> float:
    """Mean net of calling over ``inner`` sampled turns, rivers and dealer hands; ``player``
    and ``dealer`` hold the known cards in 0..4 and 2..4, ``rest`` the 47 unseen cards."""
    total = 0.0
    for _ in range(inner):
        total += bin_values[
            _sampled_completion(player, dealer, rest, state, qualifier_code, qualifier_rank)
        ]
    return total / inner


@numba.njit(cache=True)
def _decide(  # noqa: PLR0917 - numba kernels take positional arguments
    known: npt.NDArray[np.int64],
    seed: np.uint64,
    inner: int,
    bin_values: npt.NDArray[np.float64],
    qualifier_code: int,
    qualifier_rank: int,
) -> bool:
    state = np.array([seed | np.uint64(1)], dtype=np.uint64)
    player = np.zeros(7, dtype=np.int64)
    dealer = np.zeros(7, dtype=np.int64)
    rest = np.zeros(47, dtype=np.int64)
    seen = np.zeros(52, dtype=np.bool_)
    for i in range(5):
        player[i] = known[i]
        seen[known[i]] = True
    for i in range(3):
        dealer[2 + i] = known[2 + i]
    k = 0
    for card in range(52):
        if not seen[card]:
            rest[k] = card
            k += 1
    mean = _mean_call_value(
        player, dealer, rest, inner, state, bin_values, qualifier_code, qualifier_rank
    )
    return bool(mean > bin_values[FOLD])


@numba.njit(cache=True, parallel=True)
def ante_game_bins_parallel(  # noqa: PLR0917 - numba kernels take positional arguments
    seeds: npt.NDArray[np.uint64],
    rounds_each: int,
    inner: int,
    bin_values: npt.NDArray[np.float64],
    qualifier_code: int,
    qualifier_rank: int,
) -> npt.NDArray[np.int64]:
    """``ante_game_bins`` over independent streams, one per seed, summed."""
    parts = np.zeros((seeds.shape[0], BINS), dtype=np.int64)
    for i in numba.prange(seeds.shape[0]):
        parts[i] = ante_game_bins(
            seeds[i], rounds_each, inner, bin_values, qualifier_code, qualifier_rank
        )
    total: npt.NDArray[np.int64] = parts.sum(axis=0)
    return total


@numba.njit(cache=True)
def ante_game_bins(  # noqa: PLR0917 - numba kernels take positional arguments
    seed: np.uint64,
    rounds: int,
    inner: int,
    bin_values: npt.NDArray[np.float64],
    qualifier_code: int,
    qualifier_rank: int,
) -> npt.NDArray[np.int64]:
    """Counts of each outcome bin over ``rounds`` sampled rounds (see module docstring)."""
    state = np.array([seed | np.uint64(1)], dtype=np.uint64)
    bins = np.zeros(BINS, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    rest = np.zeros(47, dtype=np.int64)
    player = np.zeros(7, dtype=np.int64)
    dealer = np.zeros(7, dtype=np.int64)
    for _ in range(rounds):
        for i in range(5):
            j = i + _next_random(state) % (52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        for i in range(47):
            rest[i] = deck[5 + i]
        # deck[0:2] the player's hole cards, deck[2:5] the flop.
        for i in range(5):
            player[i] = deck[i]
        for i in range(3):
            dealer[2 + i] = deck[2 + i]
        mean = _mean_call_value(
            player, dealer, rest, inner, state, bin_values, qualifier_code, qualifier_rank
        )
        if mean <= bin_values[FOLD]:
            bins[FOLD] += 1
            continue
        bins[_sampled_completion(player, dealer, rest, state, qualifier_code, qualifier_rank)] += 1
    return bins


def _bin_values(rules: CasinoHoldemRules) -> list[Fraction]:
    """Net result per Ante of each bin, from the profile's paytables (Arts. 12-13)."""
    high_card = rules.ante_paytable[PokerCategory.HIGH_CARD]
    ante = [rules.ante_paytable.get(c, high_card).multiplier for c in CATEGORY_ORDER]
    bet = Fraction(rules.call_multiple)
    values = [Fraction(-1), -1 - bet, Fraction(0)]
    values += [ante[code] + bet * rules.call_pays.multiplier for code in range(10)]
    if rules.ante_when_dealer_does_not_qualify is AnteWhenDealerDoesNotQualify.EVEN_MONEY:
        values += [Fraction(1)] * 10  # Art. 13g: Ante paid 1:1, the Bet returned
    else:
        values += [ante[code] for code in range(10)]
    return values


def _qualifier(rules: CasinoHoldemRules) -> tuple[int, int]:
    qualifier = rules.dealer_qualifier
    code = CATEGORY_ORDER.index(qualifier.category)
    rank = (
        Rank.parse(qualifier.pair_rank_at_least).value - 2
        if qualifier.category is PokerCategory.PAIR
        else 0
    )
    return code, rank


def should_call(
    rules: CasinoHoldemRules,
    hole_and_flop: Sequence[Card],
    inner: int = 2000,
    seed: str = "casino-holdem-decision",
) -> bool:
    """The estimate's call/fold rule for one player (Art. 13 d): call when calling loses
    less than the folded Ante, over ``inner`` sampled completions (a Monte Carlo decision)."""
    known = np.array([card.index for card in hole_and_flop], dtype=np.int64)
    code, rank = _qualifier(rules)
    values = np.array([float(v) for v in _bin_values(rules)])
    return bool(
        _decide(known, np.uint64(SeededRandomSource(seed).randbits(64)), inner, values, code, rank)
    )


def estimate_call_value(
    rules: CasinoHoldemRules,
    hole_and_flop: Sequence[Card],
    samples: int,
    seed: str = "casino-holdem-call-value",
) -> float:
    """The estimate's mean net of calling, per Ante, over ``samples`` sampled turns, rivers
    and dealer hands after these five cards (what ``should_call`` compares with -1)."""
    known = [card.index for card in hole_and_flop]
    player = np.zeros(7, dtype=np.int64)
    dealer = np.zeros(7, dtype=np.int64)
    player[:5] = known
    dealer[2:5] = known[2:]
    rest = np.array([card for card in range(52) if card not in known], dtype=np.int64)
    state = np.array([SeededRandomSource(seed).randbits(64) | 1], dtype=np.uint64)
    code, rank = _qualifier(rules)
    values = np.array([float(v) for v in _bin_values(rules)])
    return float(_mean_call_value(player, dealer, rest, samples, state, values, code, rank))


def estimate_ante_game(
    rules: CasinoHoldemRules,
    rounds: int = 120_000,
    inner: int = 300,
    seed: str = "casino-holdem-ante",
    streams: int = 8,
) -> WagerFigures:
    """The Ante + Bet game per initial Ante: a Monte Carlo estimate (NOT exact)."""
    values = _bin_values(rules)
    qualifier_code, qualifier_rank = _qualifier(rules)
    source = SeededRandomSource(seed)
    seeds = np.array([source.randbits(64) for _ in range(streams)], dtype=np.uint64)
    rounds_each = max(1, rounds // streams)
    rounds = rounds_each * streams
    bins = ante_game_bins_parallel(
        seeds,
        rounds_each,
        inner,
        np.array([float(v) for v in values]),
        qualifier_code,
        qualifier_rank,
    )
    distribution: dict[Fraction, float] = {}
    for value, count in zip(values, bins, strict=True):
        if count:
            distribution[value] = distribution.get(value, 0.0) + int(count) / rounds
    figures = WagerFigures(
        name="ante",
        distribution=distribution,
        method=(
            f"MONTE CARLO ESTIMATE, not exact: {rounds:,} rounds, call/fold decided by "
            f"{inner} inner samples per flop"
        ),
    )
    folds = int(bins[FOLD]) / rounds
    standard_error = figures.std_dev / math.sqrt(rounds)
    return WagerFigures(
        name="ante",
        distribution=distribution,
        method=figures.method,
        standard_error=standard_error,
        fold_frequency=Fraction(int(bins[FOLD]), rounds),
        notes=(
            "Monte Carlo estimate, not exact",
            f"standard error of the house edge: {standard_error:.5f}",
            f"fold frequency: {folds:.4f}",
        ),
    )


@cache
def _category_counts() -> tuple[int, ...]:
    return tuple(int(count) for count in five_card_category_counts())


def analyse_progressive(
    rules: CasinoHoldemRules, meter: int | Fraction | None = None
) -> WagerFigures:
    """The progressive bet per unit staked, with the meter at ``meter`` (default: its seed)."""
    progressive = rules.progressive
    meter_value = progressive.meter_seed if meter is None else meter
    counts = _category_counts()
    total = sum(counts)
    distribution: dict[Fraction, Fraction] = {}
    outcomes: list[Outcome] = []
    for index, category in enumerate(CATEGORY_ORDER):
        prize = progressive.paytable.get(category)
        if prize is None:
            won = Fraction(0)
        elif prize.meter_share is not None:
            won = prize.meter_share * meter_value
        else:
            won = Fraction(prize.units or 0)
        net = (won - progressive.bet) / progressive.bet
        probability = Fraction(int(counts[index]), total)
        distribution[net] = distribution.get(net, Fraction(0)) + probability
        outcomes.append(Outcome(category.value, net, probability))
    return WagerFigures.exact(
        "progressive",
        distribution,
        method=(
            f"exact over all 2,598,960 five-card hands, meter at {meter_value} units "
            f"(the profile's seed is {progressive.meter_seed})"
        ),
        outcomes=tuple(outcomes),
    )


def progressive_break_even_meter(rules: CasinoHoldemRules) -> Fraction | None:
    """The meter at which the progressive's expected return is zero (``None``: no meter line)."""
    low = analyse_progressive(rules, 0).exact_house_edge
    high = analyse_progressive(rules, 1).exact_house_edge
    if low is None or high is None or low == high:
        return None
    return low / (low - high)
