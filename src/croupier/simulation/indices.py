"""Index generation by simulation: the true count at which a play changes, for one cell, and
the insurance index.

For a cell of the chart (a two-card hard total, a two-card soft total or a pair, against an
up card) and two plays (say stand and hit, split and stand, or surrender and hit where the
profile has late surrender), ``generate_index`` deals shoes with the profile's decks, cut
card and burns, keeps the count, and each time a round's first hand is that cell it plays the hand out **both
ways from the same cards** (the same hole card, the same cards to come: common random
numbers), by the chart after the first decision, the dealer drawing as the profile says;
the difference of the two nets is recorded against the true count at the decision. The
index is where a weighted straight line through the mean difference by true count crosses
zero, the line fitted over the counts from -6 to +10 (the difference bends beyond them).

The insurance index (``generate_insurance_index``) is measured on every round whose up card
is an Ace, on the same shoes: insuring one unit nets the profile's insurance pay when the
dealer's second card is a ten and loses the unit otherwise, against nothing when declined;
the dealer's second card is the hole card where one is dealt, else the card drawn after the
hand has been played out (no-hole-card profiles, Spain 1979), and the count is the one at
the deal (the hole card unseen).

A pair played as a split is two hands, each taking its second card in turn and then played
by the chart's totals (doubling where the profile allows a double after a split), without
re-splitting: the index of the first split.

Simplifications, all in the rounds that are not measured: one box; the hand plays by the
chart's hard and soft totals without splitting; the deal follows the engine's order (player,
up card, player, hole card where dealt). The count's life through the shoe is that of the
real game to within those simplifications.

>>> from croupier.rules import load_profile
>>> from croupier.counting import load_counting_system
>>> found = generate_index(load_profile("peru-2016"), load_counting_system("hi-lo"),
...                        hard=16, up=10, plays=("S", "H"), rounds=200_000, seed=1)
>>> found.cell, found.plays, found.probes > 1000
('hard 16 v T', ('S', 'H'), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.counting import CountingSystem
from croupier.rules.blackjack import BlackjackRules, Surrender
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation.blackjack_sim import (
    ESTIMATIONS,
    TC_BINS,
    TC_LOW,
    BlackjackStrategy,
    Counting,
    SimulationError,
    chart_tables,
    parameters,
    tag_array,
)

Array = npt.NDArray[Any]
_PLAY_CODES = {
    "S": kernel.STAND,
    "H": kernel.HIT,
    "D": kernel.DOUBLE,
    "P": kernel.SPLIT,
    "R": kernel.SURRENDER_ELSE_HIT,
}
"""``R``: late surrender of the first two cards (docs/rules.md#D-BJ-32); the probe plays it
as a surrender, never as its else."""
HARD, SOFT, PAIR = 0, 1, 2
"""The kinds of cell: a two-card hard total, a two-card soft total (an Ace and another
card), a pair."""


@njit(inline="always")
def _dealer_total(shoe: Array, pos: int, first: int, second: int, h17: bool) -> Any:
    """The dealer's final total from two cards and the cards from ``pos`` (22: bust)."""
    hard = first + second
    ace = first == 1 or second == 1
    while True:
        total = hard + 10 if ace and hard <= 11 else hard
        soft = ace and hard <= 11
        if total > 17 or (total == 17 and not (soft and h17)):
            break
        v = shoe[pos]
        pos += 1
        hard += v
        ace = ace or v == 1
    total = hard + 10 if ace and hard <= 11 else hard
    return (22 if total > 21 else total), pos


@njit(inline="always")
def _play_out(  # noqa: PLR0917
    shoe: Array,
    pos: int,
    hard: int,
    ace: bool,
    first_play: int,
    hard_chart: Array,
    soft_chart: Array,
    u: int,
    double_any: bool,
    may_double: bool,
) -> Any:
    """Play a two-card hand: ``first_play`` (or the chart, -1), then the chart's totals;
    returns (total or 22 for a bust, stake 1 or 2, next position). ``may_double`` is false
    for a split hand where the profile allows no double after a split."""
    play = first_play
    n = 2
    stake = 1
    while True:
        total = hard + 10 if ace and hard <= 11 else hard
        if total >= 21:
            break
        soft = ace and hard <= 11
        if play < 0:
            play = soft_chart[total, u] if soft else hard_chart[max(total, 5), u]
        wants_double = play == kernel.DOUBLE or play == kernel.DOUBLE_ELSE_STAND  # noqa: PLR1714
        can_double = may_double and n == 2 and (double_any or (not soft and 9 <= total <= 11))
        if wants_double and can_double:
            v = shoe[pos]
            pos += 1
            hard += v
            ace = ace or v == 1
            stake = 2
            break
        if play == kernel.STAND or play == kernel.DOUBLE_ELSE_STAND:  # noqa: PLR1714
            break
        v = shoe[pos]
        pos += 1
        hard += v
        ace = ace or v == 1
        n += 1
        play = -1
    total = hard + 10 if ace and hard <= 11 else hard
    return (22 if total > 21 else total), stake, pos


@njit(inline="always")
def _split_hand(  # noqa: PLR0917
    shoe: Array,
    pos: int,
    card: int,
    hard_chart: Array,
    soft_chart: Array,
    u: int,
    double_any: bool,
    das: bool,
) -> Any:
    """One hand of a split pair of ``card``: its second card from ``pos``, then the chart's
    totals (no re-split); split Aces take their one card (docs/rules.md §1), and their 21 is
    21, not a blackjack. Returns as ``_play_out``."""
    v = shoe[pos]
    pos += 1
    hard = card + v
    ace = card == 1 or v == 1
    if card == 1:
        total = hard + 10 if hard <= 11 else hard
        return (22 if total > 21 else total), 1, pos
    return _play_out(shoe, pos, hard, ace, -1, hard_chart, soft_chart, u, double_any, das)


@njit(cache=True)
def _probe(  # noqa: PLR0917
    p: Array,
    state: Array,
    rounds: int,
    hard_chart: Array,
    soft_chart: Array,
    tags: Array,
    cell_kind: int,
    cell_total: int,
    cell_up: int,
    play_a: int,
    play_b: int,
    insurance: bool,
    sums: Array,
    counts: Array,
) -> None:
    """``sums[bin] += (probes, difference, difference squared)`` of net(a) - net(b), by the
    floored true count; ``counts[bin]`` sums the true counts themselves (the bin's centre).
    The cell is ``cell_kind`` (``HARD``, ``SOFT`` or ``PAIR``) with ``cell_total`` the hard
    total, the soft total or the pair's card value, against ``cell_up``."""
    decks = p[kernel.P_DECKS]
    size = 52 * decks
    cut_at = size - p[kernel.P_CUT_FROM_BOTTOM]
    hole = p[kernel.P_HOLE] != 0
    h17 = p[kernel.P_H17] != 0
    obo = p[kernel.P_ALL_BETS] == 0
    double_any = p[kernel.P_DOUBLE_ANY_TWO] != 0
    das = p[kernel.P_DAS] != 0
    by_rank = p[kernel.P_SPLIT_BY_RANK] != 0
    unit = p[kernel.P_DENOMINATOR]
    insurance_wins = p[kernel.P_INSURANCE_NET]
    shoe = np.empty(size + 64, dtype=np.int64)  # values 1..10; a tail for the last round
    cards = np.empty(size, dtype=np.int8)
    for i in range(size):
        cards[i] = i % 52
    value_of = np.empty(52, dtype=np.int64)
    for i in range(52):
        rank = i >> 2
        value_of[i] = 1 if rank == 12 else (10 if rank >= 8 else rank + 2)
    tag_of = np.zeros(11, dtype=np.int64)
    for i in range(52):
        tag_of[value_of[i]] = tags[i >> 2]
    pos = size
    rc = 0
    bins = sums.shape[0]
    for _ in range(rounds):
        if pos >= cut_at:
            kernel.shuffle(cards, state)
            for i in range(size):
                shoe[i] = value_of[cards[i]]
            for i in range(64):
                shoe[size + i] = value_of[cards[i]]
            pos = p[kernel.P_BURN]
            rc = p[kernel.P_INITIAL_RC]
        c1 = shoe[pos]
        up = shoe[pos + 1]
        c2 = shoe[pos + 2]
        same_rank = (cards[pos % size] >> 2) == (cards[(pos + 2) % size] >> 2)
        pos += 3
        rc += tag_of[c1] + tag_of[up] + tag_of[c2]
        hole_card = 0
        if hole:
            hole_card = shoe[pos]
            pos += 1
        hard = c1 + c2
        ace = c1 == 1 or c2 == 1
        natural = ace and hard == 11
        u = up - 1
        start = pos
        if cell_kind == PAIR:
            is_cell = c1 == c2 == cell_total and (same_rank or not by_rank or c1 != 10)
        elif cell_kind == SOFT:
            is_cell = ace and c1 != c2 and not natural and hard + 10 == cell_total
        else:
            is_cell = not ace and c1 != c2 and hard == cell_total
        if not insurance and is_cell and up == cell_up:
            tc = kernel.raw_true_count(rc, size - pos, p)
            nets = np.zeros(2, dtype=np.int64)
            end = pos
            for k in range(2):
                play = play_a if k == 0 else play_b
                dealer_bj = (up == 1 and hole_card == 10) or (up == 10 and hole_card == 1)
                if play == kernel.SURRENDER_ELSE_HIT:
                    # Late surrender, after the peek (docs/rules.md#D-BJ-32): half the bet,
                    # in half units; against a dealer blackjack the whole bet is lost.
                    nets[k] = -2 if dealer_bj else -1
                    if k == 0:
                        end = start
                    continue
                # Up to two hands: the hand itself, or a split pair's two (no re-split).
                totals = np.zeros(2, dtype=np.int64)
                stakes = np.zeros(2, dtype=np.int64)
                if play == kernel.SPLIT:
                    totals[0], stakes[0], after = _split_hand(
                        shoe, start, c1, hard_chart, soft_chart, u, double_any, das
                    )
                    totals[1], stakes[1], after = _split_hand(
                        shoe, after, c1, hard_chart, soft_chart, u, double_any, das
                    )
                else:
                    totals[0], stakes[0], after = _play_out(
                        shoe, start, hard, ace, play, hard_chart, soft_chart, u, double_any,
                        True,
                    )  # fmt: skip
                if not hole:
                    hole_card = shoe[after]
                    after += 1
                dealer_bj = (up == 1 and hole_card == 10) or (up == 10 and hole_card == 1)
                standing = (totals[0] <= 21 and stakes[0] > 0) or (
                    totals[1] <= 21 and stakes[1] > 0
                )
                dealer = 0
                if standing and not dealer_bj:
                    dealer, after = _dealer_total(shoe, after, up, hole_card, h17)
                net = 0
                for h in range(2):
                    total = totals[h]
                    stake = stakes[h]
                    if stake == 0:
                        continue
                    if total > 21:
                        net -= stake
                    elif dealer_bj:
                        # Original bet only: the first hand's one unit (docs/rules.md §1, Art. 13).
                        net -= (1 if h == 0 else 0) if obo else stake
                    elif dealer > 21 or total > dealer:
                        net += stake
                    elif total < dealer:
                        net -= stake
                nets[k] = 2 * net  # half units, as a surrender's
                if k == 0:
                    end = after
            b = int(min(max(np.floor(tc) - TC_LOW, 0.0), bins - 1.0))
            d = nets[0] - nets[1]
            sums[b, 0] += 1
            sums[b, 1] += d
            sums[b, 2] += d * d
            counts[b] += tc
            pos = end
        else:
            total, _stake, after = _play_out(
                shoe, start, hard, ace, -1, hard_chart, soft_chart, u, double_any, True
            )
            if insurance and up == 1:
                second = hole_card if hole else shoe[after]
                tc = kernel.raw_true_count(rc, size - start, p)
                d = insurance_wins if second == 10 else -unit
                b = int(min(max(np.floor(tc) - TC_LOW, 0.0), bins - 1.0))
                sums[b, 0] += 1
                sums[b, 1] += d
                sums[b, 2] += d * d
                counts[b] += tc
            if not hole:
                after += 1
            if total <= 21 and not natural:
                second = hole_card if hole else shoe[after - 1]
                _dealer, after = _dealer_total(shoe, after, up, second, h17)
            pos = after
        for i in range(start, pos):
            rc += tag_of[shoe[i]]
        if hole:
            rc += tag_of[hole_card]


FIT_LOW, FIT_HIGH, FIT_PROBES = -6.0, 10.0, 200
"""The true counts the line is fitted over, and the least probes a count needs to count."""


def _crossing(
    x: Array, y: Array, weights: Array, probes: Array
) -> tuple[float | None, float | None]:
    """Where a weighted line through ``(x, y)`` crosses zero, and its standard error (from the
    fit's covariance, ``weights`` being one over each point's variance), fitted to the counts
    from ``FIT_LOW`` to ``FIT_HIGH`` with at least ``FIT_PROBES`` probes (the difference
    bends beyond them, and sparse bins far out only add noise)."""
    chosen = (x >= FIT_LOW) & (x <= FIT_HIGH) & (probes >= FIT_PROBES)
    if chosen.sum() < 3:
        return None, None
    (slope, intercept), cov = np.polyfit(
        x[chosen], y[chosen], 1, w=np.sqrt(weights[chosen]), cov="unscaled"
    )
    if slope <= 0:
        return None, None
    index = float(-intercept / slope)
    variance = (cov[1, 1] + index * index * cov[0, 0] + 2 * index * cov[0, 1]) / slope**2
    return index, float(math.sqrt(max(variance, 0.0)))


@dataclass(frozen=True)
class GeneratedIndex:
    cell: str
    plays: tuple[str, str]
    index: float | None
    """The true count (before flooring) from which the first play is better (``None`` if
    the fitted line does not cross zero)."""
    standard_error: float | None
    """The index's standard error from the fit (the simulation's own uncertainty)."""
    probes: int
    by_true_count: list[dict[str, float]]


def _label(value: int) -> str:
    return "A" if value == 1 else ("T" if value == 10 else str(value))


def generate_index(
    profile: BlackjackRules,
    system: CountingSystem,
    *,
    up: int,
    plays: tuple[str, str],
    rounds: int,
    seed: int,
    hard: int | None = None,
    soft: int | None = None,
    pair: int | None = None,
    estimation: str = "half-deck",
    strategy: BlackjackStrategy | None = None,
) -> GeneratedIndex:
    """The index of ``plays[0]`` over ``plays[1]`` (``S``, ``H``, ``D``, ``R`` for late
    surrender where the profile has it, and ``P`` for a pair) against ``up`` (1 = Ace) on one cell: a two-card hard total ``hard``, a two-card
    soft total ``soft`` (13 to 20: an Ace and a Two to a Nine), or a pair of ``pair`` (the
    card's value, 1 = Aces, 10 = tens; a pair that splits is played as two hands, each by
    the chart after its second card, without re-splitting).

    >>> from croupier.rules import load_profile
    >>> from croupier.counting import load_counting_system
    >>> found = generate_index(load_profile("peru-2016"), load_counting_system("hi-lo"),
    ...                        pair=10, up=6, plays=("P", "S"), rounds=200_000, seed=1)
    >>> found.cell, found.plays, found.probes > 1000
    ('pair T v 6', ('P', 'S'), True)
    """
    cells = ((HARD, hard), (SOFT, soft), (PAIR, pair))
    chosen = [(kind, value) for kind, value in cells if value is not None]
    if len(chosen) != 1:
        raise SimulationError("an index cell is one of hard=, soft= or pair=")
    kind, value = chosen[0]
    assert value is not None
    bounds = {HARD: (4, 20), SOFT: (13, 20), PAIR: (1, 10)}[kind]
    if not bounds[0] <= value <= bounds[1] or not 1 <= up <= 10:
        raise SimulationError(f"no two-card cell {value} against {up}")
    for play in plays:
        if play not in _PLAY_CODES or (play == "P" and kind != PAIR):
            raise SimulationError(f"play {play!r}: S, H, D, R, or P on a pair")
    if "R" in plays and profile.surrender is not Surrender.LATE:
        raise SimulationError(
            f"play 'R': {profile.name} has no late surrender (docs/rules.md#D-BJ-32)"
        )
    if plays[0] == plays[1]:
        raise SimulationError(f"two different plays, not {plays[0]!r} twice")
    name = {HARD: "hard {}", SOFT: "soft {}", PAIR: "pair {}"}[kind].format(
        _label(value) if kind == PAIR else value
    )
    return _generate(
        profile, system, rounds, seed, estimation, strategy,
        cell=(kind, value, up, _PLAY_CODES[plays[0]], _PLAY_CODES[plays[1]]),
        name=f"{name} v {_label(up)}", plays=plays,
    )  # fmt: skip


def generate_insurance_index(
    profile: BlackjackRules,
    system: CountingSystem,
    *,
    rounds: int,
    seed: int,
    estimation: str = "half-deck",
    strategy: BlackjackStrategy | None = None,
) -> GeneratedIndex:
    """The true count from which insuring (``insurance_max`` aside: per unit insured) is worth
    more than declining; the differences by count are per unit insured.

    >>> from croupier.rules import load_profile
    >>> from croupier.counting import load_counting_system
    >>> found = generate_insurance_index(load_profile("peru-2016"),
    ...     load_counting_system("hi-lo"), rounds=100_000, seed=1)
    >>> found.cell, found.plays, found.probes > 5000
    ('insurance', ('insure', 'decline'), True)
    """
    return _generate(
        profile, system, rounds, seed, estimation, strategy,
        cell=None, name="insurance", plays=("insure", "decline"),
    )  # fmt: skip


def _generate(  # noqa: PLR0917 - the two entry points' arguments
    profile: BlackjackRules,
    system: CountingSystem,
    rounds: int,
    seed: int,
    estimation: str,
    strategy: BlackjackStrategy | None,
    *,
    cell: tuple[int, int, int, int, int] | None,
    name: str,
    plays: tuple[str, str],
) -> GeneratedIndex:
    """Probe ``cell`` (kind, total or pair card, up card, the two play codes), or insurance
    when ``None``."""
    if estimation not in ESTIMATIONS:
        raise ValueError(f"deck estimation {estimation!r}")
    chart = strategy or BlackjackStrategy.basic(profile)
    counting = Counting(system=system, estimation=estimation, horizon=0)
    p = parameters(profile, chart, counting)
    tables = chart_tables(chart, None)
    sums = np.zeros((TC_BINS, 3), dtype=np.int64)
    counts = np.zeros(TC_BINS)
    state = np.random.SeedSequence(seed).generate_state(4, np.uint64)
    kind, total, up, play_a, play_b = cell if cell is not None else (HARD, 0, 0, -1, -1)
    _probe(
        p, state, rounds, tables.hard[1], tables.soft[1], tag_array(counting), kind, total,
        up, play_a, play_b, cell is None, sums, counts,
    )  # fmt: skip
    # Hands' nets are in half stakes (a surrender's half); insurance's in 1 / denominator of
    # the unit insured.
    scale = 2 if cell is not None else int(p[kernel.P_DENOMINATOR])
    rows = []
    xs, ys, ws, ns = [], [], [], []
    for b, (n, total, squares) in enumerate(sums.tolist()):
        if n < 30:
            continue
        mean = total / n / scale
        var = max(squares / n / scale**2 - mean * mean, 1e-9)
        tc = b + TC_LOW
        centre = float(counts[b]) / n
        rows.append(
            {"true_count": tc, "mean_true_count": centre, "probes": n, "difference": mean,
             "sd": math.sqrt(var)}
        )  # fmt: skip
        if TC_LOW < tc < TC_LOW + TC_BINS - 1:
            xs.append(centre)
            ys.append(mean)
            ws.append(n / var)
            ns.append(n)
    index, error = _crossing(
        np.array(xs, dtype=np.float64), np.array(ys), np.array(ws), np.array(ns)
    )
    return GeneratedIndex(name, plays, index, error, int(sums[:, 0].sum()), rows)
