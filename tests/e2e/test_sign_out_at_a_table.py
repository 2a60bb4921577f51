"""Signing out at a table, and a session ended under the table page (issue 10, item 4: ending
a session closes its sockets with code 4401).

The server closes the session's table socket before it answers the sign-out, so the page
hears two things: its socket's 4401 close, and then the sign-out's answer. The person chose
to sign out: the sign-in page they land on is the plain one, not one that would send them
back to the table afterwards. A socket closed by 4401 when nobody signed out on this page
(the session idled out, or was signed out in another tab) still sends the player to sign in
and back to the table.

The order is made certain, not left to chance: the test holds the sign-out's answer until
the page has heard its socket close.
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PASSWORD, LiveServer, Person
from .test_tables_in_a_browser import (
    needs_engine,
    open_table,
    operator_signs_in,
    sign_in,
    sign_up,
    sit,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

# Every WebSocket the page opens tells the test when it closed, and with which code. The
# listener is added as the socket is made, before the page's own, so once the test sees the
# close the page's own close handler has run in the same event.
RECORD_CLOSES = """
window.__socketCloses = [];
const PageWebSocket = window.WebSocket;
window.WebSocket = class extends PageWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("close", (event) => window.__socketCloses.push(event.code));
  }
};
"""


def _player_at_a_table(
    live_server: LiveServer, person: Callable[..., Person], name: str
) -> tuple[Person, int, list[str]]:
    """``name`` seated at a new table, its socket connected; and the pages they go to."""
    needs_engine("dragon-six-peru-2016")
    operator = person(f"operator-{name}")
    player = person(name)
    operator_signs_in(operator)
    seed = hashlib.sha256(f"croupier e2e sign-out {name}".encode()).digest()
    table_id = open_table(operator, live_server, f"Sign-out {name}", "dragon-six-peru-2016", seed)
    sign_up(player)
    player.page.add_init_script(RECORD_CLOSES)
    visited: list[str] = []
    player.page.on(
        "request",
        lambda request: visited.append(request.url) if request.is_navigation_request() else None,
    )
    sit(player, table_id, 1)
    return player, table_id, visited


def _closes_heard(player: Person) -> list[int]:
    codes: list[int] = player.page.evaluate("window.__socketCloses")
    return codes


def test_signing_out_at_a_table_lands_on_the_plain_sign_in_page(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    player, table_id, visited = _player_at_a_table(live_server, person, "sofia-signs-out")
    held: list[tuple[Any, Any]] = []

    def hold_the_answer(route: Any) -> None:
        held.append((route, route.fetch()))  # the server has ended the session by now

    player.page.route("**/auth/signout", hold_the_answer)
    at_table = player.page.url
    visited.clear()
    player.page.click("#sign-out")
    deadline = time.monotonic() + 15
    while not visited and not _closes_heard(player) and time.monotonic() < deadline:
        player.page.wait_for_timeout(50)  # (the pages' CSP forbids wait_for_function's eval)
    # The page's close handler has run; had it sent the player anywhere, the navigation
    # would have been asked for by now (a second is generous on a loaded machine).
    player.page.wait_for_timeout(1000)
    assert visited == [], f"the socket's close sent a signing-out player to {visited}"
    assert _closes_heard(player) == [4401]
    assert player.page.url == at_table
    assert len(held) == 1
    route, answer = held[0]
    route.fulfill(response=answer)
    player.page.wait_for_url(player.base + "/sign-in")
    expect(player.page.locator("#sign-in-form")).to_be_visible()
    assert visited == [player.base + "/sign-in"]
    assert player.page.evaluate("localStorage.getItem('croupier.token')") is None

    # Signed in again, the player goes to the lobby (no `next`), and the table keeps the seat.
    sign_in(player)
    player.go(f"/table/{table_id}")
    expect(player.page.locator("li[data-seat='1']")).to_have_class(re.compile(r"\bmine\b"))


def test_a_session_ended_elsewhere_sends_the_player_to_sign_in_and_back_to_the_table(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    """The same close code as an idle end (30 minutes without a call): the session is ended
    by a sign-out from another tab of the same browser, which this page did not ask for."""
    player, table_id, visited = _player_at_a_table(live_server, person, "hugo-ended-elsewhere")
    token = player.page.evaluate("localStorage.getItem('croupier.token')")
    visited.clear()
    ended = player.page.request.post(
        player.base + "/auth/signout",
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())},
        data={},
    )
    assert ended.ok, ended.text()
    player.page.wait_for_url(player.base + f"/sign-in?next=%2Ftable%2F{table_id}")
    assert visited == [player.base + f"/sign-in?next=%2Ftable%2F{table_id}"]
    assert player.page.evaluate("localStorage.getItem('croupier.token')") is None

    player.page.fill("input[name=username]", player.name)
    player.page.fill("input[name=password]", PASSWORD)
    player.page.click("#sign-in-form button[type=submit]")
    player.page.wait_for_url(player.base + f"/table/{table_id}")
    expect(player.page.locator("li[data-seat='1']")).to_have_class(re.compile(r"\bmine\b"))
