"""The reliability tests share ``live_shoes``; importlib mode does not put this folder on the
path, so it is added here (as tests/server does for its support module)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
