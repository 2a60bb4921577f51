"""What is reported for one wager: its outcome distribution and the figures derived from it.

The distribution maps the net result per unit initially wagered (``+11`` for a pair paid 11:1,
``-1`` for a lost stake, ``0`` for a push) to its probability. Every figure follows from it:

- house edge: the expected loss per unit initially wagered, ``-E[net]``;
- hit frequency: the probability that the wager returns more than its stake, ``P(net > 0)``;
- push: ``P(net == 0)``; standard deviation: of ``net``, per initial unit.

>>> from fractions import Fraction as F
>>> coin = WagerFigures.exact("even", {F(1): F(1, 2), F(-1): F(1, 2)})
>>> coin.house_edge, coin.hit_frequency, coin.push, coin.std_dev
(0.0, 0.5, 0.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """One line of a wager's paytable as dealt: what happened, its net result per initial
    unit and its exact probability (several lines may share a net: a PAR sheet lists each)."""

    label: str
    net: Fraction
    probability: Fraction


@dataclass(frozen=True)
class WagerFigures:
    """The figures of one wager. ``exact_*`` are set where the math is exact in fractions."""

    name: str
    distribution: Mapping[Fraction, float]
    """Net result per initial unit -> probability (floats; exact ones in ``exact_distribution``)."""
    exact_distribution: Mapping[Fraction, Fraction] | None = None
    element_of_risk: float | None = None
    """Expected loss per unit of all money wagered (doubles and splits included)."""
    method: str = "exact enumeration of the finite shoe"
    standard_error: float | None = None
    """Set only for a Monte Carlo estimate: the standard error of its house edge."""
    approximation: str | None = None
    """What is approximated, if anything (blackjack: split hands)."""
    notes: tuple[str, ...] = field(default=())
    fold_frequency: Fraction | None = None
    """Where the player may fold (Casino Hold'em): how often the optimal player does."""
    outcomes: tuple[Outcome, ...] = field(default=())
    """The paytable's lines with their exact probabilities, where the analysis names them
    (``distribution`` merges lines that pay the same); empty where it does not (blackjack's
    main wager, whose results combine hands)."""
    exact_expected_value: float | None = None
    """The expected net where it is computed exactly apart from a distribution that is
    approximated (blackjack: the split rounds); the house edge is then its negative."""

    @classmethod
    def exact(
        cls, name: str, distribution: Mapping[Fraction, Fraction], **extra: Any
    ) -> WagerFigures:
        cleaned = {net: p for net, p in sorted(distribution.items()) if p != 0}
        return cls(
            name=name,
            distribution={net: float(p) for net, p in cleaned.items()},
            exact_distribution=cleaned,
            **extra,
        )

    @property
    def exact_house_edge(self) -> Fraction | None:
        if self.exact_distribution is None:
            return None
        return -sum((net * p for net, p in self.exact_distribution.items()), Fraction(0))

    @property
    def expected_value(self) -> float:
        if self.exact_distribution is not None:
            return -float(self.exact_house_edge or 0)
        if self.exact_expected_value is not None:
            return self.exact_expected_value
        return self._distribution_mean

    @property
    def house_edge(self) -> float:
        return -self.expected_value

    @property
    def hit_frequency(self) -> float:
        return math.fsum(p for net, p in self.distribution.items() if net > 0)

    @property
    def push(self) -> float:
        return math.fsum(p for net, p in self.distribution.items() if net == 0)

    @property
    def loss_frequency(self) -> float:
        return math.fsum(p for net, p in self.distribution.items() if net < 0)

    @property
    def total_probability(self) -> float:
        return math.fsum(self.distribution.values())

    @property
    def _distribution_mean(self) -> float:
        return math.fsum(float(net) * p for net, p in self.distribution.items())

    @property
    def std_dev(self) -> float:
        mean = self.expected_value if self.exact_expected_value is None else self._distribution_mean
        variance = math.fsum(p * (float(net) - mean) ** 2 for net, p in self.distribution.items())
        return math.sqrt(max(variance, 0.0))

    def as_json(self, *, with_distribution: bool = True) -> dict[str, Any]:
        """The fixed JSON contract: fractions of a unit, never percent."""
        result: dict[str, Any] = {
            "house_edge": self.house_edge,
            "hit_frequency": self.hit_frequency,
            "push": self.push,
            "std_dev": self.std_dev,
        }
        if self.exact_house_edge is not None:
            result["house_edge_exact"] = str(self.exact_house_edge)
        if self.element_of_risk is not None:
            result["element_of_risk"] = self.element_of_risk
        if self.fold_frequency is not None:
            result["fold_frequency"] = float(self.fold_frequency)
            result["fold_frequency_exact"] = str(self.fold_frequency)
        result["method"] = self.method
        result["exact"] = self.standard_error is None and self.approximation is None
        if self.approximation is not None:
            result["approximation"] = self.approximation
        if self.standard_error is not None:
            result["monte_carlo"] = True
            result["standard_error"] = self.standard_error
        if with_distribution:
            result["distribution"] = {
                _net_key(net): p for net, p in sorted(self.distribution.items())
            }
        if self.notes:
            result["notes"] = list(self.notes)
        return result


def _net_key(net: Fraction) -> str:
    """A net result as a JSON key: ``"11"``, ``"-1"``, ``"1.5"``, ``"-0.5"``."""
    if net.denominator == 1:
        return str(net.numerator)
    return repr(float(net))
