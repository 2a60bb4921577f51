"""Errors of the table server's service layer; the HTTP edge maps each to one status."""

from __future__ import annotations

from typing import TypeVar

from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.storage import Base


class AuthenticationError(CroupierError):
    """No session, an expired one, or a wrong user name or password (one message for both)."""

    code = "not_signed_in"


class AccountLocked(CroupierError):  # noqa: N818 - the domain's own word
    """Three failed sign-ins within 30 minutes lock the account (R16)."""

    code = "account_locked"


class Forbidden(CroupierError):  # noqa: N818 - the domain's own word
    """The caller may not do this: another player's seat, or an operator's action."""

    code = "forbidden"


class NotFound(CroupierError):  # noqa: N818 - the domain's own word
    """No such table, round, shoe or user."""

    code = "not_found"


Row = TypeVar("Row", bound=Base)


def existing(session: Session, model: type[Row], key: int, noun: str) -> Row:
    """The row ``key`` of ``model``; ``NotFound`` ("no round 12") where there is none."""
    row = session.get(model, key)
    if row is None:
        raise NotFound(f"no {noun} {key}")
    return row


class Conflict(CroupierError):  # noqa: N818 - the domain's own word
    """The request clashes with the state: a name taken, a seat occupied, a table closed."""

    code = "conflict"


class IdempotencyError(CroupierError, ValueError):
    """A missing or malformed Idempotency-Key, or one reused with another request (R8)."""

    code = "idempotency_key"


class RequestError(CroupierError, ValueError):
    """A request body that is not what the route takes."""

    code = "bad_request"


class IdempotencyKeyReused(IdempotencyError):  # noqa: N818 - the domain's own word
    """The key was used before for a different request (R8)."""

    code = "idempotency_key_reused"


class PayloadTooLarge(RequestError):  # noqa: N818 - the HTTP status's own word
    """A request body above the edge's size limit (``MAX_BODY_BYTES``)."""

    code = "payload_too_large"


class RateLimited(CroupierError):  # noqa: N818 - the HTTP status's own word
    """Too many sign-ins, sign-ups or failed tokens from one client address (429)."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, seconds=retry_after)
        self.retry_after = retry_after


class Unavailable(CroupierError):  # noqa: N818 - the HTTP status's own word
    """The server cannot write or read its database now (disk full, locked, away): 503."""

    code = "unavailable"
