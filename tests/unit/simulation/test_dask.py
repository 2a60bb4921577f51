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


def test_no_scheduler_at_the_address_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad option exits 2 with one line on stderr, as every croupier command does
    (cli.main): ``--dask`` at an address where no scheduler answers printed distributed's
    OSError as a traceback, after its 30 s connect timeout (1 s here)."""
    import dask

    from croupier.cli.main import main

    address = "tcp://127.0.0.1:9"  # the discard port: nothing listens
    monkeypatch.setattr(
        "sys.argv", ["croupier", "simulate", "peru-2016", "--rounds", "1000", "--dask", address]
    )
    with (
        dask.config.set({"distributed.comm.timeouts.connect": "1s"}),
        pytest.raises(SystemExit) as exit_,
    ):
        main()
    assert exit_.value.code == 2
    stderr = capsys.readouterr().err  # the progress bar's line, then the error's
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1].startswith(f"croupier: error: --dask {address}: ")


@pytest.mark.parametrize(
    ("address", "named"),
    [("not a url", "not a url"), ("", ""), ("tcp://[::", "tcp://[::"), ("a" * 5000, "a" * 59)],
)
def test_a_malformed_address_is_one_line_naming_it_and_exit_2(
    address: str, named: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--dask`` given what is not an address (no port, a broken IPv6 bracket, 5,000
    characters) raised distributed's ValueError as a traceback, exit 1; it is one line naming
    the value (cut to 60 characters), exit 2, as every bad option."""
    from croupier.cli.main import main

    monkeypatch.setattr(
        "sys.argv", ["croupier", "simulate", "peru-2016", "--rounds", "1000", "--dask", address]
    )
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 2
    stderr = capsys.readouterr().err
    assert "Traceback" not in stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith(f"croupier: error: --dask {named}")
    assert len(last) < 300
