"""The fast part of the suite on the other Pythons users run (3.12, 3.13), after the main run.

``tools/check.py`` runs everything on the project's own Python (3.11). This runs a quick,
meaningful subset - the engines, every regulation test, the golden playthroughs, the unit tests
(profiles, settle, the CLI) and a few compiled kernels (the analysis's dealer kernel, the
simulator's shuffle and random streams) - on each other supported version found under
``pyenv``, each in a virtual environment of its own (``.venv-3.12``, ...), so the main ``.venv``
is untouched. The rest of ``tests/unit/analysis`` and ``tests/unit/simulation`` stays with the
main run: on a new Python every numba kernel compiles from nothing, and compiling all of them
twice more cost CI about two of its fifteen minutes, for kernels that numba compiles the same
way on every version it supports.
A version that is not installed is skipped with a message; a failure on one fails the run.

CI (``.ci/run``) runs the newest, 3.13: with 3.11's whole run it bounds the supported range
(``requires-python = ">=3.11,<3.14"``), and the suite must stay under fifteen minutes on two
cores (each version cost CI about 50 s: its own virtual environment, then the fast part).
3.12, between the two, runs with the slow checks (``benchmarks/slow_checks.py``) and on
demand:

    uv run python tools/other_pythons.py            # CI's: 3.13
    uv run python tools/other_pythons.py 3.12 3.13  # each version named
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = ("3.12", "3.13")
"""Every supported Python but the project's own (3.11)."""
IN_CI = ("3.13",)
"""The newest, run by default (the module docstring says why not 3.12 too)."""
KERNELS_KEPT = (
    "tests/unit/analysis/test_blackjack_kernel.py",
    "tests/unit/simulation/test_kernel_shuffle.py",
    "tests/unit/simulation/test_kernel_random.py",
)
LEFT_TO_THE_MAIN_RUN = ("analysis", "simulation")  # folders of tests/unit


def fast_part() -> list[str]:
    """``tests/regulations``, ``tests/playthroughs``, and ``tests/unit`` but for the folders
    left to the main run, with the kernels kept (named one by one: pytest's ``--ignore`` would
    drop them too)."""
    unit = ROOT / "tests" / "unit"
    kept = [
        str(path.relative_to(ROOT))
        for path in sorted(unit.iterdir())
        if path.name not in LEFT_TO_THE_MAIN_RUN
        and ((path.is_dir() and path.name != "__pycache__") or path.name.startswith("test_"))
    ]
    return ["tests/regulations", "tests/playthroughs", *kept, *KERNELS_KEPT]


SELECTION = "not slow and not browser and not postgres"


def interpreter(version: str) -> Path | None:
    """The newest ``pyenv`` installation of ``version`` (``3.12`` -> ``.../3.12.1/bin/python3.12``)."""
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return None
    listed = subprocess.run(
        [pyenv, "versions", "--bare"], capture_output=True, text=True, check=False
    ).stdout.split()
    candidates = sorted(
        (
            name
            for name in listed
            if name.startswith(f"{version}.") and name[len(version) + 1 :].isdecimal()
        ),
        key=lambda name: int(name.rsplit(".", 1)[1]),
    )
    for name in reversed(candidates):
        prefix = subprocess.run(
            [pyenv, "prefix", name], capture_output=True, text=True, check=False
        ).stdout.strip()
        python = Path(prefix) / "bin" / f"python{version}"
        if prefix and python.is_file():
            return python
    return None


def run_on(version: str) -> int:
    python = interpreter(version)
    if python is None:
        print(f"Python {version}: not installed under pyenv; skipped", flush=True)
        return 0
    environment = {
        **os.environ,
        "UV_PROJECT_ENVIRONMENT": str(ROOT / f".venv-{version}"),
        "NUMBA_CACHE_DIR": str(ROOT / ".cache" / f"numba-{version}"),
    }
    environment.pop("VIRTUAL_ENV", None)  # uv would warn that it is not the project's
    command = [
        "uv", "run", "--python", str(python), "python", "-m", "pytest",
        "-q", "-p", "no:cacheprovider", "-n", "auto", "-m", SELECTION, *fast_part(),
    ]  # fmt: skip
    print(f"Python {version} ({python}):", "$", " ".join(command), flush=True)
    return subprocess.run(command, cwd=ROOT, env=environment, check=False).returncode


def main() -> None:
    failed = [version for version in (sys.argv[1:] or IN_CI) if run_on(version) != 0]
    if failed:
        print("the fast part of the suite failed on Python", ", ".join(failed), flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
