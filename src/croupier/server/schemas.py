"""The request bodies, as typed models: only JSON integers are amounts (``StrictInt``: no
``5.0``, no ``true``, no ``"5"``), every text and number has its bound, and the OpenAPI schema
shows each body as a named component (issue 10, items 7 and 8; issue 11, item 6).

A body is read by ``context.json_body`` (size and depth limits first), then validated here
(``context.typed_body``: a route takes the model, never a bare dict).
A refusal keeps the error contract: an amount that is not one is the domain's own
``AmountError`` or ``BetError`` (the same ``parse_amount`` message the engine gives), any
other field a ``RequestError`` naming the field and the value.

>>> parse(BetBody, {"seat": 1, "amount": 5})
BetBody(seat=1, wager='main', amount=5)
>>> parse(BetBody, {"seat": 1, "amount": 5.0})
Traceback (most recent call last):
...
croupier.errors.AmountError: main: amount 5.0 is a float: only an integer is an amount
>>> parse(BetBody, {"seat": "1", "amount": 5})
Traceback (most recent call last):
...
croupier.service.errors.RequestError: seat: Input should be a valid integer (got '1')
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from croupier.errors import AmountError
from croupier.ledger.book import MAX_MINOR_AMOUNT, parse_minor_amount
from croupier.money import MAX_UNITS, parse_amount
from croupier.service.errors import RequestError

M = TypeVar("M", bound=BaseModel)

MAX_TABLE_NAME = 64
"""A table's name is 1 to 64 printable characters (it is listed to every player)."""
MAX_PROFILE_TEXT = 1024
"""A profile is named, or given as a file path of at most this many characters."""
MAX_SEAT = 1_000
"""No table has more seats or boxes than this; a larger number is no seat."""

MAX_ID = 2**53
"""The largest table, seat, round, shoe or back-bet number a path may name: a database
integer holds it (a larger one was SQLite's OverflowError, a 500)."""

Id = Annotated[int, Path(ge=0, le=MAX_ID)]
"""A number in a path (``/tables/{table_id}``): 0 to ``MAX_ID``."""

Units = Annotated[StrictInt, Field(ge=0, le=MAX_UNITS)]
"""Whole table units, 0 to ``MAX_UNITS`` (docs/rules.md §6; R13)."""
Minor = Annotated[StrictInt, Field(gt=0, le=MAX_MINOR_AMOUNT)]
"""Minor units moved by a credit or debit, 1 to ``MAX_MINOR_AMOUNT`` (R13)."""
Seat = Annotated[StrictInt, Field(ge=0, le=MAX_SEAT)]
Seconds = Annotated[float, Field(strict=True, ge=0.05, le=3600)]
Rounds = Annotated[StrictInt, Field(ge=1, le=1000)]
"""A count of betting rounds (an absent player's, docs/rules.md#D-GEN-15)."""


class Body(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class Credentials(Body):
    """Sign-up and sign-in; the rules of a user name and a password are the service's."""

    username: Annotated[StrictStr, Field(max_length=256)]
    password: Annotated[StrictStr, Field(max_length=1024)]


class Move(Body):
    """An operator's credit or debit of a wallet."""

    amount: Minor


class NewTable(Body):
    name: Annotated[StrictStr, Field(min_length=1, max_length=MAX_TABLE_NAME)]
    profile: Annotated[StrictStr, Field(min_length=1, max_length=MAX_PROFILE_TEXT)]
    betting_seconds: Seconds | None = None
    decision_seconds: Seconds | None = None
    sit_out_after: Rounds | None = None
    """Rounds a seat's player misses in a row before it sits out (default 3, D-GEN-15)."""
    free_after: Rounds | None = None
    """Further rounds missed, sitting out, before the seat is freed (default 3, D-GEN-15)."""
    shoe: Literal["random", "physical"] = "random"
    """``physical``: a dealer deals from a real shoe and enters each card (``service.physical``)."""


class Limits(Body):
    wager: Annotated[StrictStr, Field(max_length=64)]
    minimum: Units
    maximum: Units


class BetBody(Body):
    seat: Seat
    wager: Annotated[StrictStr, Field(max_length=64)] = "main"
    amount: Units


class ActionBody(Body):
    seat: Seat
    action: Annotated[StrictStr, Field(max_length=64)]


class Consent(Body):
    accept: StrictBool


class Empty(Body):
    """Sitting, leaving, ``ready``, opening and closing: nothing is read from the body."""


AMOUNTS = {"amount", "minimum", "maximum"}

TABLE_UNIT_BODIES: tuple[type[BaseModel], ...] = (BetBody, Limits)
"""Bodies whose amounts are whole table units (bets, back bets, limits): a bad one is refused
with the engine's own ``parse_amount`` error. Another body's amount (a payout correction's
minor units, negative to take back) is an ``AmountError`` with the validation's message,
which names its own bounds."""


def _amount_error(model: type[BaseModel], body: dict[str, Any], field: str, message: str) -> None:
    """Raise the domain's own error for a bad amount (its type and message)."""
    value = body[field]
    if model is Move:
        parse_minor_amount(value, field)
    elif model in TABLE_UNIT_BODIES:
        wager = body.get("wager", "main")
        parse_amount(value, wager if field == "amount" and isinstance(wager, str) else field)
    else:
        raise AmountError(f"{field}: {message} (got {value!r:.80})")


def parse(model: type[M], body: dict[str, Any]) -> M:
    """``body`` as ``model``, or the typed error that names the first bad field."""
    try:
        return model.model_validate(body)
    except ValidationError as error:
        problem = error.errors()[0]
        field = str(problem["loc"][0]) if problem["loc"] else ""
        if field in AMOUNTS and field in body:
            _amount_error(model, body, field, problem["msg"])
        shown = f" (got {problem['input']!r:.80})" if field in body else ""
        raise RequestError(
            f"{field or 'body'}: {problem['msg']}{shown}",
            code="bad_request_fields",
            fields=field or "body",
        ) from None


class Refusal(BaseModel):
    """Every answer of 4xx and 5xx: the error's class (``BetError``, ``Unavailable``...), a
    detail that names the offending value (``server.errors``), and a stable ``code`` with its
    ``params`` that the pages word in the player's language (``web/i18n``: ``error.<code>``)."""

    error: str
    detail: str
    code: str
    params: dict[str, Any]
