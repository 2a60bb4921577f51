"""The baccarat felt keeps the last coup of its own table (each coup dealt by the live server
from a shoe the test stacked): a player who played a coup here and then one at another
table, and comes back to this table's page, sees this table's coup, not an empty felt. It stays when
the player has already bet in the round taking bets here, after a reload.

The page used to ask for the player's one newest round and drew it only if it was this
table's, so here it drew nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, Person
from .test_tables_in_a_browser import (
    CREDIT_UNITS,
    assert_results_shown,
    bet,
    credit,
    needs_engine,
    open_table,
    operator_signs_in,
    say_ready,
    seeded_round,
    sign_up,
    sit,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
PROFILE = "dragon-six-peru-2016"


def _felt_cards(someone: Person, side: str) -> list[str | None]:
    cards = someone.page.locator(f"#felt [data-side='{side}'] .card")
    return [card.get_attribute("data-card") for card in cards.all()]


def test_the_felt_shows_this_tables_last_coup_after_one_at_another_table(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine(PROFILE)
    operator = person("operator-two-tables")
    rosa = person("rosa-two-tables")
    operator_signs_in(operator)
    seeds = [hashlib.sha256(f"croupier e2e last coup {n}".encode()).digest() for n in (1, 2)]
    here = open_table(operator, live_server, "Last coup here", PROFILE, seeds[0])
    there = open_table(operator, live_server, "Last coup there", PROFILE, seeds[1])
    sign_up(rosa)
    operator.go("/operator")
    credit(operator, rosa.name, CREDIT_UNITS)

    coups = []
    for table_id, seed in ((here, seeds[0]), (there, seeds[1])):
        sit(rosa, table_id, 1)
        bet(rosa, 1, "banker", 10)
        say_ready(rosa)
        engine = seeded_round(PROFILE, seed)
        engine.place_bet(1, "banker", 10)
        engine.deal()
        assert engine.is_done
        assert_results_shown(rosa, engine)
        coups.append(engine.view(1))
    assert coups[0]["banker"]["cards"] != coups[1]["banker"]["cards"]

    # Back at this table: its own coup on the felt, not the other table's, not nothing.
    rosa.go(f"/table/{here}")
    expect(rosa.page.locator("#connection")).to_have_attribute("data-state", "connected")
    for side in ("player", "banker"):
        expect(rosa.page.locator(f"#felt [data-side='{side}'] .card")).to_have_count(
            len(coups[0][side]["cards"])
        )
        assert _felt_cards(rosa, side) == coups[0][side]["cards"]
    expect(rosa.page.locator("#recall-link")).to_be_visible()

    # A bet in the round taking bets here makes that round her newest at this table; after
    # a reload the felt still shows the last coup dealt here.
    bet(rosa, 1, "banker", 10)
    rosa.page.reload()
    expect(rosa.page.locator("#connection")).to_have_attribute("data-state", "connected")
    for side in ("player", "banker"):
        expect(rosa.page.locator(f"#felt [data-side='{side}'] .card")).to_have_count(
            len(coups[0][side]["cards"])
        )
        assert _felt_cards(rosa, side) == coups[0][side]["cards"]
    rosa.screenshot("baccarat-last-coup-of-this-table")
