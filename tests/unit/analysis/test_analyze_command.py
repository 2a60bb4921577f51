"""``croupier analyze``: the terminal tables, the fixed JSON contract, a user's own profile
file, and the Markdown report with its charts."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli.main import app
from croupier.errors import ProfileError

PROFILES = Path(__file__).parents[3] / "src/croupier/rules/profiles"
runner = CliRunner()


def _json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["analyze", *args, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert isinstance(document, dict)
    return document


def test_json_contract_for_dragon_six() -> None:
    """The fixed contract: profile, decks, bets by the names ``croupier settle`` uses, house
    edge as a fraction (Art. 8 paytable: Banker 1:2 on a win with 6)."""
    document = _json("dragon-six-peru-2016")
    assert document["profile"] == "dragon-six-peru-2016"
    assert document["decks"] == 8
    bets = document["bets"]
    assert isinstance(bets, dict)
    assert set(bets) == {"player", "banker", "tie", "player_pair", "banker_pair"}
    banker = bets["banker"]
    assert round(banker["house_edge"], 7) == 0.0145810
    assert {"hit_frequency", "push", "std_dev", "distribution"} <= set(banker)
    assert banker["distribution"]["0.5"] == pytest.approx(0.053864, abs=1e-6)


def test_decks_option_changes_the_shoe() -> None:
    six = _json("dragon-six-peru-2016", "--decks", "6")
    assert six["decks"] == 6
    # Wizard of Odds, Baccarat Appendix 6: the same Banker bet with six decks, 1.4548%.
    assert round(six["bets"]["banker"]["house_edge"] * 100, 4) == 1.4548  # type: ignore[index]


def test_a_users_profile_file_with_another_tie_paytable(tmp_path: Path) -> None:
    """A designer's paytable: tie at 9:1 instead of Art. 8's 8:1. Published 8-deck edge 4.84%
    (Wizard of Odds, Baccarat); exactly 1 - 10 P(tie) with the published 8-deck tie count
    475,627,426,473,216 of 4,998,398,275,503,360 ordered deals."""
    text = (PROFILES / "dragon-six-peru-2016.toml").read_text(encoding="utf-8")
    path = tmp_path / "tie-nine.toml"
    path.write_text(
        text.replace('name = "dragon-six-peru-2016"', 'name = "tie-nine"').replace(
            'tie = "8:1"', 'tie = "9:1"'
        ),
        encoding="utf-8",
    )
    document = _json(str(path))
    assert document["profile"] == "tie-nine"
    tie = Fraction(475_627_426_473_216, 4_998_398_275_503_360)
    assert document["bets"]["tie"]["house_edge_exact"] == str(1 - 10 * tie)  # type: ignore[index]
    assert round(document["bets"]["tie"]["house_edge"] * 100, 2) == 4.84  # type: ignore[index]


def test_blackjack_json_has_main_21_plus_3_strategy_and_the_regulations_figures() -> None:
    document = _json("peru-2016")
    bets = document["bets"]
    assert isinstance(bets, dict)
    assert set(bets) == {"main", "21+3"}
    assert 0 < bets["main"]["house_edge"] < 0.01
    assert "element_of_risk" in bets["main"]
    strategy = document["strategy"]
    assert isinstance(strategy, dict)
    assert strategy["hard"]["16"]["T"] == "H"
    assert strategy["hard"]["12"]["4"] == "S"
    assert strategy["pairs"]["8"]["A"] == "P"
    published = document["published"]
    assert isinstance(published, list)
    assert {item["figure"] for item in published} == {"house edge", "payout frequency"}
    assert {item["published"] for item in published} == {0.0856, 0.0728}
    assert all(item["agrees"] is False for item in published)


def test_terminal_output_names_every_wager_and_the_strategy() -> None:
    result = runner.invoke(app, ["analyze", "veintiuno-real"])
    assert result.exit_code == 0, result.output
    assert "main" in result.stdout
    assert "Hard totals" in result.stdout and "Pairs" in result.stdout


def test_profile_and_all_together_is_refused() -> None:
    result = runner.invoke(app, ["analyze", "peru-2016", "--all"])
    assert isinstance(result.exception, ProfileError)
    result = runner.invoke(app, ["analyze"])
    assert isinstance(result.exception, ProfileError)


def test_unknown_profile_is_a_profile_error() -> None:
    result = runner.invoke(app, ["analyze", "no-such-profile"])
    assert isinstance(result.exception, ProfileError)
    assert "no-such-profile" in str(result.exception)


def test_report_page_cites_the_paytable_article_and_embeds_its_chart(tmp_path: Path) -> None:
    result = runner.invoke(app, ["analyze", "dragon-six-peru-2016", "--report", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "dragon-six-peru-2016.md").read_text(encoding="utf-8")
    assert "Art. 8" in page
    assert "1.4581%" in page
    assert "outcomes-dragon-six-peru-2016.png" in page
    assert (tmp_path / "outcomes-dragon-six-peru-2016.png").read_bytes()[:4] == b"\x89PNG"


def test_casino_holdem_ante_monte_carlo_option_keeps_the_estimate() -> None:
    """``--ante-monte-carlo``: the quick estimate, marked as such; the progressive stays exact."""
    document = _json("casino-holdem-peru-2007", "--ante-monte-carlo")
    ante = document["bets"]["ante"]  # type: ignore[index]
    assert ante["exact"] is False and ante["monte_carlo"] is True
    assert 0 < ante["standard_error"] < 0.02
    assert 0.1 < ante["fold_frequency"] < 0.3
    assert document["bets"]["progressive"]["exact"] is True  # type: ignore[index]


@pytest.mark.slow
def test_casino_holdem_json_is_exact_and_a_new_paytable_reuses_the_table(
    tmp_path: Path, casino_holdem_cache: Path
) -> None:
    """The standard game exactly (Wizard of Odds: 2.16% per Ante); a designer's profile that
    pays a flush 3:1 instead of 2:1 reuses the cached table (same deck and qualifier) and
    costs the house, exactly, more than the flush line's share at the old strategy."""
    from croupier.analysis.casino_holdem_game import analyse_ante_game
    from croupier.rules import CasinoHoldemRules, load_profile

    cached = sorted(casino_holdem_cache.iterdir())
    document = _json("casino-holdem-standard")
    ante = document["bets"]["ante"]  # type: ignore[index]
    assert ante["exact"] is True and "monte_carlo" not in ante
    assert round(ante["house_edge"] * 100, 2) == 2.16
    assert {"house_edge_exact", "element_of_risk", "fold_frequency", "distribution"} <= set(ante)
    text = (PROFILES / "casino-holdem-standard.toml").read_text(encoding="utf-8")
    path = tmp_path / "flush-three.toml"
    path.write_text(
        text.replace('name = "casino-holdem-standard"', 'name = "flush-three"').replace(
            '"flush" = "2:1"', '"flush" = "3:1"', 1
        ),
        encoding="utf-8",
    )
    designer = load_profile(str(path))
    assert isinstance(designer, CasinoHoldemRules)
    game = analyse_ante_game(designer)
    assert game.table_was_cached
    assert sorted(casino_holdem_cache.iterdir()) == cached  # no second table
    standard = load_profile("casino-holdem-standard")
    assert isinstance(standard, CasinoHoldemRules)
    before = analyse_ante_game(standard).figures
    assert before.exact_distribution is not None
    assert str(before.exact_house_edge) == ante["house_edge_exact"]
    after = game.figures.exact_house_edge
    assert after is not None
    # A flush paid on the Ante now pays one Ante more: net +4 (a win: 2 on the Ante, 2 on the
    # Bet) and +2 (dealer not qualified) are exactly those outcomes. At the old strategy the
    # edge drops by their probability; re-choosing call or fold can only lower it further.
    flush_paid = before.exact_distribution[Fraction(4)] + before.exact_distribution[Fraction(2)]
    assert after <= before.exact_house_edge - flush_paid  # type: ignore[operator]


