"""R7: two processes race two bets that only one balance covers; exactly one must pass.

Each trial credits a fresh wallet with exactly one stake; two worker processes, released
together by a barrier, each post that stake wallet -> escrow through the ledger's atomic
conditional update. Run: ``uv run python benchmarks/double_spend.py [trials]`` (1,000 per
database by default, SQLite and PostgreSQL). Prints the count of trials where exactly one
bet passed, and the trials per second.

The workers are writers of the ledger, not table servers (they claim no tables): a database
has one server process (issue 25, item 1), and this race is the one its request threads run.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from croupier.clock import SystemClock
from croupier.errors import InsufficientFunds
from croupier.ledger import book
from croupier.ledger.book import Leg, bet_legs
from croupier.service.database import make_engine, upgrade
from croupier.service.unit_of_work import UnitOfWork

STAKE = 100


def _worker(url: str, wallets: list[int], escrow: int, barrier: Any, results: Any) -> None:
    uow = UnitOfWork(make_engine(url), SystemClock())
    for trial, wallet in enumerate(wallets):
        barrier.wait()
        try:
            uow.run(
                lambda s, w=wallet, t=trial: book.post(
                    s,
                    "stake",
                    f"race:{t}",
                    bet_legs(wallet=w, escrow=escrow, minor=STAKE),
                    time.time(),
                )
            )
            results.put((trial, True))
        except InsufficientFunds:
            results.put((trial, False))


def race(url: str, trials: int) -> tuple[int, float, list[str]]:
    """Returns (trials with exactly one accepted bet, trials per second, audit problems)."""
    engine = make_engine(url)
    upgrade(engine)
    uow = UnitOfWork(engine, SystemClock())

    def setup(session: Any) -> tuple[list[int], int]:
        cashier = book.open_account(session, *book.CASHIER, may_go_negative=True)
        escrow = book.open_account(session, "escrow", "race")
        wallets = []
        for trial in range(trials):
            wallet = book.open_account(session, "wallet", f"race-{trial}")
            book.post(session, "credit", "race", [Leg(wallet, STAKE), Leg(cashier, -STAKE)], 0.0)
            wallets.append(wallet)
        return wallets, escrow

    wallets, escrow = uow.run(setup)
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    results = context.Queue()
    workers = [
        context.Process(target=_worker, args=(url, wallets, escrow, barrier, results))
        for _ in range(2)
    ]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    accepted: dict[int, int] = {}
    for _ in range(2 * trials):
        trial, ok = results.get(timeout=120)
        accepted[trial] = accepted.get(trial, 0) + int(ok)
    elapsed = time.perf_counter() - started
    for worker in workers:
        worker.join()
    exactly_one = sum(1 for count in accepted.values() if count == 1)
    problems = uow.read(book.audit)
    engine.dispose()
    return exactly_one, trials / elapsed, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trials", type=int, nargs="?", default=1000, help="races on each database")
    trials = parser.parse_args().trials
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import pg_cluster

    with tempfile.TemporaryDirectory() as folder:
        urls = {"sqlite": f"sqlite:///{folder}/race.sqlite"}
        urls["postgresql"] = pg_cluster.sqlalchemy_url(pg_cluster.server_url())
        for name, given_url in urls.items():
            url = given_url
            if name == "postgresql":
                import psycopg

                schema = f"race_{int(time.time())}"
                base = pg_cluster.server_url()
                with psycopg.connect(base, autocommit=True) as connection:
                    connection.execute(f"CREATE SCHEMA {schema}")
                url = pg_cluster.sqlalchemy_url(base, schema)
            exactly_one, rate, problems = race(url, trials)
            print(
                f"{name}: exactly one of two racing bets accepted in {exactly_one}/{trials} trials "
                f"({rate:.0f} trials/s); ledger problems: {len(problems)}"
            )
            if name == "postgresql":
                with psycopg.connect(base, autocommit=True) as connection:
                    connection.execute(f"DROP SCHEMA {schema} CASCADE")


if __name__ == "__main__":
    main()
