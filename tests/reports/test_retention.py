"""Retention (issue 27, item 7): rounds, ledger and audit records are kept for the declared
period (``--retention-years``, default 7) and croupier itself deletes none of them, ever: no
module of croupier issues a DELETE against the tables that hold them (a dispute's or a
report's round is therefore always there)."""

from __future__ import annotations

import ast
import re
from datetime import date
from pathlib import Path

from croupier.reports.retention import DEFAULT_RETENTION_YEARS, KEPT_TABLES, kept_until
from croupier.service.models import Base

SOURCE = Path(__file__).resolve().parents[2] / "src" / "croupier"

MODEL_OF = {
    mapper.class_.__name__: mapper.class_.__tablename__
    for mapper in Base.registry.mappers
    if hasattr(mapper.class_, "__tablename__")
}


def _deletions(tree: ast.AST) -> list[str]:
    """What each ``delete(X)``, ``session.delete(...)`` and SQL ``DELETE FROM t`` names."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            name = getattr(function, "id", None) or getattr(function, "attr", None)
            if name == "delete" and node.args:
                target = ast.unparse(node.args[0])
                receiver = (
                    ast.unparse(function.value) if isinstance(function, ast.Attribute) else ""
                )
                if "session" in receiver:  # an ORM object deleted, whatever its class
                    found.append(f"session.delete({target})")
                else:
                    found.append(MODEL_OF.get(target, target))
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += re.findall(r"DELETE\s+FROM\s+(\w+)", node.value, flags=re.IGNORECASE)
    return found


def test_no_module_of_croupier_deletes_a_kept_record() -> None:
    deleting = {
        f"{path.relative_to(SOURCE)}: {target}"
        for path in sorted(SOURCE.rglob("*.py"))
        for target in _deletions(ast.parse(path.read_text(encoding="utf-8")))
        if any(table in target.lower() for table in KEPT_TABLES)
        or target.upper() in {"ROUNDS", "LEDGER_ENTRIES", "LEDGER_TRANSACTIONS"}
        or target.startswith("session.delete")
    }
    assert deleting == set()


def test_the_scan_sees_a_deletion_when_there_is_one() -> None:
    """The scan's own check: each form of deletion it must catch."""
    code = (
        "session.execute(delete(RoundRecord).where(RoundRecord.id == 1))\n"
        "connection.exec_driver_sql('DELETE FROM ledger_entries WHERE id = 1')\n"
        "self.session.delete(record)\n"
    )
    assert sorted(_deletions(ast.parse(code))) == [
        "ledger_entries",
        "rounds",
        "session.delete(record)",
    ]


def test_the_period_is_seven_years_unless_set_and_reported() -> None:
    assert DEFAULT_RETENTION_YEARS == 7
    assert kept_until(date(2026, 12, 5), DEFAULT_RETENTION_YEARS) == date(2033, 12, 5)
    assert set(KEPT_TABLES) <= set(MODEL_OF.values())
