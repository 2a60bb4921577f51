"""The exact Casino Hold'em Ante + Bet game: the first enumeration and a changed paytable,
as ratios against references measured in the same run.

- First computation: ``analyse_ante_game`` with an empty cache (every flop class on every
  core, the table written to disk), then a designer's paytable (flush 3:1) that reuses it.
- The previous implementation (``casino_holdem_previous.py``: no suit symmetry within a
  flop, a comparison sort per board), every flop class on every core in the same chunks, in
  the same run; its table must equal the new one bit for bit.
- Reference 1, a compiled brute force: for one (flop, hole), every turn, river and dealer
  hand valued and compared one by one (numba, one core), as the short tests do; its time per
  (flop, hole) times the 1,755 x 1,176 (flop class, hole) pairs the exact run covers.
- Reference 2, pure Python: the same brute force as Python loops (the compiled evaluator
  called once per hand) on a sample of turn + river pairs, scaled to the whole game.

Run: ``uv run python benchmarks/casino_holdem_exact.py [--classes N]`` (``--classes`` times
only the first N flop classes and scales, for a quick look). Times are wall-clock on a
shared 2-core machine: read the ratios, and the load printed beside them.
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
import numpy.typing as npt

from casino_holdem_previous import previous_flop_tables
from croupier.analysis.casino_holdem_exact import (
    COMPLETIONS,
    HOLES,
    flop_classes,
    flop_table,
    flop_tables,
    load_or_compute_table,
    qualifier_threshold,
)
from croupier.analysis.casino_holdem_game import analyse_ante_game
from croupier.hands.poker import strength_of
from croupier.rules import CasinoHoldemRules, load_profile

PROFILES = Path(__file__).parents[1] / "src/croupier/rules/profiles"


@numba.njit(cache=True)
def brute_force(flop: npt.NDArray[np.int64], hole: npt.NDArray[np.int64], threshold: int) -> int:
    """Calls that beat a qualified dealer over every completion (a checksum to keep it honest)."""
    rest = np.empty(47, dtype=np.int64)
    k = 0
    for card in range(52):
        if card not in (flop[0], flop[1], flop[2], hole[0], hole[1]):
            rest[k] = card
            k += 1
    player = np.empty(7, dtype=np.int64)
    dealer = np.empty(7, dtype=np.int64)
    player[:2] = hole
    player[2:5] = flop
    dealer[2:5] = flop
    wins = 0
    for t in range(47):
        for r in range(t + 1, 47):
            player[5] = dealer[5] = rest[t]
            player[6] = dealer[6] = rest[r]
            mine = strength_of(player)
            for a in range(47):
                if a in (t, r):
                    continue
                for b in range(a + 1, 47):
                    if b in (t, r):
                        continue
                    dealer[0] = rest[a]
                    dealer[1] = rest[b]
                    theirs = strength_of(dealer)
                    if theirs >= threshold and mine > theirs:
                        wins += 1
    return wins


def python_brute_force(flop: list[int], hole: list[int], threshold: int, pairs: int) -> int:
    rest = [card for card in range(52) if card not in flop and card not in hole]
    wins = 0
    for t, r in itertools.islice(itertools.combinations(rest, 2), pairs):
        mine = strength_of(np.array([*hole, *flop, t, r], dtype=np.int64))
        left = [card for card in rest if card not in (t, r)]
        for a, b in itertools.combinations(left, 2):
            theirs = strength_of(np.array([a, b, *flop, t, r], dtype=np.int64))
            if theirs >= threshold and mine > theirs:
                wins += 1
    return wins


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, default=0, help="time only N flop classes")
    options = parser.parse_args()
    standard = load_profile("casino-holdem-standard")
    assert isinstance(standard, CasinoHoldemRules)
    threshold = qualifier_threshold(standard)
    flops, _ = flop_classes()
    pairs = len(flops) * HOLES
    flop, hole = np.array([1, 22, 47]), np.array([48, 44])  # 2d 7h Ks, Ac Kc
    flop_table(flop, threshold)  # compile outside the timings
    brute_force(flop, hole, threshold)

    start = time.perf_counter()
    brute_force(flop, hole, threshold)
    compiled_reference = (time.perf_counter() - start) * pairs
    sample = 20
    start = time.perf_counter()
    python_brute_force(flop.tolist(), hole.tolist(), threshold, sample)
    python_reference = (time.perf_counter() - start) * (1081 / sample) * pairs

    previous_flop_tables(flops[:2], threshold)  # compile the previous kernel too
    classes = options.classes or len(flops)
    start = time.perf_counter()
    previous_table = np.concatenate(
        [
            previous_flop_tables(flops[i : min(i + 36, classes)], threshold)
            for i in range(0, classes, 36)
        ]
    )
    previous = (time.perf_counter() - start) * len(flops) / classes

    with tempfile.TemporaryDirectory() as directory:
        os.environ["CROUPIER_CACHE_DIR"] = directory
        if options.classes:
            flop_tables(flops[:2], threshold)  # compile the parallel kernel
            start = time.perf_counter()
            table = flop_tables(flops[: options.classes], threshold)
            first = (time.perf_counter() - start) * len(flops) / options.classes
            label = f"first computation (scaled from {options.classes} classes)"
            changed: float | None = None
        else:
            flop_tables(flops[:2], threshold)  # compile the parallel kernel
            start = time.perf_counter()
            game = analyse_ante_game(standard)
            first = time.perf_counter() - start
            assert not game.table_was_cached
            table, cached = load_or_compute_table(threshold)
            assert cached
            label = "first computation (analyse_ante_game, empty cache)"
            text = (PROFILES / "casino-holdem-standard.toml").read_text(encoding="utf-8")
            designer_path = Path(directory) / "flush-three.toml"
            designer_path.write_text(
                text.replace('name = "casino-holdem-standard"', 'name = "flush-three"').replace(
                    '"flush" = "2:1"', '"flush" = "3:1"', 1
                ),
                encoding="utf-8",
            )
            designer = load_profile(str(designer_path))
            assert isinstance(designer, CasinoHoldemRules)
            start = time.perf_counter()
            other = analyse_ante_game(designer)
            changed = time.perf_counter() - start
            assert other.table_was_cached
            print(
                f"standard: house edge {game.figures.house_edge:.6%}; flush 3:1: "
                f"{other.figures.house_edge:.6%}"
            )
    identical = previous_table.shape == table.shape and bool((previous_table == table).all())
    print(f"table equal to the previous implementation's, bit for bit: {identical}")
    assert identical
    load = os.getloadavg()
    print(
        f"Casino Hold'em Ante + Bet, exact ({len(flops):,} flop classes x {HOLES:,} holes x "
        f"{COMPLETIONS:,} completions); {os.cpu_count()} cores, load {load[0]:.2f}"
    )
    rows = [
        ("pure-Python brute force (scaled)", python_reference),
        ("compiled brute force, 1 core (scaled)", compiled_reference),
        ("previous implementation (before suit symmetry)", previous),
        (label, first),
    ]
    if changed is not None:
        rows.append(("changed paytable (table cached)", changed))
    print(
        f"speed-up of the first computation over the previous implementation: x{previous / first:.2f}"
    )
    for name, seconds in rows:
        print(
            f"{name:<52} {seconds:>14,.1f} s  x{compiled_reference / seconds:>10,.1f} vs compiled"
            f"  x{python_reference / seconds:>12,.0f} vs Python"
        )


if __name__ == "__main__":
    main()
