"""Issue 26, item 7: a dealer's blackjack is called a blackjack, in English and Spanish, not
"the dealer's 21". Peru 2016 Art. 13: "Se considera Black Jack a la obtención por cualquier
jugador o el dealer de un valor de '21' puntos en sus dos primeras cartas"; the dealer's
blackjack takes the bets of every hand that is not one.

Ann stands on her hand (not a blackjack) at peru-2016; the dealer turns a blackjack. Her felt
names the dealer's hand "Blackjack" (no "Total 21"), her banner says "The dealer's blackjack:
you lose 10.00"; the same in her Spanish browser, in the recall's last step and on the lobby's
tile of the table."""

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

PROFILE = "peru-2016"


def _dealer_blackjack_against_a_standing_hand(seed: bytes) -> bool:
    """Box 1 stands on its first two cards (not a blackjack, no Ace shown: no insurance) and
    the dealer's two cards are a blackjack: the box loses its 10."""
    round_ = seeded_round(PROFILE, seed)
    round_.place_bet(1, "main", 10)
    round_.deal()
    while not round_.is_done:
        decision = round_.pending()
        if decision is None or Action.parse("stand") not in decision.legal:
            return False
        round_.act(1, Action.parse("stand"))
    dealer = round_.dealer_cards
    results = [(w.seat, w.wager, w.stake, w.payout) for w in round_.results().wagers]
    return (
        len(dealer) == 2
        and {dealer[0][0], dealer[1][0]} in ({"A", "T"}, {"A", "J"}, {"A", "Q"}, {"A", "K"})
        and dealer[0][0] != "A"
        and results == [(1, "main", Fraction(10), Fraction(0))]
    )


def test_the_dealers_blackjack_is_called_blackjack_in_both_languages(
    person: Callable[..., Person], live_server: LiveServer
) -> None:
    needs_engine(PROFILE)
    seed = seed_where(PROFILE, _dealer_blackjack_against_a_standing_hand)
    operator = person("operator")
    ann = person("annnatural")
    table_id = open_table_with_players(
        operator, live_server, "Blackjack del crupier", PROFILE, seed, players=[ann]
    )
    sit(ann, table_id, 1)
    bet(ann, 1, "main", 10)
    say_ready(ann)
    expect(ann.page.locator("#actions button[data-action='stand']")).to_be_visible()
    decide(ann, "stand")
    wait_for_balance(ann, Fraction(CREDIT_UNITS - 10))
    dealer = ann.page.locator("#felt [data-side='dealer'] .total")
    expect(dealer).to_have_text("Blackjack")
    expect(ann.page.locator("#round-banner li")).to_have_text(
        "The dealer's blackjack: you lose 10.00"
    )
    round_id = int(ann.page.locator("#last-round-link").get_attribute("href").rsplit("/", 1)[1])

    ana = person("annnatural", locale="es-ES")
    ana.go("/sign-in")
    sign_in(ana)
    ana.go(f"/table/{table_id}")
    expect(ana.page.locator("#felt [data-side='dealer'] .total")).to_have_text("Blackjack")
    expect(ana.page.locator("#round-banner li")).to_have_text(
        "El blackjack del crupier: pierde 10,00"
    )
    ana.go(f"/recall/{round_id}")
    expect(ana.page.locator("#felt [data-side='dealer'] .total")).to_have_text("Blackjack")
    for someone in (ann, ana):
        assert "21" not in (someone.page.locator("#felt [data-side='dealer']").inner_text())
    # The lobby's tile: the table's last result, "BJ", read out as the dealer's blackjack.
    for someone, words in (
        (ann, "The dealer's hand: blackjack"),
        (ana, "La mano del crupier: blackjack"),
    ):
        someone.go("/")
        chip = someone.page.locator(f"[data-table-id='{table_id}'] li.result-chip.blackjack")
        expect(chip).to_have_attribute("aria-label", words)
