"""The operator's back office in a real browser (issue 27, item 6; issue 26, item 7).

The operator works it with the keyboard: the sections' links, the cashier's form sent with
Enter, every movement of money confirmed in a dialog that names the player, the amount and
the balance it leaves (Escape cancels and nothing moves); the list of tables a dealer is
assigned to follows a table opened on the page without a reload; the report's day is the
browser's today on the house's gaming day, not the server's. Pictures of the back office in
English and Spanish, on a desktop and a phone.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from croupier.gaming_day import GamingDay

from .conftest import OPERATOR_TOKEN, LiveServer, Person
from .test_pages_in_the_players_language import english_left_on
from .test_payout_corrections_in_a_browser import at_both_widths
from .test_tables_in_a_browser import open_table, operator_signs_in, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def _balance(server: LiveServer, username: str) -> list[tuple[str, int]]:
    """``username`` and the balance of their wallet, as the server has it."""
    answer = httpx.get(
        f"{server.url}/operator/players/activity?date=2000-01-01",
        headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text
    return [
        (p["username"], p["balance_minor"])
        for p in answer.json()["players"]
        if p["username"] == username
    ]


def _as_operator(page: Any, server: LiveServer) -> None:
    """The operator's session in this browser (the operator's token, as signing in keeps it)."""
    page.goto(server.url + "/sign-in")
    page.evaluate(
        """(token) => {
            localStorage.setItem("croupier.token", token);
            localStorage.setItem("croupier.role", "operator");
            localStorage.setItem("croupier.username", "operator");
        }""",
        OPERATOR_TOKEN,
    )


def test_the_cashier_is_keyboard_first_and_every_movement_is_confirmed(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    operator = person("operator")
    paula = person("paula")
    operator_signs_in(operator)
    sign_up(paula)
    page = operator.page
    operator.go("/operator")
    expect(page.locator(f"#operator-players tr[data-player='{paula.name}']")).to_have_count(1)

    # The sections' navigation, with the keyboard: the link's section takes the focus.
    page.locator("#office-nav a[href='#cashier']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#cashier")).to_be_focused()
    expect(page.locator("#office-nav a[href='#cashier']")).to_have_attribute(
        "aria-current", "location"
    )

    # Name, Tab, amount, Enter: the confirmation names the player, the amount, the balances.
    page.locator("#cashier-player").focus()
    page.keyboard.type(paula.name)
    page.keyboard.press("Tab")
    expect(page.locator("#cashier-amount")).to_be_focused()
    page.keyboard.type("12.50")
    page.keyboard.press("Enter")
    dialog = page.locator("#money-confirm")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#confirm-player")).to_have_text(paula.name)
    expect(dialog.locator("#confirm-amount")).to_have_text("12.50")
    expect(dialog.locator("#confirm-before")).to_have_text("0.00")
    expect(dialog.locator("#confirm-after")).to_have_text("12.50")
    expect(dialog.locator("#confirm-money")).to_be_focused()
    at_both_widths(operator, "back-office-confirm")

    # Escape: nothing is sent, nothing moves.
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert _balance(live_server, paula.name) == [(paula.name, 0)]

    # Enter, then Enter on Confirm: the credit, once.
    page.locator("#cashier-amount").focus()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    row = page.locator(f"#operator-players tr[data-player='{paula.name}']")
    expect(row.locator(".balance")).to_have_text("12.50")
    assert _balance(live_server, paula.name) == [(paula.name, 1250)]

    # A debit beyond the balance says so before anything is sent.
    page.fill("#cashier-player", paula.name)
    page.fill("#cashier-amount", "20")
    page.check("#cashier-form input[value=debit]")
    page.locator("#cashier-form button[type=submit]").click()
    expect(dialog.locator("#confirm-after")).to_have_text("-7.50")
    expect(dialog.locator("#confirm-warning")).to_be_visible()
    dialog.locator("#cancel-money").click()
    expect(dialog).to_be_hidden()
    assert _balance(live_server, paula.name) == [(paula.name, 1250)]

    # Paula's activity statement from her account page: her own credit, as CSV.
    paula.go("/account")
    with paula.page.expect_download() as downloading:
        paula.page.locator("#statement-download button[type=submit]").click()
    lines = Path(downloading.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("entry,transaction,at,kind,round,table,game,amount_minor")
    assert [line.split(",")[3:8] for line in lines[1:]] == [["credit", "", "", "", "1250"]]


def test_the_dealers_table_list_follows_a_table_opened_on_the_page(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    """Issue 26, item 7: the list stayed as it was when the page loaded until a reload."""
    operator = person("operator")
    operator_signs_in(operator)
    seed = hashlib.sha256(b"croupier e2e back office").digest()
    table_id = open_table(operator, live_server, "Mesa Nueva Ica", "dragon-six-peru-2016", seed)
    operator.page.fill("#new-table-form input[name=name]", "Mesa Nueva Tacna")
    operator.page.select_option("#profile-select", "dragon-six-peru-2016")
    live_server.seeds.queue.append(seed)
    operator.page.click("#new-table-form button[type=submit]")  # no reload after this
    second = operator.page.locator("#operator-tables tbody tr", has_text="Mesa Nueva Tacna")
    expect(second).to_have_count(1)
    second_id = second.get_attribute("data-table-id")
    assert second_id and int(second_id) != table_id
    expect(operator.page.locator(f"#assign-table option[value='{second_id}']")).to_have_text(
        f"#{second_id} · Mesa Nueva Tacna"
    )


def test_the_report_day_is_the_browsers_today_on_the_houses_gaming_day(
    browser: Any, live_server: LiveServer
) -> None:
    """At 20:00 UTC it is already 10:00 the next morning at Kiritimati (UTC+14): a browser
    there reads that day's report (the house names no zone of its own: the browser's is
    used), where the server's clock (UTC) would give the day before."""
    moment = datetime(2026, 3, 10, 20, 0, tzinfo=UTC)
    context = browser.new_context(locale="en-US", timezone_id="Pacific/Kiritimati")
    try:
        page = context.new_page()
        page.clock.set_fixed_time(moment.timestamp())
        _as_operator(page, live_server)
        page.goto(live_server.url + "/operator")
        expected = GamingDay.parse("06:00", "Pacific/Kiritimati").day_of(moment.timestamp())
        assert expected == moment.date() + timedelta(days=1)
        # Generous waits: today's figures are five requests on a loaded machine.
        expect(page.locator("#report-date")).to_have_value(expected.isoformat(), timeout=15_000)
        expect(page.locator("#today-date")).to_have_text(expected.isoformat(), timeout=15_000)
    finally:
        context.close()


