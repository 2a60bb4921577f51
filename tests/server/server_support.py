"""Helpers for the table server's tests (imported by name: tests/server is on sys.path)."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from croupier.server.app import create_app, start
from croupier.server.context import Server, Settings
from croupier.service.clock import ManualClock

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

OPERATOR_TOKEN = "operator-token-for-tests-0123456789"


class Api:
    """A test client that signs requests and gives each mutating one a fresh idempotency key."""

    def __init__(self, client: TestClient, server: Server, clock: ManualClock) -> None:
        self.client = client
        self.server = server
        self.clock = clock

    def key(self) -> str:
        return f"key-{uuid.uuid4().hex}"

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


def make_api(database_url: str, *, demo_tables: bool = False, **settings: Any) -> Iterator[Api]:
    clock = ManualClock()
    config = Settings(
        database_url=database_url,
        operator_token=OPERATOR_TOKEN,
        clock=clock,
        demo_tables=demo_tables,
        **settings,
    )
    server = start(config)
    with TestClient(create_app(config, server=server)) as client:
        yield Api(client, server, clock)
