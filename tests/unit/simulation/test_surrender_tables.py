"""What the simulator makes of late surrender before the kernel runs (docs/rules.md#D-BJ-32,
D-BJ-33): the chart's ``Rh``, a user's chart file, the Fab 4 and the Illustrious 18 on a
surrender cell. The kernel's play of them is checked against the engine card for card in
tests/consistency/test_simulator_blackjack_matches_engine.py."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from croupier.cli.main import app
from croupier.counting import load_counting_system, load_index_set
from croupier.rules import BlackjackRules, load_profile
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation.blackjack_sim import (
    BlackjackStrategy,
    Counting,
    chart_tables,
    parameters,
    parse_ramp,
)

LATE_SURRENDER = Path(__file__).parents[2] / "oracles/six-deck-s17-das-peek-late-surrender.toml"
TEN, NINE, ACE = 9, 8, 0  # kernel columns: value - 1


def _profile() -> BlackjackRules:
    profile = load_profile(LATE_SURRENDER)
    assert isinstance(profile, BlackjackRules)
    return profile


def _counting(indices: str) -> Counting:
    return Counting(
        load_counting_system("hi-lo"), ramp=parse_ramp("1:1"), indices=load_index_set(indices)
    )


def test_the_profile_turns_surrender_on_in_the_kernel() -> None:
    profile = _profile()
    p = parameters(profile, BlackjackStrategy.basic(profile), None)
    assert p[kernel.P_SURRENDER] == 1
    peru = load_profile("peru-2016")
    assert isinstance(peru, BlackjackRules)
    assert parameters(peru, BlackjackStrategy.basic(peru), None)[kernel.P_SURRENDER] == 0


def test_the_charts_rh_is_surrender_else_hit() -> None:
    tables = chart_tables(BlackjackStrategy.basic(_profile()), None, surrender=True)
    above, below, _ = tables.hard
    assert above[16, TEN] == below[16, TEN] == kernel.SURRENDER_ELSE_HIT
    assert above[15, TEN] == kernel.SURRENDER_ELSE_HIT
    assert above[15, ACE] == kernel.HIT


def test_the_fab_4_apply_only_where_the_profile_surrenders() -> None:
    strategy = BlackjackStrategy.basic(_profile())
    tables = chart_tables(strategy, _counting("fab-4"), surrender=True)
    above, below, threshold = tables.hard
    # 14 v T: surrender at +3 or more (else hit), hit below.
    assert (above[14, TEN], below[14, TEN], threshold[14, TEN]) == (
        kernel.SURRENDER_ELSE_HIT,
        kernel.HIT,
        3.0,
    )
    assert tables.inapplicable == ()
    without = chart_tables(strategy, _counting("fab-4"), surrender=False)
    assert len(without.inapplicable) == 4
    assert math.isinf(without.hard[2][14, TEN])


def test_an_illustrious_18_play_on_a_surrender_cell_keeps_the_surrender() -> None:
    """16 v T: stand at 0 or more, hit below, each only where surrender is not allowed."""
    tables = chart_tables(BlackjackStrategy.basic(_profile()), _counting("illustrious-18"))
    assert tables.hard[0][16, TEN] == kernel.STAND  # no surrender: the index as it is
    tables = chart_tables(
        BlackjackStrategy.basic(_profile()), _counting("illustrious-18"), surrender=True
    )
    above, below, threshold = tables.hard
    assert (above[16, TEN], below[16, TEN], threshold[16, TEN]) == (
        kernel.SURRENDER_ELSE_STAND,
        kernel.SURRENDER_ELSE_HIT,
        0.0,
    )
    assert above[16, NINE] == kernel.SURRENDER_ELSE_STAND


def test_a_users_chart_file_may_surrender(tmp_path: Path) -> None:
    path = tmp_path / "chart.json"
    path.write_text(json.dumps({"hard": {"14": {"T": "Rh"}}, "pairs": {"8": {"A": "Rp"}}}))
    chart = BlackjackStrategy.from_file(path, _profile()).chart
    assert (chart.hard[14]["T"], chart.pairs["8"]["A"]) == ("Rh", "Rp")
    tables = chart_tables(BlackjackStrategy("file", chart), None, surrender=True)
    assert tables.hard[0][14, TEN] == kernel.SURRENDER_ELSE_HIT
    assert tables.pairs[0][7, ACE] == kernel.SURRENDER_ELSE_SPLIT


def test_the_illustrious_18_with_the_fab_4_surrender_15_v_ten_from_zero() -> None:
    """The shipped set of both: the Fab 4's 15 v T (surrender at 0 or more, else hit)
    replaces the Illustrious 18's (stand at +4); without surrender it is the Illustrious 18."""
    strategy = BlackjackStrategy.basic(_profile())
    both = _counting("illustrious-18-fab-4")
    above, below, threshold = chart_tables(strategy, both, surrender=True).hard
    assert (above[15, TEN], below[15, TEN], threshold[15, TEN]) == (
        kernel.SURRENDER_ELSE_HIT,
        kernel.HIT,
        0.0,
    )
    above, below, threshold = chart_tables(strategy, both, surrender=False).hard
    assert (above[15, TEN], below[15, TEN], threshold[15, TEN]) == (kernel.STAND, kernel.HIT, 4.0)


def test_hi_lo_plays_the_fab_4_by_default_where_the_profile_surrenders() -> None:
    """docs/rules.md#D-BJ-32: on a late-surrender profile Hi-Lo's default is Schlesinger's
    Illustrious 18 with the Fab 4 (Blackjack Attack, 3rd ed., ch. 5); elsewhere the
    Illustrious 18 alone, and other counts play basic strategy."""
    hi_lo, ko = load_counting_system("hi-lo"), load_counting_system("ko")
    with_surrender = Counting.default_indices(hi_lo, surrender=True)
    without = Counting.default_indices(hi_lo, surrender=False)
    assert with_surrender is not None and with_surrender.name == "illustrious-18-fab-4"
    assert without is not None and without.name == "illustrious-18"
    assert Counting.default_indices(ko, surrender=True) is None


def _simulate_json(profile: str, *options: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        app,
        ["simulate", profile, "--rounds", "20000", "--seed", "15", "--count", "hi-lo",
         "--ramp", "1:1,2:2,3:4", "--json", *options],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.output)
    return document


def _figures(document: dict[str, Any]) -> dict[str, Any]:
    """The document without the run's timings."""
    return {key: value for key, value in document.items() if "second" not in key}


def test_simulate_with_hi_lo_on_a_surrender_profile_plays_the_fab_4_by_default() -> None:
    """``croupier simulate FILE --count hi-lo`` with no ``--indices`` on a late-surrender
    profile deals the same game, figure for figure and key for key, as ``--indices
    illustrious-18-fab-4``, and not the Illustrious 18 alone; peru-2016 (no surrender) keeps
    the Illustrious 18."""
    by_default = _simulate_json(str(LATE_SURRENDER))
    assert by_default["counting"]["indices"] == "illustrious-18-fab-4"
    explicit = _simulate_json(str(LATE_SURRENDER), "--indices", "illustrious-18-fab-4")
    assert by_default.keys() == explicit.keys()
    assert _figures(by_default) == _figures(explicit)
    alone = _simulate_json(str(LATE_SURRENDER), "--indices", "illustrious-18")
    assert _figures(by_default)["counting"] != _figures(alone)["counting"]
    assert _simulate_json("peru-2016")["counting"]["indices"] == "illustrious-18"
