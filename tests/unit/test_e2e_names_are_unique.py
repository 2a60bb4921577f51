"""The browser tests share one live server per pytest worker (tests/e2e/conftest.py), so two
test files that sign up the same player, or open a table of the same name, collide: the second
gets 409, and a table's stacked seed left queued fails every later test on that worker. Each
name belongs to one file."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

E2E = Path(__file__).resolve().parents[1] / "e2e"
SHARED = {"operator"}  # the built-in operator account signs in, it does not sign up

PERSON = re.compile(r'person\(\s*"([a-z0-9_]+)"')
TABLE = re.compile(r'open_table\([^"\n]*"([^"{}]+)"')


def owners(pattern: re.Pattern[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(E2E.glob("test_*.py")):
        for name in pattern.findall(path.read_text(encoding="utf-8")):
            found[name].add(path.name)
    return found


def test_each_player_of_the_browser_tests_is_signed_up_by_one_file() -> None:
    shared = {n: files for n, files in owners(PERSON).items() if len(files) > 1 and n not in SHARED}
    assert not shared, f"players signed up by several files on one live server: {shared}"


def test_each_table_of_the_browser_tests_is_opened_by_one_file() -> None:
    shared = {n: files for n, files in owners(TABLE).items() if len(files) > 1}
    assert not shared, f"tables opened by several files on one live server: {shared}"
