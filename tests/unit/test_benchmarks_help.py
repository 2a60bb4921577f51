"""Every script of the benchmarks table (docs/benchmarks.md) answers ``--help`` with its usage
and exit 0, running nothing: the README walk (a new user trying each script's quickest form) found
``poker_evaluator.py``, ``casino_holdem_kernel.py`` and ``double_spend.py`` raising
ValueError on ``--help`` (their count read straight from ``sys.argv``), and
``analyze.py`` and ``kill_recovery.py`` taking it as no option and starting the whole run."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
TABLE = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
SCRIPTS = sorted(set(re.findall(r"^\| `benchmarks/(\w+)\.py", TABLE, flags=re.MULTILINE)))


def test_the_table_lists_the_scripts() -> None:
    assert len(SCRIPTS) >= 18
    assert {"poker_evaluator", "analyze", "kill_recovery"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", [name for name in SCRIPTS if name != "slow_checks"])
def test_help_prints_usage_and_runs_nothing(
    script: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # slow_checks.py hands its arguments to pytest, whose --help is pytest's own.
    path = ROOT / "benchmarks" / f"{script}.py"
    monkeypatch.setattr(sys, "argv", [str(path), "--help"])
    monkeypatch.syspath_prepend(str(path.parent))
    with pytest.raises(SystemExit) as exit_:
        runpy.run_path(str(path), run_name="__main__")
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("usage:")
