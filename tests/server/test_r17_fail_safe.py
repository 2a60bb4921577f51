"""R17: if the entropy source fails, the database is unavailable or the code was altered,
tables stop taking bets and rounds in flight become interrupted (GLI-19 2.3.2, 3.3.3).

Each fault is really made: the OS entropy functions raise, the SQLite file is taken away or
the PostgreSQL database refuses every connection, the code's recorded SHA-256 hashes differ
from the installed files. With a baccarat round in betting (stakes in escrow) and a blackjack
round waiting for a decision, 1,000 bets are then tried: every one is answered 503 with
``Retry-After`` and the fault named, and each refusal is logged. Both rounds show as
``interrupted`` with their stakes still held. Once the fault is repaired the fail safe clears
by itself, both rounds resume and settle, and the ledger audits at 0 with every balance what
the rounds' results make it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import sys
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import psycopg
import pytest
from server_support import OPERATOR_TOKEN, Api, Table, make_api
from sqlalchemy import event
from typer.testing import CliRunner

from croupier import integrity
from croupier.cli.main import app
from croupier.service.fail_safe import PUBLIC_REASONS, FailSafeEngaged, Fault
from croupier.service.models import RoundRecord

BETS = 1_000
PROBE_SECONDS = 0.05


T = TypeVar("T")


def run_on_own_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own: the browser tests leave an event loop running in
    the main thread of the same pytest process."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=60)


def wait_for(condition: Callable[[], bool], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the fail safe did not change within the time"
        time.sleep(0.01)


class Floor:
    """Two tables with a round in flight each: baccarat in betting, blackjack in decisions."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.baccarat = Table(api, "dragon-six-peru-2016", ["ana", "bruno"])
        self.blackjack = Table(api, "peru-2016", ["carla", "diego"])
        self.baccarat_round = self.baccarat.bet_all()
        for _ in range(20):
            # A natural at the deal settles the round at once (its shoe is random): deal again.
            self.blackjack_round = self.blackjack.bet_all()
            self.blackjack.ready_all()
            if self.blackjack.state()["round"]["status"] == "playing":
                break
        assert self.blackjack.state()["round"]["status"] == "playing"
        self.held = {table.id: self.live(table).held.copy() for table in self.tables}
        assert all(self.held.values())

    @property
    def tables(self) -> tuple[Table, Table]:
        return self.baccarat, self.blackjack

    def live(self, table: Table) -> Any:
        return self.api.server.casino.table(table.id)

    def shown(self, table: Table) -> dict[str, Any]:
        """The table as readers see it now (no database needed: the last published state)."""
        state: dict[str, Any] = self.api.server.casino.publisher.snapshot(self.live(table), None)
        return state

    def try_bets(self, fault: Fault) -> None:
        """1,000 bets on the baccarat table, alternating seats and wagers: all refused."""
        seat_of = self.baccarat.seat_of
        for number in range(BETS):
            name = ("ana", "bruno")[number % 2]
            answer = self.api.post(
                f"/tables/{self.baccarat.id}/bets",
                self.baccarat.tokens[name],
                {"seat": seat_of[name], "wager": ("banker", "player")[number % 2], "amount": 5},
            )
            assert answer.status_code == 503, answer.text
            assert int(answer.headers["Retry-After"]) >= 1
            body = answer.json()
            assert body["error"] == "FailSafeEngaged"
            assert fault in body["faults"] and str(fault) in body["detail"]

    def assert_interrupted(self, fault: Fault) -> None:
        for table in self.tables:
            shown = self.shown(table)
            assert shown["round"]["status"] == "interrupted"
            assert fault in shown["round"]["fail_safe"]
            assert shown["round"]["stakes"] == {
                str(seat): value["minor"] for seat, value in self.held[table.id].items()
            }
            assert self.live(table).held == self.held[table.id]  # still in escrow

    def assert_resumed_and_settled(self) -> None:
        assert self.baccarat.state()["round"]["id"] == self.baccarat_round
        assert self.baccarat.state()["round"]["status"] == "betting"
        assert self.blackjack.state()["round"]["status"] == "playing"
        for table in self.tables:
            assert self.live(table).held == self.held[table.id]
        self.baccarat.ready_all()
        self.blackjack.play_out(self.blackjack_round)
        for table, round_id in (
            (self.baccarat, self.baccarat_round),
            (self.blackjack, self.blackjack_round),
        ):
            assert table.recall(round_id)["status"] == "complete"
            assert table.balances() == table.expected_balances([round_id])
        report = self.api.audit()
        assert report["problems"] == [] and report["sum"] == 0


