"""R10 and R11: kill -9 the server (a real ``croupier serve`` subprocess) during betting,
during decisions and during settlement; start it again; every round in flight resumes as it
was, and every balance is exact (GLI-19 B.3.5, 4.16, A.6.4)."""

from __future__ import annotations

import sys
import time
import uuid
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bots import OPERATOR_TOKEN, ServerProcess
from croupier.server.app import playable_profiles
from croupier.service.database import SQLITE_SYNCHRONOUS

WAGERS = {"blackjack": "main", "baccarat": "banker", "casino-holdem": "ante"}
CREDIT = 100_000


@pytest.fixture(autouse=True)
def as_deployed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The killed servers' SQLite waits for the disk at every commit, as a deployment's does
    (the rest of the suite lowers it: tests/conftest.py)."""
    monkeypatch.setenv(SQLITE_SYNCHRONOUS, "FULL")


class Client:
    def __init__(self, server: ServerProcess) -> None:
        self.server = server

    def call(
        self, method: str, path: str, token: str, body: Any = None, key: str | None = None
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key or uuid.uuid4().hex}
        return httpx.request(method, self.server.url + path, json=body, headers=headers, timeout=30)

    def ok(self, method: str, path: str, token: str, body: Any = None) -> Any:
        answer = self.call(method, path, token, body)
        assert answer.status_code in (200, 201), answer.text
        return answer.json()


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A table's state without the deadline (a restart gives a decision its full time again)."""
    return {**state, "round": {k: v for k, v in state["round"].items() if k != "deadline"}}


KILL_PROFILE = next((p for p in ("veintiuno-real", "peru-2016") if p in playable_profiles()), None)


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=[pytest.mark.postgres, pytest.mark.slow])]
)
def kill_database(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """SQLite in CI; PostgreSQL too in the slow run (each restart costs seconds)."""
    yield from request.getfixturevalue("database_url_for")(request.param)


@pytest.mark.skipif(KILL_PROFILE is None, reason="blackjack has not landed yet")
def test_kill_minus_9_in_every_phase_loses_and_makes_no_money(
    kill_database: str, tmp_path: Path
) -> None:
    profile = KILL_PROFILE
    assert profile is not None
    database_url = kill_database
    server = ServerProcess(database_url, log_path=tmp_path / "serve.log")
    server.start()
    client = Client(server)
    try:
        table = client.ok(
            "POST",
            "/operator/tables",
            OPERATOR_TOKEN,
            {"name": "kill", "profile": profile, "betting_seconds": 600, "decision_seconds": 600},
        )["table"]
        tokens = {}
        for seat, name in enumerate(["ann", "ben"], start=1):
            body = {"username": name, "password": f"password-of-{name}"}
            httpx.post(server.url + "/auth/signup", json=body).raise_for_status()
            tokens[name] = httpx.post(server.url + "/auth/signin", json=body).json()["token"]
            client.ok(
                "POST", f"/operator/wallets/{name}/credit", OPERATOR_TOKEN, {"amount": CREDIT}
            )
            client.ok("POST", f"/tables/{table}/seats/{seat}", tokens[name])
        seat_of = {"ann": 1, "ben": 2}
        owner = {1: "ann", 2: "ben"}
        wager = WAGERS[profile_game(profile)]

        def balances() -> dict[str, int]:
            return {
                name: client.ok("GET", "/me", token)["balance"] for name, token in tokens.items()
            }

        def state() -> dict[str, Any]:
            return client.ok("GET", f"/tables/{table}", OPERATOR_TOKEN)  # type: ignore[no-any-return]

        def restart(**env: str) -> None:
            server.kill()
            server.env = env
            server.start()
            # PostgreSQL: the killed process's lease on the table runs out first (issue 29);
            # meanwhile the table answers 503 table_moved.
            since = time.monotonic()
            while client.call("GET", f"/tables/{table}", OPERATOR_TOKEN).status_code == 503:
                assert time.monotonic() - since < 10
                time.sleep(0.1)

        def audit_is_clean() -> None:
            report = client.ok("GET", "/operator/audit", OPERATOR_TOKEN)
            assert report["problems"] == [] and report["sum"] == 0

        settled: list[int] = []
        for _attempt in range(6):
            # --- betting: bets stay in escrow, the round resumes -------------------------------
            round_id = state()["round"]["id"]
            for name, token in tokens.items():
                client.ok(
                    "POST",
                    f"/tables/{table}/bets",
                    token,
                    {"seat": seat_of[name], "wager": wager, "amount": 3},
                )
            before = comparable(state())
            held = balances()
            restart()
            assert comparable(state()) == before
            assert balances() == held
            audit_is_clean()
            # --- decisions: the round resumes where it stood ------------------------------------
            for token in tokens.values():
                client.ok("POST", f"/tables/{table}/ready", token)
            if state()["round"]["id"] != round_id:
                settled.append(round_id)  # settled at the deal (no decision): try the next round
                continue
            before = comparable(state())
            held = balances()
            restart(CROUPIER_CRASH_AT="settlement")
            assert comparable(state()) == before
            assert balances() == held
            # --- settlement: the server dies inside the settling transaction --------------------
            for _ in range(100):
                last_state = comparable(state())
                pending = last_state["round"]["pending"]
                path = f"/tables/{table}/actions"
                token = tokens[owner[pending["seat"]]]
                body = {"seat": pending["seat"], "action": pending["default"]}
                key = uuid.uuid4().hex
                try:
                    client.call("POST", path, token, body, key)
                except httpx.TransportError:
                    break  # the crash point fired inside the settling transaction
            assert server.process is not None and server.process.wait(10) == -9
            restart()
            # Nothing of the fatal request was kept: the round waits for the same last decision.
            assert comparable(state()) == last_state
            assert balances() == held
            # The client retries it with the same idempotency key; now it settles.
            retried = client.call("POST", path, token, body, key)
            assert retried.status_code == 200, retried.text
            assert state()["round"]["id"] != round_id
            settled.append(round_id)
            break
        expected = {name: CREDIT for name in tokens}
        for round_id in settled:
            document = client.ok("GET", f"/rounds/{round_id}", OPERATOR_TOKEN)
            assert document["status"] == "complete"
            for event in document["events"]:
                if event["kind"] == "Settled":
                    net = Fraction(str(event["payout"])) - Fraction(str(event["stake"]))
                    expected[owner[event["seat"]]] += int(net * 100)
        assert balances() == expected
        audit_is_clean()
    finally:
        server.stop()


def profile_game(profile: str) -> str:
    from croupier.rules.registry import load_profile

    return load_profile(profile).game
