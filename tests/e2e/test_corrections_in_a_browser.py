"""A dealer's correction seen in a real browser (issue 14, item 3; docs/rules.md#D-BJ-31,
#D-GEN-14): at a peru-2016 table a player reading Spanish waits on her decision when the
dealer (an account the operator granted the role and assigned to the table) reports the hole
card exposed in error. Her felt shows the correction in her language at once, the new hole
card stays face down, and the round pays what the engine beside the server pays for the same
cards and correction; the recall shows the correction too."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from .conftest import OPERATOR_TOKEN, PASSWORD, LiveServer, Person
from .test_tables_in_a_browser import (
    CREDIT_UNITS,
    needs_engine,
    open_table_with_players,
    play_along,
    seed_where,
    seeded_round,
    sit_bet_and_say_ready,
    stand_if_you_may,
    wait_for_balance,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def _waits_on_seat_one(seed: bytes) -> bool:
    engine = seeded_round("peru-2016", seed)
    engine.place_bet(1, "main", 10)
    engine.deal()
    pending = engine.pending()
    return pending is not None and pending.seat == 1


def _post(server: LiveServer, path: str, token: str | None, body: dict[str, Any]) -> Any:
    headers = {"Idempotency-Key": uuid.uuid4().hex}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    answer = httpx.post(server.url + path, json=body, headers=headers, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def _dealer(server: LiveServer, name: str, table_id: int) -> str:
    login = {"username": name, "password": PASSWORD}
    httpx.post(server.url + "/auth/signup", json=login, timeout=10).raise_for_status()
    token: str = httpx.post(server.url + "/auth/signin", json=login, timeout=10).json()["token"]
    _post(server, "/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "dealer"})
    _post(server, f"/operator/tables/{table_id}/dealers", OPERATOR_TOKEN, {"username": name})
    return token


def test_d_bj_31_the_player_sees_the_exposed_hole_card_replaced_in_her_language(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine("peru-2016")
    seed = seed_where("peru-2016", _waits_on_seat_one)
    operator = person("operator")
    lucia = person("lucinda", locale="es-ES")  # "lucia" is the Spanish pages test's
    table_id = open_table_with_players(
        operator, live_server, "Mesa Cusco", "peru-2016", seed, players=[lucia]
    )
    carlos = _dealer(live_server, "carlos", table_id)

    sit_bet_and_say_ready(lucia, table_id, 1, "main", 10)
    engine = seeded_round("peru-2016", seed)
    engine.place_bet(1, "main", 10)
    engine.deal()
    expect(lucia.page.locator("#actions button").first).to_be_visible()

    made = _post(
        live_server,
        f"/dealer/tables/{table_id}/corrections",
        carlos,
        {"kind": "exposed", "place": "hole"},
    )
    engine.exposed("hole")
    exposed = engine.events[-2]
    assert made["events"] == [exposed.to_json()]
    shown = lucia.page.locator("#felt .felt-corrections li")
    expect(shown).to_have_count(1)
    expect(shown).to_contain_text("Corrección del crupier: la carta cubierta del crupier")
    expect(shown).to_contain_text("la siguiente carta del distribuidor ocupa su lugar")
    expect(lucia.page.locator("#felt [data-side='dealer'] .card.back")).to_have_count(1)
    lucia.screenshot("correction-exposed-hole-es")

    play_along(engine, {1: lucia}, stand_if_you_may)
    wait_for_balance(lucia, CREDIT_UNITS + engine.results().net(1))

    lucia.page.click("#recall-link")
    expect(lucia.page.locator(".felt-corrections li").first).to_contain_text(
        "Corrección del crupier"
    )
    lucia.screenshot("correction-exposed-hole-recall-es")
