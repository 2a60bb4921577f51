"""A player who walks away (issue 13, item 5; docs/rules.md#D-GEN-15): on a table whose
operator set a 2 s betting window, 1 round to sit out and 2 more to free the seat, Ann sits
and never bets. Her seat shows "Sitting out" on her page and a spectator's, then is free on
both: the server's own clock does it, no page asks for it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from .conftest import OPERATOR_TOKEN, LiveServer, Person
from .test_pages_in_the_players_language import Client
from .test_tables_in_a_browser import sign_up, sit

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_a_seat_left_without_a_word_sits_out_then_frees_on_every_page(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    operator = Client(live_server, OPERATOR_TOKEN)
    table_id = operator.call(
        "POST",
        "/operator/tables",
        {
            "name": "Ausente E2E",
            "profile": "peru-2016",
            "betting_seconds": 2,
            "sit_out_after": 1,
            "free_after": 2,
        },
    )["table"]
    ann, watcher = person("annaway"), person("watchaway")
    for someone in (ann, watcher):
        sign_up(someone)
    sit(ann, table_id, 1)
    watcher.go(f"/table/{table_id}")
    for someone in (ann, watcher):
        seat = someone.page.locator("li[data-seat='1']")
        expect(seat).to_have_class(re.compile(r"\bsitting-out\b"), timeout=10_000)
        expect(seat.locator(".seat-away")).to_have_text("Sitting out")
        expect(seat.locator(".seat-player")).to_have_text("annaway")
        expect(someone.page.locator("li[data-seat='2']")).not_to_contain_text("null")
    expect(ann.page.locator("#seat-controls .you-sit-out")).to_contain_text("bet to come back")
    ann.screenshot("seat-sitting-out")
    for someone in (ann, watcher):
        seat = someone.page.locator("li[data-seat='1']")
        expect(seat).to_have_class(re.compile(r"\bfree\b"), timeout=15_000)
        expect(seat.locator(".seat-player")).to_have_text("Free")
    expect(ann.page.locator("#seat-controls .hint")).to_be_visible()
