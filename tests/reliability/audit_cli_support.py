"""``croupier audit ...`` run as its console entry point runs it, for the R15 tests."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from unittest import mock


def audit_cli(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``croupier audit ...`` as its console entry point runs it (exit codes included), in
    this process: a fresh interpreter per call would cost two seconds of imports."""
    argv = ["croupier", "audit", *arguments]
    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.object(sys, "argv", argv),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        from croupier.cli.main import main

        try:
            main()
            code = 0
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())
