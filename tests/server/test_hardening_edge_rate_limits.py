"""Issue 10, item 6: sign-in, sign-up and failed-token paths are limited per client address
(429 with Retry-After; separate addresses are never limited together), with the real default
(``DEFAULT_RATE_LIMIT``, ``DEFAULT_TOKEN_RATE_LIMIT``), in memory or in Redis.

Before issue 10: 300 forged tokens at 760/s and 36 wrong sign-ins a second met no 429."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from limits.storage import RedisStorage
from server_support import OPERATOR_TOKEN, Api, make_api
from typer.testing import CliRunner

from croupier.cli.main import app as cli
from croupier.server.rate_limits import DEFAULT_RATE_LIMIT, DEFAULT_TOKEN_RATE_LIMIT, RateLimits
from croupier.service.errors import RateLimited

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import redis_server

REDIS_URL = redis_server.server_url()


@pytest.fixture
def limited_api(database_url: str) -> Iterator[Api]:
    """The server with its real default limits."""
    yield from make_api(
        database_url, rate_limit=DEFAULT_RATE_LIMIT, token_rate_limit=DEFAULT_TOKEN_RATE_LIMIT
    )


def allowed(limit: str) -> int:
    return int(limit.split("/", maxsplit=1)[0])


def test_sign_in_is_limited_per_address_with_the_default(limited_api: Api) -> None:
    api = limited_api
    assert DEFAULT_RATE_LIMIT == "10/minute"  # documented: docs/http-api.md, serve --help
    body = {"username": "nobody-here", "password": "guess"}
    for _ in range(allowed(DEFAULT_RATE_LIMIT)):
        assert api.post("/auth/signin", None, body, key=None).status_code == 401
    limited = api.post("/auth/signin", None, body, key=None)
    assert limited.status_code == 429, limited.text
    assert limited.json()["error"] == "RateLimited" and set(limited.json()) == {
        "error",
        "detail",
        "code",
        "params",
    }
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    other = api.from_address("192.0.2.44")  # another person at another address
    assert other.post("/auth/signin", None, body, key=None).status_code == 401
    # Sign-up has its own count: this address may still sign up.
    signup = {"username": "newcomer", "password": "long enough"}
    assert api.post("/auth/signup", None, signup, key=None).status_code == 201


def test_sign_up_is_limited_per_address(limited_api: Api) -> None:
    api = limited_api
    for number in range(allowed(DEFAULT_RATE_LIMIT)):
        body = {"username": f"player{number}", "password": "long enough"}
        assert api.post("/auth/signup", None, body, key=None).status_code == 201
    body = {"username": "one-too-many", "password": "long enough"}
    limited = api.post("/auth/signup", None, body, key=None)
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert (
        api.from_address("192.0.2.45").post("/auth/signup", None, body, key=None).status_code == 201
    )


def test_forged_tokens_are_limited_but_a_live_session_at_that_address_is_not(
    limited_api: Api,
) -> None:
    api = limited_api
    for _ in range(2 * allowed(DEFAULT_TOKEN_RATE_LIMIT)):
        assert api.get("/tables", None).status_code == 401  # no token is not a failed one
    owner = api.from_address("192.0.2.50")
    owner_token = owner.player("erin")
    for number in range(allowed(DEFAULT_TOKEN_RATE_LIMIT)):
        assert api.get("/me", f"forged-{number}").status_code == 401
    limited = api.get("/me", "forged-again")
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert api.get("/me", OPERATOR_TOKEN).status_code == 200  # a live session still works
    assert api.get("/me", None).status_code == 401  # no token: refused, never counted
    assert owner.get("/me", owner_token).status_code == 200
    assert owner.get("/me", "forged-at-another-address").status_code == 401


def test_a_bad_rate_limit_option_is_refused_before_the_server_starts(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["serve", "--database", f"sqlite:///{tmp_path}/x.sqlite", "--rate-limit", "often"]
    )
    assert result.exit_code == 2 and "rate limit 'often'" in result.output


@pytest.mark.skipif(REDIS_URL is None, reason="no Redis server and no redis-server")
def test_with_redis_the_counts_are_shared_by_every_server_process(tmp_path: Path) -> None:
    assert REDIS_URL is not None
    first, second = (
        RateLimits("3/minute", storage_url=REDIS_URL),
        RateLimits("3/minute", storage_url=REDIS_URL),
    )
    address = f"test-{uuid.uuid4().hex}"  # fresh in the shared store
    first.hit("signin", address)
    second.hit("signin", address)
    first.hit("signin", address)
    with pytest.raises(RateLimited) as refused:
        second.hit("signin", address)
    assert refused.value.retry_after >= 1
    for api in make_api(f"sqlite:///{tmp_path}/r.sqlite", broadcast_url=REDIS_URL):
        assert isinstance(api.server.rate_limits.storage, RedisStorage)


def test_forged_socket_tokens_count_as_failed_tokens(limited_api: Api) -> None:
    from starlette.websockets import WebSocketDisconnect

    from croupier.server.sockets import SESSION_ENDED

    api = limited_api
    reasons = []
    for number in range(allowed(DEFAULT_TOKEN_RATE_LIMIT) + 1):
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            api.client.websocket_connect(f"/tables/1/ws?token=forged-{number}") as socket,
        ):
            socket.receive_json()
        assert closed.value.code == SESSION_ENDED
        reasons.append(closed.value.reason)
    assert "too many token requests" in reasons[-1]
    assert not any("too many" in reason for reason in reasons[:-1])
    assert api.get("/me", "forged-over-http").status_code == 429  # one count for both
