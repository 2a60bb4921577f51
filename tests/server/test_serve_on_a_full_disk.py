"""``croupier serve`` on a disk it cannot write says so in one line, as every CLI error does.

With ``ulimit -f 0`` (a full disk, as a process sees it) and a fresh data directory the
command died with SQLite's ``OperationalError: disk I/O error`` and forty lines of traceback,
exit 1. Now: ``croupier: error: ...`` naming the problem, the file and the database, exit 2 (the CLI's
convention for a ``CroupierError``, cli/main.py), and nothing served."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# ``ulimit -f 0`` in the child itself (a ``preexec_fn`` is unsafe in a process with threads).
COMMAND = (
    "import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0)); "
    "from croupier.cli.main import main; sys.argv[0] = 'croupier'; main()"
)


def test_serve_on_a_full_disk_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    database = tmp_path / "data" / "croupier.sqlite"
    database.parent.mkdir()
    url = f"sqlite:///{database}"
    done = subprocess.run(
        [sys.executable, "-c", COMMAND, "serve", "--port", "0", "--database", url],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    # The first file a start writes is the tables' claim beside the database (issue 25,
    # item 1); on a disk that takes no byte, that is what fails, named, with the database.
    assert lines[0].startswith(f"croupier: error: cannot write {database}.tables-claim: ")
    assert url in lines[0]
    assert "File too large" in lines[0]
    assert "croupier is serving" not in done.stdout
