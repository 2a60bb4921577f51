"""The counter's figures from a ``BlackjackTally``: win rate, SD, SCORE, N0, DI, risk of ruin.

The counter's game is the main bet and insurance at the ramp's bet (21+3, where the
profile has it, stays one flat unit and is not part of these figures).

Definitions (Don Schlesinger, Blackjack Attack, 3rd ed., 2005, ch. 10), per box-round, in
units of the ramp's smallest bet (1), ``ev`` and ``sd`` of the bet-weighted result:

- win rate per 100 rounds ``100 ev``, its SD ``10 sd``;
- DI (desirability index) ``1000 ev / sd``;
- SCORE ``10**6 (ev / sd)**2`` (the win per 100 rounds of an optimal bettor with a 10,000
  unit bankroll; ``DI**2``);
- N0 ``(sd / ev)**2``: the rounds after which the expected win equals one SD.

Risk of ruin for a bankroll ``B`` (units), side by side:

- simulated: the share of sessions of ``horizon`` rounds (consecutive rounds of the
  simulation, each session starting afresh with ``B``) whose bankroll touched ``-B``;
- the usual formula, a Brownian motion with the same drift and variance: over the same
  horizon ``T``, ``Phi((-B - ev T) / (sd sqrt T)) + exp(-2 ev B / sd**2) Phi((-B + ev T) /
  (sd sqrt T))``, and without end ``exp(-2 ev B / sd**2)`` (1 when ``ev <= 0``).

>>> risk_of_ruin_formula(0.01, 1.2, 100.0, None) < risk_of_ruin_formula(0.01, 1.2, 50.0, None)
True
>>> round(risk_of_ruin_formula(0.0, 1.0, 10.0, 100), 4)  # no drift: 2 Phi(-B / (sd sqrt T))
0.3173
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from croupier.simulation.blackjack_sim import TC_LOW, BlackjackTally, Counting
from croupier.simulation.tally import Z95


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def risk_of_ruin_formula(ev: float, sd: float, bankroll: float, horizon: int | None) -> float:
    """The chance that a bankroll of ``bankroll`` units is lost (see the module docstring)."""
    if sd <= 0:
        return 0.0 if ev >= 0 else 1.0
    exponent = -2.0 * ev * bankroll / (sd * sd)
    if horizon is None:
        return 1.0 if ev <= 0 else math.exp(exponent)
    spread = sd * math.sqrt(horizon)
    drift = ev * horizon
    first = _phi((-bankroll - drift) / spread)
    second = _phi((-bankroll + drift) / spread)
    if exponent > 700:  # a losing game: exp overflows while Phi vanishes
        return 1.0
    return min(1.0, first + math.exp(exponent) * second)


def counter_moments(tally: BlackjackTally) -> tuple[float, float]:
    """The bet-weighted result per box-round: mean and SD, in units."""
    sums = tally.counting
    assert sums is not None
    n = tally.rounds
    unit = tally.denominator
    mean = sums.bet_net / unit / n
    variance = max(sums.bet_net_squared / (unit * unit) / n - mean * mean, 0.0)
    return mean, math.sqrt(variance)


def counting_json(counting: Counting, tally: BlackjackTally) -> dict[str, Any]:
    sums = tally.counting
    assert sums is not None
    ev, sd = counter_moments(tally)
    n = tally.rounds
    unit = tally.denominator
    half = Z95 * sd / math.sqrt(n)
    by_count = []
    for index, (rounds, net, net_squared) in enumerate(sums.by_count.tolist()):
        if rounds == 0:
            continue
        mean = net / unit / rounds
        var = max(net_squared / (unit * unit) / rounds - mean * mean, 0.0)
        width = Z95 * math.sqrt(var / rounds)
        by_count.append(
            {
                "true_count": index + TC_LOW,
                "frequency": rounds / n,
                "rounds": rounds,
                "ev_per_round": mean,
                "ci95": [mean - width, mean + width],
                "sd": math.sqrt(var),
            }
        )
    system = counting.system
    indices = counting.indices
    average_bet = sums.bet / n
    return {
        "system": system.name,
        "title": system.title,
        "tags": {label: float(tag) for label, tag in zip("A23456789T", system.tags, strict=True)},
        "balanced": system.balanced,
        "source": system.source,
        "deck_estimation": counting.estimation,
        "ramp": [[float(count), units] for count, units in counting.ramp],
        "wong_in": counting.wong_in,
        "wong_out": counting.wong_out,
        "indices": None if indices is None else indices.name,
        "indices_source": None if indices is None else indices.source,
        "insurance_at": None
        if indices is None or indices.insurance is None
        else float(indices.insurance),
        "rounds_bet": sums.rounds_played,
        "average_bet": average_bet,
        "ev_per_round": ev,
        "ci95": [ev - half, ev + half],
        "sd_per_round": sd,
        "ev_per_unit_bet": sums.bet_net / unit / sums.bet if sums.bet else None,
        "win_rate_per_100": 100 * ev,
        "sd_per_100": 10 * sd,
        "di": 1000 * ev / sd if sd > 0 else None,
        "score": 1e6 * (ev / sd) ** 2 if sd > 0 and ev > 0 else 0.0,
        "n0": (sd / ev) ** 2 if ev > 0 else None,
        "by_true_count": by_count,
    }


def ruin_by_bankroll(
    tally: BlackjackTally, horizon: int, bankrolls: list[float]
) -> list[dict[str, Any]]:
    """For each bankroll: simulated risk over sessions of ``horizon`` rounds and the
    formula's, finite and without end."""
    sums = tally.counting
    assert sums is not None
    ev, sd = counter_moments(tally)
    lows = sums.segment_low / tally.denominator
    sessions = lows.size
    rows = []
    for bankroll in bankrolls:
        ruined = int(np.count_nonzero(lows <= -bankroll)) if sessions else 0
        share = ruined / sessions if sessions else None
        width = (
            Z95 * math.sqrt(max(share * (1 - share), 1e-12) / sessions)
            if share is not None
            else None
        )
        rows.append(
            {
                "bankroll": bankroll,
                "simulated": share,
                "simulated_ci95": None
                if share is None or width is None
                else [max(share - width, 0.0), min(share + width, 1.0)],
                "formula": risk_of_ruin_formula(ev, sd, bankroll, horizon),
                "formula_without_end": risk_of_ruin_formula(ev, sd, bankroll, None),
            }
        )
    return rows


def risk_json(
    counting: Counting, tally: BlackjackTally, bankroll: float | None
) -> dict[str, Any] | None:
    if bankroll is None:
        return None
    sums = tally.counting
    assert sums is not None
    row = ruin_by_bankroll(tally, counting.horizon, [bankroll])[0]
    return {
        "bankroll": bankroll,
        "horizon_rounds": counting.horizon,
        "sessions": int(sums.segment_low.size),
        "risk_of_ruin_simulated": row["simulated"],
        "risk_of_ruin_simulated_ci95": row["simulated_ci95"],
        "risk_of_ruin_formula": row["formula"],
        "risk_of_ruin_formula_without_end": row["formula_without_end"],
        "method": (
            "simulated: share of sessions of horizon_rounds consecutive rounds whose bankroll "
            "touched -bankroll; formula: Brownian motion with the simulated drift and variance "
            "per round, over the same horizon and without end"
        ),
    }
