"""Collection for the whole repository (``testpaths`` holds ``src/croupier`` for its doctests).

``croupier.envs.openspiel`` needs the optional ``openspiel`` extra: without ``pyspiel`` its
module is not collected for doctests (its test, ``tests/envs/test_openspiel_game.py``, is
skipped with the reason)."""

from __future__ import annotations

import importlib.util

collect_ignore = (
    [] if importlib.util.find_spec("pyspiel") is not None else ["src/croupier/envs/openspiel.py"]
)
