"""Issue 11, item 6 and "Done when": schemathesis drives every operation of the app's own
``/openapi.json`` (each request generated from the schema: valid bodies and bodies the schema
forbids, path numbers and headers), signed in as a player and as the operator: no answer is a
5xx (``not_a_server_error``), every answer's status is one the schema documents
(``status_code_conformance``) and its body conforms to the schema of that status
(``response_schema_conformance``: a refusal is the ``Refusal`` JSON, ``{"error", "detail"}``,
a success its named answer model, issue 28 item 6), each 2xx reads back through its model
field for field (``answer_support``), a refused request moves no money, and the ledger audits
at 0 after every request (R9).

This complements ``test_hardening_edge_fuzz.py`` (hand-made hostile values, headers, pages and
the WebSocket): here the schema is the generator, so a route whose documentation and behaviour
part show up, and a body the schema allows but the server refuses is an answer the schema
documents, never a 5xx.

The short form (CI) bounds the examples per operation; the long form is ``slow``.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import answer_support
import pytest
import schemathesis
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance
from server_support import GENEROUS_RATE_LIMIT, OPERATOR_TOKEN, Api, Table
from sqlalchemy import func, select

from croupier.clock import ManualClock
from croupier.ledger import book
from croupier.server.app import API_ROUTERS, create_app, playable_profiles, start
from croupier.server.context import Settings
from croupier.server.openapi import body_model
from croupier.service.accounts import ensure_operator
from croupier.service.models import LedgerEntry

PROFILES = playable_profiles()
pytestmark = pytest.mark.skipif(not PROFILES, reason="no game engine has landed yet")

SHORT_EXAMPLES = 6
"""Generated requests per operation and role in CI's short form (plus schemathesis's own
explicit and boundary cases)."""
LONG_EXAMPLES = 200

CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
PLAYER = "fuzz-player"
ENDS_THE_SESSION = "/auth/signout"


@dataclass
class Fuzzed:
    api: Api
    tokens: dict[str, str]

    def throwaway_token(self, role: str) -> str:
        """A session of its own for a request that may end it (``POST /auth/signout``): the
        player signs in again; the operator's is made as the server makes it at start."""
        if role == "player":
            body = {"username": PLAYER, "password": f"password-of-{PLAYER}"}
            answer = self.api.post("/auth/signin", None, body, key=None)
            assert answer.status_code == 200, answer.text
            token: str = answer.json()["token"]
            return token
        fresh = f"operator-{uuid.uuid4().hex}"
        now = self.api.clock.now()
        self.api.server.uow.run(lambda session: ensure_operator(session, fresh, now))
        return fresh

    def entries(self) -> int:
        """How many ledger entries there are: a refusal adds none (and no balance moves
        without an entry: the audit holds each balance to its entries)."""

        def read(session: Any) -> int:
            return int(session.scalar(select(func.count()).select_from(LedgerEntry)) or 0)

        found: int = self.api.server.uow.read(read)
        return found

    def audit(self) -> list[str]:
        problems: list[str] = self.api.server.uow.read(book.audit)
        return problems


APP = create_app(Settings(database_url="sqlite://", demo_tables=False))
"""The app under test; its server (database, tables) is set by the ``fuzzed`` fixture."""

SHORT_FORM = {
    "phases": {"coverage": {"unexpected-methods": ["PATCH"]}},
    "generation": {"max-examples": SHORT_EXAMPLES},
}
"""CI: schemathesis's explicit and boundary cases (its coverage phase: each field's limits,
each wrong type, a missing field), then ``SHORT_EXAMPLES`` generated requests; one method the
schema does not list per path."""
LONG_FORM = {"generation": {"max-examples": LONG_EXAMPLES}}


def loaded(form: dict[str, Any]) -> Any:
    """What a client reads at ``GET /openapi.json``, as schemathesis loads it. Built here
    rather than fetched with ``from_asgi``, which would start the app (its lifespan) before
    ``fuzzed`` gives it a server; the cases call the app in process, as ``from_asgi``'s do."""
    found = schemathesis.openapi.from_dict(
        APP.openapi(), config=schemathesis.Config.from_dict(form)
    )
    found.app = APP

    @found.hook
    def map_path_parameters(_context: Any, path_parameters: dict[str, Any] | None) -> Any:
        """Half the table numbers drawn land on a table that exists (1 to the number of
        profiles) and half the user names on the fuzzing player, so that generated bets,
        decisions, seats and credits reach live rounds and a real wallet; the other half
        stay as drawn (mostly no such table, no such user)."""
        if path_parameters is None:
            return None
        table = path_parameters.get("table_id")
        if isinstance(table, int) and table % 2 == 0:
            path_parameters["table_id"] = 1 + table // 2 % len(PROFILES)
        name = path_parameters.get("username")
        if isinstance(name, str) and len(name) % 2 == 0:
            path_parameters["username"] = PLAYER
        return path_parameters

    @found.hook
    def map_body(_context: Any, body: Any) -> Any:
        """Likewise half the seats drawn are the fuzzing player's own (2) and half the
        amounts of a bet within every table's limits (1 to 10 units), so that bets are
        placed and decisions taken; the rest stay as drawn."""
        if not isinstance(body, dict):
            return body
        seat, amount = body.get("seat"), body.get("amount")
        if type(seat) is int and seat % 2 == 0:
            body["seat"] = 2
        if type(amount) is int and amount % 2 == 0 and "wager" in body:
            body["amount"] = 1 + amount % 10
        return body

    return found


