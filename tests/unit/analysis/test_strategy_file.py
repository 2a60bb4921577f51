"""``croupier analyze PROFILE --strategy-file FILE`` (issue 30, item 2): any chart evaluated
exactly, by the same code that values the basic strategy's."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.analysis.blackjack import Strategy
from croupier.cli.main import app
from croupier.errors import ProfileError

GOLDEN = Path(__file__).parents[2] / "consistency" / "analyze_json"


def _analyze(*arguments: str, cache: Path) -> dict:
    result = CliRunner().invoke(
        app, ["analyze", *arguments, "--json"], env={"CROUPIER_CACHE_DIR": str(cache)}
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_basic_strategy_given_back_reproduces_its_edge_exactly(tmp_path):
    """Spain 1979's chart, written as ``analyze --json`` prints it, evaluated from the file:
    every figure of the document is the basic strategy's, to the last bit."""
    kept = json.loads((GOLDEN / "spain-1979--strategy-basic.json").read_text())
    chart = tmp_path / "chart.json"
    chart.write_text(json.dumps(kept["strategy"]))
    printed = _analyze("spain-1979", "--strategy-file", str(chart), cache=tmp_path)
    assert printed.pop("strategy_file") == str(chart)
    fresh = _analyze("spain-1979", cache=tmp_path / "fresh")
    assert printed == fresh
    assert printed["bets"]["main"]["house_edge"] == fresh["bets"]["main"]["house_edge"]


def test_a_worse_chart_has_a_larger_house_edge(tmp_path):
    """Standing on a hard 12 against a 2 and a 3 (basic strategy hits) costs the player."""
    kept = json.loads((GOLDEN / "spain-1979--strategy-basic.json").read_text())
    chart = copy.deepcopy(kept["strategy"])
    assert chart["hard"]["12"]["2"] == "H" and chart["hard"]["12"]["3"] == "H"
    chart["hard"]["12"]["2"] = chart["hard"]["12"]["3"] = "S"
    path = tmp_path / "worse.json"
    path.write_text(json.dumps(kept | {"strategy": chart}))  # a whole document is read too
    printed = _analyze("spain-1979", "--strategy-file", str(path), cache=tmp_path)
    assert printed["strategy"]["hard"]["12"]["2"] == "S"
    assert printed["bets"]["main"]["house_edge"] > kept["bets"]["main"]["house_edge"]


def test_a_chart_that_is_not_one_is_refused_naming_the_cell():
    kept = json.loads((GOLDEN / "spain-1979--strategy-basic.json").read_text())["strategy"]
    chart = copy.deepcopy(kept)
    chart["hard"]["16"]["T"] = "X"
    with pytest.raises(ProfileError, match="hard 16 against T: 'X' is not one of"):
        Strategy.from_json(chart, surrender=False)
    chart["hard"]["16"]["T"] = "Rh"  # Spain 1979 has no surrender
    with pytest.raises(ProfileError, match="'Rh' is not one of"):
        Strategy.from_json(chart, surrender=False)
    chart["hard"]["16"]["T"] = kept["hard"]["16"]["T"]
    del chart["soft"]["13"]
    with pytest.raises(ProfileError, match="'soft' needs the rows"):
        Strategy.from_json(chart, surrender=False)
    assert Strategy.from_json(kept, surrender=False).as_json() == kept


def test_strategy_file_is_refused_for_a_game_without_a_chart(tmp_path):
    path = tmp_path / "chart.json"
    path.write_text("{}")
    result = CliRunner().invoke(
        app, ["analyze", "dragon-six-peru-2016", "--json", "--strategy-file", str(path)]
    )
    assert result.exit_code != 0
    assert "has no chart" in str(result.exception) + result.output
