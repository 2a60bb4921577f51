"""Install Debian's Chromium for the browser tests, only when it is missing.

``playwright install`` cannot download its own browsers on these machines, so the end-to-end
tests (``tests/e2e``, marked ``browser``) drive ``/usr/bin/chromium`` from Debian's package.
This runs ``apt-get update && apt-get install -y chromium`` when that file is absent and says
what it does; it needs root (or sudo). Without it the browser tests skip, saying why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")


def install_browser() -> bool:
    """True when Chromium is there (already, or after installing it)."""
    if CHROMIUM.exists():
        print(f"browser: {CHROMIUM} is installed", flush=True)
        return True
    apt = shutil.which("apt-get")
    if apt is None:
        print(f"browser: {CHROMIUM} is missing and there is no apt-get; browser tests will skip")
        return False
    prefix: list[str] = []
    if os.geteuid() != 0:
        sudo = shutil.which("sudo")
        if sudo is None:
            print(
                f"browser: {CHROMIUM} is missing and installing it needs root; browser tests will skip"
            )
            return False
        prefix = [sudo, "-n"]
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in ([*prefix, apt, "update"], [*prefix, apt, "install", "-y", "chromium"]):
        print("browser: $", " ".join(command), flush=True)
        if subprocess.run(command, check=False, env=environment).returncode != 0:
            print("browser: the install failed; browser tests will skip", flush=True)
            return False
    return CHROMIUM.exists()


if __name__ == "__main__":
    sys.exit(0 if install_browser() else 1)
