"""Helpers for the table server's tests (imported by name: tests/server is on sys.path)."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from croupier.clock import ManualClock
from croupier.server.app import create_app, start
from croupier.server.context import Server, Settings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

OPERATOR_TOKEN = "operator-token-for-tests-0123456789"

GENEROUS_RATE_LIMIT = "100000/minute"
"""Tests sign many players up and in from one address; the default limit has its own test."""


class Api:
    """A test client that signs requests and gives each mutating one a fresh idempotency key."""

    def __init__(self, client: TestClient, server: Server, clock: ManualClock) -> None:
        self.client = client
        self.server = server
        self.clock = clock

    def key(self) -> str:
        return f"key-{uuid.uuid4().hex}"

    def from_address(self, host: str) -> Api:
        """The same server reached from another client address (rate limits and sign-in
        locks count per address). The test client's own address is ``testclient``."""
        other = TestClient(self.client.app, client=(host, 40_000))
        return Api(other, self.server, self.clock)

    def headers(self, token: str | None, key: str | None = None) -> dict[str, str]:
        headers = {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if key is not None:
            headers["Idempotency-Key"] = key
        return headers

    def get(self, path: str, token: str | None) -> Any:
        return self.client.get(path, headers=self.headers(token))

    def post(self, path: str, token: str | None, body: Any = None, key: str | None = "auto") -> Any:
        return self.client.post(
            path,
            json=body if body is not None else {},
            headers=self.headers(token, self.key() if key == "auto" else key),
        )

    def player(self, name: str, credit_minor: int = 0) -> str:
        """Sign ``name`` up and in; credit the wallet; return the bearer token."""
        password = f"password-of-{name}"
        assert (
            self.post(
                "/auth/signup", None, {"username": name, "password": password}, key=None
            ).status_code
            == 201
        )
        answer = self.post("/auth/signin", None, {"username": name, "password": password}, key=None)
        assert answer.status_code == 200, answer.text
        if credit_minor:
            credited = self.post(
                f"/operator/wallets/{name}/credit", OPERATOR_TOKEN, {"amount": credit_minor}
            )
            assert credited.status_code == 200, credited.text
        token: str = answer.json()["token"]
        return token

    def balance(self, token: str) -> int:
        value: int = self.get("/me", token).json()["balance"]
        return value

    def audit(self) -> dict[str, Any]:
        report: dict[str, Any] = self.get("/operator/audit", OPERATOR_TOKEN).json()
        return report


def make_api(
    database_url: str,
    *,
    demo_tables: bool = False,
    clock: ManualClock | None = None,
    **settings: Any,
) -> Iterator[Api]:
    """A server on ``database_url`` with a test client; its clock is ``clock`` (a fresh
    ``ManualClock`` unless given: a restart's later start)."""
    clock = clock or ManualClock()
    settings.setdefault("rate_limit", GENEROUS_RATE_LIMIT)
    settings.setdefault("token_rate_limit", GENEROUS_RATE_LIMIT)
    config = Settings(
        database_url=database_url,
        operator_token=OPERATOR_TOKEN,
        clock=clock,
        demo_tables=demo_tables,
        **settings,
    )
    server = start(config)
    try:
        with TestClient(create_app(config, server=server)) as client:
            yield Api(client, server, clock)
    finally:
        server.release()  # the server stops: another may run the database's tables


# --- playing rounds through the API ---------------------------------------------------------
WAGERS = {"blackjack": "main", "baccarat": "banker", "casino-holdem": "ante"}


def minimum_bet(profile: Any, wager: str) -> int:
    """The table minimum of ``wager`` under ``profile``, read from its limits fields."""
    limits = getattr(profile, "limits", None)
    if isinstance(limits, dict):
        limits = limits.get(wager) or next(iter(limits.values()))
    if limits is None:
        limits = getattr(profile, f"{wager}_limits")
    minimum: int = limits.minimum
    return minimum


def one_deck_profile(folder: Path, base: str = "veintiuno-real", cut_from_bottom: int = 30) -> str:
    """A copy of a shipped blackjack profile dealt from one deck with an early cut card:
    shoes end after a few rounds, and each card string is unique within a shoe (R6, R18)."""
    from croupier.rules.registry import _shipped_dir

    text = (_shipped_dir() / f"{base}.toml").read_text(encoding="utf-8")
    lines = []
    in_rules = True
    for original in text.splitlines():
        line = original
        if line.startswith("["):
            in_rules = False  # [sources] and the side-bet tables keep their lines
        if not in_rules:
            pass
        elif line.startswith("name ="):
            line = f'name = "{base}-one-deck"'
        elif line.startswith("decks ="):
            line = "decks = 1"
        elif line.startswith("shoe ="):
            line = f"shoe = {{ cut_card_from_bottom = {cut_from_bottom}, burn_on_new_shoe = 1 }}"
        lines.append(line)
    path = folder / f"{base}-one-deck.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


class Table:
    """A table driven through the HTTP API by several players."""

    def __init__(
        self, api: Api, profile: str, players: list[str], credit_minor: int = 1_000_000
    ) -> None:
        from croupier.rules.registry import load_profile

        self.api = api
        self.profile = load_profile(profile)
        self.wager = WAGERS[self.profile.game]
        self.stake = minimum_bet(self.profile, self.wager)
        created = api.post(
            "/operator/tables",
            OPERATOR_TOKEN,
            {
                "name": f"t-{uuid.uuid4().hex[:8]}",
                "profile": profile,
                "betting_seconds": 60,
                "decision_seconds": 60,
            },
        )
        assert created.status_code == 201, created.text
        self.id: int = created.json()["table"]
        self.tokens = {name: api.player(name, credit_minor) for name in players}
        self.credit = credit_minor
        self.seat_of = {}
        for seat, name in enumerate(players, start=1):
            answer = api.post(f"/tables/{self.id}/seats/{seat}", self.tokens[name])
            assert answer.status_code == 200, answer.text
            self.seat_of[name] = seat
        self.owner = {seat: name for name, seat in self.seat_of.items()}

    def state(self, name: str | None = None) -> dict[str, Any]:
        token = self.tokens[name] if name else OPERATOR_TOKEN
        answer = self.api.get(f"/tables/{self.id}", token)
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        return state

    def bet_all(self, amount: int | None = None) -> int:
        round_id: int = self.state()["round"]["id"]
        for name, token in self.tokens.items():
            answer = self.api.post(
                f"/tables/{self.id}/bets",
                token,
                {"seat": self.seat_of[name], "wager": self.wager, "amount": amount or self.stake},
            )
            assert answer.status_code == 200, answer.text
        return round_id

    def ready_all(self) -> None:
        for token in self.tokens.values():
            answer = self.api.post(f"/tables/{self.id}/ready", token)
            assert answer.status_code == 200, answer.text

    def play_out(self, round_id: int, choose: Any = None, limit: int = 200) -> None:
        """Answer every decision of round ``round_id`` (``choose(pending)`` or the default)."""
        for _ in range(limit):
            state = self.state()
            if state["round"]["id"] != round_id:
                return
            pending = state["round"]["pending"]
            assert pending is not None, state
            action = choose(pending) if choose else pending["default"]
            name = self.owner[pending["seat"]]
            answer = self.api.post(
                f"/tables/{self.id}/actions",
                self.tokens[name],
                {"seat": pending["seat"], "action": action},
            )
            assert answer.status_code == 200, answer.text
        raise AssertionError(f"round {round_id} did not end in {limit} decisions")

    def play_round(self, choose: Any = None) -> int:
        round_id = self.bet_all()
        self.ready_all()
        self.play_out(round_id, choose)
        return round_id

    def recall(self, round_id: int, name: str | None = None) -> dict[str, Any]:
        token = self.tokens[name] if name else OPERATOR_TOKEN
        answer = self.api.get(f"/rounds/{round_id}", token)
        assert answer.status_code == 200, answer.text
        document: dict[str, Any] = answer.json()
        return document

    def expected_balances(self, round_ids: list[int]) -> dict[str, int]:
        """Each player's credit plus the net of every Settled event of the rounds (minor units)."""
        from fractions import Fraction

        balances = {name: self.credit for name in self.tokens}
        for round_id in round_ids:
            for event in self.recall(round_id)["events"]:
                if event["kind"] == "Settled":
                    net = Fraction(str(event["payout"])) - Fraction(str(event["stake"]))
                    balances[self.owner[event["seat"]]] += int(net * 100)
        return balances

    def balances(self) -> dict[str, int]:
        return {name: self.api.balance(token) for name, token in self.tokens.items()}
