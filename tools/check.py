"""The whole test suite, as the README runs it: lint, types, the documentation site, then tests.

Installs what the suite needs that pip cannot (see the browser and database steps in
``tools/``), then runs ``ruff``, ``mypy --strict``, ``mkdocs build --strict`` (a broken link,
anchor or docstring fails it) and ``pytest``. Extra arguments go to pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> None:
    print("$", " ".join(command), flush=True)
    completed = subprocess.run(command, cwd=ROOT, check=False)
    if completed.returncode != 0:
        sys.exit(completed.returncode)


def main() -> None:
    os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".cache" / "numba"))
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
        # The suite starts many processes (servers, CLI runs): each would compile every module
        # from source again. Their bytecode goes to the project's own cache folder instead.
        os.environ.setdefault("PYTHONPYCACHEPREFIX", str(ROOT / ".cache" / "pycache"))
    run(sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "tools")
    run(sys.executable, "-m", "mypy")
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")  # Material's banner about its successor
    with tempfile.TemporaryDirectory(prefix="croupier-site-") as site:
        run(sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", site)
    # Chromium for tests/e2e (browser marker), HAProxy for the load balancer's tests.
    from install_packages import install_browser, install_load_balancer

    install_browser()
    install_load_balancer()
    # Slow checks (full-size load tests and long simulations) run from benchmarks/slow_checks.py;
    # the suite runs their short forms. Pass your own -m to choose otherwise.
    selection = [] if "-m" in sys.argv[1:] else ["-m", "not slow"]
    run(
        sys.executable, "-m", "pytest",
        *selection, *workers(sys.argv[1:]), *time_limit(sys.argv[1:]), *sys.argv[1:],
    )  # fmt: skip


TEST_TIME_LIMIT = 300
"""Seconds one test may take before pytest-timeout fails it. The longest of the suite's
takes about 75 s on a loaded two-core machine; a test that waits for what never comes (a
socket's message, a process's line) fails with its stack after this, where it held the run
until CI's own limit. The slow checks, some of which take twenty minutes, choose their own."""


def time_limit(arguments: list[str]) -> list[str]:
    chosen = "-m" in arguments or any(a.startswith("--timeout") for a in arguments)
    return [] if chosen else ["--timeout", str(TEST_TIME_LIMIT)]


def workers(arguments: list[str]) -> list[str]:
    """One pytest worker per core (pytest-xdist), unless the arguments choose: the suite is
    CPU-bound and each test makes its own databases, ports and temporary files, so the workers
    share nothing but the compiled-kernel cache (numba writes it atomically). The tests that
    run the kernels are in groups, each on one worker (``--dist loadgroup``;
    ``tests/conftest.py`` says why), so no kernel is compiled twice at once. (A third worker
    on two cores, to fill the suite's waits on browsers and server processes, made it slower:
    1,038 s of pytest against 974 s.)"""
    chosen = any(
        a in ("-n", "--numprocesses") or a.startswith(("-n", "--numprocesses=")) for a in arguments
    )
    return [] if chosen else ["-n", "auto", "--dist", "loadgroup"]


if __name__ == "__main__":
    main()
