"""Issue 13, items 6 and 8, in Chromium: the lobby, the account page and the not-found pages
read in the browser's language, with no string of the English catalogue on a Spanish page,
an error from the server rendered from the catalogue with grouped amounts, and no page that
scrolls sideways on a 390 px phone. Screenshots at 390 and 1366 px go to
``artifacts/screenshots`` (``words-*.png``) for a person to look at.

The players and their round come through the API (the table pages are drawn elsewhere); the
pages here only read."""

from __future__ import annotations

import json
import re
import time
import uuid
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from croupier.web.language import Catalogue

from .conftest import OPERATOR_TOKEN, PASSWORD, LiveServer, Person

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

WIDE = {"width": 1366, "height": 900}
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


# A live server's first table of a game loads that game's engine: 2.5 s alone here, over 10 s
# on a loaded machine. With pytest-xdist each worker has its own server, and a test of this
# file can be the one that opens its worker's first table (alone, earlier files opened it).
HTTP_TIMEOUT = 60


class Client:
    """The table server's API as a test drives it (each command with its own key)."""

    def __init__(self, server: LiveServer, token: str) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT)
        self.token = token

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}", "Idempotency-Key": uuid.uuid4().hex}
        answer = self.http.request(method, path, json=body, headers=headers)
        assert answer.status_code < 300, answer.text
        return answer.json()


def signed_up(server: LiveServer, name: str) -> Client:
    http = httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT)
    login = {"username": name, "password": PASSWORD}
    assert http.post("/auth/signup", json=login).status_code == 201
    return Client(server, http.post("/auth/signin", json=login).json()["token"])


def play_a_round(player: Client, operator: Client, table_id: int, units: int) -> None:
    # The round bet on is the one open now: read before the deal, since a natural settles the
    # round (and opens the next) within the ``ready`` call, leaving no decision to make.
    started = operator.call("GET", f"/tables/{table_id}")["round"]["id"]
    player.call("POST", f"/tables/{table_id}/bets", {"seat": 1, "wager": "main", "amount": units})
    player.call("POST", f"/tables/{table_id}/ready", {})
    for _ in range(100):
        state = operator.call("GET", f"/tables/{table_id}")["round"]
        if state["id"] != started:
            return
        pending = state["pending"]
        if pending is None:  # between two steps of the house's: look again
            time.sleep(0.05)
            continue
        player.call(
            "POST", f"/tables/{table_id}/actions", {"seat": 1, "action": pending["default"]}
        )
    raise AssertionError("the round did not end")


def signed_in_browser(someone: Person, token: str, name: str, *, role: str = "player") -> None:
    """``someone``'s browser holds the session ``token`` of ``name`` (as the pages keep it
    once signed in), without the sign-in form: a second browser of the same person, or one
    signed in through the API."""
    someone.go("/sign-in")
    someone.page.evaluate(
        """([token, role, name]) => {
            localStorage.setItem("croupier.token", token);
            localStorage.setItem("croupier.role", role);
            localStorage.setItem("croupier.username", name);
        }""",
        [token, role, name],
    )


def english_left_on(text: str) -> list[str]:
    """Every English catalogue text (its fixed words) shown where the Spanish differs."""
    english, spanish = Catalogue.load("en").messages, Catalogue.load("es").messages
    # Spanish texts that hold a proper name ("Black Jack o Veintiuno", "Dragon Six Baccarat
    # Plus") are Spanish: taken out before the English words are looked for.
    for whole in sorted(spanish.values(), key=len, reverse=True):
        if len(whole) >= 8 and not PLACEHOLDER.search(whole):
            text = text.replace(whole, " ")
    found = []
    for key, words in english.items():
        if words == spanish[key]:
            continue  # "Blackjack", "21+3": the same in both
        for piece in PLACEHOLDER.split(words):
            fragment = piece.strip(" .,:;()–-")
            if (
                len(fragment) >= 4
                and fragment not in spanish[key]
                and re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", text)
            ):
                found.append(f"{key}: {fragment!r}")
    return found


def assert_fits_a_phone(someone: Person) -> None:
    overflow = someone.page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{someone.page.url} scrolls sideways by {overflow} px"


def look(someone: Person, path: str, name: str, ready: str) -> str:
    """Open ``path`` at 390 and 1366 px; the page's text once ``ready`` is shown."""
    someone.page.set_viewport_size({"width": 390, "height": 844})
    someone.go(path)
    expect(someone.page.locator(ready).first).to_be_visible()
    assert_fits_a_phone(someone)
    someone.screenshot(f"words-{name}-390")
    someone.page.set_viewport_size(WIDE)
    someone.screenshot(f"words-{name}-1366")
    text: str = someone.page.locator("body").inner_text()
    return text


