"""Times hhoppe/blackjack's CPU simulator, one core, basic strategy, for ``simulate.py``.

    PYTHON benchmarks/hhoppe_blackjack.py --hhoppe DIR [--rules peru-2016|default|timing]
        [--hands N] [--repeats N]

``PYTHON`` is a Python with his simulator's requirements (numba, numpy, hhoppe-tools, tqdm,
IPython), not the project's: his code stays outside the repository, and this driver only
imports his ``blackjack.py`` from ``DIR``. It plays ``monte_carlo_house_edge_cpu(rules,
Strategy(), N, parallel=False)`` as his notebook's "Performance tests" cell does
(``test_simulation_timings``), after one call that builds his basic-strategy tables and
compiles his kernel, and prints one JSON line per run: the hands played, the CPU and wall
seconds of the call (his shuffling of every shoe, ``rng.permuted`` in batches, included), the
house edge and its standard deviation per hand.

The rules: ``peru-2016`` is the closest of his ``Rules`` to croupier's peru-2016 (6 decks, S17,
double on any two, double after split, split to 4 hands, no re-split of Aces, 3:2, the cut
card 78 cards from the end, no surrender, a dealer blackjack taking the original bet only,
``obo=True``); ``default`` is his ``Rules()`` (H17 and late surrender); ``timing`` is his
timing cell's ``Rules(num_decks=2)``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from typing import Any

RULES: dict[str, dict[str, Any]] = {
    "peru-2016": {"hit_soft17": False, "late_surrender": False},
    "default": {},
    "timing": {"num_decks": 2},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hhoppe", required=True, help="the folder of his blackjack.py")
    parser.add_argument("--rules", choices=sorted(RULES), default="peru-2016")
    parser.add_argument("--hands", type=int, default=5_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, args.hhoppe)
    blackjack: Any = importlib.import_module("blackjack")
    rules = blackjack.Rules(**RULES[args.rules])
    strategy = blackjack.Strategy()
    start = time.process_time()
    blackjack.monte_carlo_house_edge_cpu(rules, strategy, 10_000, parallel=False, quiet=True)
    set_up = time.process_time() - start
    for _ in range(args.repeats):
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


if __name__ == "__main__":
    main()
