"""What a block of simulated rounds adds up to, and the figures it gives.

Every game's kernel returns a ``Tally`` for the rounds it dealt: per wager, how many rounds
the wager was in play, the sum and the sum of squares of its net result, and how many times it
returned more than its stake; and the same sums for the round's total over all wagers. Nets
are integers in units of ``1 / denominator`` of a table unit (a Banker win with 6 pays 1:2,
so baccarat counts in halves), so that blocks add up exactly whatever their number or order:
the same seed gives the same figures on one worker or on twenty.

Figures are per round, in table units per unit staked on the wager (the simulator stakes one
unit on each wager it plays), with a 95% interval from the normal approximation.

>>> a = Tally.empty(("main",), denominator=2)
>>> a = a.add_round(np.array([2], dtype=np.int64), hands=1, played=np.array([True]))
>>> a = a.add_round(np.array([-2], dtype=np.int64), hands=1, played=np.array([True]))
>>> a.figures()["main"]["ev_per_round"], a.figures()["main"]["hit_frequency"]
(0.0, 0.5)
>>> (a + a).rounds
4
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Tally:
    """Exact integer sums over a block of rounds (nets in ``1 / denominator`` units)."""

    wagers: tuple[str, ...]
    denominator: int
    rounds: int
    hands: int
    """Each box's round counted once (a split round is one hand)."""
    played: IntArray
    """Per wager: rounds in which it was staked."""
    net: IntArray
    net_squared: IntArray
    hits: IntArray
    """Per wager: rounds in which it returned more than its stake."""
    total_net: int
    total_net_squared: int

    @classmethod
    def empty(cls, wagers: tuple[str, ...], denominator: int = 1) -> Tally:
        zeros = np.zeros(len(wagers), dtype=np.int64)
        return cls(wagers, denominator, 0, 0, zeros, zeros, zeros, zeros, 0, 0)

    @classmethod
    def from_sums(
        cls,
        wagers: tuple[str, ...],
        denominator: int,
        *,
        rounds: int,
        hands: int,
        sums: IntArray,
        total_net: int,
        total_net_squared: int,
    ) -> Tally:
        """From a kernel's ``(4, wagers)`` array: rows played, net, net squared, hits."""
        played, net, net_squared, hits = (np.asarray(row, dtype=np.int64).copy() for row in sums)
        return cls(
            wagers, denominator, rounds, hands, played, net, net_squared, hits,
            int(total_net), int(total_net_squared),
        )  # fmt: skip

    def add_round(self, nets: IntArray, *, hands: int, played: npt.NDArray[np.bool_]) -> Tally:
        """One more round (a slow path for tests and the reference engine)."""
        nets = np.where(played, nets, 0).astype(np.int64)
        total = int(nets.sum())
        return Tally(
            self.wagers,
            self.denominator,
            self.rounds + 1,
            self.hands + hands,
            self.played + played.astype(np.int64),
            self.net + nets,
            self.net_squared + nets * nets,
            self.hits + (nets > 0).astype(np.int64),
            self.total_net + total,
            self.total_net_squared + total * total,
        )

    def __add__(self, other: Tally) -> Tally:
        if (self.wagers, self.denominator) != (other.wagers, other.denominator):
            raise ValueError(
                f"cannot add a tally of {other.wagers} in 1/{other.denominator} units "
                f"to one of {self.wagers} in 1/{self.denominator} units"
            )
        return Tally(
            self.wagers,
            self.denominator,
            self.rounds + other.rounds,
            self.hands + other.hands,
            self.played + other.played,
            self.net + other.net,
            self.net_squared + other.net_squared,
            self.hits + other.hits,
            self.total_net + other.total_net,
            self.total_net_squared + other.total_net_squared,
        )

    def _moments(self, net: int, net_squared: int) -> dict[str, Any]:
        n = self.rounds
        unit = self.denominator
        mean = net / unit / n if n else 0.0
        variance = max(net_squared / (unit * unit) / n - mean * mean, 0.0) if n else 0.0
        sd = math.sqrt(variance)
        half = Z95 * sd / math.sqrt(n) if n else 0.0
        return {"ev_per_round": mean, "ci95": [mean - half, mean + half], "sd": sd}

    def figures(self) -> dict[str, dict[str, Any]]:
        """Per wager, per round: ``ev_per_round``, ``ci95``, ``sd``, ``hit_frequency``."""
        result = {}
        for i, wager in enumerate(self.wagers):
            moments = self._moments(int(self.net[i]), int(self.net_squared[i]))
            moments["hit_frequency"] = int(self.hits[i]) / self.rounds if self.rounds else 0.0
            moments["rounds_played"] = int(self.played[i])
            result[wager] = moments
        return result

    def total(self) -> dict[str, Any]:
        """The round's whole net over every wager: ``ev_per_round``, ``ci95``, ``sd``."""
        return self._moments(self.total_net, self.total_net_squared)
