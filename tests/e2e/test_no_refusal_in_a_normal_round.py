"""No error in the browser's console during normal play (issue 13, item 9): Chromium logs
every answer that is not 2xx as a console error, so a page must not send a request it can
see will be refused. A player of each game first makes the usual slips, a bet above the
table maximum and (blackjack) a 21+3 without its main bet (Peru 2016: the side bet rides on
the box's bet; docs/rules.md §6), which the page refuses on the spot in the catalogue's words
without asking the server; then plays a normal round to its result. No answer is a 4xx, and
the console stays clean (``conftest.person`` fails a test on any console error)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, Person
from .test_tables_in_a_browser import (
    bet,
    needs_engine,
    open_table_with_players,
    play_along,
    say_ready,
    seeded_round,
    sit,
    stand_if_you_may,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

GAMES = [
    ("peru-2016", "main", 10, 1),
    ("dragon-six-peru-2016", "banker", 10, 1),
    ("casino-holdem-peru-2007", "ante", 5, 2),  # Casino Hold'em deals with two players
]


def refused_answers(someone: Person) -> list[str]:
    """Every answer of 400 or more the page receives, from now on."""
    found: list[str] = []

    def seen(response: Any) -> None:
        if response.status >= 400:
            found.append(f"{response.status} {response.request.method} {response.url}")

    someone.page.on("response", seen)
    return found


@pytest.mark.parametrize("game", GAMES, ids=[game[0] for game in GAMES])
def test_a_normal_round_sends_no_request_the_server_refuses(
    live_server: LiveServer, person: Callable[..., Person], game: tuple[str, str, int, int]
) -> None:
    profile, wager, amount, players = game
    needs_engine(profile)
    seed = hashlib.sha256(f"croupier e2e no refusal {profile}".encode()).digest()
    operator = person("operator")
    people = [person(f"clean{index}{profile[:4]}") for index in range(1, players + 1)]
    table_id = open_table_with_players(
        operator, live_server, f"Mesa {profile}", profile, seed, players=people
    )
    refused = {someone.name: refused_answers(someone) for someone in people}
    for seat, someone in enumerate(people, start=1):
        sit(someone, table_id, seat)

    first = people[0]
    page = first.page
    page.fill(f"input[name='1:{wager}']", "20000")  # above the table maximum
    page.click("#place-bets")
    expect(page.locator(f"li[data-seat='1'] .spot-refusal[data-wager='{wager}']")).to_contain_text(
        re.compile(r"20\D000")
    )
    expect(page.locator("#notice")).to_have_attribute("data-kind", "error")
    if profile == "peru-2016":
        page.fill("input[name='1:main']", "0")
        page.fill("input[name='1:21+3']", "5")
        page.click("#place-bets")
        expect(page.locator("li[data-seat='1'] .spot-refusal[data-wager='21+3']")).to_be_visible()
        page.fill("input[name='1:21+3']", "0")
    page.fill(f"input[name='1:{wager}']", "0")

    engine = seeded_round(profile, seed)
    for seat, someone in enumerate(people, start=1):
        bet(someone, seat, wager, amount)
        engine.place_bet(seat, wager, amount)
    for someone in people:
        say_ready(someone)
    engine.deal()
    play_along(
        engine,
        dict(enumerate(people, start=1)),
        lambda seat, legal: "call" if "call" in legal else stand_if_you_may(seat, legal),
    )
    for someone in people:
        expect(someone.page.locator("#round-banner")).to_be_visible()
        expect(someone.page.locator("#results")).to_be_visible()
    assert refused == {someone.name: [] for someone in people}
