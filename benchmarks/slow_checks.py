"""The full forms of the suite's heavy checks (tests marked ``slow``), which CI runs short.

    uv run python benchmarks/slow_checks.py [pytest arguments]

Runs every ``@pytest.mark.slow`` test (10^5-round deal-fidelity runs, thousands of seeded
rounds per profile, 10^4 live games per game with ``random`` patched to raise, ...) and
prints pytest's timings of the slowest; then the fast part of the suite on Python 3.12
(``tools/other_pythons.py``: CI runs it on 3.13 only).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OTHER_VERSIONS = ("3.12",)
"""The supported Python that CI leaves out (tools/other_pythons.py says why)."""

if __name__ == "__main__":
    command = [sys.executable, "-m", "pytest", "-m", "slow", "--durations=20", *sys.argv[1:]]
    slow = subprocess.run(command, cwd=ROOT, check=False).returncode
    other = [sys.executable, "tools/other_pythons.py", *OTHER_VERSIONS]
    sys.exit(slow or subprocess.run(other, cwd=ROOT, check=False).returncode)
