"""Issue 26, item 4, on a phone: a back bet no consent could ever accept is refused at once,
and the reason of every refused control is said in words beside it (a phone shows no hover
tooltip). spain-1979, Art. 03 IV.a-b: a back bet rides on a box with its owner's consent,
"dentro de los límites de la apuesta máxima" (200 at this profile; docs/rules.md#D-BJ-28).

Ben, in a Spanish browser on a phone with 30.00, asks to back Ann's box with 201 (over the
box maximum) and with 40 (over his balance): each is refused beside the form's button, in
Spanish, and nothing reaches Ann. His 5 does; Ann, on a phone with no bet on her box yet,
sees why she cannot accept it beside the disabled button."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, Person
from .test_tables_in_a_browser import (
    credit,
    needs_engine,
    open_table_with_players,
    sign_in,
    sit,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PROFILE = "spain-1979"


def _in_view(someone: Person, selector: str) -> None:
    """Shown, and inside the phone's screen width (not a tooltip, not cut off)."""
    element = someone.page.locator(selector)
    expect(element).to_be_visible()
    box = element.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box


def test_back_bets_refused_at_once_and_said_beside_the_button_on_a_phone(
    person: Callable[..., Person], live_server: LiveServer
) -> None:
    needs_engine(PROFILE)
    operator = person("operator")
    ann = person("annrefuse", phone=True)
    ben = person("benrefuse", phone=True)
    seed = hashlib.sha256(b"croupier e2e back bets refused").digest()
    table_id = open_table_with_players(
        operator,
        live_server,
        "Respaldo rechazado",
        PROFILE,
        seed,
        players=[ann, ben],
        credited=[ann],
    )
    credit(operator, ben.name, 30)
    sit(ann, table_id, 1)

    beto = person("benrefuse", phone=True, locale="es-ES")
    beto.go("/sign-in")
    sign_in(beto)  # Ben's name, in a Spanish browser
    beto.go(f"/table/{table_id}")
    expect(beto.page.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(beto.page.locator("#balance")).to_contain_text("30,00")
    beto.page.select_option("#back-seat", "1")
    amount = beto.page.locator("#back-bet-form input[name=amount]")
    why = "#back-bet-why"
    amount.fill("201")
    beto.page.click("#back-bet-form button[type=submit]")
    expect(beto.page.locator(why)).to_have_text(
        "Casilla 1: una apuesta detrás de 201 supera el máximo de la casilla, 200."
    )
    _in_view(beto, why)
    amount.fill("40")
    beto.page.click("#back-bet-form button[type=submit]")
    expect(beto.page.locator(why)).to_have_text(
        "Una apuesta detrás de 40 en la casilla 1 supera su saldo, 30,00."
    )
    _in_view(beto, why)
    beto.screenshot("back-bet-refused-phone-es")  # looked at: the reason under the button
    expect(ann.page.locator("#back-bet-list li")).to_have_count(0)  # nothing waits for Ann

    amount.fill("5")
    beto.page.click("#back-bet-form button[type=submit]")
    expect(beto.page.locator(why)).to_be_hidden()
    asking = ann.page.locator("#back-bet-list li", has_text="benrefuse asks to back seat 1")
    expect(asking.locator("button.accept")).to_be_disabled()
    expect(asking.locator(".control-refusal")).to_have_text(
        "Box 1 has no bet of its own yet: a back bet rides on it."
    )
    _in_view(ann, "#back-bet-list .control-refusal")
    assert asking.locator("button.accept").get_attribute("title") is None