def test_the_later_modules_hear_the_tables_and_players_told_before_they_ran(
    browser: Any, live_server: LiveServer
) -> None:
    """CI of e1c06c9: today at a glance stayed empty. The page's modules run one by one, and
    the tables' answer was told (operator.js) before operator-office.js had run and listened.
    Here the later modules are held until the page's own module has told the tables and the
    players; each must still draw what it follows (common.js ``follow``)."""
    signed_up = httpx.post(
        live_server.url + "/auth/signup",
        json={"username": "modulo_tardio", "password": "a long enough password"},
    )
    assert signed_up.status_code == 201, signed_up.text  # a player for the cashier's list
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        _as_operator(page, live_server)
        held: list[Any] = []
        later = re.compile(r"/js/operator-(office|staff|protection)\.js$")

        def hold(route: Any) -> None:
            held.append(route)

        page.route(later, hold)
        page.goto(live_server.url + "/operator", wait_until="commit")
        # operator.js fills the rules' list after telling the tables, and tells the players in
        # the same turn as it draws their rows: both told, and the later modules not run yet.
        expect(page.locator("#profile-select option")).not_to_have_count(0)
        expect(page.locator("#operator-players tbody tr")).not_to_have_count(0)
        assert sorted(route.request.url.rsplit("/", 1)[1] for route in held) == [
            "operator-office.js",
            "operator-protection.js",
            "operator-staff.js",
        ]
        assert page.locator("#today-date").text_content() == ""
        for route in held:
            route.continue_()
        expect(page.locator("#today-date")).not_to_have_text("")  # the glance (office)
        expect(page.locator("#cashier-players option")).not_to_have_count(0)  # the cashier
        tables = page.locator("#operator-tables tbody tr").count()
        expect(page.locator("#assign-table option")).to_have_count(1 + tables)  # the staff
    finally:
        context.close()


def test_a_role_granted_stays_listed_when_the_pages_first_read_answers_after(
    browser: Any, live_server: LiveServer
) -> None:
    """CI of c21e693: the operator granted a role, the notice said so, and the staff's list did
    not show it. The page's first read of the staff answered after the grant's own read and
    its older list was drawn over the newer one. Here that first answer is held (as the
    server gave it, before the grant) until the grant's list is drawn: the role stays."""
    name = "rol_tardio"
    signed_up = httpx.post(
        live_server.url + "/auth/signup",
        json={"username": name, "password": "a long enough password"},
    )
    assert signed_up.status_code == 201, signed_up.text
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        _as_operator(page, live_server)
        held: list[tuple[Any, Any]] = []

        def hold_the_first_read(route: Any) -> None:
            if route.request.method == "GET" and not held:
                held.append((route, route.fetch()))  # the staff before the grant
            else:
                route.continue_()

        page.route(re.compile(r"/operator/staff$"), hold_the_first_read)
        page.goto(live_server.url + "/operator")
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the page read the staff"
        page.fill("#grant-form input[name=username]", name)
        page.select_option("#grant-form select[name=role]", "inspector")
        page.click("#grant-form button[type=submit]")
        granted = page.locator(f"#operator-staff tr[data-staff='{name}']")
        expect(granted).to_have_count(1)
        route, before_the_grant = held[0]
        route.fulfill(response=before_the_grant)
        page.wait_for_timeout(1000)  # the held answer read and, before the fix, drawn
        assert granted.count() == 1
    finally:
        context.close()


def test_the_back_office_in_spanish_on_a_phone_and_a_desktop(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    operator = person("operator", locale="es-ES")
    _as_operator(operator.page, live_server)
    operator.go("/operator")
    expect(operator.page.locator("#glance-tables")).not_to_have_text("…")
    expect(operator.page.locator("#alerts li").first).to_be_visible()
    expect(operator.page.locator("#office-nav")).to_contain_text("Hoy de un vistazo")
    assert english_left_on(operator.page.locator("body").inner_text()) == []
    at_both_widths(operator, "back-office-es", "#today")
