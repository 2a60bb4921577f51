"""The chart's action codes and the values by total compiled (numba), for
``croupier.analysis.blackjack``.

- The codes a chart column is written in (``blackjack._kernel_chart``) and that
  ``blackjack_exact.chart_split_play`` reads: ``HIT``, ``STAND``, ``DOUBLE`` (double, else
  hit), ``DOUBLE_ELSE_STAND`` and ``SPLIT``.
- Values by total over a fixed draw (``total_values``): the basic strategy's rows that no
  two-card hand reaches (``blackjack._total_values``).

The round itself is valued by composition in ``blackjack_exact``. The compiled recursion by
card sequence that valued it here before (``evaluate_up``) was removed once the composition
recursion replaced it: it is kept, as the previous implementation, at the commit
``benchmarks/analyze.py`` times against (``PREVIOUS``), and what it cross-checked is now held
to brute forces directly (``tests/unit/analysis/test_blackjack_round_brute_force.py``, the
split brute force in ``test_blackjack_exact``) and to the simulator.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.dealer import ACE, BLACKJACK, BUST

HIT = 0
STAND = 1
DOUBLE = 2
DOUBLE_ELSE_STAND = 3
SPLIT = -2

# --------------------------------------------------------------------------------------------
# Values by total (the basic strategy's derivation, ``blackjack._total_values``).
# --------------------------------------------------------------------------------------------

TOTALS = 32
"""Totals are indexed 0..31 (a hard 21 drawing a ten makes 31)."""


@numba.njit(cache=True, nogil=True)
def stand_value(  # noqa: PLR0917
    total: int,
    bet: float,
    original: float,
    dealer: npt.NDArray[np.float64],
    peek: bool,
    all_bets_lost: bool,
) -> float:
    """A hand of ``total`` standing (busted above 21) with ``bet`` on it: its expected net."""
    if peek:
        world_stand = -original
        world_bust = -original
    else:
        world_stand = -bet if all_bets_lost else -original
        world_bust = -bet
    if total > 21:
        blackjack: float = dealer[BLACKJACK]
        return (1 - blackjack) * -bet + blackjack * world_bust
    value: float = dealer[BUST] * bet + dealer[BLACKJACK] * world_stand
    for index in range(5):
        final = 17 + index
        if total > final:
            value += dealer[index] * bet
        elif total < final:
            value -= dealer[index] * bet
    return value


@numba.njit(cache=True, nogil=True)
def after(total: int, soft: bool, rank: int) -> tuple[int, bool]:
    """The total after drawing ``rank`` (0 = Ace) onto a hand of ``total`` (soft or hard)."""
    value = rank + 1
    if soft:
        new = total + value
        if new <= 21:
            return new, True
        return new - 10, False
    if rank == ACE and total + 11 <= 21:
        return total + 11, True
    return total + value, False


@numba.njit(cache=True, nogil=True)
def total_values(
    draw: npt.NDArray[np.float64],
    dealer: npt.NDArray[np.float64],
    original: float,
    peek: bool,
    all_bets_lost: bool,
) -> npt.NDArray[np.float64]:
    """Stand, hit, double and best (hit or stand) values by ``[what, total, soft]``, each
    total's hit value over the best values of the totals it can reach (``draw`` is the
    chance of each rank). Totals visited: hard 21 down to 11, soft 21 to 12, hard 10 to 4."""
    single = np.zeros(TOTALS)
    doubled = np.zeros(TOTALS)
    for total in range(4, TOTALS):
        single[total] = stand_value(total, 1.0, original, dealer, peek, all_bets_lost)
        doubled[total] = stand_value(total, 2.0, original, dealer, peek, all_bets_lost)
    values = np.zeros((4, TOTALS, 2))
    for phase in range(3):
        if phase == 0:
            start, stop, soft = 21, 10, False
        elif phase == 1:
            start, stop, soft = 21, 11, True
        else:
            start, stop, soft = 10, 3, False
        for total in range(start, stop, -1):
            stand = single[total]
            hit = 0.0
            double = 0.0
            for rank in range(10):
                p = draw[rank]
                new_total, new_soft = after(total, soft, rank)
                if new_total > 21:
                    hit += p * single[new_total]
                else:
                    hit += p * values[3, new_total, 1 if new_soft else 0]
                double += p * doubled[new_total]
            column = 1 if soft else 0
            values[0, total, column] = stand
            values[1, total, column] = hit
            values[2, total, column] = double
            # max(hit, stand) as Python takes it: the first unless the second is larger.
            values[3, total, column] = stand if stand > hit else hit
    return values
