"""Shared test settings."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# JIT compilation inside @given blows any deadline (STACK.md pitfall).
settings.register_profile(
    "croupier", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile(
    "ci", parent=settings.get_profile("croupier"), derandomize=True, max_examples=100
)
settings.load_profile("ci" if os.environ.get("CI") else "croupier")
