"""Fixtures for the reports: a server on a fresh SQLite database whose shoes are seeded (the
day's play is the same at every run), its clock at a known hour of a known gaming day, and
an empty analysis cache of the test's own."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE))

from report_support import DAY_START, GAMING_DAY, SeededSecrets  # noqa: E402
from server_support import Api, make_api  # noqa: E402

from croupier.clock import ManualClock  # noqa: E402


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty analysis cache: no figure comes from another run's disk."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CROUPIER_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'croupier.sqlite'}"


@pytest.fixture
def api(database_url: str, cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Api]:
    from croupier.service import rounds

    monkeypatch.setattr(rounds, "secrets", SeededSecrets("reports"))
    yield from make_api(
        database_url, clock=ManualClock(DAY_START + 4 * 3600), gaming_day=GAMING_DAY
    )
