"""The full forms of the suite's heavy checks (tests marked ``slow``), which CI runs short.

    uv run python benchmarks/slow_checks.py [pytest arguments]

Runs every ``@pytest.mark.slow`` test (10^5-round deal-fidelity runs, thousands of seeded
rounds per profile, 10^4 live games per game with ``random`` patched to raise, ...) and
prints pytest's timings of the slowest.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    command = [sys.executable, "-m", "pytest", "-m", "slow", "--durations=20", *sys.argv[1:]]
    sys.exit(subprocess.run(command, cwd=ROOT, check=False).returncode)
