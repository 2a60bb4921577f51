"""A restart mid-decision keeps the player's turn (issue 26, item 2).

Found by trying it: after the server restarted during a player's decision the page showed a
running clock and no Hit or Stand, and the house stood for the player; on another try the
buttons came back with 4 s left, although a resumed round is documented to get its full time
(README, "Recovery").

The table server (SQLite, on a fixed port) deals a blackjack round to a player whose page (a
phone) shows the decision; the server stops, and starts again on the same database and port,
bringing the round back from its record as after any restart (R10; a kill -9 mid-round is
``tests/server/test_r10_r11_kill_recovery.py``'s). The page, without a reload, shows the
decision's buttons again with the clock beside them (on a phone the clock sits with the
buttons), and the clock shows the round's deadline, which is the decision's full time from
when the server came back. On the old code it showed 1 s of 15.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from page_scenes import free_port

from .conftest import OPERATOR_TOKEN, PASSWORD, PHONE, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

DECISION_SECONDS = 15
CLOCK_SLACK_SECONDS = 2
"""How far the page's clock may be from the round's deadline when read: it ticks each
second, and the reading and the server's answer are moments apart."""


class RestartableServer:
    """The table server on a fixed loopback port, in a thread of this process (as
    ``croupier serve`` runs it, without a new interpreter's start-up time): stopped, and
    started again on the same database, which it brings every table back from (R10)."""

    def __init__(self, folder: Path) -> None:
        from croupier.server.context import Settings

        self.settings = Settings(
            database_url=f"sqlite:///{folder / 'croupier.sqlite'}",
            operator_token=OPERATOR_TOKEN,
            demo_tables=False,
            rate_limit="100000/minute",
        )
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server: Any = None
        self.running: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        import uvicorn

        from croupier.server.app import create_app, start

        self.running = start(self.settings)
        app = create_app(self.settings, server=self.running)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="restarted", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "no server"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(timeout=15)
            self.server = None
            # A server passed to the app is its maker's to give up: the tables' claim (one
            # process runs a database's tables, issue 25) is free for the restart.
            self.running.release()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[RestartableServer]:
    server = RestartableServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _call(server: RestartableServer, method: str, path: str, token: str, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    if method != "GET":
        headers["Idempotency-Key"] = uuid.uuid4().hex
    answer = httpx.request(method, f"{server.url}{path}", json=body, headers=headers, timeout=10)
    assert answer.status_code < 300, f"{method} {path}: {answer.text}"
    return answer.json()


def _seconds_shown(page: Any, selector: str) -> int:
    text = page.locator(selector).inner_text()
    found = re.search(r"\d+", text)
    assert found, f"the clock shows {text!r}"
    return int(found.group())


def test_a_restart_mid_decision_gives_the_decision_back_with_its_full_time(
    served: RestartableServer, browser: Any
) -> None:
    login = {"username": "rosa", "password": PASSWORD}
    assert httpx.post(f"{served.url}/auth/signup", json=login, timeout=10).status_code == 201
    token = httpx.post(f"{served.url}/auth/signin", json=login, timeout=10).json()["token"]
    _call(served, "POST", "/operator/wallets/rosa/credit", OPERATOR_TOKEN, {"amount": 100_000})
    table = _call(
        served,
        "POST",
        "/operator/tables",
        OPERATOR_TOKEN,
        {
            "name": "Reinicio",
            "profile": "peru-2016",
            "betting_seconds": 600,
            "decision_seconds": DECISION_SECONDS,
        },
    )["table"]
    _call(served, "POST", f"/tables/{table}/seats/1", token, {})

    # Rosa's phone, and the same table in a Spanish browser of hers beside it: the resumed
    # decision is pictured in both languages (issue 26, "Done when").
    pages = {}
    for locale in ("en-US", "es-ES"):
        context = browser.new_context(viewport=PHONE, locale=locale, reduced_motion="reduce")
        context.set_default_timeout(20_000)
        pages[locale] = context.new_page()
        pages[locale].goto(f"{served.url}/sign-in")
        pages[locale].evaluate(
            "([token]) => { localStorage.setItem('croupier.token', token);"
            " localStorage.setItem('croupier.role', 'player');"
            " localStorage.setItem('croupier.username', 'rosa'); }",
            [token],
        )
        pages[locale].goto(f"{served.url}/table/{table}")
        expect(pages[locale].locator("#connection")).to_have_attribute("data-state", "connected")
    page, pagina = pages["en-US"], pages["es-ES"]
    # Rounds until one asks rosa something (a blackjack may end a round at the deal).
    for _ in range(10):
        _call(
            served,
            "POST",
            f"/tables/{table}/bets",
            token,
            {"seat": 1, "wager": "main", "amount": 10},
        )
        _call(served, "POST", f"/tables/{table}/ready", token, {})
        state = _call(served, "GET", f"/tables/{table}", token)["round"]
        if state["pending"] is not None:
            break
    else:
        raise AssertionError("ten rounds and no decision for rosa")
    buttons = page.locator("#actions button")
    expect(buttons.first).to_be_visible()

    page.wait_for_timeout(4_000)  # rosa thinks: the time left is no longer the whole time
    served.stop()
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "connected")
    # Rosa answers while the server is away: the page says it cannot be reached ...
    answer = page.locator(
        "#actions button[data-action='stand'], #actions button[data-action='no-insurance']"
    )
    answer.first.click()
    notice = page.locator("#notice")
    expect(notice).to_have_attribute("data-network", "")
    restarted_at = time.time()
    served.start()
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    # ... and no longer says so once the connection is back (issue 26, item 7).
    expect(notice).to_be_hidden()
    expect(buttons.first).to_be_visible()
    clock = "#decision-timer"
    expect(page.locator(clock)).to_be_visible()
    seconds = _seconds_shown(page, clock)
    shown_at = time.time()
    deadline = _call(served, "GET", f"/tables/{table}", token)["round"]["deadline"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "resumed-decision-390.png"))
    expect(pagina.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(pagina.locator("#actions button").first).to_be_visible()
    expect(pagina.locator(clock)).to_contain_text("Tiempo")
    pagina.screenshot(path=str(SCREENSHOTS / "resumed-decision-390-es.png"))  # looked at
    # The restart is not the player's time: the decision's whole time counts from when the
    # server came back, however long the machine then takes to get the page here (a loaded CI
    # machine took 4 s, which a fixed "at least 13 s shown" counted against the server).
    assert deadline >= restarted_at + DECISION_SECONDS, (
        f"the resumed decision ends {deadline - restarted_at:.1f} s after the restart began,"
        f" not {DECISION_SECONDS}"
    )
    # ... and the page's clock is that deadline (the old page showed 1 s of 15).
    left = deadline - shown_at
    assert abs(seconds - left) <= CLOCK_SLACK_SECONDS, (
        f"the clock shows {seconds} s, {left:.1f} left"
    )
    # The clock sits with the buttons, on the screen.
    box = page.locator(clock).bounding_box()
    bar = page.locator(".decision-bar").bounding_box()
    assert box is not None and bar is not None
    assert bar["y"] <= box["y"] <= bar["y"] + bar["height"]
    assert box["y"] + box["height"] <= PHONE["height"]
    # And the decision is still rosa's: pressed again, it is taken (no refusal, the question
    # is answered: an insurance question's "no" gives way to her hand's own question).
    action = answer.first.get_attribute("data-action")
    answer.first.click()
    expect(page.locator(f"#actions button[data-action='{action}']")).to_have_count(0)
    assert notice.is_hidden() or notice.get_attribute("data-kind") != "error", notice.inner_text()
    for each in pages.values():
        each.context.close()
