"""The service's outside parts, faked in memory (cosmicpython's ``FakeUnitOfWork`` and
``FakeRepository``): a command runs through ``Casino.handle`` without a database.

- ``FakeUnitOfWork`` hands each command a ``FakeSession`` and keeps what it wrote only when
  the command returns (a commit); a command that raises is rolled back.
- ``FakeSession`` holds the rows the service reads and writes through the ORM (a table's row,
  its shoes, rounds and rules, a player and their limits) by key: ``add`` and ``flush`` give a
  new row the next id, ``get`` finds it; ``select(Model)`` with plain comparisons finds its
  rows, any other query nothing (no staff, no back bets); the Core statements are recorded.
  At the commit SQLAlchemy's ``after_commit`` listeners run (``unit_of_work.on_commit``).
- The repositories behind the persistence of the bet's path: ``FakeAnswers`` (idempotency,
  R8), ``FakeLedger`` (the accounts and their postings: ``book.Ledger``) and
  ``FakeRoundRows`` (the round's record as it goes on: ``rounds.RoundRows``). What they
  write lands with the commit, or is undone at the rollback, as the database's does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count
from typing import Any, TypeVar

from sqlalchemy.orm import Session
from sqlalchemy.orm.evaluator import UnevaluatableError, _EvaluatorCompiler

from croupier.clock import ManualClock
from croupier.errors import InsufficientFunds
from croupier.ledger.book import Leg, check_balanced
from croupier.rules.base import Profile
from croupier.service.errors import IdempotencyKeyReused
from croupier.service.live import LiveTable
from croupier.service.unit_of_work import Answer, UnitOfWork, untimed

T = TypeVar("T")

Rows = dict[tuple[type, Any], Any]
"""A row by its model and primary key."""


class DatabaseAwayError(Exception):
    """What a ``FakeSession`` raises when the test has taken the database away."""


class FakeSession(Session):
    """One transaction of the fake database (see the module's docstring)."""

    def __init__(self, rows: Rows, ids: count[int], *, is_away: bool = False) -> None:
        super().__init__()
        self.rows = rows
        self.ids = ids
        self.is_away = is_away
        self.executed: list[Any] = []
        self.added: list[Any] = []
        self.at_commit: list[Callable[[], None]] = []
        self.at_rollback: list[Callable[[], None]] = []

    def flush(self, objects: Any = None) -> None:
        if self.is_away:
            raise DatabaseAwayError("the database is away")
        for row in self.added:
            if getattr(row, "id", 0) is None:
                row.id = next(self.ids)
            key = row.id if hasattr(row, "id") else _primary_key(row)
            self.rows[(type(row), key)] = row
            self.at_rollback.append(lambda key=key, row=row: self.rows.pop((type(row), key)))
        self.added = []

    def add(self, instance: object, _warn: bool = True) -> None:
        self.added.append(instance)

    def get(self, entity: Any, ident: Any, **_options: Any) -> Any:
        self.flush()
        return self.rows.get((entity, ident))

    def connection(self, *_args: Any, **_options: Any) -> Any:
        return self

    def execute(self, statement: Any, *_args: Any, **_options: Any) -> Any:
        self.flush()
        self.executed.append(statement)
        return NOTHING_FOUND

    def scalars(self, statement: Any, *_args: Any, **_options: Any) -> Any:
        self.flush()
        return self.found(statement)

    def scalar(self, statement: Any, *_args: Any, **_options: Any) -> Any:
        self.flush()
        found = self.found(statement)
        return found[0] if found else None

    def found(self, statement: Any) -> list[Any]:
        """What ``select(Model)`` or ``select(Model.column)`` with a ``where`` of plain
        comparisons finds among the rows (the evaluator SQLAlchemy's ``synchronize_session=
        "evaluate"`` uses), in the order they were written; nothing for any other query (a
        join, an aggregate, an ``exists`` such as ``protection.PROTECTED``: the real
        database's tests cover those)."""
        described = getattr(statement, "column_descriptions", None)
        if not described or len(described) != 1 or described[0].get("entity") is None:
            return []
        model, wanted = described[0]["entity"], described[0]["expr"]
        column = None if wanted is model else getattr(wanted, "key", None)
        if wanted is not model and getattr(model, str(column), None) is not wanted:
            return []  # an aggregate or an expression, not a column of the model
        rows = [row for (kind, _key), row in self.rows.items() if kind is model]
        if statement.whereclause is not None:
            try:
                matches = _EvaluatorCompiler(model).process(statement.whereclause)
            except UnevaluatableError:
                return []
            rows = [row for row in rows if matches(row) is True]
        return rows if column is None else [getattr(row, column) for row in rows]

    def committed(self) -> None:
        self.flush()
        for landing in self.at_commit:
            landing()
        self.dispatch.after_commit(self)

    def rolled_back(self) -> None:
        for undo in reversed(self.at_rollback):
            undo()


class _NothingFound:
    """A Core statement's answer on the fake: no row. The ledger's own statements go through
    its repository (``FakeLedger``); what a player's protection sums over the ledger is the
    real database's to test (``tests/server/test_player_protection.py``)."""

    def scalar(self) -> None:
        return None

    def first(self) -> None:
        return None

    def all(self) -> list[Any]:
        return []


NOTHING_FOUND = _NothingFound()


def _primary_key(row: Any) -> Any:
    mapper = row.__mapper__
    values = tuple(getattr(row, column.key) for column in mapper.primary_key)
    return values[0] if len(values) == 1 else values


class FakeUnitOfWork(UnitOfWork):
    """One transaction per ``run``: committed when the work returns, rolled back when it
    raises; ``is_away`` makes every statement fail (the database gone). Only the transaction
    is faked (``transaction``): a command's steps in it (its key's answer, the fence) are
    ``UnitOfWork.run``'s own."""

    def __init__(self) -> None:
        self.clock = ManualClock(1_000.0)
        self.timed = untimed
        self.commits = 0
        self.rollbacks = 0
        self.is_away = False
        self.rows: Rows = {}
        self.ids = count(1)
        self.sessions: list[FakeSession] = []

    def session(self) -> FakeSession:
        return FakeSession(self.rows, self.ids, is_away=self.is_away)

    def transaction(
        self, steps: Callable[[Any], T], *, before_retry: Callable[[], None] | None = None
    ) -> T:
        session = self.session()
        self.sessions.append(session)
        try:
            result = steps(session)
            session.committed()
        except BaseException:
            session.rolled_back()
            self.rollbacks += 1
            raise
        self.commits += 1
        return result

    def read(self, work: Callable[[Any], T]) -> T:
        return work(self.session())

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


@dataclass
class Account:
    kind: str
    owner: str
    balance: int = 0
    may_go_negative: bool = False


@dataclass
class FakeLedger:
    """The book (``book.Ledger``): accounts by id, each posting's legs by transaction; a
    posting checks its legs balance and refuses a debit the account cannot cover, as the
    database's guarded ``UPDATE`` does (R7, R9)."""

    accounts: dict[int, Account] = field(default_factory=dict)
    transactions: list[tuple[str, str, tuple[Leg, ...]]] = field(default_factory=list)

    def find_account(self, session: Any, kind: str, owner: str) -> int | None:
        for account_id, account in self.accounts.items():
            if (account.kind, account.owner) == (kind, owner):
                return account_id
        return None

    def open_account(
        self, session: Any, kind: str, owner: str, *, may_go_negative: bool = False
    ) -> int:
        found = self.find_account(session, kind, owner)
        if found is not None:
            return found
        account_id = len(self.accounts) + 1
        self.accounts[account_id] = Account(kind, owner, 0, may_go_negative)
        session.at_rollback.append(lambda: self.accounts.pop(account_id))
        return account_id

    def post(
        self, session: Any, kind: str, reference: str, legs: tuple[Leg, ...] | list[Leg], now: float
    ) -> int:
        check_balanced(legs)
        for leg in legs:
            account = self.accounts[leg.account]
            if leg.amount < 0 and not account.may_go_negative and account.balance < -leg.amount:
                raise InsufficientFunds(
                    f"account {leg.account} does not cover {-leg.amount} minor units ({kind})",
                    code="balance_too_low",
                    account=leg.account,
                    amount_minor=-leg.amount,
                    kind=kind,
                )
        for leg in legs:
            self.accounts[leg.account].balance += leg.amount
        self.transactions.append((kind, reference, tuple(legs)))

        def undo() -> None:
            self.transactions.pop()
            for leg in legs:
                self.accounts[leg.account].balance -= leg.amount

        session.at_rollback.append(undo)
        return len(self.transactions)

    def balance(self, session: Any, account_id: int) -> int:
        return self.accounts[account_id].balance

    def balance_of(self, kind: str, owner: str) -> int:
        """A test's look at an account's balance (0 before it is opened)."""
        found = self.find_account(None, kind, owner)
        return 0 if found is None else self.accounts[found].balance


@dataclass
class FakeRoundRows:
    """The rounds' records as the round goes on (``rounds.RoundRows``): each round's columns
    as last written, and its players."""

    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)
    players: set[tuple[int, int, int]] = field(default_factory=set)

    def save(self, session: Any, round_id: int, values: dict[str, Any]) -> None:
        before = dict(self.rounds.get(round_id, {}))
        self.rounds[round_id] = {**before, **values}
        session.at_rollback.append(lambda: self.rounds.__setitem__(round_id, before))

    def add_player(self, session: Any, round_id: int, seat: int, user_id: int) -> None:
        self.players.add((round_id, seat, user_id))
        session.at_rollback.append(lambda: self.players.discard((round_id, seat, user_id)))


def live_table(profile: Profile, seats: dict[int, int], escrow: int, **state: Any) -> LiveTable:
    """Table 1, "one", open, with 15 s to bet and 20 s to decide; ``state``: the rest."""
    return LiveTable(
        id=1,
        name="one",
        profile=profile,
        is_open=True,
        betting_seconds=15,
        decision_seconds=20,
        seats=seats,
        escrow=escrow,
        **state,
    )
