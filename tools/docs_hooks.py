"""MkDocs hooks for the documentation site (``mkdocs.yml``'s ``hooks``).

The HTTP API reference (``docs/openapi.md``) renders the schema the app itself serves at
``/openapi.json``: before each build the app factory writes it to ``docs/openapi.json`` (not
committed), so the reference cannot drift from the routes. It is written only when it changed,
so that ``mkdocs serve`` does not rebuild for ever on its own output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import griffe

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "openapi.json"


def on_pre_build(config: Any) -> None:
    from croupier.server.app import create_app
    from croupier.server.context import Settings

    schema = create_app(Settings(database_url="sqlite://", demo_tables=False)).openapi()
    text = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    if not SCHEMA.exists() or SCHEMA.read_text(encoding="utf-8") != text:
        SCHEMA.write_text(text, encoding="utf-8")


class FenceDoctests(griffe.Extension):
    """Docstrings show doctests bare (``>>>`` lines, then their output), as pytest's
    ``--doctest-modules`` runs them; Markdown would read ``>>>`` as quotes and an output
    such as ``['hit', 'stand']`` as a link. Each doctest block (from a ``>>>`` line to the
    next blank line, as docutils reads one) is fenced as ``pycon`` for the Python API pages."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)


def fence_doctests(text: str) -> str:
    r"""Fence each doctest block of ``text``.

    >>> fence_doctests("Deals.\n\n>>> 1 + 1\n2\n\nDone.").splitlines()
    ['Deals.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    lines: list[str] = []
    indent: str | None = None  # the open block's indentation, None outside a block
    for line in text.splitlines():
        stripped = line.lstrip()
        if indent is None and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            lines.append(f"{indent}```pycon")
        elif indent is not None and not stripped:
            lines.append(f"{indent}```")
            indent = None
        lines.append(line)
    if indent is not None:
        lines.append(f"{indent}```")
    return "\n".join(lines)
