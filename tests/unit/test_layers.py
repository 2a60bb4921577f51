"""Issue 11, item 7: the ledger stands below the service: nothing in ``croupier.ledger``
imports from ``croupier.service`` (the ledger's tables are its own, ``ledger/models.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import croupier.ledger

LEDGER = Path(croupier.ledger.__file__).parent


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_ledger_imports_nothing_from_the_service() -> None:
    modules = sorted(LEDGER.glob("*.py"))
    assert {path.name for path in modules} >= {"book.py", "models.py", "postings.py"}
    for path in modules:
        service = sorted(m for m in imported_modules(path) if m.startswith("croupier.service"))
        assert service == [], f"{path.name} imports {service}"


def test_the_ledgers_tables_are_in_the_one_schema() -> None:
    from croupier.ledger.models import Account
    from croupier.service.models import Base

    assert Account.metadata is Base.metadata
    assert {"accounts", "ledger_transactions", "ledger_entries"} <= set(Base.metadata.tables)
