"""``croupier analyze`` timings per profile (after compilation), as ratios against a
straightforward pure-Python reference measured in the same run.

- Baccarat: the compiled enumeration against a pure-Python recursive enumeration of the same
  shoe (same order of loops, same exact integer counts; the results are compared too).
- Blackjack: the whole analysis (strategy + round value) against the time a pure-Python
  dealer-probability recursion would take for the dealer computations the analysis makes:
  each up card's pure-Python time is measured once on the full shoe and multiplied by the
  number of dealer computations the analysis made for that up card (counted in this run).
  This scales only the dealer part; the player recursion (already Python) is not counted in
  the reference, so the ratio understates the speed-up.

Run: ``uv run python benchmarks/analyze.py``
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

import croupier.analysis.blackjack as blackjack_module
from croupier.analysis.baccarat import RANK_VALUE, deal_counts
from croupier.analysis.blackjack import analyse_blackjack
from croupier.analysis.dealer import full_shoe
from croupier.analysis.profile_analysis import analyse_profile
from croupier.rules import load_profile, shipped_profile_names
from croupier.rules.baccarat import PairBy


def best_of(function: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


# --- pure-Python references --------------------------------------------------------------


def python_baccarat(decks: int) -> dict[tuple[int, int], int]:
    counts = [4 * decks] * 13
    values = [int(v) for v in RANK_VALUE]
    n = 52 * decks
    result: Counter[tuple[int, int]] = Counter()

    def banker_draws(banker: int, third: int) -> bool:
        return (
            banker <= 2
            or (banker == 3 and third != 8)
            or (banker == 4 and 2 <= third <= 7)
            or (banker == 5 and 4 <= third <= 7)
            or (banker == 6 and 6 <= third <= 7)
        )

    def deal(cards: list[int], weight: int) -> None:
        if len(cards) < 4:
            for rank in range(13):
                if counts[rank]:
                    w = weight * counts[rank]
                    counts[rank] -= 1
                    deal([*cards, rank], w)
                    counts[rank] += 1
            return
        player = (values[cards[0]] + values[cards[2]]) % 10
        banker = (values[cards[1]] + values[cards[3]]) % 10
        left = n - 4
        if player >= 8 or banker >= 8 or (player >= 6 and banker >= 6):
            result[(player, banker)] += weight * left * (left - 1)
            return
        by_value = [0] * 10
        for rank in range(13):
            by_value[values[rank]] += counts[rank]
        if player >= 6:
            for v in range(10):
                result[(player, (banker + v) % 10)] += weight * by_value[v] * (left - 1)
            return
        for v in range(10):
            if not by_value[v]:
                continue
            w = weight * by_value[v]
            by_value[v] -= 1
            final = (player + v) % 10
            if banker_draws(banker, v):
                for u in range(10):
                    result[(final, (banker + u) % 10)] += w * by_value[u]
            else:
                result[(final, banker)] += w * (left - 1)
            by_value[v] += 1

    deal([], 1)
    return dict(result)


def python_dealer(counts: list[int], up: int, hits_soft_17: bool) -> list[float]:
    out = [0.0] * 7

    def draw(remaining: int, hard: int, ace: bool, probability: float, first: bool) -> None:
        for rank in range(10):
            if not counts[rank]:
                continue
            p = probability * counts[rank] / remaining
            if first and ((up == 0 and rank == 9) or (up == 9 and rank == 0)):
                out[6] += p
                continue
            new_hard = hard + rank + 1
            new_ace = ace or rank == 0
            soft = new_ace and new_hard + 10 <= 21
            total = new_hard + 10 if soft else new_hard
            if total > 21:
                out[5] += p
            elif total >= 17 and not (total == 17 and soft and hits_soft_17):
                out[total - 17] += p
            else:
                counts[rank] -= 1
                draw(remaining - 1, new_hard, new_ace, p, False)
                counts[rank] += 1

    draw(sum(counts), up + 1, up == 0, 1.0, True)
    return out


def main() -> None:
    print("croupier analyze: compiled time per profile vs a pure-Python reference (same run)\n")
    for name in shipped_profile_names():
        analyse_profile(load_profile(name))  # compile and warm caches

    # Baccarat.
    for decks in (8,):
        compiled = best_of(lambda decks=decks: deal_counts(decks, PairBy.RANK))
        start = time.perf_counter()
        reference = python_baccarat(decks)
        python_time = time.perf_counter() - start
        counts, _ = deal_counts(decks, PairBy.RANK)
        same = all(
            int(counts[p, b].sum()) == reference.get((p, b), 0)
            for p in range(10)
            for b in range(10)
        )
        print(
            f"baccarat kernel, {decks} decks: {compiled * 1e3:.1f} ms compiled, "
            f"{python_time:.2f} s pure Python: x{python_time / compiled:,.0f} "
            f"(identical counts: {same})"
        )

    # Blackjack dealer recursion, per up card, on the full shoe minus the up card.
    python_per_up: dict[int, float] = {}
    for up in range(10):
        counts = [int(c) for c in full_shoe(6)]
        counts[up] -= 1
        start = time.perf_counter()
        python_dealer(counts, up, False)
        python_per_up[up] = time.perf_counter() - start

    for name in shipped_profile_names():
        profile = load_profile(name)
        whole = best_of(lambda profile=profile: analyse_profile(profile), repeat=3)
        line = f"{name:<26} analyze: {whole * 1e3:8.1f} ms"
        if profile.game == "blackjack":
            calls: Counter[int] = Counter()
            original = blackjack_module.dealer_outcomes

            def counting(
                counts: np.ndarray,
                up: int,
                h17: bool,
                original: Any = original,
                calls: Counter[int] = calls,
            ) -> Any:
                calls[int(up)] += 1
                return original(counts, up, h17)

            blackjack_module.dealer_outcomes = counting  # type: ignore[assignment]
            try:
                analyse_blackjack(profile)  # type: ignore[arg-type]
            finally:
                blackjack_module.dealer_outcomes = original
            reference = sum(python_per_up[up] * count for up, count in calls.items())
            line += (
                f"; {sum(calls.values()):,} dealer computations would take {reference:.1f} s "
                f"in pure Python: x{reference / whole:,.1f}"
            )
        print(line)
    print(
        "\n(one core of this machine; blackjack times include the Python player recursion; "
        f"median of per-up pure-Python dealer times: {statistics.median(python_per_up.values()) * 1e3:.1f} ms)"
    )


if __name__ == "__main__":
    main()
