"""The one place errors become HTTP answers: a status and a JSON body
``{"error", "detail", "code", "params"}``.

``error`` (the class) and ``detail`` (English, naming the offending value) are for tools and
logs; ``code`` and ``params`` are for people: the pages render ``error.<code>`` from their
language's catalogue with the params (issue 13, item 6).

The mapping is total (issue 10, item 7): a domain error gets its status (4xx when the client
is at fault); a database that cannot be written or reached (disk full, locked, away) gets
503 with ``Retry-After``; an HTTP-level refusal (no such path, wrong method) keeps its status
in the same body; anything unexpected is logged and answers a JSON 500, never a dropped
connection or a bare text page.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sql
from starlette.exceptions import HTTPException

from croupier.errors import (
    AmountError,
    BetError,
    CardNeeded,
    CardRefused,
    CroupierError,
    IllegalActionError,
    InsufficientFunds,
    LedgerError,
    NotationError,
    Param,
    ProfileError,
    SettleInputError,
)
from croupier.service.errors import (
    AccountLocked,
    AuthenticationError,
    Conflict,
    Forbidden,
    IdempotencyError,
    IdempotencyKeyReused,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    RequestError,
    Unavailable,
)

log = logging.getLogger("croupier.server")

RETRY_AFTER_SECONDS = 5
"""What a 503 asks the client to wait before trying again."""

DETAIL_CHARS = 500
"""A detail names the offending value, cut to this length (a 16 KiB body is not echoed)."""

STATUS: tuple[tuple[type[CroupierError], int], ...] = (
    (AuthenticationError, 401),
    (InsufficientFunds, 402),
    (Forbidden, 403),
    (NotFound, 404),
    (IllegalActionError, 409),
    (Conflict, 409),
    (IdempotencyKeyReused, 422),
    (IdempotencyError, 400),
    (AccountLocked, 423),
    (RateLimited, 429),
    (PayloadTooLarge, 413),
    (AmountError, 422),
    (BetError, 422),
    (NotationError, 422),
    (CardRefused, 422),
    (CardNeeded, 409),
    (ProfileError, 422),
    (SettleInputError, 422),
    (RequestError, 422),
    (Unavailable, 503),
    (LedgerError, 500),
)

UNAVAILABLE: tuple[type[Exception], ...] = (
    sql.OperationalError,  # SQLite: disk full, database locked, I/O error; PostgreSQL: away
    sql.InterfaceError,
    # The database's own state: a session it ended (a process woken from SIGSTOP past the
    # write connections' bound on an idle transaction), a transaction out of sync, corrupt data.
    sql.InternalError,
    sql.TimeoutError,  # no pooled connection came free
    sql.DisconnectionError,
    sqlite3.OperationalError,
    psycopg.OperationalError,
    psycopg.InternalError,
)
"""Server-side database trouble: the client did nothing wrong and may try again."""


def status_of(error: CroupierError) -> int:
    for kind, status in STATUS:
        if isinstance(error, kind):
            return status
    return 400


def _cut(text: str) -> str:
    return text if len(text) <= DETAIL_CHARS else text[: DETAIL_CHARS - 3] + "..."


def body(kind: str, detail: str, /, *, code: str, **params: Param) -> dict[str, Any]:
    """The error document: ``params`` are cut as ``detail`` is (a value may be a client's)."""
    cut = {name: _cut(value) if isinstance(value, str) else value for name, value in params.items()}
    return {"error": kind, "detail": _cut(detail), "code": code, "params": cut}


def error_body(error: CroupierError) -> dict[str, Any]:
    return body(type(error).__name__, str(error), code=error.code, **error.params)


HTTP_CODES = {404: "no_such_path", 405: "method_not_allowed"}
"""The codes of the HTTP-level refusals a person may meet; any other is ``HTTP_OTHER``."""
HTTP_OTHER = "http_error"


def answer(error: CroupierError) -> JSONResponse:
    status = status_of(error)
    headers: dict[str, str] = {}
    if isinstance(error, RateLimited):
        headers["Retry-After"] = str(error.retry_after)
    elif status == 503:
        headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return JSONResponse(error_body(error), status_code=status, headers=headers)


def http_answer(error: HTTPException) -> JSONResponse:
    """An HTTP-level refusal (no such path, wrong method) in the same JSON body."""
    code = HTTP_CODES.get(error.status_code, HTTP_OTHER)
    return JSONResponse(
        body("HTTPError", str(error.detail), code=code, status=error.status_code),
        status_code=error.status_code,
        headers=error.headers,
    )


def unavailable(error: BaseException) -> JSONResponse:
    # The driver's text (e.g. "database or disk is full") says why; it names no secret.
    log.warning("database unavailable: %s", str(error).splitlines()[0][:200] if str(error) else "")
    return answer(
        Unavailable(f"the database cannot be used now; try again: {type(error).__name__}")
    )


def install(app: FastAPI) -> None:
    @app.exception_handler(CroupierError)
    async def _domain(_request: Request, error: CroupierError) -> JSONResponse:
        return answer(error)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [
            {"loc": problem.get("loc"), "msg": problem.get("msg")} for problem in error.errors()
        ]
        fields = sorted({str(problem["loc"][-1]) for problem in problems if problem["loc"]})
        return JSONResponse(
            body(
                "RequestError", str(problems), code="bad_request_fields", fields=", ".join(fields)
            ),
            status_code=422,
        )

    @app.exception_handler(HTTPException)
    async def _http(_request: Request, error: HTTPException) -> JSONResponse:
        return http_answer(error)

    for kind in UNAVAILABLE:

        @app.exception_handler(kind)
        async def _unavailable(_request: Request, error: Exception) -> JSONResponse:
            return unavailable(error)

    @app.exception_handler(OverflowError)
    async def _overflow(_request: Request, error: OverflowError) -> JSONResponse:
        # A number too large for the database (every bound at the edge should stop it first).
        log.warning("a number too large reached the database: %s", error)
        refusal = RequestError("a number in the request is too large", code="number_too_large")
        return JSONResponse(error_body(refusal), status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, error: Exception) -> JSONResponse:
        # The target is that none happen: each one is a bug, logged with its traceback.
        log.error("unexpected %s", type(error).__name__, exc_info=error)
        return JSONResponse(
            body("InternalError", "an unexpected server error; it was logged", code="internal"),
            status_code=500,
        )
