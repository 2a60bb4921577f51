"""R3's full figures and the cost of the live source.

Prints the chi-square p-values of R3 at full size (10^6 52-card shuffles and 10^5 8-deck
shoes from the OS source; n! tables for n = 3..6), the naive shuffle's p-value at 2,000
shuffles, and the speed of the live source as a ratio to the seeded SHA-256 source measured
in the same run.

    uv run python benchmarks/shuffle.py [--scale 0.1]
"""

from __future__ import annotations

import argparse
import math
import time

from rich.console import Console
from rich.progress import track
from rich.table import Table

from croupier.randomness import SeededRandomSource, SystemRandomSource, shuffle_in_place
from croupier.simulation.uniformity import (
    naive_shuffle,
    permutation_p_value,
    position_card_p_value,
)


def shuffles_per_second(source: SeededRandomSource | SystemRandomSource, count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        deck = list(range(52))
        shuffle_in_place(deck, source)
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full sizes")
    scale = parser.parse_args().scale
    live = SystemRandomSource()
    checks = [
        ("position x card, 52 cards", lambda n: position_card_p_value(shuffle_in_place, live, 52, 1, n), 1_000_000),
        ("position x card, 8-deck shoe", lambda n: position_card_p_value(shuffle_in_place, live, 52, 8, n), 100_000),
    ] + [
        (f"all orders, n = {k}", lambda n, k=k: permutation_p_value(shuffle_in_place, live, k, n), 1000 * math.factorial(k))
        for k in range(3, 7)
    ]  # fmt: skip
    table = Table("R3 check", "shuffles", "p-value", "pass (p >= 0.01)")
    for name, measure, full in track(checks, description="chi-square"):
        trials = max(1000, int(full * scale))
        p_value = measure(trials)
        table.add_row(name, f"{trials:,}", f"{p_value:.4f}", "yes" if p_value >= 0.01 else "NO")
    naive = SeededRandomSource(b"naive")
    table.add_row(
        "naive shuffle, 52 cards (must fail)",
        "2,000",
        f"{position_card_p_value(naive_shuffle, naive, 52, 1, 2000):.2e}",
        "caught",
    )
    console = Console()
    console.print(table)
    seeded_rate = shuffles_per_second(SeededRandomSource(b"speed"), 20_000)
    live_rate = shuffles_per_second(live, 20_000)
    console.print(
        f"52-card shuffles/s: live source {live_rate:,.0f}, seeded source {seeded_rate:,.0f}; "
        f"live/seeded = {live_rate / seeded_rate:.2f}"
    )


if __name__ == "__main__":
    main()
