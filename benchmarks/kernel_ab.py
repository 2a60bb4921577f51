"""Two versions of the blackjack kernel timed against each other, interleaved in one process.

    uv run python benchmarks/kernel_ab.py OLD.py NEW.py [--profile NAME] [--rounds N]
        [--pairs N] [--players N] [--count SYSTEM] [--for-game]

``OLD.py`` and ``NEW.py`` are copies of ``src/croupier/simulation/blackjack_kernel.py``
(``git show REV:src/croupier/simulation/blackjack_kernel.py > old.py``). Each is loaded as
its own module and ``simulate_blackjack`` runs with one, then the other, ``--pairs`` times,
basic strategy, one box (``--players``), no count (``--count hi-lo``: Hi-Lo tracked as in
``benchmarks/simulate.py``, a 1-8 ramp and the Illustrious 18; ``--for-game``: one box by the
loop compiled for the game, ``one_box_loop``, as a long run plays it), the same seed: the two must deal the same hands (the figures are
compared, bit for bit), and the printed figure is the median of the per-pair ratios of hands
per CPU second. On the team's shared 2-core machine one run of the same kernel varies by
10-20% from one invocation to the next, more than most changes being measured; alternating
the two in one process puts them under the same load. That is not the whole of the noise:
the same file against itself gave a median ratio of 0.996 (pairs 0.951-1.027), and one
change gave 1.099 (1.089-1.111) in one process and 1.006 (0.996-1.036) in the next. Each
process compiles both kernels afresh, and the compiled round loop's layout seems to move the
speed by several percent from one compilation to the next; run it in several processes
before believing a change below about 10%.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from croupier.counting import load_counting_system
from croupier.rules import BlackjackRules, load_profile
from croupier.rules.blackjack import Surrender
from croupier.simulation import blackjack_sim


def _load(path: Path, name: str, folder: Path) -> ModuleType:
    copy = folder / f"{name}.py"
    shutil.copy(path, copy)
    spec = importlib.util.spec_from_file_location(name, copy)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache locates a module's functions by its file
    spec.loader.exec_module(module)
    if not hasattr(module, "one_box_loop"):
        # A kernel from before the game's own loop: its one loop serves every game.
        play_block = module.play_block

        def without_for_game(*arguments: Any, for_game: bool = False) -> None:
            play_block(*arguments)

        module.play_block = without_for_game
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--profile", default="peru-2016")
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--count", default=None, help="a counting system tracked, e.g. hi-lo")
    parser.add_argument(
        "--for-game", action="store_true", help="one box by the loop compiled for the game"
    )
    args = parser.parse_args()
    profile = load_profile(args.profile)
    assert isinstance(profile, BlackjackRules)
    strategy = blackjack_sim.BlackjackStrategy.basic(profile)
    counting = None
    if args.count is not None:
        system = load_counting_system(args.count)
        counting = blackjack_sim.Counting(
            system,
            ramp=blackjack_sim.parse_ramp("1:1,2:2,3:4,4:8"),
            indices=blackjack_sim.Counting.default_indices(
                system, surrender=profile.surrender is Surrender.LATE
            ),
            horizon=0,
        )
    with tempfile.TemporaryDirectory() as folder:
        kernels = [
            _load(args.old, "kernel_old", Path(folder)),
            _load(args.new, "kernel_new", Path(folder)),
        ]

        def rate(kernel: ModuleType, rounds: int) -> tuple[float, tuple[int, ...]]:
            blackjack_sim.kernel = kernel  # type: ignore[attr-defined]
            tally = blackjack_sim.simulate_blackjack(
                profile, rounds, np.random.SeedSequence(1), args.players, strategy, counting,
                for_game=args.for_game,
            )  # fmt: skip
            figures = (tally.total_net, tally.total_net_squared, *tally.net.tolist())
            return tally.hands / tally.cpu_seconds, figures

        for kernel in kernels:
            rate(kernel, 1_000)  # compilation, outside the timing
        old_rates, new_rates = [], []
        for _ in range(args.pairs):
            (old, old_figures), (new, new_figures) = (rate(k, args.rounds) for k in kernels)
            assert old_figures == new_figures, "the two kernels dealt different games"
            old_rates.append(old)
            new_rates.append(new)
    ratios = [new / old for old, new in zip(old_rates, new_rates, strict=True)]
    mode = f"{args.players} box(es), " + (args.count or "no count")
    mode += ", the game's own loop" if args.for_game else ""
    print(
        f"{args.profile} ({mode}): old {statistics.median(old_rates) / 1e6:.2f} M hands/CPU s, "
        f"new {statistics.median(new_rates) / 1e6:.2f} (medians of {args.pairs}); "
        f"new/old median ratio {statistics.median(ratios):.3f} "
        f"(range {min(ratios):.3f}-{max(ratios):.3f})"
    )


if __name__ == "__main__":
    main()
