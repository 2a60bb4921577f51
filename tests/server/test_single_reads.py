"""A read of one statement (a request's caller) runs outside a transaction on PostgreSQL.

At READ COMMITTED one statement is its own snapshot: the BEGIN and ROLLBACK around it were two
round trips on every request (issue 28, item 8). The pooled connection it used goes back to
running transactions for everything else; on SQLite such a read stays in a read transaction.
"""

from __future__ import annotations

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from croupier.clock import ManualClock
from croupier.service.database import make_engine, upgrade
from croupier.service.unit_of_work import UnitOfWork


def in_transaction(connection: Connection) -> bool:
    """Whether ``connection``'s database session has a transaction open, as its driver says."""
    connection.execute(text("SELECT 1"))
    driver = connection.connection.dbapi_connection
    assert driver is not None
    if connection.dialect.name == "postgresql":
        return str(driver.info.transaction_status.name) != "IDLE"
    return bool(driver.in_transaction)


def test_a_single_read_runs_outside_a_transaction_on_postgresql_only(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    uow = UnitOfWork(engine, ManualClock())
    try:
        is_postgresql = engine.dialect.name == "postgresql"
        for _ in range(3):  # the same pooled connection, again and again
            assert uow.read_one(in_transaction) is not is_postgresql
            assert uow.read(lambda session: in_transaction(session.connection()))

            def work(session: Session) -> bool:
                return in_transaction(session.connection())

            assert uow.run(work)
    finally:
        uow.dispose()
