"""Issue 28, item 1: a route that changes state builds its command and calls the one handler,
``server.casino.handle(command, once)``, with the request's ``Once`` (``RequestOnce``, which
FastAPI resolves beside the caller: the key and the fingerprint, R8); no route chooses its own
transaction. The cashier's credit and debit, the staff's roles, a dealer's unassignment, a
dispute filed and a payout correction proposed or decided each chose one (``_once``, which
ran ``uow.run`` itself) before they became commands."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from croupier.server import (
    correction_routes,
    dealer_routes,
    protection_routes,
    routes,
    staff_routes,
)

NOT_COMMANDS = {"signup", "signin", "signout"}
"""Sessions, not commands: no ``Idempotency-Key`` (R8 names them), no table, no money."""


def _mutating_routes(module: object) -> list[ast.FunctionDef]:
    tree = ast.parse(Path(module.__file__).read_text())  # type: ignore[attr-defined]
    found = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            if (
                isinstance(decorator, ast.Call)
                and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr in {"post", "delete", "put", "patch"}
            ):
                found.append(node)
    return found


def _calls(function: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                names.add(node.func.attr)
    return names


@pytest.mark.parametrize(
    "module",
    [routes, staff_routes, dealer_routes, correction_routes, protection_routes],
    ids=lambda m: m.__name__,
)
def test_every_route_that_changes_state_hands_its_command_to_the_one_handler(module):
    checked = [f for f in _mutating_routes(module) if f.name not in NOT_COMMANDS]
    assert checked, module
    for function in checked:
        calls = _calls(function)
        assert "handle" in calls, (module.__name__, function.name)
        annotations = {ast.unparse(a.annotation) for a in function.args.kwonlyargs if a.annotation}
        assert "RequestOnce" in annotations, (module.__name__, function.name)
        assert not calls & {"run", "read", "_once", "run_once"}, (module.__name__, function.name)
