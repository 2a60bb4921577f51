"""The Python examples of the README and of the documentation site run as written (STYLE.md
10: docs are executable): every page with a ``>>>`` session is a doctest."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
DOCUMENTS = [
    path
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    if "\n>>> " in path.read_text(encoding="utf-8")
]


def test_the_readme_and_the_api_pages_have_examples() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in DOCUMENTS}
    assert {"README.md", "docs/http-api.md", "docs/python/index.md"} <= names


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_examples_run(document: Path) -> None:
    result = doctest.testfile(str(document), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