_KERNEL_MODULE = """
import numba
import numpy as np


@numba.njit(cache=True)
def squares(n):
    out = np.zeros(n)
    for i in range(n):
        out[i] = i * i
    return out
"""
_KERNEL_RUN = (
    "import json, sys; import croupier.cli.analyze_command as a; "
    "a._load_numba_for_cached_kernels(); import kernel; squares = kernel.squares(5).tolist(); "
    "print(json.dumps([squares, sum(kernel.squares.stats.cache_hits.values()), "
    "'numba.typed.typeddict' in sys.modules]))"
)


def _twice_in_fresh_processes(script: str, tmp_path: Path) -> list[Any]:
    """``script``'s printed JSON from two fresh interpreters in turn, ``_KERNEL_MODULE``
    importable as ``kernel`` and numba's cache in ``tmp_path``: the first compiles the
    kernel, the second finds it in the cache."""
    import os
    import subprocess
    import sys

    (tmp_path / "kernel.py").write_text(_KERNEL_MODULE)
    environment = dict(os.environ) | {
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]),
    }
    return [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", script],
                env=environment,
                cwd=tmp_path,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        for _ in range(2)
    ]


@pytest.mark.slow
def test_the_command_loads_a_cached_kernel_lightly_and_still_compiles_a_new_one(
    tmp_path: Path,
) -> None:
    """``analyze`` loads numba for cached kernels only (issue 12, the warm command's start):
    a kernel missing from the cache (the first run after installation) still compiles and
    runs, allocating its array through numba's runtime; the next process loads it from the
    cache without installing every registry numba keeps for compiling (its typed dict's
    among them), and gets the same result."""
    compiled, loaded = _twice_in_fresh_processes(_KERNEL_RUN, tmp_path)
    squares = [0.0, 1.0, 4.0, 9.0, 16.0]
    assert compiled[:2] == [squares, 0]  # not in the cache: compiled, contexts refreshed
    assert compiled[2] is True
    assert loaded == [squares, 1, False]  # from the cache, the registries left alone


