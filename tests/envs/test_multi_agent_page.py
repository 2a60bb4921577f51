"""docs/multi-agent.md's examples run as written (STYLE.md 10: docs are executable)."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).parents[2] / "docs" / "multi-agent.md"


def test_multi_agent_page_examples_run() -> None:
    result = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
