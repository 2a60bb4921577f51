"""The site's build hooks (tools/docs_hooks.py): docstrings' doctests fenced for Markdown, and
the OpenAPI schema written from the app itself."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "tools" / "docs_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_doctest_block_is_fenced_to_its_blank_line(hooks: ModuleType) -> None:
    """Without the fence, Markdown reads ``>>>`` as quotes and the output ``['hit']`` as a
    link that ``--strict`` refuses (what broke the games page)."""
    text = "A round.\n\n    >>> game.legal_actions()\n    ['hit']\n\nAfter."
    assert hooks.fence_doctests(text).splitlines() == [
        "A round.",
        "",
        "    ```pycon",
        "    >>> game.legal_actions()",
        "    ['hit']",
        "    ```",
        "",
        "After.",
    ]
    assert hooks.fence_doctests(">>> 1\n1").splitlines() == ["```pycon", ">>> 1", "1", "```"]
    assert hooks.fence_doctests("No session.") == "No session."


def test_the_schema_written_is_the_one_the_app_serves(
    hooks: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(hooks, "SCHEMA", tmp_path / "openapi.json")
    hooks.on_pre_build(config=None)
    schema = json.loads((tmp_path / "openapi.json").read_text(encoding="utf-8"))
    assert schema["paths"]["/tables/{table_id}/bets"]["post"]["operationId"] == "bet"
    written = (tmp_path / "openapi.json").stat().st_mtime_ns
    hooks.on_pre_build(config=None)  # unchanged: not written again (mkdocs serve would loop)
    assert (tmp_path / "openapi.json").stat().st_mtime_ns == written
