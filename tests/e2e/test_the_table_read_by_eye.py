"""What a review of every page by eye found (issue 13: a table a player trusts at a glance),
each checked where the player would have seen it.

- A blackjack hand of five or more cards spilled out of its seat on a phone, over the next
  seat and the felt's edge, with its total and result drawn over the cards.
- After a round in Spanish on a phone the results table ("1 (mano 1)", "Sin combinación")
  widened the page's only grid column: the whole page scrolled sideways, 419 px in 390.
- The results numbered a single hand ("1 (hand 1)", as if a second were missing), and they
  and the result banner put the 21+3 before the main bet.
- The lobby said "Needs 1 players to deal (0 seated)" of every empty one-player table, and
  broke its limits after the dash ("1 –" above "10,000").
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from croupier.games.base import Action

from .conftest import LiveServer, Person
from .test_tables_in_a_browser import (
    CREDIT_UNITS,
    assert_fits_the_screen,
    decide,
    needs_engine,
    open_table,
    open_table_with_players,
    operator_signs_in,
    say_ready,
    seed_where,
    seeded_round,
    sign_up,
    sit,
    wait_for_balance,
    wait_for_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PROFILE = "peru-2016"
LONG_HAND = 6


def _hits_to_a_long_hand(seed: bytes) -> bool:
    """Peru 2016 Art. 13 (hit at will under 21): seat 1, hitting at every turn, holds at
    least ``LONG_HAND`` cards when the hand ends; no insurance question comes first."""
    round_ = seeded_round(PROFILE, seed)
    round_.place_bet(1, "main", 10)
    round_.place_bet(1, "21+3", 5)
    round_.deal()
    while (decision := round_.pending()) is not None:
        if decision.question != "play" or Action("hit") not in decision.legal:
            return False
        round_.act(1, Action("hit"))
    box = round_.boxes[1]  # type: ignore[attr-defined]
    return len(box.hands) == 1 and len(box.hands[0].cards) >= LONG_HAND


# The sides of every card of a seat against the seat's own box, in CSS pixels (a pixel's
# rounding allowed).
CARDS_OUTSIDE_THEIR_SEAT = """(seat) => {
  const box = document.querySelector(`#seats > li[data-seat='${seat}']`).getBoundingClientRect();
  return [...document.querySelectorAll(`#seats > li[data-seat='${seat}'] .card`)]
    .map((card) => card.getBoundingClientRect())
    .filter((card) => card.left < box.left - 1 || card.right > box.right + 1)
    .map((card) => [Math.round(card.left), Math.round(card.right), Math.round(box.left), Math.round(box.right)]);
}"""


def test_a_long_hand_stays_in_its_seat_and_the_results_fit_a_phone_in_spanish(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine(PROFILE)
    seed = seed_where(PROFILE, _hits_to_a_long_hand)
    operator = person("operator")
    player = person("largamano", phone=True, locale="es-ES")
    table_id = open_table_with_players(
        operator, live_server, "Mesa Larga", PROFILE, seed, players=[player]
    )
    sit(player, table_id, 1)
    page = player.page
    page.fill("input[name='1:main']", "10")
    page.fill("input[name='1:21+3']", "5")
    page.click("#place-bets")
    say_ready(player)

    engine = seeded_round(PROFILE, seed)
    engine.place_bet(1, "main", 10)
    engine.place_bet(1, "21+3", 5)
    engine.deal()
    while (decision := engine.pending()) is not None:
        wait_for_turn(player, [str(option) for option in decision.legal])
        decide(player, "hit")
        engine.act(1, Action("hit"))
    wait_for_balance(player, CREDIT_UNITS + engine.results().net(1))
    cards = len(engine.boxes[1].hands[0].cards)  # type: ignore[attr-defined]
    expect(page.locator("#seats > li[data-seat='1'] .card")).to_have_count(cards)
    expect(page.locator("#felt")).not_to_have_class(re.compile(r"\bdealing\b"))
    player.screenshot("long-hand-in-its-seat-390-es")
    outside = page.evaluate(CARDS_OUTSIDE_THEIR_SEAT, 1)
    assert not outside, f"{cards} cards, some outside seat 1 (left, right, seat's): {outside}"

    # The results: the page does not scroll sideways; one hand is "1", not "1 (mano 1)";
    # the main bet before the 21+3; on a phone each value named by its column.
    expect(page.locator("#results")).to_be_visible()
    assert_fits_the_screen(player)
    rows = page.locator("#results-body tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("1")
    expect(rows.nth(0).locator("td").nth(1)).to_have_text("Apuesta")
    expect(rows.nth(1).locator("td").nth(1)).to_have_text("21+3")
    expect(rows.nth(0).locator("td").nth(2)).to_have_attribute("data-label", "Importe")
    # The banner too says the main bet's outcome first, then the 21+3's.
    banner = page.locator("#round-banner li")
    expect(banner).to_have_count(2)
    expect(banner.nth(0)).to_have_attribute("data-wager", "main")
    expect(banner.nth(1)).to_have_attribute("data-wager", "21+3")
    player.screenshot("results-on-a-phone-390-es")


def test_the_lobby_says_an_empty_table_waits_for_a_player(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine(PROFILE)
    operator = person("operator")
    visitor = person("visitalobby")
    operator_signs_in(operator)
    open_table(operator, live_server, "Mesa Vacía", PROFILE, b"\x00" * 32)
    sign_up(visitor)
    row = visitor.page.locator("#lobby-tiles .tile", has_text="Mesa Vacía")
    expect(row).to_contain_text("Waits for a player to sit")
    expect(row).not_to_contain_text("players to deal")
    # The limits read on one line ("1 – 10,000" broke after the dash), down to a small
    # laptop's width where the table is still a table.
    visitor.page.set_viewport_size({"width": 800, "height": 700})
    lines = row.locator(".limits").evaluate(
        """(cell) => { const range = document.createRange(); range.selectNodeContents(cell);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size; }"""
    )
    assert lines == 1, f"the limits take {lines} lines"
