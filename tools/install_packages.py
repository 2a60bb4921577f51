"""Install the Debian packages the tests drive, only when missing: Chromium for the browser
tests, HAProxy for the load balancer's.

``playwright install`` cannot download its own browsers on these machines, so the end-to-end
tests (``tests/e2e``, marked ``browser``) drive ``/usr/bin/chromium`` from Debian's package;
the load balancer's tests (``tests/unit/test_load_balancer_*.py``) run Debian's HAProxy, as
``deploy/cluster.sh`` does. This runs ``apt-get update && apt-get install -y PACKAGE`` when a
program is absent and says what it does; it needs root (or sudo). Without it those tests skip,
saying why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
HAPROXY = Path("/usr/sbin/haproxy")


def install(program: Path, package: str, tests: str) -> bool:
    """True when ``program`` is there (already, or after installing ``package``)."""
    if program.exists():
        print(f"{package}: {program} is installed", flush=True)
        return True
    apt = shutil.which("apt-get")
    if apt is None:
        print(f"{package}: {program} is missing and there is no apt-get; {tests} will skip")
        return False
    prefix: list[str] = []
    if os.geteuid() != 0:
        sudo = shutil.which("sudo")
        if sudo is None:
            print(
                f"{package}: {program} is missing and installing it needs root; {tests} will skip"
            )
            return False
        prefix = [sudo, "-n"]
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in ([*prefix, apt, "update"], [*prefix, apt, "install", "-y", package]):
        print(f"{package}: $", " ".join(command), flush=True)
        if subprocess.run(command, check=False, env=environment).returncode != 0:
            print(f"{package}: the install failed; {tests} will skip", flush=True)
            return False
    return program.exists()


def install_browser() -> bool:
    return install(CHROMIUM, "chromium", "browser tests")


def install_load_balancer() -> bool:
    return install(HAPROXY, "haproxy", "the load balancer's tests")


if __name__ == "__main__":
    sys.exit(0 if install_browser() and install_load_balancer() else 1)