def test_a_kernel_compiles_and_then_loads_from_the_cache_after_the_light_load(
    tmp_path: Path,
) -> None:
    """The short form of the test above, in this process: after
    ``_load_numba_for_cached_kernels``, a kernel missing from the cache compiles and runs,
    and the same source loaded again as another module reads it back from the cache
    through the light load (issue 12)."""
    import importlib.util

    from croupier.cli.analyze_command import _load_numba_for_cached_kernels

    _load_numba_for_cached_kernels()
    source = tmp_path / "light_kernel.py"
    source.write_text(_KERNEL_MODULE)
    results = []
    for name in ("light_kernel_compiled", "light_kernel_loaded"):
        spec = importlib.util.spec_from_file_location(name, source)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        results.append((module.squares(5).tolist(), sum(module.squares.stats.cache_hits.values())))
    squares = [0.0, 1.0, 4.0, 9.0, 16.0]
    assert results == [(squares, 0), (squares, 1)]


_RUNTIME_RUN = (
    "import json, threading; import croupier.cli.analyze_command as a; "
    "from numba.core.runtime.nrt import rtsys; a._load_numba_for_cached_kernels(); "
    "started = [t for t in threading.enumerate() if t.name == 'numba-runtime']; "
    "[t.join() for t in started]; import kernel; "
    "print(json.dumps([len(started), rtsys._init, kernel.squares(4).tolist()]))"
)


def test_the_light_load_compiles_numbas_runtime_on_a_thread_of_its_own(tmp_path: Path) -> None:
    """Issue 12, the warm command's start: numba's runtime, compiled by LLVM in every
    process before the first kernel loads, is started on a thread by
    ``_load_numba_for_cached_kernels`` and ready once that thread ends; kernels compiled,
    then loaded from the cache, run on it (a fresh process: this one's runtime is started
    already)."""
    runs = _twice_in_fresh_processes(_RUNTIME_RUN, tmp_path)
    assert runs == [[1, True, [0.0, 1.0, 4.0, 9.0]]] * 2