def test_spanish_pages_show_no_english_and_an_error_in_spanish(
    person: Any, live_server: LiveServer
) -> None:
    operator = Client(live_server, OPERATOR_TOKEN)
    table = operator.call(
        "POST", "/operator/tables", {"name": "Mesa Madrid", "profile": "veintiuno-real"}
    )["table"]
    lucia = signed_up(live_server, "lucia")
    operator.call("POST", "/operator/wallets/lucia/credit", {"amount": 2_000_000})
    lucia.call("POST", f"/tables/{table}/seats/1", {})
    play_a_round(lucia, operator, table, 1000)

    spanish = Catalogue.load("es")
    someone: Person = person("lucia", phone=True, locale="es-ES")
    signed_in_browser(someone, lucia.token, "lucia")

    lobby = look(someone, "/", "lobby-es", "#lobby-tiles .tile[data-table-id]")
    assert spanish.text("lobby.round_waiting") in lobby
    assert spanish.text("profile.veintiuno-real") in lobby  # the rules, under its own name
    account = look(someone, "/account", "account-es", "#statement tbody tr")
    assert spanish.text("ledger.settlement") in account or spanish.text("ledger.stake") in account
    assert "20.000,00" in account  # the credit, grouped as Spanish writes it
    missing = look(someone, "/no/such/page", "not-found-es", "h1")
    assert spanish.text("not_found.page") in missing
    no_table = look(someone, "/table/999", "no-table-es", "h1")
    assert spanish.text("not_found.table") in no_table
    sign_in = look(someone, "/sign-in", "sign-in-es", "form")
    for path, text in (
        ("/", lobby),
        ("/account", account),
        ("/no/such", missing),
        ("/sign-in", sign_in),
    ):
        assert english_left_on(text) == [], path

    # A refused bet, as the server words it in code and params, read in Spanish.
    someone.go("/")
    expect(someone.page.locator("#lobby-tiles .tile[data-table-id]").first).to_be_visible()
    someone.page.evaluate(
        """async (table) => {
            const common = await import("/web/static/js/common.js");
            await common.api("POST", `/tables/${table}/bets`, { seat: 1, wager: "main", amount: 20000 })
              .catch(common.reportError);
        }""",
        table,
    )
    notice = someone.page.locator("#notice")
    expect(notice).to_have_text(
        spanish.text(
            "error.bet_outside_limits",
            wager=spanish.text("wager.main"),
            seat=1,
            amount="20.000",
            minimum=1,
            maximum="10.000",
        )
    )
    assert english_left_on(someone.page.locator("body").inner_text()) == []
    someone.page.set_viewport_size({"width": 390, "height": 844})
    assert_fits_a_phone(someone)
    someone.screenshot("words-error-es-390")
    someone.page.set_viewport_size(WIDE)
    someone.screenshot("words-error-es-1366")
    # The operator's page, in Spanish too (the profile list names each rules' title).
    house: Person = person("operator-es", locale="es-ES")
    signed_in_browser(house, OPERATOR_TOKEN, "operator", role="operator")
    books = look(house, "/operator", "operator-es", "#operator-tables tbody tr")
    assert spanish.text("profile.spain-1979") in house.page.locator("#profile-select").inner_text()
    assert english_left_on(books) == []
    # Chromium itself logs every 4xx answer as a console error ("Failed to load resource"),
    # whatever the page does with it: the refusal asked for here and the two 404 pages.
    someone.errors[:] = [e for e in someone.errors if "Failed to load resource" not in e]


def test_the_english_lobby_and_account_at_both_widths(person: Any, live_server: LiveServer) -> None:
    operator = Client(live_server, OPERATOR_TOKEN)
    operator.call(
        "POST",
        "/operator/tables",
        {"name": "casino-holdem-peru-2007", "profile": "casino-holdem-peru-2007"},
    )
    ann = signed_up(live_server, "ann-words")
    operator.call("POST", "/operator/wallets/ann-words/credit", {"amount": 12_345_678})
    english = Catalogue.load("en")
    someone: Person = person("ann-words")
    signed_in_browser(someone, ann.token, "ann-words")
    lobby = look(someone, "/", "lobby-en", "#lobby-tiles .tile[data-table-id]")
    # A table named after its profile reads as the rules' title, and says it needs two.
    assert english.text("profile.casino-holdem-peru-2007") in lobby
    assert english.text("lobby.needs_players", needed=2, seated=0) in lobby
    account = look(someone, "/account", "account-en", "#statement tbody tr")
    assert "123,456.78" in account
    assert json.dumps(english.text("me.no_history"))[1:-1] in account


def test_sockets_on_the_live_server_log_no_pending_task_through_a_round(
    live_server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 13, item 9, on uvicorn itself: two table sockets open through a round, one
    closed mid-round, and the server's log holds no "Task was destroyed but it is pending!"
    nor "cannot reuse already awaited coroutine"."""
    import gc
    import logging

    from websockets.sync.client import connect

    caplog.set_level(logging.INFO)
    operator = Client(live_server, OPERATOR_TOKEN)
    table = operator.call(
        "POST", "/operator/tables", {"name": "Mesa sockets", "profile": "veintiuno-real"}
    )["table"]
    eva = signed_up(live_server, "eva-sockets")
    operator.call("POST", "/operator/wallets/eva-sockets/credit", {"amount": 100_000})
    eva.call("POST", f"/tables/{table}/seats/1", {})
    address = live_server.url.replace("http://", "ws://") + f"/tables/{table}/ws?token={eva.token}"
    with connect(address) as watching:
        early = connect(address)
        assert json.loads(early.recv(timeout=10))["type"] == "state"
        assert json.loads(watching.recv(timeout=10))["type"] == "state"
        eva.call("POST", f"/tables/{table}/bets", {"seat": 1, "wager": "main", "amount": 5})
        early.close()
        play_a_round(eva, operator, table, 5)
        watching.send("ping")
        assert json.loads(watching.recv(timeout=10))["type"] == "state"
    time.sleep(0.5)  # the server's side of the closes
    gc.collect()
    trouble = ("Task was destroyed but it is pending", "cannot reuse already awaited coroutine")
    assert [
        r.getMessage() for r in caplog.records if any(t in r.getMessage() for t in trouble)
    ] == []
