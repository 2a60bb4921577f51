"""The app tries its API routes in the order of ``server.app.API_ROUTERS``, a table's own first
(FastAPI tries routes one after another: the tries cost a player's every request, issue 28,
item 8). Order must decide nothing else: each route is the one a request for its own path
reaches, none hidden behind another tried before it (as ``POST /operator/tables/{id}/dealers``
would be behind ``POST /operator/tables/{id}/{state}``)."""

from __future__ import annotations

import re

from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import BaseRoute, Match

from croupier.server.app import API_ROUTERS

ROUTES: list[BaseRoute] = [
    route
    for router in API_ROUTERS
    for route in router.routes
    if isinstance(route, (APIRoute, APIWebSocketRoute))
]


def own_path(template: str) -> str:
    """A path ``template`` itself matches: each parameter given the value 7."""
    return re.sub(r"\{[^}]+\}", "7", template)


def first_to_match(scope: dict[str, object]) -> BaseRoute | None:
    return next((route for route in ROUTES if route.matches(scope)[0] is Match.FULL), None)


def test_each_api_route_is_the_first_its_own_path_reaches() -> None:
    hidden = []
    for route in ROUTES:
        path = own_path(route.path)  # type: ignore[attr-defined]
        if isinstance(route, APIWebSocketRoute):
            scopes = [{"type": "websocket", "path": path, "root_path": ""}]
        else:
            assert isinstance(route, APIRoute)
            methods = sorted(route.methods or ())
            scopes = [{"type": "http", "method": m, "path": path, "root_path": ""} for m in methods]
        for scope in scopes:
            first = first_to_match(scope)
            if first is not route:
                reached = getattr(first, "path", None)
                hidden.append(f"{scope.get('method', 'WS')} {path}: reaches {reached}")
    assert len(ROUTES) > 70
    assert hidden == []
