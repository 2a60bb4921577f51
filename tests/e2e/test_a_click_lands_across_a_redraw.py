"""A click on the table page lands however the page redraws under it.

Seen in CI (a loaded run): a player clicked seat 1's "Sit" and the seat stayed free, with no
notice and nothing in the console. The page redraws the seats on every push and every late
answer (another player's seat, the balance, the last round's recall), and a button replaced
between a click's press and its release gets no click event: the click was lost without a
word. The page now keeps each seat whose drawing did not change (``redrawChildren`` in
``common.js``), so the button under the pointer stays.

Ann presses seat 1's "Sit"; before she lets go, Ben sits at seat 2 and Ann's page draws him
there; she lets go, and seat 1 is hers. On the page that replaced every seat at each drawing,
her click was lost (tried: seat 1 stayed free).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, Person
from .test_tables_in_a_browser import open_table_with_players, sit

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_a_sit_pressed_while_the_seats_are_redrawn_still_sits(
    person: Callable[..., Person], live_server: LiveServer
) -> None:
    operator = person("operator")
    ann = person("annpress")
    ben = person("benpress")
    seed = hashlib.sha256(b"croupier e2e a click across a redraw").digest()
    table_id = open_table_with_players(
        operator, live_server, "Pulsación", "peru-2016", seed, players=[ann, ben], credited=[]
    )
    ann.go(f"/table/{table_id}")
    expect(ann.page.locator("#connection")).to_have_attribute("data-state", "connected")
    box = ann.page.locator("li[data-seat='1'] button.sit").bounding_box()
    assert box is not None
    ann.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.page.mouse.down()

    sit(ben, table_id, 2)
    expect(ann.page.locator("li[data-seat='2']")).to_have_class(re.compile(r"\btaken\b"))

    ann.page.mouse.up()
    expect(ann.page.locator("li[data-seat='1']")).to_have_class(re.compile(r"\bmine\b"))
