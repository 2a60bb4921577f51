"""R15: ``croupier audit verify`` as an operator runs it, in an interpreter of its own.

The chain's audited tables are looked up in the models' metadata; the staff's tables (roles,
dealer assignments, staff actions, disputes, payout corrections) are declared in a module that
the command never imported, so in a fresh process every verify of a served database raised
``KeyError: 'staff_roles'`` (a traceback and exit 1, which reads as a broken chain). The
in-process tests had imported that module already and could not see it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from croupier.server.app import start
from croupier.server.context import Settings

COMMAND = "import sys; from croupier.cli.main import main; sys.argv[0] = 'croupier'; main()"


def test_a_served_database_verifies_in_a_fresh_interpreter(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'croupier.sqlite'}"
    start(Settings(database_url=url, operator_token="operator-token-0123456789abcdef"))
    done = subprocess.run(
        [sys.executable, "-c", COMMAND, "audit", "verify", "--database", url],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
