"""Spain's back bets seen by both sides in the browser (issue 13, item 7; spain-1979,
Art. 03 IV.a-b, docs/rules.md#D-BJ-28): Ben, standing, backs Ann's box with 5; his balance
drops when she accepts, the chip rides on her box on both felts, and when her 10 wins even
money his banner and results say "you win 5.00" / "You won 5.00 net", after a reload too;
Ann's results list his back bet on her box. The recall of the round shows the back bet on
the box of its felt and in its results, to the backer in English and to the owner in Spanish.

The round is dealt by the live server from a seed the test chose; the engine beside it says
the box wins even money when it stands."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from croupier.games.base import Action

from .conftest import LiveServer, Person
from .test_tables_in_a_browser import (
    CREDIT_UNITS,
    bet,
    decide,
    needs_engine,
    open_table_with_players,
    say_ready,
    seed_where,
    seeded_round,
    sign_in,
    sit,
    wait_for_balance,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PROFILE = "spain-1979"


def _box_wins_even_money_standing(seed: bytes) -> bool:
    round_ = seeded_round(PROFILE, seed)
    round_.place_bet(1, "main", 10)
    round_.deal()
    while not round_.is_done:
        decision = round_.pending()
        assert decision is not None
        if decision.seat != 1 or Action.parse("stand") not in decision.legal:
            return False
        round_.act(1, Action.parse("stand"))
    wagers = round_.results().wagers
    return [(w.seat, w.wager, w.stake, w.payout) for w in wagers] == [
        (1, "main", Fraction(10), Fraction(20))
    ]


def _recall_shows_the_back_bet(  # noqa: PLR0917 - what the page shows, in its order
    someone: Person, round_id: int, named: str, amounts: tuple[str, str], won: str, net: str
) -> None:
    """The recall of the round: the back bet rides on box 1 of the felt at every step where
    the box has its bet, and its result is a row of the round's results."""
    someone.go(f"/recall/{round_id}")
    chip = someone.page.locator("#seats-recall li[data-seat='1'] .back-bets-on-box")
    expect(chip).to_contain_text(named)
    someone.page.click("#first-step")
    someone.page.click("#next-step")  # Ann's bet: her box has its chip, and Ben's behind it
    expect(chip).to_contain_text(named)
    row = someone.page.locator("#recall-results-body tr.back-bet")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(named)
    # With cents, as the box's wagers and the balance are shown, and won: its status
    # ("settled") said nothing of how it went.
    expect(row.locator("td").nth(2)).to_have_text(amounts[0])
    expect(row.locator("td").nth(3)).to_have_text(won)
    expect(row.locator("td").nth(4)).to_have_text(amounts[1])
    expect(someone.page.locator("#recall-results-net")).to_have_text(net)


def test_a_back_bet_is_on_the_felt_and_in_both_results(
    person: Callable[..., Person], live_server: LiveServer
) -> None:
    needs_engine(PROFILE)
    seed = seed_where(PROFILE, _box_wins_even_money_standing)
    operator = person("operator")
    ann, ben = person("annback"), person("benback")
    table_id = open_table_with_players(
        operator, live_server, "Respaldo E2E", PROFILE, seed, players=[ann, ben]
    )

    sit(ann, table_id, 1)
    bet(ann, 1, "main", 10)
    ben.go(f"/table/{table_id}")
    expect(ben.page.locator("#connection")).to_have_attribute("data-state", "connected")
    wait_for_balance(ben, Fraction(CREDIT_UNITS))
    ben.page.select_option("#back-seat", "1")
    ben.page.fill("#back-bet-form input[name=amount]", "5")
    ben.page.click("#back-bet-form button[type=submit]")
    ann.page.click("#back-bet-list button.accept")
    # The stake leaves Ben's wallet when Ann accepts, not at settlement.
    wait_for_balance(ben, Fraction(CREDIT_UNITS - 5))
    for someone in (ann, ben):
        chip = someone.page.locator("li[data-seat='1'] .back-bets-on-box")
        expect(chip).to_contain_text("benback")
        expect(chip).to_contain_text("5")

    say_ready(ann)
    expect(ann.page.locator("#actions button[data-action='stand']")).to_be_visible()
    decide(ann, "stand")
    wait_for_balance(ann, Fraction(CREDIT_UNITS + 10))
    wait_for_balance(ben, Fraction(CREDIT_UNITS + 5))
    for _reloaded in (False, True):
        banner = ben.page.locator("#round-banner li[data-wager='back']")
        expect(banner).to_contain_text("you win 5.00")
        expect(ben.page.locator("#results-net")).to_have_text("You won 5.00 net.")
        ben.page.reload()
        expect(ben.page.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(ben.page.locator("#results-net")).to_have_text("You won 5.00 net.")
    row = ann.page.locator("#results-body tr.back-bet")
    expect(row).to_contain_text("benback")
    expect(row.locator("td").nth(3)).to_have_text("Win")
    expect(row.locator("td").nth(4)).to_have_text("10.00")  # with cents, as the balance
    expect(ann.page.locator("#results-net")).to_have_text("You won 10.00 net.")
    round_id = int(ann.page.locator("#last-round-link").get_attribute("href").rsplit("/", 1)[1])
    _recall_shows_the_back_bet(
        ben, round_id, "Back bet by benback", ("5.00", "10.00"), "Win", "You won 5.00 net."
    )
    ana = person("annback", locale="es-ES")
    ana.go("/sign-in")
    sign_in(ana)  # Ann's name: the same player in a Spanish browser
    # The back bet is Ben's money: Ann's net is her box's 10, not 10 + 5.
    _recall_shows_the_back_bet(
        ana,
        round_id,
        "Apuesta detrás de benback",
        ("5,00", "10,00"),
        "Gana",
        "Ha ganado 10,00 netos.",
    )
    ben.go("/account")
    # His history counts his back bet as his stake (5.00 back 10.00), not Ann's box (10, 20).
    history = ben.page.locator("tr[data-round]").first.locator("td")
    expect(history.nth(3)).to_have_text("5.00")
    expect(history.nth(4)).to_have_text("10.00")
    # Ann's history names the back bet on her box beside her own 10 back 20.
    ann.go("/account")
    mine = ann.page.locator("tr[data-round]").first
    expect(mine.locator(".back-bet-note")).to_contain_text("benback, 5.00")
    expect(mine.locator("td").nth(3)).to_have_text("10.00")
    expect(mine.locator("td").nth(4)).to_have_text("20.00")
