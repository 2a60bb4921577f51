"""Issue 25, item 6: the edges, each a line.

- ``/health/live`` (the process answers) apart from ``/health/ready`` (database writable,
  entropy, code, this process holds its tables); ``/health`` is readiness: it answered 200
  while the database was away and every bet answered 503.
- A JSON body naming a key twice is refused (422, ``duplicate_key``) on every route, where
  every body is parsed (``server.context.parse_json``), never read last-wins.
- User names that read as staff by look are refused at sign-up (``accounts.reads_as_staff``).
- ``X-Forwarded-For`` is read only from the proxies ``serve --trusted-proxy`` names: by
  default from no one, where uvicorn's default trusted 127.0.0.1 and any local process could
  pass the sign-in limit as many addresses.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from server_support import OPERATOR_TOKEN, Api, make_api

from croupier.server.app import create_app, start
from croupier.server.context import Settings


@pytest.fixture
def sqlite_api(tmp_path: Path) -> Iterator[Api]:
    yield from make_api(f"sqlite:///{tmp_path / 'edge.sqlite'}", fail_safe_seconds=3600)


# --- health -------------------------------------------------------------------------------------
def test_live_answers_while_ready_names_the_database_that_went_away(
    sqlite_api: Api, tmp_path: Path
) -> None:
    api = sqlite_api
    assert api.get("/health/live", None).json() == {"status": "live"}
    ready = api.get("/health/ready", None)
    assert ready.status_code == 200, ready.text
    assert ready.json() == {
        "status": "ready",
        "checks": {"database": "ok", "entropy": "ok", "code": "ok", "tables": "ok"},
    }
    database = tmp_path / "edge.sqlite"
    os.replace(database, tmp_path / "away.sqlite")
    try:
        for path in ("/health/ready", "/health"):
            answer = api.get(path, None)
            assert answer.status_code == 503, (path, answer.text)
            assert answer.json()["status"] == "not_ready"
            assert answer.json()["checks"]["database"] == "failed"
            assert "database" in answer.json()["failed"]
        assert api.get("/health/live", None).status_code == 200
    finally:
        os.replace(tmp_path / "away.sqlite", database)
    assert api.get("/health/ready", None).status_code == 200


def test_ready_fails_once_this_process_no_longer_holds_its_tables(
    sqlite_api: Api, tmp_path: Path
) -> None:
    from croupier.service.claim import claim_file

    api = sqlite_api
    os.replace(claim_file(str(tmp_path / "edge.sqlite")), tmp_path / "moved-aside")
    answer = api.get("/health/ready", None)
    assert answer.status_code == 503
    assert answer.json()["failed"] == {"tables": "this server no longer holds its tables"}


# --- a key twice ---------------------------------------------------------------------------------
TWICE = b'{"amount": 1, "amount": 2}'


def test_a_key_twice_is_refused_on_every_route_that_reads_a_body(sqlite_api: Api) -> None:
    api = sqlite_api
    player = api.player("ann", 10_000)
    paths = api.client.app.openapi()["paths"]  # type: ignore[attr-defined]
    refused: list[str] = []
    for path, methods in paths.items():
        for method, operation in methods.items():
            if "requestBody" not in operation:
                continue
            concrete = path
            for name in [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]:
                concrete = concrete.replace("{" + name + "}", "1")
            for token in (OPERATOR_TOKEN, player):
                answer = api.client.request(
                    method.upper(),
                    concrete,
                    content=TWICE,
                    headers={**api.headers(token, api.key()), "Content-Type": "application/json"},
                )
                assert not answer.is_success, (method, path, answer.text)
                if answer.status_code == 422:
                    assert answer.json()["code"] == "duplicate_key", (method, path, answer.text)
                    assert answer.json()["params"] == {"key": "amount"}
                    refused.append(f"{method} {path}")
                    break
            else:
                # Only a caller check may come first (a role this test's callers lack).
                assert answer.status_code in (401, 403), (method, path, answer.text)
    assert "post /operator/wallets/{username}/credit" in refused
    assert "post /tables/{table_id}/bets" in refused
    assert "post /auth/signup" in refused
    assert len(refused) >= 20, refused
    assert api.balance(player) == 10_000


def test_a_key_twice_deep_inside_a_body_is_refused_too(sqlite_api: Api) -> None:
    answer = sqlite_api.client.post(
        "/auth/signin",
        content=b'{"username": "ann", "password": {"a": 1, "a": 2}}',
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 422 and answer.json()["code"] == "duplicate_key"


# --- names that read as staff ----------------------------------------------------------------------
LOOK_LIKE_STAFF = [
    "0perator", "operator_", "op.erator", "admin.", "dealer_", "inspector1", "1nspector", "r00t",
    "OPERATOR", "\u043eperator", "\u03bfperator", "d3aler", "adm1n", "ins-pec-tor",
]  # fmt: skip
"""The issue's names, the Cyrillic and Greek o, and a few more of the same making."""

PLAYERS = ["dealerbob", "rooted", "admiral", "inspectors_gadget", "ann_1"]
"""Names that contain a role's letters but do not read as one."""


def test_a_name_that_reads_as_staff_is_refused_and_one_that_only_contains_a_role_is_not(
    sqlite_api: Api,
) -> None:
    def sign_up(name: str) -> Any:
        body = {"username": name, "password": "a-good-password"}
        return sqlite_api.post("/auth/signup", None, body, key=None)

    for name in LOOK_LIKE_STAFF:
        answer = sign_up(name)
        assert answer.status_code == 422, (name, answer.text)
        assert answer.json()["code"] == "username_reserved", name
    for name in PLAYERS:
        assert sign_up(name).status_code == 201, name


# --- X-Forwarded-For ---------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(url: str, **uvicorn_options: Any) -> Iterator[str]:
    """The server as ``croupier serve`` runs it (uvicorn over TCP), in a thread."""
    settings = Settings(database_url=url, demo_tables=False, rate_limit="2/minute")
    app = create_app(settings, server=start(settings))
    config = uvicorn.Config(
        app, host="127.0.0.1", port=free_port(), log_level="warning", **uvicorn_options
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive()
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(10)


def sign_ins_from(base: str, addresses: list[str]) -> list[int]:
    return [
        httpx.post(
            f"{base}/auth/signin",
            json={"username": "nobody", "password": "not-the-password"},
            headers={"X-Forwarded-For": address},
            timeout=30,
        ).status_code
        for address in addresses
    ]


SPOOFED = ["203.0.113.1", "203.0.113.2", "203.0.113.3"]


def test_x_forwarded_for_from_loopback_is_not_trusted_by_default(tmp_path: Path) -> None:
    from croupier.cli.serve_command import proxy_options

    with serving(f"sqlite:///{tmp_path / 'a.sqlite'}", **proxy_options([])) as base:
        assert sign_ins_from(base, SPOOFED) == [401, 401, 429]  # one address: 127.0.0.1


def test_x_forwarded_for_is_read_from_a_proxy_named(tmp_path: Path) -> None:
    from croupier.cli.serve_command import proxy_options

    with serving(f"sqlite:///{tmp_path / 'b.sqlite'}", **proxy_options(["127.0.0.1"])) as base:
        assert sign_ins_from(base, SPOOFED) == [401, 401, 401]  # three clients behind it
