"""The one place domain errors become HTTP answers: a status and a JSON body naming the problem."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from croupier.errors import (
    AmountError,
    BetError,
    CroupierError,
    IllegalActionError,
    InsufficientFunds,
    LedgerError,
    NotationError,
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
    RequestError,
)

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
    (AmountError, 422),
    (BetError, 422),
    (NotationError, 422),
    (ProfileError, 422),
    (SettleInputError, 422),
    (RequestError, 422),
    (LedgerError, 500),
)


def status_of(error: CroupierError) -> int:
    for kind, status in STATUS:
        if isinstance(error, kind):
            return status
    return 400


def error_body(error: CroupierError) -> dict[str, str]:
    return {"error": type(error).__name__, "detail": str(error)}


def install(app: FastAPI) -> None:
    @app.exception_handler(CroupierError)
    async def _domain(_request: Request, error: CroupierError) -> JSONResponse:
        return JSONResponse(error_body(error), status_code=status_of(error))

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {"error": "RequestError", "detail": str(error.errors())}, status_code=422
        )
