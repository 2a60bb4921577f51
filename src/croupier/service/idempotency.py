"""Exactly once (R8): a mutating request carries an ``Idempotency-Key``.

The answer is stored in the same transaction as the request's effect, so a repeat - even
after a crash and restart - returns the stored answer and moves no money twice; the same key
with another request is refused. Two concurrent duplicates race on the primary key: the
loser's transaction rolls back and it returns the winner's answer.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any, Protocol, cast

from sqlalchemy import Table, bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.service.errors import IdempotencyError, IdempotencyKeyReused
from croupier.service.models import IdempotencyRecord

KEY = re.compile(r"^[A-Za-z0-9_.:-]{8,128}$")

Answer = tuple[int, dict[str, Any]]


def fingerprint(method: str, path: str, body: Any) -> str:
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def check_key(key: str | None) -> str:
    if key is None:
        raise IdempotencyError("a mutating request needs an Idempotency-Key header")
    if not KEY.match(key):
        raise IdempotencyError(
            f"Idempotency-Key {key!r}: 8 to 128 letters, digits, '_', '.', ':' or '-'"
        )
    return key


# Core statements on the session's connection (same transaction as the effect): the ORM's
# identity map and flush cost more than the one-row SQL itself on every mutating request.
RECORDS = cast(Table, IdempotencyRecord.__table__)
STORED = select(RECORDS.c.request_hash, RECORDS.c.status_code, RECORDS.c.response).where(
    RECORDS.c.user_id == bindparam("user_id"), RECORDS.c.key == bindparam("key")
)
"""Built once, as ``RECORD`` is: building a statement per request cost more than running it."""
RECORD = insert(RECORDS)


def stored(session: Session, user_id: int, key: str, request_hash: str) -> Answer | None:
    found = session.connection().execute(STORED, {"user_id": user_id, "key": key}).first()
    if found is None:
        return None
    if found.request_hash != request_hash:
        raise IdempotencyKeyReused(
            f"Idempotency-Key {key!r} was used for another request; use a new key"
        )
    return found.status_code, found.response


def record(
    session: Session, user_id: int, key: str, request_hash: str, *, answer: Answer, now: float
) -> None:
    session.connection().execute(
        RECORD,
        {
            "user_id": user_id,
            "key": key,
            "request_hash": request_hash,
            "status_code": answer[0],
            "response": answer[1],
            "created_at": now,
        },
    )


class Answers(Protocol):
    """Where the answers to keyed requests are kept, in the command's own transaction: the
    database's table (``StoredAnswers``), or a test's dictionary (``tests/service``)."""

    def stored(self, session: Any, user_id: int, key: str, request_hash: str) -> Answer | None:
        """The answer stored for ``key``; ``IdempotencyKeyReused`` if another request used it."""

    def record(
        self, session: Any, user_id: int, key: str, request_hash: str, *, answer: Answer, now: float
    ) -> None:
        """Store ``answer`` for ``key`` in ``session``'s transaction."""


class StoredAnswers:
    """The answers in the database (``IdempotencyRecord``): ``stored`` and ``record``."""

    def stored(self, session: Any, user_id: int, key: str, request_hash: str) -> Answer | None:
        return stored(session, user_id, key, request_hash)

    def record(
        self, session: Any, user_id: int, key: str, request_hash: str, *, answer: Answer, now: float
    ) -> None:
        record(session, user_id, key, request_hash, answer=answer, now=now)


def once(transaction: Callable[[], Answer]) -> Answer:
    """``transaction()`` (which looks the key up, and stores its answer, in one transaction)
    again when a concurrent duplicate won the key's row: the second try reads its answer.
    A domain error is not stored: nothing changed, and the client may fix and retry."""
    for _ in range(3):
        try:
            return transaction()
        except IntegrityError:
            continue  # a concurrent duplicate won the key: read its answer
    return transaction()
