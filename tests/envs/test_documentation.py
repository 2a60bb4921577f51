"""docs/learning-environments.md's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).parents[2] / "docs" / "learning-environments.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)


def test_the_page_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_each_python_example_runs(number, capsys):
    exec(compile(BLOCKS[number], f"{PAGE.name} example {number + 1}", "exec"), {})
    if number == 0:
        printed = capsys.readouterr().out
        assert "net after 20 rounds" in printed and "Blackjack (Peru, 2016)" in printed
