"""R1 (GLI-19 3.3.1-3.3.2): only the OS cryptographic source decides live outcomes.

The lint half: nothing in the package imports ``random`` or ``numpy.random``, nor seeds from the
clock. (The run half, rounds of every game with both modules patched to raise, lives beside
each game's property tests.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from croupier.randomness import SystemRandomSource, shuffle_in_place

PACKAGE = Path(__file__).parents[2] / "src" / "croupier"
FORBIDDEN_MODULES = {"random", "numpy.random"}


def imported_modules(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def attribute_chains(tree: ast.AST) -> set[str]:
    chains: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            parts = [node.attr]
            value = node.value
            while isinstance(value, ast.Attribute):
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name):
                parts.append(value.id)
                chains.add(".".join(reversed(parts)))
    return chains


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_r1_no_insecure_random_in_the_package(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules = imported_modules(tree)
    assert not modules & FORBIDDEN_MODULES, f"{path.name} imports {modules & FORBIDDEN_MODULES}"
    chains = attribute_chains(tree)
    numpy_random = {c for c in chains if c.startswith(("np.random", "numpy.random"))}
    if path.relative_to(PACKAGE).parts[0] == "simulation":
        # The simulator decides no live outcome; it derives its blocks' seeds with numpy's
        # SeedSequence (reproducible whatever the number of workers) and nothing else.
        numpy_random -= {"np.random", "np.random.SeedSequence"}
    assert not numpy_random, path.name
    assert "time.time" not in chains or "seed" not in path.read_text(), path.name


def test_r1_the_live_source_does_not_touch_random(insecure_random_refused: None) -> None:
    deck = list(range(416))
    shuffle_in_place(deck, SystemRandomSource())
    assert sorted(deck) == list(range(416))


LIVE_PACKAGES = ("games", "service", "server", "shoe.py", "randomness.py", "fairness.py")


@pytest.mark.parametrize(
    "path",
    sorted(p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] in LIVE_PACKAGES),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_r1_live_dealing_never_imports_the_simulator(path: Path) -> None:
    """The one place numpy's seeding is allowed (``simulation``) stays out of live play."""
    modules = imported_modules(ast.parse(path.read_text(encoding="utf-8")))
    assert not {m for m in modules if m.startswith("croupier.simulation")}, path.name
