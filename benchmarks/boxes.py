"""Several boxes with a count against one box, per hand, interleaved in one process.

    uv run python benchmarks/boxes.py [--profile NAME] [--rounds N] [--pairs N] [--players N]

One box takes the kernel's own path (``play_one_box_counted``); two boxes or more take
``play_block``'s general loop. Each pass runs, with Hi-Lo tracked as in
``benchmarks/kernel_ab.py --count hi-lo`` (a 1-8 ramp, the profile's default index set):
one box by its own path, one box by the general loop (``P_GENERAL_LOOP``, the switch the
differential test uses: the same game, so the figures are compared bit for bit) and
``--players`` boxes by the general loop. Printed: the medians of hands per CPU second (a
hand is one box's round) and the medians of the per-pass ratios against one box by its own
path, so that the gap splits into the path's share (one box, general loop) and what several
boxes add or save (one dealer hand and one shuffle shared among them).
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np

from croupier.counting import load_counting_system
from croupier.rules import BlackjackRules, load_profile
from croupier.rules.blackjack import Surrender
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation import blackjack_sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="peru-2016")
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--pairs", type=int, default=6, help="passes of the three runs")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for name in ("rounds", "pairs", "players"):
        if getattr(args, name) < 1:
            parser.error(f"--{name}: at least 1, not {getattr(args, name)}")
    profile = load_profile(args.profile)
    assert isinstance(profile, BlackjackRules)
    strategy = blackjack_sim.BlackjackStrategy.basic(profile)
    system = load_counting_system("hi-lo")
    counting = blackjack_sim.Counting(
        system,
        ramp=blackjack_sim.parse_ramp("1:1,2:2,3:4,4:8"),
        indices=blackjack_sim.Counting.default_indices(
            system, surrender=profile.surrender is Surrender.LATE
        ),
        horizon=0,
    )
    original = blackjack_sim.parameters

    def general_loop(*pargs: Any, **kwargs: Any) -> Any:
        p = original(*pargs, **kwargs)
        p[kernel.P_GENERAL_LOOP] = 1
        return p

    def run(players: int, parameters: Callable[..., Any], rounds: int) -> tuple[float, Any]:
        blackjack_sim.parameters = parameters
        try:
            tally = blackjack_sim.simulate_blackjack(
                profile, rounds, np.random.SeedSequence(1), players, strategy, counting
            )
        finally:
            blackjack_sim.parameters = original
        figures = (tally.total_net, tally.total_net_squared, *tally.net.tolist())
        return tally.hands / tally.cpu_seconds, figures

    cases = {
        "1 box, own path": (1, original),
        "1 box, general loop": (1, general_loop),
        f"{args.players} boxes, general loop": (args.players, general_loop),
    }
    for players, parameters in cases.values():
        run(players, parameters, 1_000)  # compilation, outside the timing
    rates: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.pairs):
        figures = []
        for name, (players, parameters) in cases.items():
            rate, result = run(players, parameters, args.rounds)
            rates[name].append(rate)
            figures.append(result)
        assert figures[0] == figures[1], "the two paths dealt different games"
    reference = rates["1 box, own path"]
    print(
        f"{args.profile}, Hi-Lo, {args.rounds:,} rounds a run, {args.pairs} passes, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    for name, values in rates.items():
        ratios = [value / base for value, base in zip(values, reference, strict=True)]
        print(
            f"  {name:<24} {statistics.median(values) / 1e6:6.2f} M hands/CPU s, "
            f"ratio to one box's own path {statistics.median(ratios):.3f} "
            f"({min(ratios):.3f}-{max(ratios):.3f})"
        )


if __name__ == "__main__":
    main()
