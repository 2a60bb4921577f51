"""``croupier simulate`` for baccarat and Casino Hold'em: every wager of the profile in the
JSON contract, the count and the meter keys, the same figures for any number of workers, and
typed errors for options the games cannot take."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli.main import app
from croupier.rules import CasinoHoldemRules, load_profile
from croupier.simulation.blackjack_sim import SimulationError
from croupier.simulation.runner import SimulationOptions, result_json, run_simulation

runner = CliRunner()


def simulate_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    document: dict[str, object] = json.loads(result.stdout)
    return document


def test_baccarat_plays_every_wager_of_the_profile() -> None:
    """Art. 8: Player, Banker, Tie and both pairs, one unit each, every coup."""
    document = simulate_json("dragon-six-peru-2016", "--rounds", "30000", "--seed", "5")
    bets = document["bets"]
    assert isinstance(bets, dict)
    assert list(bets) == ["player", "banker", "tie", "player_pair", "banker_pair"]
    assert document["hands"] == document["rounds"] == 30_000
    assert all(bets[w]["rounds_played"] == 30_000 for w in bets)
    assert 0 < bets["tie"]["hit_frequency"] < 0.2
    assert "counting" not in document


def test_baccarat_counting_in_the_json() -> None:
    document = simulate_json(
        "dragon-six-peru-2016", "--rounds", "30000", "--seed", "5", "--count", "croupier-tie"
    )
    counting = document["counting"]
    assert isinstance(counting, dict)
    assert counting["system"] == "croupier-tie"
    rounds = sum(row["rounds"] for row in counting["by_true_count"])
    assert rounds == sum(row["rounds"] for row in counting["by_pair_probability"]) == 30_000
    # The count changes nothing of the deal: the same seed, the same figures.
    plain = simulate_json("dragon-six-peru-2016", "--rounds", "30000", "--seed", "5")
    assert document["bets"] == plain["bets"]


def test_casino_holdem_plays_the_ante_game_and_the_progressive() -> None:
    document = simulate_json(
        "casino-holdem-peru-2007", "--rounds", "20000", "--seed", "5", "--players", "3",
        "--strategy", "always-call",
    )  # fmt: skip
    bets = document["bets"]
    assert isinstance(bets, dict) and list(bets) == ["ante", "progressive"]
    assert bets["ante"]["ev_per_round"] < 0
    meter = document["progressive_meter"]
    assert isinstance(meter, dict) and meter["boxes_feeding_it"] == 3
    profile = load_profile("casino-holdem-peru-2007")
    assert isinstance(profile, CasinoHoldemRules)
    assert meter["mean_when_settled"] > profile.progressive.meter_seed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["casino-holdem-standard", "--strategy", "bluff"], "always-call"),
        (["casino-holdem-standard", "--players", "8"], "boxes"),
        (["casino-holdem-standard", "--count", "hi-lo"], "--count"),
        (["dragon-six-peru-2016", "--count", "hi-lo"], "croupier-tie"),
        (["dragon-six-peru-2016", "--players", "8"], "zones"),
    ],
)
def test_what_the_games_cannot_take_is_a_typed_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", *args, "--rounds", "10"])
    assert result.exit_code != 0
    assert isinstance(result.exception, SimulationError), result.exception
    assert message in str(result.exception)


def test_too_many_boxes_is_refused_before_the_optimal_strategy_is_computed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The optimal call/fold table costs minutes on an empty cache: a number of boxes the
    layout lacks (Art. 9: seven) is refused first, without computing it."""
    import croupier.simulation.casino_holdem_strategy as strategies

    def not_wanted(*_args: object) -> object:
        raise AssertionError("the optimal strategy was computed for a refused command")

    monkeypatch.setattr(strategies, "optimal_calls", not_wanted)
    result = runner.invoke(app, ["simulate", "casino-holdem-peru-2007", "--players", "8"])
    assert isinstance(result.exception, SimulationError), result.exception
    assert "--players: 1 to 7 boxes, not 8" in str(result.exception)


def test_the_same_seed_gives_the_same_figures_on_two_workers() -> None:
    profile = load_profile("dragon-six-peru-2016")
    one = run_simulation(profile, SimulationOptions(300_000, seed=11))
    two = run_simulation(profile, SimulationOptions(300_000, seed=11, workers=2))
    assert one.blocks == 2
    assert result_json(one)["bets"] == result_json(two)["bets"]


def test_the_report_shows_baccarats_count(tmp_path: Path) -> None:
    args = ["dragon-six-peru-2016", "--rounds", "20000", "--seed", "5", "--count", "croupier-tie"]
    for run in ("first", "second"):
        result = runner.invoke(app, ["simulate", *args, "--report", str(tmp_path / run)])
        assert result.exit_code == 0, result.output
    page = (tmp_path / "first" / "dragon-six-peru-2016-simulation.md").read_text()
    assert "## Counting: croupier-tie" in page and "| true count |" in page
    for chart in ("tie-by-true-count", "pairs-by-pair-probability"):
        name = f"dragon-six-peru-2016-{chart}.png"
        assert (tmp_path / "first" / name).read_bytes() == (tmp_path / "second" / name).read_bytes()