def assert_logged(caplog: pytest.LogCaptureFixture, fault: Fault) -> None:
    records = [r for r in caplog.records if r.name == "croupier.fail_safe"]
    engaged = [r for r in records if r.levelno == logging.ERROR and "engaged" in r.message]
    assert engaged and str(fault) in engaged[0].message
    refusals = [r for r in records if r.message.startswith("refused a POST /tables/")]
    assert len(refusals) == BETS
    assert any(f"{BETS} commands refused" in r.message for r in records if "cleared" in r.message)


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[Floor]:
    """The floor on SQLite: the entropy source and the code do not depend on the database."""
    made = make_api(
        f"sqlite:///{tmp_path / 'croupier.sqlite'}",
        fail_safe_seconds=PROBE_SECONDS,
        code_manifest=tmp_path / "code.manifest.json",
    )
    api = next(made)
    try:
        yield Floor(api)
    finally:
        made.close()


def run_fault(
    floor: Floor, caplog: pytest.LogCaptureFixture, fault: Fault, *, make: Any, repair: Any
) -> None:
    safe = floor.api.server.casino.fail_safe
    caplog.set_level(logging.INFO, logger="croupier.fail_safe")
    assert not safe.is_engaged
    make()
    wait_for(lambda: safe.is_engaged)
    floor.try_bets(fault)
    floor.assert_interrupted(fault)
    repair()
    wait_for(lambda: not safe.is_engaged)
    assert_logged(caplog, fault)
    floor.assert_resumed_and_settled()


