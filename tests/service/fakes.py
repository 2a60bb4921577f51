"""The service's outside parts, faked in memory (cosmicpython's ``FakeUnitOfWork`` and
``FakeRepository``): a command's handler runs on them without a database.

``FakeUnitOfWork`` hands each command a ``FakeSession`` and keeps what it wrote only when the
command returns (a commit); ``FakeAnswers`` is the idempotency repository (R8) whose rows
land with that commit, as the database's do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from croupier.clock import ManualClock
from croupier.service.errors import IdempotencyKeyReused
from croupier.service.idempotency import Answer
from croupier.service.unit_of_work import UnitOfWork

T = TypeVar("T")


class DatabaseAwayError(Exception):
    """What a ``FakeSession`` raises when the test has taken the database away."""


@dataclass
class FakeSession:
    """One transaction: the statements a command executed, and what lands at its commit."""

    is_away: bool = False
    executed: list[Any] = field(default_factory=list)
    at_commit: list[Callable[[], None]] = field(default_factory=list)

    def flush(self) -> None:
        if self.is_away:
            raise DatabaseAwayError("the database is away")

    def connection(self) -> FakeSession:
        return self

    def execute(self, statement: Any, *args: Any) -> None:
        self.flush()
        self.executed.append(statement)

    def get(self, model: Any, key: Any) -> None:
        self.flush()


class FakeUnitOfWork(UnitOfWork):
    """One transaction per ``run``: committed when the work returns, rolled back when it
    raises; ``is_away`` makes every statement fail (the database gone)."""

    def __init__(self) -> None:
        self.clock = ManualClock(1_000.0)
        self.commits = 0
        self.rollbacks = 0
        self.is_away = False
        self.sessions: list[FakeSession] = []

    def run(self, work: Callable[[Any], T], *, before_retry: Callable[[], None] | None = None) -> T:
        session = FakeSession(is_away=self.is_away)
        self.sessions.append(session)
        try:
            result = work(session)
        except BaseException:
            self.rollbacks += 1
            raise
        for landing in session.at_commit:
            landing()
        self.commits += 1
        return result

    def read(self, work: Callable[[Any], T]) -> T:
        return work(FakeSession(is_away=self.is_away))

    def dispose(self) -> None:
        pass


@dataclass
class FakeAnswers:
    """The idempotency repository: each user's keyed answers, by key."""

    rows: dict[tuple[int, str], tuple[str, Answer]] = field(default_factory=dict)

    def stored(self, session: Any, user_id: int, key: str, request_hash: str) -> Answer | None:
        row = self.rows.get((user_id, key))
        if row is None:
            return None
        if row[0] != request_hash:
            raise IdempotencyKeyReused(f"Idempotency-Key {key!r} was used for another request")
        return row[1]

    def record(
        self, session: Any, user_id: int, key: str, request_hash: str, *, answer: Answer, now: float
    ) -> None:
        def land() -> None:
            self.rows[(user_id, key)] = (request_hash, answer)

        session.at_commit.append(land)
