"""R10: SQLite waits for the disk at every commit (``synchronous=FULL``) unless the environment
lowers it for a database no one keeps (``CROUPIER_SQLITE_SYNCHRONOUS``, the test suite's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from croupier.service.database import SQLITE_SYNCHRONOUS, make_engine

FULL, NORMAL = 2, 1  # what PRAGMA synchronous reads back


def _synchronous(path: Path) -> int:
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            level: int = connection.execute(text("PRAGMA synchronous")).scalar_one()
            return level
    finally:
        engine.dispose()


def test_r10_a_deployment_waits_for_the_disk_at_every_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SQLITE_SYNCHRONOUS, raising=False)
    assert _synchronous(tmp_path / "kept.sqlite") == FULL


def test_a_thrown_away_database_may_commit_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SQLITE_SYNCHRONOUS, "normal")
    assert _synchronous(tmp_path / "thrown-away.sqlite") == NORMAL


def test_anything_else_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SQLITE_SYNCHRONOUS, "OFF")  # OFF could lose a killed process's commits
    with pytest.raises(ValueError, match="CROUPIER_SQLITE_SYNCHRONOUS='OFF': one of FULL"):
        make_engine(f"sqlite:///{tmp_path / 'refused.sqlite'}")
