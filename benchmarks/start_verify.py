"""What verifying the audit chain at start (issue 25, item 5) adds to a server's start.

Builds a SQLite database of ``--rounds`` rounds played through the API in-process (three
players at a baccarat table: bets, the deal, settlement, each covered by the chain), then
times, interleaved ``--repeats`` times, the chain's verification as ``croupier serve`` runs
it before it starts (``audit.verify.problems_at_start``) against the rest of the start on
the same database (``server.app.start`` without it: claim, migrations, loading the tables).
Run: ``uv run python benchmarks/start_verify.py [--rounds 3000] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))

from server_support import Table, make_api
from sqlalchemy import text

from croupier.audit.verify import problems_at_start, snapshot
from croupier.server.app import start
from croupier.server.context import Settings


def build(url: str, rounds: int) -> None:
    made = make_api(url)
    api = next(made)
    table = Table(api, "dragon-six-peru-2016", ["ana", "bruno", "carla"])
    for done in range(rounds):
        table.play_round()
        if done % 500 == 499:
            print(f"  {done + 1} rounds", flush=True)
    made.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'big.sqlite'}"
        build(url, arguments.rounds)
        with snapshot(url) as connection:
            entries = connection.execute(text("SELECT count(*) FROM audit_chain")).scalar_one()
            rounds = connection.execute(text("SELECT count(*) FROM rounds")).scalar_one()
        verifying, starting = [], []
        for _ in range(arguments.repeats):
            began = time.perf_counter()
            assert problems_at_start(url) == []
            verifying.append(time.perf_counter() - began)
            began = time.perf_counter()
            server = start(Settings(database_url=url, demo_tables=False))
            starting.append(time.perf_counter() - began)
            server.uow.dispose()
            server.release()
        verify, rest = statistics.median(verifying), statistics.median(starting)
        print(
            f"{rounds} rounds, {entries} chain entries: verifying the chain at start "
            f"{verify:.2f} s (median of {arguments.repeats}), the rest of the start "
            f"{rest:.2f} s: the verification is {verify / rest:.2f}x the rest of the start"
        )


if __name__ == "__main__":
    main()
