"""Crash points for the recovery tests (R10): the process kills itself, mid-transaction.

A test starts ``croupier serve`` with ``CROUPIER_CRASH_AT=<point>``; when the server reaches
that point it sends itself SIGKILL, so no commit, rollback or shutdown code runs - the same
as a power cut at that instant. Unset (always, in production) it does nothing.
"""

from __future__ import annotations

import os
import signal


def crash_point(name: str) -> None:
    if os.environ.get("CROUPIER_CRASH_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
