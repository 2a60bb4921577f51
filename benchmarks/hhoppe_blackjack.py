"""Times hhoppe/blackjack's CPU simulator, one core, basic strategy, for ``simulate.py``.

    PYTHON benchmarks/hhoppe_blackjack.py --hhoppe DIR [--rules peru-2016|default|timing]
        [--hands N] [--repeats N] [--serve]

``PYTHON`` is a Python with his simulator's requirements (numba, numpy, hhoppe-tools, tqdm,
IPython), not the project's: his code stays outside the repository, and this driver only
imports his ``blackjack.py`` from ``DIR``. It plays ``monte_carlo_house_edge_cpu(rules,
Strategy(), N, parallel=False)`` as his notebook's "Performance tests" cell does
(``test_simulation_timings``), after one call that builds his basic-strategy tables and
compiles his kernel, and prints one JSON line per run: the hands played, the CPU and wall
seconds of the call (his shuffling of every shoe, ``rng.permuted`` in batches, included), the
house edge and its standard deviation per hand. With ``--serve`` it prints ``{"ready": ...}``
once set up, then plays one run for each line read from its standard input until it ends:
``simulate.py`` times him that way beside each of its own runs, in the same minute, where the
machine's speed moved by a fifth from one minute to the next (his 7.7-9.5 M hands/s in one
session on one 2-core AMD EPYC).

The rules: ``peru-2016`` is the closest of his ``Rules`` to croupier's peru-2016 (6 decks, S17,
double on any two, double after split, split to 4 hands, no re-split of Aces, 3:2, the cut
card 78 cards from the end, no surrender, a dealer blackjack taking the original bet only,
``obo=True``); ``default`` is his ``Rules()`` (H17 and late surrender); ``timing`` is his
timing cell's ``Rules(num_decks=2)``.

His ``blackjack.py`` is his notebook as a script (jupytext's percent format): importing it
runs every cell, his experiments included, and on a machine without a network or a GPU it
stops half way (a ``KeyError: 'bjstrat'`` building his house-edge calculators, whose hand
calculators need his reference sites; then a CUDA cell not guarded by ``USE_CUDA``; then his
cut-card results, pickled from ``__main__``). So the driver runs his notebook as a user who
wants only its simulator would: its code cells in order, in a module named ``blackjack``
(registered in ``sys.modules``, so that what his code pickles by reference resolves),
stopping after the cell that defines ``monte_carlo_house_edge_cpu``. Every cell his
simulator needs comes before it; none of his files is edited.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import types
from pathlib import Path
from typing import Any

RULES: dict[str, dict[str, Any]] = {
    "peru-2016": {"hit_soft17": False, "late_surrender": False},
    "default": {},
    "timing": {"num_decks": 2},
}


SIMULATOR = "def monte_carlo_house_edge_cpu("


def load_simulator(folder: Path) -> types.ModuleType:
    """His notebook's code cells, in order, down to the one defining his CPU simulator."""
    path = folder / "blackjack.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("# %%")] + [len(lines)]
    sys.path.insert(0, str(folder))  # his random32.py
    module = types.ModuleType("blackjack")
    module.__file__ = str(path)
    sys.modules["blackjack"] = module
    for start, stop in zip([0, *starts], starts, strict=False):
        cell = "".join(lines[start:stop])
        # Blank lines before the cell keep his line numbers in tracebacks and numba's errors.
        exec(compile("\n" * start + cell, str(path), "exec"), module.__dict__)
        if any(line.startswith(SIMULATOR) for line in lines[start:stop]):
            return module
    raise SystemExit(f"{path}: no cell defines {SIMULATOR.removeprefix('def ')[:-1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hhoppe", required=True, help="the folder of his blackjack.py")
    parser.add_argument("--rules", choices=sorted(RULES), default="peru-2016")
    parser.add_argument("--hands", type=int, default=5_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--serve", action="store_true", help="a run for each line of standard input"
    )
    args = parser.parse_args()
    blackjack: Any = load_simulator(Path(args.hhoppe))
    rules = blackjack.Rules(**RULES[args.rules])
    strategy = blackjack.Strategy()
    start = time.process_time()
    blackjack.monte_carlo_house_edge_cpu(rules, strategy, 10_000, parallel=False, quiet=True)
    set_up = time.process_time() - start

    def one_run() -> None:
        cpu, wall = time.process_time(), time.perf_counter()
        house_edge, hands, sd = blackjack.monte_carlo_house_edge_cpu(
            rules, strategy, args.hands, parallel=False, quiet=True
        )
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        record = {
            "rules": str(rules),
            "effort": blackjack.EFFORT,
            "hands": int(hands),
            "cpu_seconds": cpu,
            "seconds": wall,
            "set_up_cpu_seconds": set_up,
            "house_edge": float(house_edge),
            "sd": float(sd),
        }
        print(json.dumps(record), flush=True)

    if args.serve:
        print(json.dumps({"ready": True, "set_up_cpu_seconds": set_up}), flush=True)
        for _ in sys.stdin:
            one_run()
        return
    for _ in range(args.repeats):
        one_run()


if __name__ == "__main__":
    main()
