"""How fast croupier's poker evaluator is, against phevaluator measured in the same run.

Run: ``uv run python benchmarks/poker_evaluator.py [hands]``. Prints hands per second for

* ours, compiled, in batch (``evaluate_many``, one core; and ``strengths_of_parallel``),
* phevaluator's ``evaluate_cards`` (C, called once per hand from Python) on the same hands,
* ours through the Python API, one call per hand (``evaluate`` and ``strength``),

and every figure as a ratio against phevaluator's ``evaluate_cards``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from phevaluator import evaluate_cards

from croupier.cards import Card
from croupier.hands.poker import evaluate, evaluate_many, strength, strengths_of_parallel


def per_second(
    count: int,
    run: Callable[[], object],
    repeats: int = 3,
    clock: Callable[[], float] = time.process_time,
) -> float:
    """The best of ``repeats`` runs. CPU time by default, so that other work on a shared
    machine weighs less; wall time for the multi-threaded kernel (CPU time would add up
    its threads)."""
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        run()
        best = min(best, clock() - start)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hands", type=int, nargs="?", default=1_000_000, help="7-card hands")
    count = parser.parse_args().hands
    generator = np.random.default_rng(2007)  # benchmark input only, never a deal
    hands = np.argsort(generator.random((count, 52)), axis=1)[:, :7].astype(np.int64)
    ids = ((hands & ~3) | (3 - (hands & 3))).tolist()  # phevaluator's suit order is c d h s
    evaluate_many(hands[:10])  # compile outside the timing
    strengths_of_parallel(hands[:10])

    ours_batch = per_second(count, lambda: evaluate_many(hands))
    ours_parallel = per_second(count, lambda: strengths_of_parallel(hands), clock=time.perf_counter)
    theirs = per_second(count, lambda: [evaluate_cards(*row) for row in ids])
    few = min(count, 100_000)
    card_rows = [[Card.from_index(i) for i in row] for row in hands[:few].tolist()]
    ours_strength = per_second(few, lambda: [strength(row) for row in card_rows])
    ours_evaluate = per_second(few, lambda: [evaluate(row) for row in card_rows])

    print(f"{count:,} random 7-card hands; reference: phevaluator.evaluate_cards (C, per call)")
    rows = [
        ("phevaluator evaluate_cards (per call)", theirs),
        ("croupier evaluate_many (batch, 1 core)", ours_batch),
        ("croupier strengths_of_parallel (batch, all cores)", ours_parallel),
        ("croupier strength() (Python API, per call)", ours_strength),
        ("croupier evaluate() (Python API, per call)", ours_evaluate),
    ]
    for name, rate in rows:
        print(f"{name:<52} {rate:>14,.0f} hands/s  {rate / theirs:8.2f}x")


if __name__ == "__main__":
    main()
