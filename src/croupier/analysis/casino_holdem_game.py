"""The Ante + Bet game of Casino Hold'em, exact: the optimal call/fold decision's figures, from
the exact table of every deal (``casino_holdem_exact``), and the short strategy a person can
follow, valued on the same table (``casino_holdem_strategy``). Above both, which it joins."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from croupier.analysis.casino_holdem_exact import (
    DEALS,
    bin_labels,
    bin_values,
    decide,
    load_or_compute_table,
    qualifier_threshold,
)
from croupier.analysis.casino_holdem_strategy import ShortStrategy, analyse_short_strategy
from croupier.analysis.figures import Outcome, WagerFigures
from croupier.rules.casino_holdem import CasinoHoldemRules


@dataclass(frozen=True)
class AnteGame:
    """The exact Ante + Bet game: its figures and the optimal strategy's fold frequency."""

    figures: WagerFigures
    fold_frequency: Fraction
    call_frequency: Fraction
    seconds: float
    """Wall time of this analysis (table from the cache or computed, plus the decision)."""
    table_was_cached: bool
    short_strategy: ShortStrategy | None = None
    """The few rules a person can follow, valued exactly on the same table
    (``croupier.analysis.casino_holdem_strategy``)."""


def analyse_ante_game(
    rules: CasinoHoldemRules, progress: Callable[[int, int], None] | None = None
) -> AnteGame:
    """The Ante + Bet game per initial Ante, exact, under the optimal call/fold decision."""
    began = time.perf_counter()
    table, cached = load_or_compute_table(qualifier_threshold(rules), progress)
    values = bin_values(rules)
    calls, counts, folds = decide(table, values)
    if sum(counts) + folds != DEALS:
        raise AssertionError("the completions do not add up to every deal")  # pragma: no cover
    distribution: dict[Fraction, Fraction] = {Fraction(-1): Fraction(folds, DEALS)}
    outcomes = [Outcome("fold", Fraction(-1), Fraction(folds, DEALS))]
    for label, value, count in zip(bin_labels(), values, counts, strict=True):
        distribution[value] = distribution.get(value, Fraction(0)) + Fraction(count, DEALS)
        if count:
            outcomes.append(Outcome(label, value, Fraction(count, DEALS)))
    fold_frequency = Fraction(folds, DEALS)
    call_frequency = 1 - fold_frequency
    expected = sum((net * p for net, p in distribution.items()), Fraction(0))
    average_wager = 1 + rules.call_multiple * call_frequency
    element_of_risk = -expected / average_wager
    figures = WagerFigures.exact(
        "ante",
        distribution,
        element_of_risk=float(element_of_risk),
        fold_frequency=fold_frequency,
        method=(
            "exact enumeration of every flop (1,755 suit classes), turn, river and dealer "
            "hand, optimal call/fold"
        ),
        notes=(
            f"fold frequency: {float(fold_frequency):.6f} (exactly {fold_frequency})",
            f"element of risk: {float(element_of_risk):.6f} (exactly {element_of_risk})",
        ),
        outcomes=tuple(outcomes),
    )
    short = analyse_short_strategy(rules, calls, -expected, table)
    return AnteGame(
        figures,
        fold_frequency,
        call_frequency,
        time.perf_counter() - began,
        cached,
        short,
    )