short_schema = loaded(SHORT_FORM)
long_schema = loaded(LONG_FORM)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    """A server with a table of every playable profile, two players seated and betting at
    each (so that generated table and seat numbers reach live rounds), and the operator."""
    database = tmp_path_factory.mktemp("openapi-fuzz") / "croupier.sqlite"
    clock = ManualClock()
    config = Settings(
        database_url=f"sqlite:///{database}",
        operator_token=OPERATOR_TOKEN,
        clock=clock,
        demo_tables=False,
        rate_limit=GENEROUS_RATE_LIMIT,
        token_rate_limit=GENEROUS_RATE_LIMIT,
    )
    APP.state.server = start(config)
    # Without ``with``: schemathesis runs the app's lifespan (its clock thread) once, itself.
    api = Api(TestClient(APP), APP.state.server, clock)
    if True:
        player = api.player(PLAYER, 10_000_000)
        for profile in PROFILES:
            table = Table(api, profile, [f"seated-{profile}"], credit_minor=1_000_000)
            table.bet_all()
            sat = api.post(f"/tables/{table.id}/seats/2", player)
            bet = {"seat": 2, "wager": table.wager, "amount": table.stake}
            placed = api.post(f"/tables/{table.id}/bets", player, bet)
            assert sat.status_code == placed.status_code == 200, (sat.text, placed.text)
        yield Fuzzed(api, {"player": player, "operator": OPERATOR_TOKEN})


@pytest.fixture(autouse=True)
def audited(fuzzed: Fuzzed) -> Iterator[None]:
    """After each operation's requests, the ledger audits at 0 (R9)."""
    yield
    assert fuzzed.audit() == []


def exercise(case: Any, fuzzed: Fuzzed, role: str) -> None:
    """One generated request as ``role``, its answer checked; a refusal moves no money."""
    token = fuzzed.throwaway_token(role) if case.path == ENDS_THE_SESSION else fuzzed.tokens[role]
    may_move = case.method.upper() not in ("GET", "HEAD", "OPTIONS")
    before = fuzzed.entries() if may_move else None
    response = case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, checks=CHECKS)
    content_type = response.headers.get("content-type", [""])
    answer_support.check_answer(
        case.method, case.formatted_path, response.status_code, content_type[0], response.text
    )
    if may_move and response.status_code >= 400:
        assert fuzzed.entries() == before, (case.method, case.formatted_path, response.text[:200])


HYPOTHESIS = settings(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@short_schema.parametrize()
@HYPOTHESIS
def test_every_operation_answers_a_player_as_documented(case: Any, fuzzed: Fuzzed) -> None:
    exercise(case, fuzzed, "player")


@short_schema.parametrize()
@HYPOTHESIS
def test_every_operation_answers_the_operator_as_documented(case: Any, fuzzed: Fuzzed) -> None:
    exercise(case, fuzzed, "operator")


@pytest.mark.slow
@long_schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_a_player_as_documented_long(case: Any, fuzzed: Fuzzed) -> None:
    exercise(case, fuzzed, "player")


@pytest.mark.slow
@long_schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_the_operator_as_documented_long(case: Any, fuzzed: Fuzzed) -> None:
    exercise(case, fuzzed, "operator")


# --- the schema a client reads (docs/http-api.md, "Its schema: /openapi.json") ---------------
ROUTERS = API_ROUTERS
"""The routers the app includes whose routes are API operations (the pages are not)."""
HTTP_API_GUIDE = Path(__file__).resolve().parents[2] / "docs" / "http-api.md"


def served_schema() -> dict[str, Any]:
    answer = TestClient(APP).get("/openapi.json")
    assert answer.status_code == 200
    served: dict[str, Any] = answer.json()
    return served


def api_routes() -> list[APIRoute]:
    return [
        route
        for router in ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute) and route.include_in_schema
    ]


def test_the_schema_lists_every_route_of_the_app_once() -> None:
    """Each path and method the app routes is an operation of ``/openapi.json``, named by its
    route (the name a generated client gives the call), and the schema lists no other."""
    paths = served_schema()["paths"]
    routed = {
        (route.path_format, method.lower()) for route in api_routes() for method in route.methods
    }
    listed = {(path, method) for path, item in paths.items() for method in item}
    assert listed == routed
    names = [paths[path][method]["operationId"] for path, method in sorted(listed)]
    assert len(set(names)) == len(names)
    assert paths["/tables/{table_id}/actions"]["post"]["operationId"] == "act"


