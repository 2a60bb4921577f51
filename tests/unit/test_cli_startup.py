"""``croupier.cli.startup.loading``: what a command loads for the whole process is made with
the collector paused and frozen after, and the collector's state is given back as it was."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

from croupier.cli import startup


class _Node:
    """An object the collector tracks (a cycle, as imported modules and classes make)."""

    def __init__(self) -> None:
        self.me = self


def test_loading_pauses_collection_and_freezes_what_it_made() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    made: list[_Node] = []
    with startup.loading():
        assert not gc.isenabled()
        made.extend(_Node() for _ in range(1000))
    assert gc.isenabled()
    # Each node and its attribute dict, at least, left the collector's generations.
    assert gc.get_freeze_count() >= frozen + 1000
    gc.unfreeze()  # the test's own objects go back to the collector


def test_loading_leaves_a_disabled_collector_disabled() -> None:
    gc.disable()
    try:
        with startup.loading():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_loading_restores_the_collector_when_the_import_fails() -> None:
    try:
        with startup.loading():
            raise ImportError("no such module")
    except ImportError:
        pass
    assert gc.isenabled()
    gc.unfreeze()


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
