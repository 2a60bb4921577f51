"""Issue 28, item 5: croupier's layers point one way, and no import hides a cycle.

The layers, top to bottom, are import-linter's contract in ``pyproject.toml``
(``[tool.importlinter]``, ``exhaustive``: a new top-level package or module must take a
place); a layer imports only from the layers below it, and the packages of one layer
(``a | b``) not from each other:

- ``cli``: the console command, the composition of everything below for a person at a shell.
- ``server``: the HTTP and WebSocket edge (routes, the app factory); it serves the pages.
- ``web``: the pages (templates, scripts, their languages); their data comes from the API.
- ``reports``: the daily report and the returns to player, read from the service's records.
- ``service``: the table service: commands, the unit of work, the schema; money moves here.
- ``envs``: learning environments, over the engines and, for the vector environment, the
  compiled simulator's kernel.
- ``simulation``: the compiled simulator.
- ``analysis | audit | ledger | settle | fairness``: exact analysis; the audit chain and the
  double-entry books, each on its own tables; ``settle``'s document; shoe commitments.
- ``games``: the round engines, one state machine per game.
- ``hands | shoe | counting | integrity | clock | storage``: hand values, the shoe, counting
  systems, the release manifest, injected time, the one declarative base.
- ``rules | randomness | cards``: profiles, the random sources, cards and their notation.
- ``money``, then ``errors`` at the bottom.

An import inside a function (or under ``TYPE_CHECKING``) that closes a cycle hides the cycle
rather than removing it (STYLE.md, "Layers point down"): none may, except ``HIDDEN_CYCLES``.
A lazy import that closes no cycle may stay only in a module of ``LAZY``, which says why.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
from importlinter import configuration
from importlinter.application.use_cases import lint_imports

import croupier

ROOT = Path(croupier.__file__).parent
PYPROJECT = ROOT.parents[1] / "pyproject.toml"

LAZY = {
    "croupier.cli": "each subcommand imports its library when it runs: `croupier --help` and "
    "the light commands start without numba, SQLAlchemy or the server "
    "(tests/unit/test_light_commands.py, test_cli_startup.py)",
    "croupier.analysis.profile_analysis": "each game's analysis loads when that game is "
    "analysed: a blackjack profile need not load Casino Hold'em's enumeration "
    "(benchmarks/analyze.py)",
    "croupier.analysis.by_count": "matplotlib loads only when a chart is drawn",
    "croupier.simulation.runner": "a worker loads only its own game's kernels",
    "croupier.simulation.baccarat_sim": "its error type is blackjack_sim's, whose kernels "
    "need not load for baccarat",
    "croupier.simulation.casino_holdem_sim": "its error type is blackjack_sim's, whose kernels "
    "need not load for Casino Hold'em",
    "croupier.simulation.casino_holdem_strategy": "the exact enumeration loads only to ask "
    "whether its table is cached",
    "croupier.simulation.report": "baccarat's section loads only for a baccarat report",
    "croupier.envs.table": "the exact oracle (numba's analysis) loads only with oracle=True",
    "croupier.reports.returns": "the analysis loads only when a table's returns are computed",
    "croupier.server.report_routes": "reportlab loads only when a PDF is asked for",
    "croupier.service.models": "the engines load only when a round's inputs are read: "
    "`croupier audit verify` and `backup` read the schema without them",
    "croupier.service.migrations": "a migration loads the engine only when it runs",
    "croupier.games.base": "none closes a cycle; base.py is being split along its seams "
    "(issue 28, item 4), which decides where each goes",
    "croupier.games.events": "every game's module is imported by name, once, to register events",
}
"""Modules (or packages) allowed imports inside functions that close no cycle, and why."""

HIDDEN_CYCLES = {
    ("croupier.service.history", "croupier.service.payout_corrections"):
    # payout_corrections -> disputes -> history: the split of history and disputes (issue 28,
    # item 4) removes it.
    "history <- disputes <- payout_corrections",
    ("croupier.service.fail_safe", "croupier.service.tables"):
    # A type only: what the fail safe asks of the casino, a protocol of its own once the
    # command path (issue 28, item 1) settles what the casino is.
    "tables -> fail_safe",
}
"""Known cycles still hidden by a lazy import: the debt, each with the way out. Empty is the
goal; a new entry is refused in review."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def hidden_imports(path: Path) -> list[tuple[int, str, bool]]:
    """``(line, module, is_lazy)`` of each ``croupier`` import inside a function (lazy) or
    under ``if TYPE_CHECKING:`` in ``path``."""
    found: list[tuple[int, str, bool]] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden_blocks: list[ast.AST] = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        or (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
    ]
    for block in hidden_blocks:
        lazy = not isinstance(block, ast.If)
        for node in ast.walk(block):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found += [(node.lineno, f"{node.module}.{a.name}", lazy) for a in node.names]
            elif isinstance(node, ast.Import):
                found += [(node.lineno, alias.name, lazy) for alias in node.names]
    return [item for item in set(found) if item[1].startswith("croupier")]


def as_module(name: str, graph: grimp.ImportGraph) -> str:
    """``croupier.a.b.thing`` as the module it names: the longest prefix the graph knows."""
    while name not in graph.modules:
        name = name.rsplit(".", 1)[0]
    return name


def test_every_layer_imports_only_from_the_layers_below() -> None:
    configuration.configure()  # what `lint-imports` sets up before it lints
    assert lint_imports(config_filename=str(PYPROJECT), no_logo=True, cache_dir=None)


def test_no_lazy_import_hides_a_cycle() -> None:
    graph = grimp.build_graph("croupier", cache_dir=None)
    hiding, unexplained, explained = [], [], set()
    for path in sorted(ROOT.rglob("*.py")):
        importer = module_name(path)
        for line, name, is_lazy in sorted(hidden_imports(path)):
            imported = as_module(name, graph)
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                if (importer, imported) not in HIDDEN_CYCLES:
                    hiding.append(f"{importer}:{line} -> {imported} (back: {' -> '.join(back)})")
            elif is_lazy:
                reasons = [m for m in LAZY if importer == m or importer.startswith(f"{m}.")]
                explained.update(reasons)
                if not reasons:
                    unexplained.append(f"{importer}:{line} -> {imported}")
    assert hiding == [], "move the import to the top and break the cycle it closes"
    assert unexplained == [], "import at the top, or say in LAZY why it waits"
    assert set(LAZY) == explained, "an entry of LAZY whose lazy imports are gone goes too"


def test_the_known_hidden_cycles_are_still_there() -> None:
    """An entry of ``HIDDEN_CYCLES`` whose cycle is gone goes too."""
    graph = grimp.build_graph("croupier", cache_dir=None)
    for importer, imported in HIDDEN_CYCLES:
        assert graph.find_shortest_chain(importer=imported, imported=importer) is not None


def test_the_ledgers_and_the_audits_tables_are_in_the_one_schema() -> None:
    from croupier.audit.models import AuditEntry
    from croupier.ledger.models import Account
    from croupier.service.models import Base

    assert Account.metadata is Base.metadata
    assert AuditEntry.metadata is Base.metadata
    assert {
        "accounts",
        "ledger_transactions",
        "ledger_entries",
        "audit_chain",
        "audit_head",
        "audit_cover",
    } <= set(Base.metadata.tables)
