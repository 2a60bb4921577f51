"""The fail safe at the HTTP edge (R17): 503 with ``Retry-After`` and the reasons, at once.

While the fail safe is engaged, a command to a table (``POST`` or ``DELETE`` under
``/tables/``) is answered before it is routed: no session lookup, no database, so a thousand
bets cost nothing and each is refused the same way. Any other request that fails because the
server cannot work (the database away, the entropy source failing) is answered the same way
once a probe confirms the fault, instead of a bare 500.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from croupier.service.fail_safe import FailSafe, FailSafeEngaged

COMMANDS = frozenset({"POST", "DELETE", "PUT", "PATCH"})


def refusal_response(refusal: FailSafeEngaged) -> JSONResponse:
    return JSONResponse(
        {
            "error": type(refusal).__name__,
            "detail": str(refusal),
            "code": refusal.code,
            "params": refusal.params,
            "faults": refusal.public(),
        },
        status_code=503,
        headers={"Retry-After": str(refusal.retry_after)},
    )


def _fail_safe(scope: Scope) -> FailSafe | None:
    server = getattr(scope["app"].state, "server", None)
    return None if server is None else server.casino.fail_safe


class FailSafeMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        safe = _fail_safe(scope) if scope["type"] == "http" else None
        if safe is None:
            await self.app(scope, receive, send)
            return
        if scope["method"] in COMMANDS and scope["path"].startswith("/tables/"):
            try:
                safe.verify_clear(f"{scope['method']} {scope['path']}")
            except FailSafeEngaged as refusal:
                await refusal_response(refusal)(scope, receive, send)
                return
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as error:
            found: FailSafeEngaged | None = None
            if not started:
                found = await asyncio.to_thread(safe.refusal_for, error)
            if found is None:
                raise
            await refusal_response(found)(scope, receive, send)


def install(app: FastAPI) -> None:
    app.add_middleware(FailSafeMiddleware)

    @app.exception_handler(FailSafeEngaged)
    async def _engaged(_request: Request, error: FailSafeEngaged) -> JSONResponse:
        return refusal_response(error)
