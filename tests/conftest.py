"""Shared test settings."""

from __future__ import annotations

import functools
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from croupier.service.accounts import Argon2Cost

# The helpers the tests share about rounds (``round_support``) stand beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))

# JIT compilation inside @given blows any deadline (STACK.md pitfall).
settings.register_profile(
    "croupier", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile(
    "ci", parent=settings.get_profile("croupier"), derandomize=True, max_examples=100
)
settings.load_profile("ci" if os.environ.get("CI") else "croupier")

# The suite's SQLite databases are thrown away: their commits need not wait for the disk
# (croupier.service.database.SQLITE_SYNCHRONOUS says what NORMAL keeps; the servers the tests
# start inherit it). R10's kill -9 test sets FULL again, as a deployment has it.
os.environ.setdefault("CROUPIER_SQLITE_SYNCHRONOUS", "NORMAL")


def _hashing_passwords_at(patch: pytest.MonkeyPatch, cost: Argon2Cost) -> None:
    """The server's passwords (and the dummy hash an unknown name is checked against, R16)
    hashed at Argon2 ``cost`` from now on, until ``patch`` is undone."""
    from argon2 import PasswordHasher

    from croupier.service import accounts

    hasher = PasswordHasher(**cost)
    patch.setattr(accounts, "_hasher", hasher)
    patch.setattr(accounts, "_DUMMY_HASH", hasher.hash("not a password anyone has"))


@pytest.fixture(scope="session", autouse=True)
def cheap_password_hashes() -> Iterator[None]:
    """Argon2's least cost, for the passwords the tests make: at the real cost
    (``accounts.PASSWORD_COST``, 25-39 ms a hash on the project's 2-core machines, as much a
    check) each player a test signs up and in costs 50-80 ms of CPU, thousands of them a run.
    What a password's check does is the same at any cost; the cost itself, and the sign-in's
    equal work whatever the answer (R16), are checked at the real cost
    (``real_password_cost``). Servers that tests start as processes keep the real cost."""
    with pytest.MonkeyPatch.context() as patch:
        _hashing_passwords_at(patch, Argon2Cost(time_cost=1, memory_cost=8, parallelism=1))
        yield


@pytest.fixture
def real_password_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    """The passwords this test makes and checks cost what they cost in production."""
    from croupier.service.accounts import PASSWORD_COST

    _hashing_passwords_at(monkeypatch, PASSWORD_COST)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--approve",
        action="store_true",
        help="tests/e2e/test_approved_screenshots.py: write each page's picture as its approved "
        "image instead of comparing with it (a deliberate change of the pages)",
    )


KERNEL_USERS = re.compile(
    r"croupier\.(simulation|analysis|envs|counting)\b|from croupier\.hands\.poker|"
    r"[\"'](analyze|simulate)[\"']"
)
"""What a test module names when it runs the compiled kernels (numba), itself or by the CLI."""


@functools.cache
def _runs_kernels(path: Path) -> bool:
    return path.suffix == ".py" and bool(KERNEL_USERS.search(path.read_text(encoding="utf-8")))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of a module that runs the compiled kernels goes to one worker
    (``xdist_group``, with ``--dist loadgroup``: ``tools/check.py``). On a fresh clone numba's
    cache is empty and each kernel compiles on first call; two workers meeting the same
    kernel at once both compiled it: tests/consistency/test_simulator_blackjack_matches_engine.py
    took 186 s of CPU on two workers against 119 s on one (cold cache, same machine). The
    learning environments' tests, whose kernels are their own, are a second group, so the
    two groups run side by side and the rest fills in around them.

    And PostgreSQL's short form: a test parametrized over the database and over something
    else (a profile, a body, a phase) runs every case on SQLite in CI, and on PostgreSQL its
    first case (by node id); its other PostgreSQL cases are ``slow``, run in full by
    ``benchmarks/slow_checks.py``. What PostgreSQL alone can break (its locking, isolation,
    types, the schema's migrations) is met by one case as by all, and the 521 PostgreSQL cases
    were 231 of the suite's 1,393 worker-seconds: each makes a database of its own."""
    for item in items:
        if _runs_kernels(item.path):
            # The learning environments' kernels are their own (simulation/blackjack_vector):
            # a second group, which the other worker can hold at the same time.
            group = "environments" if "envs" in item.path.parts else "compiled-kernels"
            item.add_marker(pytest.mark.xdist_group(group))
    cases: dict[str, list[pytest.Item]] = {}
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None or item.get_closest_marker("postgres") is None:
            continue
        if item.get_closest_marker("slow") is not None:
            continue
        if set(callspec.params) <= {"database_url", "database_url_for"}:
            continue  # parametrized by the database alone: its PostgreSQL case is the one
        cases.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
    for same_test in cases.values():
        for item in sorted(same_test, key=lambda case: case.nodeid)[1:]:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def insecure_random_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R1's run half: ``random`` and ``numpy.random`` raise if anything dealing touches them."""

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a live deal used random or numpy.random")

    for name in (
        "random",
        "randrange",
        "randint",
        "getrandbits",
        "shuffle",
        "choice",
        "sample",
        "seed",
    ):
        monkeypatch.setattr(random, name, refuse)
    for name in ("random", "randint", "shuffle", "permutation", "choice", "default_rng", "seed"):
        monkeypatch.setattr(np.random, name, refuse)


@pytest.fixture(scope="session")
def casino_holdem_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh disk cache for the exact Casino Hold'em table, filled once per session (the
    slow tests that need the whole game share it; the first one pays the enumeration)."""
    from croupier.analysis.casino_holdem_exact import load_or_compute_table, qualifier_threshold
    from croupier.rules import CasinoHoldemRules, load_profile

    directory = tmp_path_factory.mktemp("croupier-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROUPIER_CACHE_DIR", str(directory))
        rules = load_profile("casino-holdem-standard")
        assert isinstance(rules, CasinoHoldemRules)
        _, cached = load_or_compute_table(qualifier_threshold(rules))
        assert not cached
        yield directory
