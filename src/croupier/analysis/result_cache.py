"""Finished ``croupier analyze PROFILE --json`` documents kept on disk (blackjack).

Running the same analysis again (the same profile, deck count and strategy, the same code)
prints the document it printed before instead of computing it: the compiled kernels are then
not even loaded, and numba's start-up alone (importing it and loading its cache, about a
second on a loaded two-core machine) is longer than the whole command may take. The key is a
SHA-256 of the profile's every field, the deck count, the strategy, the versions of numpy and
numba, and the source of every module that computes the figures
(``croupier/analysis/*.py``, ``croupier/rules/*.py``), so a change to any of them computes
anew. The directory (``cache_directory``) is the one Casino Hold'em's tables use too:
``$CROUPIER_CACHE_DIR``, else ``$XDG_CACHE_HOME/croupier``, else ``~/.cache/croupier``; an
unreadable or broken file is ignored and computed again.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any

from croupier.rules import Profile

_PACKAGE = Path(__file__).parents[1]


def cache_directory() -> Path:
    """``$CROUPIER_CACHE_DIR``, else ``$XDG_CACHE_HOME/croupier``, else ``~/.cache/croupier``:
    every analysis cache (Casino Hold'em's tables too) lives here. Kept in this light module so
    that reading a cached result loads no numba."""
    explicit = os.environ.get("CROUPIER_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "croupier"


def document_key(profile: Profile, decks: int | None, play: str) -> str:
    digest = hashlib.sha256()
    digest.update(profile.model_dump_json().encode())
    digest.update(f"|decks={decks}|play={play}|".encode())
    for package in ("numpy", "numba"):
        digest.update(f"{package}={metadata.version(package)}|".encode())
    for folder in ("analysis", "rules"):
        for source in sorted((_PACKAGE / folder).glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:32]


def _path(key: str) -> Path:
    return cache_directory() / f"analyze-{key}.json"


def load_document(key: str) -> dict[str, Any] | None:
    try:
        document = json.loads(_path(key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def store_document(key: str, document: dict[str, Any]) -> None:
    """Written to a temporary file and renamed, so a reader never sees half a file; a
    directory that cannot be written only costs the next run its time."""
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(document), encoding="utf-8")
        partial.replace(path)
    except OSError:
        return
