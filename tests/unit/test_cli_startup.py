"""The console command's start: numpy's BLAS on one thread unless the user says otherwise."""

from __future__ import annotations

import os
import subprocess
import sys


def _fresh(script: str, **environment: str) -> str:
    """What ``script`` prints in a fresh interpreter, with ``environment`` set."""
    settings = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=settings | environment,
        check=True,
        timeout=60,
    )
    return done.stdout.strip()


_BLAS = (
    "import os, croupier.cli.main, numpy; "
    "print(os.environ['OPENBLAS_NUM_THREADS'], len(os.listdir('/proc/self/task')))"
)


def test_the_command_runs_numpys_blas_on_one_thread() -> None:
    """OpenBLAS's spinning threads took a core from the analysis's second thread (cli.main):
    the console command asks for one before numpy loads, and numpy starts no thread."""
    assert _fresh(_BLAS) == "1 1"


def test_a_blas_thread_count_the_user_set_is_kept() -> None:
    assert _fresh(_BLAS, OPENBLAS_NUM_THREADS="2") == "2 2"
