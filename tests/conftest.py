"""Shared test settings."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# JIT compilation inside @given blows any deadline (STACK.md pitfall).
settings.register_profile(
    "croupier", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile(
    "ci", parent=settings.get_profile("croupier"), derandomize=True, max_examples=100
)
settings.load_profile("ci" if os.environ.get("CI") else "croupier")


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
