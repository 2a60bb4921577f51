"""A game's engine warmed up on a live table's first use leaves its loaded code resident.

Casino Hold'em's first round loads the poker evaluator's compiled code: some 94,000 objects
that live as long as the process. Made after the server's start (a table the operator opens),
they stayed in the collector's oldest generation, and every full collection scanned them
until the server froze its survivors: 75-290 ms pauses of every table under load
(``benchmarks/load.py``, issue 28, item 8). ``engines.warm_up`` makes them resident
(``croupier.resident.loading``). Measured in a fresh interpreter, where nothing has loaded
the evaluator yet.
"""

from __future__ import annotations

import json
import subprocess
import sys

_WARM_UP = """
import gc, json
from croupier.rules import load_profile
from croupier.service import engines
profile = load_profile("casino-holdem-peru-2007")
gc.collect()
before = len(gc.get_objects())
engines.warm_up(profile)
after_first = len(gc.get_objects())
engines.warm_up(load_profile("casino-holdem-standard"))
print(json.dumps({"before": before, "first": after_first, "enabled": gc.isenabled(),
                  "frozen": gc.get_freeze_count()}))
"""


def test_a_games_first_warm_up_leaves_its_engine_out_of_the_collectors_scans() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _WARM_UP], capture_output=True, text=True, check=True, timeout=120
    )
    counts = json.loads(done.stdout)
    # Without resident.loading the evaluator's objects stay tracked: tens of thousands more.
    assert counts["first"] - counts["before"] < 2_000, counts
    assert counts["frozen"] > 50_000, counts
    assert counts["enabled"], "the collector is running again after the warm-up"
