"""The suite's tests that run the compiled kernels go to one worker (``tests/conftest.py``:
``xdist_group``, with ``tools/check.py``'s ``--dist loadgroup``), so that no kernel is compiled
on both workers at once.

pytest 9.2 broke that without a sound: its structured node ids ignore the group that
pytest-xdist 3.8 writes into them (pytest-dev/pytest-xdist#1386), so the groups were spread
over both workers like any test and every kernel compiled twice. On a 2-core AMD EPYC (Zen 1),
a fresh clone's suite took 1,298 s of pytest that way (and ran 3,127 of its 3,272 tests: the
OpenAPI fuzz's 146 cases ran as 2); the basic-strategy cases of
``tests/consistency/test_simulator_blackjack_matches_engine.py`` took 42 s each, on both workers
at once, against 6.5 s after one compilation. ``pyproject.toml`` keeps pytest below 9.2 until
pytest-xdist follows; this test fails on the day the two disagree again.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GROUPED = """
import pytest

@pytest.mark.xdist_group("kernels")
@pytest.mark.parametrize("case", range(6))
def test_grouped(case):
    pass

@pytest.mark.parametrize("case", range(6))
def test_free(case):
    pass
"""


def test_a_group_of_tests_runs_on_one_worker_under_the_suites_distribution(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "test_grouped.py").write_text(GROUPED, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-n", "2",
         "--dist", "loadgroup", "test_grouped.py"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    grouped = re.findall(
        r"\[(gw\d)\].*PASSED test_grouped\.py::test_grouped\[\d\](\S*)", run.stdout
    )
    assert len(grouped) == 6, run.stdout
    assert {suffix for _, suffix in grouped} == {"@kernels"}, run.stdout
    assert len({worker for worker, _ in grouped}) == 1, run.stdout
