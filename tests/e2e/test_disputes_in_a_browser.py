"""A dispute in a real browser (issue 14, items 4 and 6): a player disputes a payout from the
account and recall pages, the inspector (a player's account the operator granted the role on
the operator's page, reading Spanish) upholds it with a correction, and the player's balance
and disputes page show it, with the dossier for the Dirección General (Dragon Six, Peru 2016,
Art. 12); the operator's page lists the dispute and the ledger still sums to zero.

The coup is dealt by the live server from a seed the test chose; the engine beside it says
what it paid, so the balance is checked against the rules, not against the page.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, Person
from .test_tables_in_a_browser import (
    CREDIT_UNITS,
    approve_and_see_it_approved,
    assert_fits_the_screen,
    needs_engine,
    open_table_with_players,
    seeded_round,
    sign_up,
    sit_bet_and_say_ready,
    wait_for_balance,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

CORRECTION_UNITS = 5


def test_dragon_six_art_12_a_disputed_payout_upheld_by_the_inspector_with_a_correction(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine("dragon-six-peru-2016")
    seed = hashlib.sha256(b"croupier e2e dispute").digest()
    operator = person("operator")
    dana = person("dana", phone=True)
    ines = person("ines", locale="es-ES")
    table_id = open_table_with_players(
        operator,
        live_server,
        "Mesa Lima",
        "dragon-six-peru-2016",
        seed,
        players=[dana, ines],
        credited=[dana],
    )

    # The operator grants the inspector's role on the operator's page.
    operator.page.fill("#grant-form input[name=username]", ines.name)
    operator.page.select_option("#grant-form select[name=role]", "inspector")
    operator.page.click("#grant-form button[type=submit]")
    expect(operator.page.locator("#operator-staff tr[data-staff='ines']")).to_contain_text(
        "Inspector"
    )
    # A second inspector, who approves what goes beyond what the round owes (issue 25).
    jon = person("jon")
    sign_up(jon)
    operator.go("/operator")
    operator.page.fill("#grant-form input[name=username]", jon.name)
    operator.page.select_option("#grant-form select[name=role]", "inspector")
    operator.page.click("#grant-form button[type=submit]")
    expect(operator.page.locator("#operator-staff tr[data-staff='jon']")).to_contain_text(
        "Inspector"
    )

    # Dana plays one coup on the banker; the engine beside the server says what it paid.
    sit_bet_and_say_ready(dana, table_id, 1, "banker", 10)
    engine = seeded_round("dragon-six-peru-2016", seed)
    engine.place_bet(1, "banker", 10)
    engine.deal()
    assert engine.is_done
    after_coup = CREDIT_UNITS + engine.results().net(1)
    wait_for_balance(dana, after_coup)

    # From the account page to the recall's "dispute this round".
    dana.go("/account")
    wait_for_balance(dana, after_coup)
    assert_fits_the_screen(dana)
    dana.screenshot("account-dispute-link")
    dana.page.locator("#history a.dispute-link").first.click()
    expect(dana.page.locator("#dispute-round")).to_be_visible()
    dana.page.fill("#dispute-form textarea[name=text]", "The banker's win was paid short")
    dana.page.click("#dispute-form button[type=submit]")
    expect(dana.page.locator("#dispute-filed")).to_contain_text("open until the inspector decides")
    dana.screenshot("dispute-filed")
    assert_fits_the_screen(dana)
    dana.go("/disputes")
    row = dana.page.locator("#my-disputes tr[data-status='open']")
    expect(row).to_have_count(1)
    expect(row.locator(".status")).to_have_text("Open")

    # The inspector's queue (in Spanish): paid beside re-settled, the shoe's commitment.
    ines.go("/account")
    expect(ines.page.locator("#inspector-link")).to_be_visible()
    ines.page.click("#inspector-link")
    queued = ines.page.locator("#dispute-queue tr[data-status='open']")
    expect(queued).to_have_count(1)
    expect(queued.locator(".check[data-ok='true']").first).to_be_visible()
    expect(queued).to_contain_text("se cumple")
    ines.screenshot("inspector-queue")
    queued.locator("a.open-dispute").click()
    expect(ines.page.locator("#agreement")).to_have_attribute("data-ok", "true")
    expect(ines.page.locator("#record-events li")).to_have_count(len(engine.events))
    ines.page.check("input[name=decision][value=upheld]")
    ines.page.fill("textarea[name=reason]", "Pago corregido por el inspector")
    ines.page.fill("#correction-dana", str(CORRECTION_UNITS))
    ines.screenshot("inspector-decision")
    ines.page.click("#decision-form button[type=submit]")
    # The round was paid as dealt: 5 more waits for a second inspector, who approves it.
    expect(ines.page.locator("#decided")).to_contain_text("Pendiente de aprobación")
    jon.go("/inspector")
    waiting = jon.page.locator("#approval-queue tr[data-status='awaiting']", has_text="dana 5.00")
    expect(waiting).to_have_count(1)
    approve_and_see_it_approved(jon, waiting)
    ines.page.reload()
    expect(ines.page.locator("#decided")).to_contain_text("Aceptado")
    expect(ines.page.locator("#decision-form")).to_have_count(1)  # hidden, not renamed away
    expect(ines.page.locator("#decision-form")).to_be_hidden()
    expect(ines.page.locator("#verification tr[data-username='dana'] .corrected")).to_have_text(
        "5,00"
    )

    # The player sees the decision, its reason, the correction, and the balance with it.
    dana.go("/disputes")
    row = dana.page.locator("#my-disputes tr[data-status='upheld']")
    expect(row.locator(".status")).to_have_text("Upheld")
    expect(row.locator(".reason")).to_have_text("Pago corregido por el inspector")
    expect(row.locator(".corrections")).to_have_text("5.00")
    with dana.page.expect_download() as download:
        row.locator("button.dossier").click()
    assert download.value.suggested_filename.endswith(".pdf")
    assert download.value.path().read_bytes().startswith(b"%PDF")
    dana.screenshot("my-disputes")
    assert_fits_the_screen(dana)
    dana.go("/account")
    wait_for_balance(dana, after_coup + Fraction(CORRECTION_UNITS))

    # The operator's page lists the dispute; the books still sum to zero.
    operator.go("/operator")
    listed = operator.page.locator("#operator-disputes tr[data-status='upheld']", has_text="dana")
    expect(listed).to_contain_text("dana 5.00")
    expect(operator.page.locator("#zero-sum")).to_contain_text("0.00")
    expect(operator.page.locator("#zero-sum")).to_have_attribute("data-ok", "true")
    operator.screenshot("operator-disputes")
