"""Issue 10, "done when": a property-based fuzz of every endpoint (each path and method of the
OpenAPI schema, the web pages and the table WebSocket) with hostile bodies, headers, path
parameters and amounts gets 0 answers of 5xx and 0 dropped connections, every refusal in the
JSON contract ``{"error", "detail"}``, and ends with the ledger audit at 0 (R9, R13).

In process (the test client raises on anything that would drop a connection); the slow form
also runs against a real ``croupier serve`` over TCP."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_support import OPERATOR_TOKEN, Api, Table

from croupier.server.app import playable_profiles

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

PROFILES = playable_profiles()
pytestmark = pytest.mark.skipif(not PROFILES, reason="no game engine has landed yet")

PAGES = ["/", "/sign-in", "/sign-up", "/account", "/operator", "/table/1", "/recall/1"]
FIELDS = [
    "amount",
    "seat",
    "wager",
    "action",
    "accept",
    "username",
    "password",
    "name",
    "profile",
    "minimum",
    "maximum",
    "betting_seconds",
    "decision_seconds",
]

hostile_numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 5, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**17, 10**30]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([5.0, 1e2, 1.0000000000000001, -0.0, 1e308]),
    st.booleans(),
)
hostile_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "double ²",
            "double ５",
            "double ٣",
            "hit",
            "stand",
            "double 5",
            "double 99999999999999999999",
            "split",
            "insurance 1",
            "main",
            "banker",
            "ante",
            "OPERATOR",
            "Dealer",
            "../../etc/passwd",
            "/dev/zero",
            "x" * 300,
            "\x00",
            "'; DROP TABLE users; --",
        ]
    ),
)
scalars = st.one_of(st.none(), hostile_numbers, hostile_text)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
plausible = st.fixed_dictionaries(
    {
        "seat": st.one_of(st.sampled_from([1, 2, 3]), scalars),
        "wager": st.one_of(st.sampled_from(["main", "banker", "ante", "player", "tie"]), scalars),
        "amount": st.one_of(st.integers(min_value=0, max_value=100), hostile_numbers, scalars),
    },
    optional={
        "action": st.one_of(st.sampled_from(["hit", "stand", "double ²", "double ５"]), scalars),
        "accept": scalars,
        "minimum": hostile_numbers,
        "maximum": hostile_numbers,
        "name": hostile_text,
        "profile": st.one_of(st.sampled_from(PROFILES), hostile_text),
        "username": st.one_of(st.sampled_from(["ann", "ben", "OPERATOR", "zed-1"]), scalars),
        "password": st.one_of(st.sampled_from(["password-of-ann", "long enough"]), scalars),
    },
)
bodies = st.one_of(
    plausible,
    plausible,
    st.dictionaries(st.sampled_from(FIELDS), values, max_size=6),
    st.dictionaries(st.sampled_from(FIELDS), scalars, max_size=6),
    values,
)
raw_bodies = st.one_of(
    st.binary(max_size=64),
    st.sampled_from(
        [
            b'{"a":' * 2000 + b"1" + b"}" * 2000,
            b"[" * 5000,
            b'{"amount": NaN}',
            b'{"amount": Infinity}',
            b'{"amount": 1e400}',
            b'{"amount": ' + b"9" * 5000 + b"}",
            b'{"seat": 1, "amount": 5, "amount": 6}',
            b"\xff\xfe{}",
            b'{"username": "\\ud800", "password": "x"}',
            b"x" * 20_000,
        ]
    ),
)
path_values = st.one_of(
    st.sampled_from(["1", "2", "0", "-1", "999999", "99999999999999999999999", "1.5", "abc"]),
    st.sampled_from(["open", "close", "main", "ann", "operator", "%00", "%2e%2e", "%F0%9F%83%8F"]),
    st.integers(min_value=-5, max_value=20).map(str),
)


def token_choices(tokens: dict[str, str]) -> st.SearchStrategy[str | None]:
    return st.one_of(
        st.none(),
        st.sampled_from([*tokens.values(), OPERATOR_TOKEN, "forged", "", "x" * 5000]),
    )


def header_sets(tokens: dict[str, str]) -> st.SearchStrategy[dict[str, str]]:
    """Mostly a live player's or the operator's token and a fresh idempotency key (so that
    requests reach the code behind authentication), sometimes anything."""
    printable = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=300)
    live = [*tokens.values(), OPERATOR_TOKEN]
    fresh_key = st.uuids().map(lambda u: f"key-{u.hex}")
    live_bearer = st.sampled_from(live).map(lambda t: f"Bearer {t}")
    return st.fixed_dictionaries(
        {
            "Authorization": st.one_of(
                live_bearer,
                live_bearer,
                live_bearer,
                live_bearer,
                st.sampled_from(["forged", "", "x" * 5000]).map(lambda t: f"Bearer {t}"),
                printable,
            ),
            "Idempotency-Key": st.one_of(fresh_key, fresh_key, printable, st.just("k" * 5000)),
        },
        optional={
            "Content-Type": st.sampled_from(
                ["application/json", "text/plain", "multipart/form-data", "", "application/x"]
            ),
            "Accept-Language": printable,
        },
    ).flatmap(
        lambda headers: st.one_of(
            st.just(headers),
            st.just(headers),
            st.just(headers),
            st.sampled_from(["0", "-1", "abc", str(10**12), "5"]).map(
                lambda length: {**headers, "Content-Length": length}
            ),
        )
    )


def endpoints(api: Api) -> list[tuple[str, str]]:
    schema = api.client.app.openapi()  # type: ignore[attr-defined]
    found = [(method.upper(), path) for path, item in schema["paths"].items() for method in item]
    return found + [("GET", page) for page in PAGES]


def fill(path: str, table_id: int, parameters: list[str]) -> str:
    for name in ("table_id", "seat", "state", "username", "back_bet_id", "round_id", "shoe_id"):
        placeholder = "{" + name + "}"
        if placeholder in path:
            value = parameters.pop() if parameters else str(table_id)
            path = path.replace(placeholder, value)
    return path


def check(answer: Any, where: str) -> None:
    assert answer.status_code < 500, (where, answer.status_code, answer.text[:300])
    if answer.status_code >= 400 and answer.headers.get("content-type", "").startswith(
        "application/json"
    ):
        body = answer.json()
        assert isinstance(body, dict) and {"error", "detail"} <= set(body), (where, body)
    if answer.status_code in (429, 503):
        assert int(answer.headers["Retry-After"]) >= 1


def make_fuzz(api: Api, examples: int) -> Any:
    table = Table(api, PROFILES[0], ["ann", "ben"], credit_minor=100_000)
    table.bet_all()
    routes = endpoints(api)
    assert len(routes) >= 28, routes  # every path and method of the schema
    signed_in = {f"Bearer {token}" for token in [*table.tokens.values(), OPERATOR_TOKEN]}

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(
        route=st.sampled_from(routes),
        parameters=st.lists(path_values, max_size=4),
        body=st.one_of(bodies.map(lambda b: json.dumps(b).encode()), raw_bodies),
        headers=header_sets(table.tokens),
        query=st.one_of(
            st.just(""), st.sampled_from(["?limit=abc", "?limit=-5", "?limit=" + "9" * 40])
        ),
    )
    def fuzz(
        route: tuple[str, str],
        parameters: list[str],
        body: bytes,
        headers: dict[str, str],
        query: str,
    ) -> None:
        method, template = route
        path = fill(template, table.id, parameters) + query
        content = None if method in ("GET", "DELETE") and len(body) % 2 else body
        if template == "/auth/signout" and headers["Authorization"] in signed_in:
            # Sign out a throwaway session, so that the players' own stay live for the rest.
            login = {"username": "ann", "password": "password-of-ann"}
            fresh = api.post("/auth/signin", None, login, key=None).json()["token"]
            headers = {**headers, "Authorization": f"Bearer {fresh}"}
        answer = api.client.request(method, path, content=content, headers=headers)
        check(answer, f"{method} {path}")

    return fuzz


def test_every_endpoint_survives_hostile_requests(api: Api) -> None:
    make_fuzz(api, examples=200)()
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


def test_the_table_socket_survives_hostile_parameters(api: Api) -> None:
    from starlette.websockets import WebSocketDisconnect

    table = Table(api, PROFILES[0], ["ann"])

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    @given(table_id=path_values, token=token_choices(table.tokens))
    def fuzz(table_id: str, token: str | None) -> None:
        query = "" if token is None else f"?token={token}"
        try:
            with api.client.websocket_connect(f"/tables/{table_id}/ws{query}") as socket:
                assert socket.receive_json()["type"] == "state"
        except WebSocketDisconnect as closed:
            assert closed.code in (1000, 4401, 4404, 4429, 1008), closed.code

    fuzz()


@pytest.mark.slow
def test_every_endpoint_survives_hostile_requests_at_length(api: Api) -> None:
    make_fuzz(api, examples=3_000)()
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


@pytest.mark.slow
def test_a_real_server_drops_no_connection_under_the_fuzz(tmp_path: Path) -> None:
    """Over TCP to ``croupier serve``: a dropped connection is an ``httpx`` transport error."""
    from bots import OPERATOR_TOKEN as SERVE_OPERATOR_TOKEN
    from bots import ServerProcess

    server = ServerProcess(f"sqlite:///{tmp_path / 'fuzz.sqlite'}")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            tokens = {"operator": SERVE_OPERATOR_TOKEN}
            for name in ("ann", "ben"):
                login = {"username": name, "password": f"password-of-{name}"}
                assert client.post("/auth/signup", json=login).status_code == 201
                tokens[name] = client.post("/auth/signin", json=login).json()["token"]
            routes = [
                (method.upper(), path)
                for path, item in client.get("/openapi.json").json()["paths"].items()
                for method in item
            ]

            @settings(max_examples=1_000, deadline=None, suppress_health_check=list(HealthCheck))
            @given(
                route=st.sampled_from(routes),
                parameters=st.lists(path_values, max_size=4),
                body=st.one_of(bodies.map(lambda b: json.dumps(b).encode()), raw_bodies),
                headers=header_sets(tokens),
            )
            def fuzz(
                route: tuple[str, str], parameters: list[str], body: bytes, headers: dict[str, str]
            ) -> None:
                method, template = route
                headers.pop("Content-Length", None)  # httpx sets the true one over TCP
                # h11 (the client) sends no header value with surrounding spaces.
                headers = {name: value.strip() for name, value in headers.items()}
                path = fill(template, 1, parameters)
                live = {f"Bearer {t}" for t in [*tokens.values(), SERVE_OPERATOR_TOKEN]}
                if template == "/auth/signout" and headers["Authorization"] in live:
                    login = {"username": "ann", "password": "password-of-ann"}
                    fresh = client.post("/auth/signin", json=login).json()["token"]
                    headers["Authorization"] = f"Bearer {fresh}"  # keep the others' sessions
                check(client.request(method, path, content=body, headers=headers), path)

            fuzz()
            answer = client.get(
                "/operator/audit", headers={"Authorization": f"Bearer {SERVE_OPERATOR_TOKEN}"}
            )
            assert answer.status_code == 200, answer.text
            audit = answer.json()
            assert audit["problems"] == [] and audit["sum"] == 0
    finally:
        server.stop()
