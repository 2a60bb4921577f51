"""A wrong payout corrected in the open, in a real browser (issue 14, items 3 and 6).

The operator grants the dealer's and the inspector's roles and assigns the dealer to the
table on the operator's page; a coup is played; the dealer proposes a correction of the
payout from the round's recall; the inspector (Spanish, on
a phone) confirms it on the inspector's page. The player's balance, statement and recall show
it with its reason; the operator's page lists it; the books sum to zero and ``croupier audit
verify`` passes (Dragon Six, Peru 2016, Art. 12: the staff correct the errors of a game;
Spain 1979, III: the croupier pays, the inspector controls).

The table's name holds no English catalogue word (the e2e tests share one live server, and
a Spanish page must hold no English string).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from croupier.audit.verify import verify_database

from .conftest import OPERATOR_TOKEN, PASSWORD, SCREENSHOTS, LiveServer, Person
from .test_pages_in_the_players_language import english_left_on
from .test_tables_in_a_browser import (
    CREDIT_UNITS,
    assert_fits_the_screen,
    needs_engine,
    open_table_with_players,
    seeded_round,
    sit_bet_and_say_ready,
    wait_for_balance,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

CORRECTION_MINOR = 500
REASON = "Pago corto del banquero: 0,95 por unidad"
WIDE = {"width": 1366, "height": 900}
NARROW = {"width": 390, "height": 844}


def _token(server: LiveServer, name: str) -> str:
    answer = httpx.post(
        f"{server.url}/auth/signin", json={"username": name, "password": PASSWORD}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def _post(server: LiveServer, token: str, path: str, body: dict[str, Any]) -> Any:
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": f"e2e-{uuid.uuid4().hex}"}
    return httpx.post(f"{server.url}{path}", json=body, headers=headers, timeout=10)


def _minor_shown(text: str) -> int:
    """An amount as the English page shows it ("+1,014.50", "-5.00") in minor units."""
    return round(Fraction(text.replace(",", "").replace("+", "")) * 100)


def at_both_widths(someone: Person, name: str, section: str | None = None) -> None:
    """The page at 1366 px and at 390 px (no sideways scroll on the phone), photographed;
    ``section`` (a selector) photographed alone too, at both widths, where the page is long."""
    size = someone.page.viewport_size
    for width, viewport in (("1366", WIDE), ("390", NARROW)):
        someone.page.set_viewport_size(viewport)
        if viewport is NARROW:
            assert_fits_the_screen(someone)
        someone.screenshot(f"{name}-{width}")
        if section is not None:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            path = SCREENSHOTS / f"{name}-section-{width}.png"
            someone.page.locator(section).screenshot(path=str(path))
    someone.page.set_viewport_size(size)


def test_dragon_six_art_12_the_inspector_confirms_a_dealers_payout_correction(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine("dragon-six-peru-2016")
    seed = hashlib.sha256(b"croupier e2e payout correction").digest()
    operator = person("operator")
    nora = person("nora")
    damian = person("damian")
    irene = person("irene", phone=True, locale="es-ES")
    table_id = open_table_with_players(
        operator,
        live_server,
        "Mesa Trujillo",
        "dragon-six-peru-2016",
        seed,
        players=[nora, damian, irene],
        credited=[nora],
    )

    # The operator grants the roles and assigns the dealer to the table, on the page.
    for name, role in ((damian.name, "dealer"), (irene.name, "inspector")):
        operator.page.fill("#grant-form input[name=username]", name)
        operator.page.select_option("#grant-form select[name=role]", role)
        operator.page.click("#grant-form button[type=submit]")
        expect(operator.page.locator(f"#operator-staff tr[data-staff='{name}']")).to_have_count(1)
    operator.page.fill("#assign-form input[name=username]", damian.name)
    operator.page.select_option("#assign-table", str(table_id))
    operator.page.click("#assign-form button[type=submit]")
    dealer_row = operator.page.locator(
        "#operator-staff tr[data-staff='damian'][data-role='dealer']"
    )
    expect(dealer_row.locator(f".dealer-table[data-table='{table_id}']")).to_contain_text(
        "Mesa Trujillo"
    )

    # Nora plays one coup on the banker; the engine beside the server says what it paid.
    sit_bet_and_say_ready(nora, table_id, 1, "banker", 10)
    engine = seeded_round("dragon-six-peru-2016", seed)
    engine.place_bet(1, "banker", 10)
    engine.deal()
    assert engine.is_done
    after_coup = CREDIT_UNITS + engine.results().net(1)
    wait_for_balance(nora, after_coup)
    rounds = httpx.get(
        f"{live_server.url}/me/rounds",
        headers={"Authorization": f"Bearer {_token(live_server, nora.name)}"},
        timeout=10,
    ).json()["rounds"]
    round_id = int(rounds[0]["round"])

    # The dealer proposes from the round's recall; nothing moves until the inspector confirms.
    damian.go(f"/recall/{round_id}")
    expect(damian.page.locator("#propose-correction")).to_be_visible()
    expect(damian.page.locator("#dispute-round")).to_have_count(1)  # on the page, and
    expect(damian.page.locator("#dispute-round")).to_be_hidden()  # only its players dispute it
    damian.page.select_option("#propose-player", nora.name)
    damian.page.fill("#propose-form input[name=amount]", "5")
    damian.page.fill("#propose-form input[name=reason]", REASON)
    at_both_widths(damian, "recall-propose", "#propose-correction")
    damian.page.click("#propose-form button[type=submit]")
    expect(damian.page.locator("#notice")).to_contain_text("proposed: it waits for an inspector")
    listed = httpx.get(
        f"{live_server.url}/operator/corrections",
        headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        timeout=10,
    ).json()["corrections"]
    # The shared live server may hold other tests' corrections: this round's is the dealer's.
    mine = [c for c in listed if c["round"] == round_id and c["proposed_by"] == damian.name]
    assert [(c["username"], c["amount"], c["status"]) for c in mine] == [
        (nora.name, CORRECTION_MINOR, "proposed")
    ]
    number = mine[0]["correction"]
    nora.go("/account")
    wait_for_balance(nora, after_coup)

    # The inspector's page (Spanish, a phone): the proposal, confirmed with one button.
    irene.go("/inspector")
    row = irene.page.locator(f"#correction-queue tr[data-correction='{number}']")
    expect(row).to_have_attribute("data-status", "proposed")
    expect(row).to_contain_text(REASON)
    expect(row.locator(".status")).to_have_text("Propuesta")
    at_both_widths(irene, "inspector-corrections")
    row.locator("button.confirm-correction").click()
    expect(
        irene.page.locator(f"#correction-queue tr[data-correction='{number}']")
    ).to_have_attribute("data-status", "confirmed")
    expect(
        irene.page.locator(f"#correction-queue tr[data-correction='{number}'] .status")
    ).to_have_text("Confirmada")
    assert_fits_the_screen(irene)
    irene.screenshot("inspector-correction-confirmed")
    assert english_left_on(irene.page.locator("body").inner_text()) == []

    # The player: the balance with it, the statement and the recall with its reason.
    nora.go("/account")
    wait_for_balance(nora, after_coup + Fraction(CORRECTION_MINOR, 100))
    expect(nora.page.locator(".correction-reason").first).to_have_text(f"Correction: {REASON}")
    # Issue 26, item 7: the round's staked, returned and corrected add up to its net.
    played = nora.page.locator(f"#history tr[data-round='{round_id}']")
    figures = {
        name: _minor_shown(played.locator(f"td.{name}").inner_text())
        for name in ("staked", "returned", "corrected", "net")
    }
    assert figures["corrected"] == CORRECTION_MINOR, figures
    assert figures["returned"] - figures["staked"] + figures["corrected"] == figures["net"], figures
    at_both_widths(nora, "account-correction")
    nora.go(f"/recall/{round_id}")
    expect(nora.page.locator("#round-corrections")).to_be_visible()
    expect(nora.page.locator("#correction-lines li")).to_have_text(
        f"5.00 · {REASON} (confirmed by irene)"
    )
    at_both_widths(nora, "recall-correction")

    # A dispute of the same round: the inspector's record reads in words, not notation.
    filed = _post(
        live_server,
        _token(live_server, nora.name),
        f"/rounds/{round_id}/disputes",
        {"text": "Quiero ver el registro"},
    )
    assert filed.status_code == 201, filed.text
    irene.go(f"/inspector/{filed.json()['dispute']}")
    lines = irene.page.locator("#record-events li")
    expect(lines).to_have_count(len(engine.events))
    shown = " ".join(lines.all_inner_texts())
    assert "CardDrawn" not in shown and "card=" not in shown, shown
    expect(lines.filter(has_text="Casilla 1, banca")).to_have_count(1)
    at_both_widths(irene, "inspector-dispute-record")
    assert english_left_on(irene.page.locator("body").inner_text()) == []
    # Decided, so that no other test on the shared server finds it open in its queue.
    decided = _post(
        live_server,
        _token(live_server, irene.name),
        f"/inspector/disputes/{filed.json()['dispute']}/decision",
        {"decision": "rejected", "reason": "Registro revisado"},
    )
    assert decided.status_code == 200, decided.text

    # The operator proposes a second one on the page; the inspector refuses it, with a
    # reason: nothing moves.
    operator.go("/operator")
    operator.page.fill("#propose-form input[name=round]", str(round_id))
    operator.page.fill("#propose-form input[name=username]", nora.name)
    operator.page.fill("#propose-form input[name=amount]", "-5")
    operator.page.fill("#propose-form input[name=reason]", "Cobro doble")
    operator.page.click("#propose-form button[type=submit]")
    second = operator.page.locator(
        "#operator-corrections tr[data-status='proposed']", has_text="Cobro doble"
    )
    expect(second).to_contain_text("Cobro doble")
    expect(second.locator(".amount")).to_have_text("-5.00")
    irene.go("/inspector")
    pending = irene.page.locator(
        "#correction-queue tr[data-status='proposed']", has_text="Cobro doble"
    )
    pending.locator("input[name=reason]").fill("El cobro fue correcto")
    pending.locator("button.refuse-correction").click()
    refused = irene.page.locator(
        "#correction-queue tr[data-status='refused']", has_text="Cobro doble"
    )
    expect(refused).to_contain_text("El cobro fue correcto")
    nora.go("/account")
    wait_for_balance(nora, after_coup + Fraction(CORRECTION_MINOR, 100))

    # The operator's page lists both; the books sum to zero; the R15 chain verifies.
    operator.go("/operator")
    listed = operator.page.locator(f"#operator-corrections tr[data-correction='{number}']")
    expect(listed).to_have_attribute("data-status", "confirmed")
    expect(listed).to_contain_text("irene")
    expect(operator.page.locator("#zero-sum")).to_have_attribute("data-ok", "true")
    at_both_widths(operator, "operator-corrections", "#operator-corrections-panel")
    assert verify_database(live_server.database_url).is_intact
