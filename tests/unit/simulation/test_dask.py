"""``--dask ADDRESS``: the same blocks run on a Dask cluster give the figures of the local run,
bit for bit (issue 15 item 6), here on a ``distributed.LocalCluster`` of two worker processes."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.counting import load_counting_system
from croupier.rules import load_profile
from croupier.simulation.blackjack_sim import Counting, parse_ramp
from croupier.simulation.runner import BLOCK_ROUNDS, SimulationOptions, result_json, run_simulation

distributed = pytest.importorskip("distributed")


def test_a_dask_cluster_gives_the_local_figures() -> None:
    profile = load_profile("spain-1979")
    counting = Counting(load_counting_system("zen"), ramp=parse_ramp("0:1,2:4"), horizon=5_000)
    options = SimulationOptions(BLOCK_ROUNDS + 10_000, seed=99, counting=counting, players=2)
    local = run_simulation(profile, options)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = run_simulation(
            profile,
            SimulationOptions(
                options.rounds, seed=99, counting=counting, players=2,
                dask=cluster.scheduler_address,
            ),
        )  # fmt: skip
    assert remote.blocks == local.blocks == 2
    assert np.array_equal(remote.tally.net, local.tally.net)
    assert remote.tally.total_net_squared == local.tally.total_net_squared
    first, second = result_json(local), result_json(remote)
    assert first["bets"] == second["bets"]
    assert first["counting"] == second["counting"]
