"""A player's request may not grow to cost half as much again, in server CPU, as its recorded
multiple of a no-op request's (issue 28, item 8).

``benchmarks/request_cost.py`` measures the multiple in this one process, as a ratio of CPU
times of blocks run in turn: other load on the machine stretches both sides alike, where it
would make an absolute time flake. ``benchmarks/request_cost.json`` holds the recorded value,
with the machine and commit it was measured on; a change meant to cost more records it again
(``--record``) and says why in its commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from request_cost import GROWTH_ALLOWED, cost_ratio, recorded


def test_a_player_request_costs_at_most_half_again_its_recorded_multiple_of_a_no_op() -> None:
    before = recorded()
    limit = before["ratio"] * GROWTH_ALLOWED
    ratio, ratios, _ = cost_ratio(blocks=3)
    if ratio > limit:
        # A second measure before failing: one run that a burst of other load happened to
        # fall on one side of is no regression; a real one is above the limit both times.
        again, more, _ = cost_ratio(blocks=3)
        ratio, ratios = min((ratio, ratios), (again, more))
    assert ratio <= limit, (
        f"a player request now costs {ratio:.2f}x a no-op request in server CPU (blocks: "
        f"{', '.join(f'{value:.2f}' for value in ratios)}), over {GROWTH_ALLOWED}x the "
        f"{before['ratio']:.2f}x recorded at {before['commit']} on {before['machine']}: "
        "find what made it dearer (benchmarks/load.py --against "
        f"{before['commit']}), or record the new cost with benchmarks/request_cost.py --record"
    )
