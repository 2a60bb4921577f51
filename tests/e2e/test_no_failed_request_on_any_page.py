"""Issue 13, item 9 ("no errors in the browser's console during normal play"), for every page
but the table's (its own tests check it): a walk through the sign-up and sign-in pages, the
lobby, the account page, a round's recall, the disputes, the inspector's queue and a dispute,
the dealer's console and the operator's page, as the player, an inspector, a dealer and the
operator each reach them. No page may send a request whose refusal it could have foreseen
(a round fetched before it exists, a role probed with a call that answers 403): every answer
is below 400, no request fails, and the console stays clean (``conftest.person`` also checks
the console of every browser test)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import OPERATOR_TOKEN, LiveServer, Person
from .test_pages_in_the_players_language import Client, play_a_round, signed_up
from .test_tables_in_a_browser import operator_signs_in, sign_in, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def watched(someone: Person) -> list[str]:
    """Every answer of 400 or more and every request that failed, as the page met them."""
    problems: list[str] = []

    def on_response(response: Any) -> None:
        if response.status >= 400:
            problems.append(f"{response.status} {response.request.method} {response.url}")

    def on_failure(request: Any) -> None:
        problems.append(f"failed {request.method} {request.url}: {request.failure}")

    someone.page.on("response", on_response)
    someone.page.on("requestfailed", on_failure)
    return problems


def settle(someone: Person) -> None:
    """The page's requests are all answered (its first drawing done)."""
    someone.page.wait_for_load_state("networkidle")


def signs_in_and_settles(someone: Person) -> None:
    someone.go("/sign-in")
    sign_in(someone)
    settle(someone)


def visit(someone: Person, path: str, shown: str) -> None:
    someone.go(path)
    expect(someone.page.locator(shown).first).to_be_visible()
    settle(someone)


def test_a_walk_through_every_page_meets_no_refused_or_failed_request(
    person: Callable[..., Person], live_server: LiveServer
) -> None:
    operator_api = Client(live_server, OPERATOR_TOKEN)
    opened = operator_api.call(
        "POST", "/operator/tables", {"name": "Mesa Quilca", "profile": "peru-2016"}
    )
    table_id = int(opened["table"])
    # The inspector and the dealer are players the operator gave a role; the dealer deals
    # at the table.
    for name, role in (("zenobia", "inspector"), ("ulpiano", "dealer")):
        signed_up(live_server, name)
        operator_api.call("POST", "/operator/staff", {"username": name, "role": role})
    operator_api.call("POST", f"/operator/tables/{table_id}/dealers", {"username": "ulpiano"})

    # The player signs up and finds the pages empty: no round, no dispute yet.
    quispe = person("quispe")
    problems = {"quispe": watched(quispe)}
    sign_up(quispe)
    settle(quispe)
    visit(quispe, "/account", "#balance")
    visit(quispe, "/disputes", "main")
    operator_api.call("POST", f"/operator/wallets/{quispe.name}/credit", {"amount": 100_000})
    player_api = Client(live_server, quispe.page.evaluate("localStorage.getItem('croupier.token')"))
    player_api.call("POST", f"/tables/{table_id}/seats/1", {})
    play_a_round(player_api, operator_api, table_id, 10)
    round_id = int(player_api.call("GET", "/me/rounds?limit=1&offset=0")["rounds"][0]["round"])
    dispute = player_api.call("POST", f"/rounds/{round_id}/disputes", {"text": "Revisar"})
    visit(quispe, "/", "#lobby-tables")
    visit(quispe, "/account", "tr[data-round]")
    visit(quispe, f"/recall/{round_id}", "#step-counter")
    visit(quispe, "/disputes", "main")
    # The staff pages, opened by a player without the role (a bookmark, a role taken away):
    # the page says so without asking for what it would be refused.
    for path, said in (
        ("/inspector", "for inspectors"),
        (f"/inspector/{dispute['dispute']}", "for inspectors"),
        ("/dealer", "for dealers"),
    ):
        visit(quispe, path, "main")
        expect(quispe.page.locator("#notice")).to_contain_text(said)
    quispe.page.click("#sign-out")
    quispe.page.wait_for_url(quispe.base + "/sign-in")
    settle(quispe)

    # Each member of staff signs in and opens the pages of their role.
    for name, paths in (
        ("zenobia", ["/inspector", f"/inspector/{dispute['dispute']}"]),
        ("ulpiano", ["/dealer", f"/recall/{round_id}"]),
    ):
        staff = person(name)
        problems[name] = watched(staff)
        signs_in_and_settles(staff)
        visit(staff, "/account", "#balance")
        for path in paths:
            visit(staff, path, "main")

    operator = person("operator")
    problems["operator"] = watched(operator)
    operator_signs_in(operator)
    settle(operator)
    visit(operator, "/", "#lobby-tables")
    visit(operator, f"/recall/{round_id}", "#step-counter")
    visit(operator, "/operator", "#zero-sum")

    refused = {name: found for name, found in problems.items() if found}
    assert not refused, f"pages sent requests that were refused or failed: {refused}"