def test_r17_entropy_failure_refuses_bets_until_the_source_works(
    floor: Floor, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import secrets

    def failing(*_args: object) -> bytes:
        raise OSError(5, "getrandom() failed: Input/output error")

    def make() -> None:
        monkeypatch.setattr(secrets, "token_bytes", failing)
        monkeypatch.setattr(secrets, "randbits", failing)

    def repair() -> None:
        # Before repairing: a command that needs the source (a new table's shoe) is refused
        # as the fault it met, not answered 500.
        opened = floor.api.post(
            "/operator/tables",
            OPERATOR_TOKEN,
            {
                "name": "new-shoe",
                "profile": "peru-2016",
                "betting_seconds": 5,
                "decision_seconds": 5,
            },
        )
        assert opened.status_code == 503 and opened.json()["error"] == "FailSafeEngaged"
        monkeypatch.undo()

    run_fault(floor, caplog, Fault.ENTROPY, make=make, repair=repair)


def test_r17_database_unavailable_refuses_bets_until_it_is_back(
    request: pytest.FixtureRequest, database_url: str, tmp_path: Path, caplog: Any
) -> None:
    if database_url.startswith("sqlite"):
        url = database_url
        database = Path(url.removeprefix("sqlite:///"))
        away = tmp_path / "away"
        away.mkdir()
        files = [database.with_name(database.name + suffix) for suffix in ("", "-wal", "-shm")]

        def make() -> None:  # the volume is gone: the file is no longer where it was
            for path in files:
                if path.exists():
                    shutil.move(path, away / path.name)

        def repair() -> None:
            for path in files:
                if (away / path.name).exists():
                    shutil.move(away / path.name, path)

        run_on(url, tmp_path, caplog, make, repair)
        return
    with dedicated_database(request.getfixturevalue("pg_server")) as (url, refuse_connections):
        run_on(
            url,
            tmp_path,
            caplog,
            lambda: refuse_connections(False),
            lambda: refuse_connections(True),
        )


@contextlib.contextmanager
def dedicated_database(server: str) -> Iterator[tuple[str, Callable[[bool], None]]]:
    """A PostgreSQL database of its own (the shared one must keep serving other tests), and
    the switch that makes it refuse every connection, cutting those open."""
    name = f"r17_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    url = server.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + f"/{name}"

    def refuse_connections(allowed: bool) -> None:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS {str(allowed).lower()}")
            if not allowed:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                    (name,),
                )

    try:
        yield url, refuse_connections
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.mark.postgres
def test_r17_a_bet_in_flight_when_the_database_goes_is_refused_and_leaves_nothing_behind(
    pg_server: str, tmp_path: Path
) -> None:
    """The database goes in the middle of a bet's transaction (after its postings, at the
    round's write): the bet answers 503, not 500; once the database is back the table holds
    exactly what the database holds, the bet can be placed again, and a restart rebuilds the
    round instead of voiding it."""
    with dedicated_database(pg_server) as (url, refuse_connections):
        made = make_api(url, fail_safe_seconds=PROBE_SECONDS)
        api = next(made)
        try:
            table = Table(api, "dragon-six-peru-2016", ["ana", "bruno"])
            table.bet_all()
            armed = [True]

            def database_goes(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
                if armed[0] and statement.startswith("UPDATE rounds"):
                    armed[0] = False
                    refuse_connections(False)

            event.listen(api.server.uow.engine, "before_cursor_execute", database_goes)
            answer = api.post(
                f"/tables/{table.id}/bets",
                table.tokens["ana"],
                {"seat": 1, "wager": "tie", "amount": 1},
            )
            assert answer.status_code == 503, answer.text
            assert (
                answer.json()["error"] == "FailSafeEngaged"
                and "database" in answer.json()["faults"]
            )
            safe = api.server.casino.fail_safe
            assert safe.is_engaged
            refuse_connections(True)
            wait_for(lambda: not safe.is_engaged)
            live = api.server.casino.table(table.id)
            recorded = api.server.uow.read(lambda s: s.get(RoundRecord, live.round_id))
            events = [item.to_json() for item in live.game_round.events]
            assert events == recorded.events and "tie" not in repr(events)
            again = api.post(
                f"/tables/{table.id}/bets",
                table.tokens["ana"],
                {"seat": 1, "wager": "tie", "amount": 1},
            )
            assert again.status_code == 200, again.text
            round_id = live.round_id
            # A restart (one server runs a database's tables at a time: issue 25, item 1).
            made.close()
            made = make_api(url, fail_safe_seconds=PROBE_SECONDS)
            table.api = api = next(made)
            notes = api.server.notes
            assert [n for n in notes if "voided" in n] == [], notes
            table.ready_all()
            assert table.recall(round_id)["status"] == "complete"
            assert table.balances() == table.expected_balances([round_id])
            report = api.audit()
            assert report["problems"] == [] and report["sum"] == 0
        finally:
            made.close()


def run_on(url: str, tmp_path: Path, caplog: Any, make: Any, repair: Any) -> None:
    made = make_api(url, fail_safe_seconds=PROBE_SECONDS, code_manifest=tmp_path / "code.json")
    api = next(made)
    try:
        run_fault(Floor(api), caplog, Fault.DATABASE, make=make, repair=repair)
    finally:
        made.close()


def test_r17_altered_code_refuses_bets_until_it_matches_its_hashes(
    floor: Floor, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    manifest = tmp_path / "code.manifest.json"
    recorded = manifest.read_text(encoding="utf-8")
    assert '"rules/profiles/peru-2016.toml"' in recorded  # written at the server's first start

    def make() -> None:  # the recorded hash of a rule profile no longer matches the file
        manifest.write_text(
            integrity.Manifest(
                {
                    **integrity.Manifest.read(manifest).files,
                    "rules/profiles/peru-2016.toml": "0" * 64,
                }
            ).to_json(),
            encoding="utf-8",
        )

    run_fault(
        floor,
        caplog,
        Fault.CODE,
        make=make,
        repair=lambda: manifest.write_text(recorded, encoding="utf-8"),
    )


def test_r17_the_code_is_checked_at_start(tmp_path: Path) -> None:
    """A server started on code that differs from its manifest takes no bet from the first."""
    manifest = tmp_path / "code.manifest.json"
    integrity.write_manifest(manifest)
    files = integrity.Manifest.read(manifest).files
    manifest.write_text(
        integrity.Manifest({**files, "added-by-an-attacker.py": "1" * 64}).to_json(),
        encoding="utf-8",
    )
    made = make_api(f"sqlite:///{tmp_path / 'c.sqlite'}", code_manifest=manifest)
    api = next(made)
    try:
        refusal = api.server.casino.fail_safe.refusal()
        assert isinstance(refusal, FailSafeEngaged)
        assert "missing: added-by-an-attacker.py" in refusal.faults[Fault.CODE]
        ana = api.player("ana")
        # No money moves by the staff's hand either: not even the operator's credit.
        credit = api.post("/operator/wallets/ana/credit", OPERATOR_TOKEN, {"amount": 10_000})
        assert credit.status_code == 503 and credit.json()["code"] == "fail_safe", credit.text
        assert api.balance(ana) == 0
        opened = api.post(  # the operator may still prepare the floor
            "/operator/tables",
            OPERATOR_TOKEN,
            {
                "name": "t",
                "profile": "dragon-six-peru-2016",
                "betting_seconds": 5,
                "decision_seconds": 5,
            },
        )
        assert opened.status_code == 201, opened.text
        answer = api.post(
            f"/tables/{opened.json()['table']}/bets",
            ana,
            {"seat": 1, "wager": "banker", "amount": 5},
        )
        assert answer.status_code == 503
        assert answer.json()["faults"] == {"code": PUBLIC_REASONS[Fault.CODE]}
        assert "attacker" not in answer.text  # the file names are for the operator's log
        assert "croupier manifest --write" in refusal.faults[Fault.CODE]
    finally:
        made.close()


def test_r17_a_changed_file_is_named(tmp_path: Path) -> None:
    """The hashes cover the files themselves: a copy of the package, one file edited."""
    copy = tmp_path / "croupier"
    shutil.copytree(integrity.PACKAGE_ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = tmp_path / "manifest.json"
    integrity.write_manifest(manifest, copy)
    assert integrity.altered(manifest, copy) == []
    target = copy / "settle.py"
    target.write_text(target.read_text(encoding="utf-8") + "\n# one more line\n", encoding="utf-8")
    (copy / "rules" / "profiles" / "extra.toml").write_text("x = 1\n", encoding="utf-8")
    (copy / "money.py").unlink()
    assert integrity.altered(manifest, copy) == [
        "changed: settle.py",
        "missing: money.py",
        "added: rules/profiles/extra.toml",
    ]


def test_r17_the_operator_regenerates_the_manifest_after_an_upgrade(tmp_path: Path) -> None:
    """``croupier manifest PATH --write`` records the code; ``croupier manifest PATH`` checks it
    (exit 2 naming each altered file)."""
    manifest = tmp_path / "m.json"
    runner = CliRunner()
    written = runner.invoke(app, ["manifest", str(manifest), "--write"])
    assert written.exit_code == 0, written.output
    files = integrity.Manifest.read(manifest).files
    manifest.write_text(
        integrity.Manifest({**files, "cards.py": "2" * 64}).to_json(), encoding="utf-8"
    )
    checked = runner.invoke(app, ["manifest", str(manifest)])
    assert isinstance(checked.exception, integrity.CodeIntegrityError)  # main() exits 2 on it
    assert "changed: cards.py" in str(checked.exception)
    assert runner.invoke(app, ["manifest", str(manifest), "--write"]).exit_code == 0
    again = runner.invoke(app, ["manifest", str(manifest)])
    assert again.exit_code == 0 and "matches" in again.output


def test_r17_croupier_serve_records_the_code_then_checks_it_at_each_start(tmp_path: Path) -> None:
    """A real ``croupier serve``: the first start writes the manifest; a start on code that no
    longer matches it serves, but refuses every bet with the fault named."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bots import ServerProcess, create_table, headers, new_player, operator_post

    manifest = tmp_path / "code.manifest.json"
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'serve.sqlite'}",
        log_path=tmp_path / "serve.log",
        code_manifest=manifest,
    )

    async def open_and_bet(*, credited: bool = True) -> httpx.Response:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            table = await create_table(client, f"t-{uuid.uuid4().hex[:6]}", "dragon-six-peru-2016")
            name = f"p{uuid.uuid4().hex[:6]}"
            if credited:
                token = await new_player(client, name, 10_000)
            else:  # the fail safe refuses the operator's credit too
                body = {"username": name, "password": f"password-of-{name}"}
                (await client.post("/auth/signup", json=body)).raise_for_status()
                token = (await client.post("/auth/signin", json=body)).json()["token"]
                with pytest.raises(httpx.HTTPStatusError, match="503"):
                    await operator_post(client, f"/operator/wallets/{name}/credit", {"amount": 10})
            assert (
                await client.post(f"/tables/{table}/seats/1", headers=headers(token))
            ).status_code in {200, 503}
            return await client.post(
                f"/tables/{table}/bets",
                json={"seat": 1, "wager": "banker", "amount": 5},
                headers=headers(token),
            )

    server.start()
    try:
        assert manifest.exists()  # the first start recorded the code
        assert run_on_own_loop(open_and_bet()).status_code == 200
    finally:
        server.stop()
    files = integrity.Manifest.read(manifest).files
    manifest.write_text(integrity.Manifest({**files, "games/blackjack.py": "3" * 64}).to_json())
    server.start()
    try:
        refused = run_on_own_loop(open_and_bet(credited=False))
    finally:
        server.stop()
    assert refused.status_code == 503, refused.text
    assert refused.json()["faults"] == {"code": PUBLIC_REASONS[Fault.CODE]}
    logged = (tmp_path / "serve.log").read_text()
    assert "fail safe engaged: code" in logged and "changed: games/blackjack.py" in logged
    assert "INFO croupier.fail_safe: refused a POST /tables/" in logged
