"""The dispute dossier a player files with the regulator (placeholder until the PDF step)."""

from __future__ import annotations

from typing import Any


def render(facts: dict[str, Any]) -> bytes:
    raise NotImplementedError