def test_every_body_is_a_named_component_of_the_model_the_route_reads() -> None:
    """A route that reads a body documents it as ``#/components/schemas/<its model>``, the
    model's own JSON schema; no operation has an inline body, and every refusal is
    ``Refusal``."""
    served = served_schema()
    paths, components = served["paths"], served["components"]["schemas"]
    bodies = 0
    for route in api_routes():
        model = body_model(route.dependant)
        for method in route.methods:
            operation = paths[route.path_format][method.lower()]
            if model is None:
                assert "requestBody" not in operation, (method, route.path_format)
                continue
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            assert body == {"$ref": f"#/components/schemas/{model.__name__}"}
            own = model.model_json_schema(ref_template="#/components/schemas/{model}")
            for name, nested in own.pop("$defs", {}).items():  # an enum a body names, say
                assert components[name] == nested
            assert components[model.__name__] == own
            bodies += 1
            assert operation["responses"]["4XX"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Refusal"
            }
    mutating = {(r.path_format, m) for r in api_routes() for m in r.methods if m != "GET"}
    assert bodies == len(mutating - {(ENDS_THE_SESSION, "POST")})  # signing out reads none
    assert components["BetBody"]["properties"]["amount"]["type"] == "integer"


COMPONENT = re.compile(r'"#/components/schemas/([A-Za-z]+)"')
JSON = "application/json"
PDF = {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}
METRICS = {"text/plain": {"schema": {"type": "string"}}}
"""``GET /metrics``: Prometheus' text (issue 29, item 4), for a scraper, not a client."""


def named_with_their_parts(served: dict[str, Any], names: set[str]) -> set[str]:
    """``names`` and every component their schemas name, however deep."""
    components, found, waiting = served["components"]["schemas"], set(), list(names)
    while waiting:
        name = waiting.pop()
        if name not in found:
            found.add(name)
            waiting += COMPONENT.findall(json.dumps(components[name]))
    return found


def successes(served: dict[str, Any]) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    for path, item in served["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if status.startswith("2"):
                    yield path, method, status, response


def test_every_success_answers_a_named_model() -> None:
    """Issue 28, item 6: each 2xx of every operation is ``#/components/schemas/<Model>`` (the
    dossier is a PDF, the daily report also CSV or PDF), the model its route documents; the
    status is the one the route answers (201 for what it creates, 202 beside 200 for what
    waits for a second inspector)."""
    served = served_schema()
    components = served["components"]["schemas"]
    documented = {
        (route.path_format, method.lower(), str(status)): spec.get("model")
        for route in api_routes()
        for method in route.methods or ()
        for status, spec in route.responses.items()
    }
    named = 0
    for path, method, status, response in successes(served):
        content = response["content"]
        if JSON not in content:
            assert content == (METRICS if path == "/metrics" else PDF), (method, path)
            continue
        model = documented.get((path, method, status))
        assert model is not None, f"{method} {path}: its {status} names no model"
        assert content[JSON]["schema"] == {"$ref": f"#/components/schemas/{model.__name__}"}
        assert model.__name__ in components
        named += 1
    # 64, the back office's range report, players' day and statement, 7 of a player's protection
    assert named == 74
    operations = served["paths"]
    created = {p for p, m, status, _r in successes(served) if status == "201"}
    assert created == {
        "/auth/signup",
        "/operator/tables",
        "/operator/staff",
        "/rounds/{round_id}/disputes",
        "/rounds/{round_id}/corrections",
    }
    waiting = {p for p, m, status, _r in successes(served) if status == "202"}
    assert waiting == {
        "/inspector/disputes/{dispute_id}/decision",
        "/rounds/{round_id}/void",
        "/dealer/tables/{table_id}/corrections",
    }
    daily = operations["/operator/reports/daily"]["get"]["responses"]["200"]["content"]
    assert set(daily) == {JSON, "text/csv", "application/pdf"}


def test_the_api_guide_names_the_components_the_schema_has() -> None:
    """The HTTP API guide's list of body models is the schema's bodies' (with ``Refusal``), its
    list of answer models the schema's answers' (each with the models it holds), and it shows
    the generator's use."""
    guide = HTTP_API_GUIDE.read_text(encoding="utf-8")
    section = guide.split("## Its schema: `/openapi.json`")[1].split("\n## ")[0]
    served = served_schema()
    bodies = {
        name
        for item in served["paths"].values()
        for operation in item.values()
        for name in COMPONENT.findall(json.dumps(operation.get("requestBody", {})))
    }
    answers = {
        name
        for _path, _method, _status, response in successes(served)
        for name in COMPONENT.findall(json.dumps(response))
    }
    named_bodies = set(re.findall(r"`([A-Z][A-Za-z]+)`", section.split("\n\n")[1]))
    assert named_bodies == named_with_their_parts(served, bodies | {"Refusal"})
    listed = section.split("Each success answers a named model")[1].split("The same schema")[0]
    named_answers = set(re.findall(r"`([A-Z][A-Za-z]+)`", listed))
    assert named_answers == named_with_their_parts(served, answers)
    assert named_bodies | named_answers == set(served["components"]["schemas"])
    assert "openapi-python-client generate" in section and "schemathesis run" in section
