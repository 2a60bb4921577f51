"""Issue 26, item 7: the recall's list of events follows the step. The step the felt shows is
the one the list marks, and it is in sight in the list (shorter than a long round), at the
round's end when the page opens and at every step after Home, ArrowRight and End; the page
itself does not jump (R14: the recall of a round, step by step).

Ann plays three boxes at spain-1979 (Art. 03 IV.a: a seated player may bet on vacant boxes)
and stands on each; the round's events overflow the list."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, Person
from .test_tables_in_a_browser import (
    needs_engine,
    open_table_with_players,
    play_along,
    say_ready,
    seeded_round,
    sit,
    stand_if_you_may,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PROFILE = "spain-1979"
BOXES = (1, 2, 3)


def _the_marked_step_is_the_one_shown_and_in_sight(ann: Person) -> None:
    page = ann.page
    counter = page.locator("#step-counter").inner_text()
    marked = page.locator("#event-list li[aria-current='step']")
    expect(marked).to_have_count(1)
    index = page.locator("#event-list li").evaluate_all(
        "items => items.findIndex((item) => item.hasAttribute('aria-current'))"
    )
    assert counter.startswith(f"Step {index + 1} of"), (counter, index)
    shown = " ".join(page.locator("#step-text").inner_text().split())
    assert " ".join(marked.inner_text().split()) == shown
    inside = marked.evaluate(
        """item => {
          const list = item.parentElement.getBoundingClientRect();
          const box = item.getBoundingClientRect();
          return box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
        }"""
    )
    assert inside, f"step {index + 1} is out of the list's sight"


def test_the_recall_marks_and_shows_the_step_the_felt_draws(
    person: Callable[..., Person], live_server: LiveServer
) -> None:
    needs_engine(PROFILE)
    seed = hashlib.sha256(b"croupier e2e the recall follows its step").digest()
    operator = person("operator")
    ann = person("annrecall")
    table_id = open_table_with_players(
        operator, live_server, "Recall paso a paso", PROFILE, seed, players=[ann]
    )
    for box in BOXES:
        sit(ann, table_id, box)
    for box in BOXES:
        ann.page.fill(f"input[name='{box}:main']", "10")
    ann.page.click("#place-bets")
    expect(ann.page.locator("#ready")).to_be_visible()
    say_ready(ann)
    engine = seeded_round(PROFILE, seed)
    for box in BOXES:
        engine.place_bet(box, "main", 10)
    engine.deal()
    play_along(engine, dict.fromkeys(BOXES, ann), stand_if_you_may)
    expect(ann.page.locator("#last-round-link")).to_be_visible()
    round_id = int(ann.page.locator("#last-round-link").get_attribute("href").rsplit("/", 1)[1])

    ann.go(f"/recall/{round_id}")
    expect(ann.page.locator("#last-step")).to_be_disabled()  # opened at the round's end
    steps = ann.page.locator("#event-list li").count()
    overflows = ann.page.locator("#event-list").evaluate(
        "list => list.scrollHeight > list.clientHeight"
    )
    assert overflows, "the round is too short to scroll the list"
    _the_marked_step_is_the_one_shown_and_in_sight(ann)
    ann.page.click("#first-step")
    page_top = ann.page.evaluate("window.scrollY")
    for _step in range(steps - 1):
        _the_marked_step_is_the_one_shown_and_in_sight(ann)
        ann.page.keyboard.press("ArrowRight")
    _the_marked_step_is_the_one_shown_and_in_sight(ann)
    ann.page.keyboard.press("Home")
    _the_marked_step_is_the_one_shown_and_in_sight(ann)
    assert ann.page.evaluate("window.scrollY") == page_top  # the list scrolled, not the page
