"""One intent, one effect (issue 26, item 1): every button that changes something, pressed
twice as a person's double-click presses it, does it once.

Found by trying the pages as people use them: a double-click on Credit posted two ledger
transactions 17 ms apart (each click its own request with its own ``Idempotency-Key``), a
double-click on "Propose" filed two payout corrections that could both be confirmed, and
"Send the dispute" filed it and then showed an error. Each page now sends a press through
common.js ``once``: the control is held while its request is out, and the request keeps its
key until an answer comes, so a retry after a lost answer is the same request (R8).

One walk through every page that changes something: the operator's (credit, debit, a staff
role, a dealer assigned), the table (a seat, bets, Deal, Hit and Stand), the recall (a
dispute, a correction proposed), the inspector's (a correction confirmed, a dispute
decided), each pressed with a double-click, then the ledger and the queues read through
the API: each moved once. What the people type is Spanish: the e2e tests share one server,
and a Spanish inspector's page there lists every dispute and correction (no English on it).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from croupier.games.base import Action

from .conftest import OPERATOR_TOKEN, PASSWORD, LiveServer, Person
from .test_tables_in_a_browser import (
    confirm_movement,
    needs_engine,
    open_table,
    operator_signs_in,
    seed_where,
    seeded_round,
    sign_up,
    wait_for_balance,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PROFILE = "peru-2016"


def _hit_then_stand(seed: bytes) -> bool:
    """Box 1 alone, 10 on the main bet: the first question is "play" with Hit legal, and
    after one Hit the box still plays (a second Hit would be a card more on the felt)."""
    game = seeded_round(PROFILE, seed)
    game.place_bet(1, "main", 10)
    game.deal()
    decision = game.pending()
    if decision is None or decision.question != "play" or Action("hit") not in decision.legal:
        return False
    game.act(1, Action("hit"))
    after = game.pending()
    return after is not None and after.seat == 1 and Action("stand") in after.legal


def _token(server: LiveServer, name: str) -> str:
    answer = httpx.post(
        f"{server.url}/auth/signin", json={"username": name, "password": PASSWORD}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def _get(server: LiveServer, token: str, path: str) -> Any:
    answer = httpx.get(
        f"{server.url}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def _statement(server: LiveServer, token: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = _get(server, token, "/me/ledger?limit=500")["entries"]
    return entries


class Traffic:
    """A page's requests sent and not yet answered (``settle`` waits for none)."""

    def __init__(self) -> None:
        self.out: set[Any] = set()

    def sent(self, request: Any) -> None:
        self.out.add(request)

    def answered(self, request: Any) -> None:
        self.out.discard(request)


OUT: dict[str, Traffic] = {}


def over_a_real_network(someone: Person) -> Person:
    """Each request 80 ms each way, as over a phone's network: a double-click's second
    press comes while the first is still out, as it does for a person (on the loopback the
    page answers and draws itself anew between the two presses)."""
    cdp = someone.page.context.new_cdp_session(someone.page)
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 80, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    traffic = OUT.setdefault(someone.name, Traffic())
    someone.page.on("request", traffic.sent)
    someone.page.on("requestfinished", traffic.answered)
    someone.page.on("requestfailed", traffic.answered)
    return someone


def settle(someone: Person) -> None:
    """Whatever the page sent is answered and nothing more is sent for 250 ms: the second
    request of a double-click, if the page sent one, has done its work, and the page has
    drawn itself again."""
    quiet_since = None
    for _ in range(200):
        someone.page.wait_for_timeout(50)
        if OUT[someone.name].out:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = 0
        else:
            quiet_since += 50
            if quiet_since >= 250:
                return
    raise AssertionError(f"{someone.name}'s page never stopped sending: {OUT[someone.name].out}")


def _error_shown(someone: Person) -> str | None:
    """What the page's notice says once its requests are answered, if it is an error."""
    settle(someone)
    notice = someone.page.locator("#notice")
    if notice.get_attribute("data-kind") == "error" and notice.is_visible():
        return f"{someone.name}'s page says: {notice.inner_text()}"
    return None


def test_every_button_pressed_twice_does_its_work_once(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine(PROFILE)
    seed = seed_where(PROFILE, _hit_then_stand)
    operator = over_a_real_network(person("operator"))
    olga = over_a_real_network(person("odalys"))  # the player
    dario = over_a_real_network(person("doblado"))  # the table's dealer: proposes a correction
    ines = over_a_real_network(person("isaura"))  # the inspector
    operator_signs_in(operator)
    table_id = open_table(operator, live_server, "Mesa Doble", PROFILE, seed)
    for someone in (olga, dario, ines):
        sign_up(someone)
    olga_token = _token(live_server, olga.name)
    wrong: list[str] = []  # every button that did its work twice, or said an error

    def check(what: str, seen: object, expected: object) -> None:
        if seen != expected:
            wrong.append(f"{what}: {seen!r}, not {expected!r}")

    def no_error(someone: Person) -> None:
        said = _error_shown(someone)
        if said:
            wrong.append(said)

    def kinds() -> list[str]:
        return sorted(entry["kind"] for entry in _statement(live_server, olga_token))

    # --- the operator's page ----------------------------------------------------------------
    operator.go("/operator")
    row = operator.page.locator(f"#operator-players tr[data-player='{olga.name}']")
    row.locator("input[name=amount]").fill("1000")
    # A lost answer: the credit reaches the server and is done, the page hears nothing back
    # (a network error); pressed again, it is the same request and the server's first answer.
    lost: list[str] = []

    def answer_lost(route: Any) -> None:
        if not lost:
            lost.append(route.request.headers.get("idempotency-key", ""))
            route.fetch()  # the server does it ...
            route.abort("connectionreset")  # ... and its answer never comes back
        else:
            route.continue_()

    operator.page.route("**/operator/wallets/*/credit", answer_lost)
    row.locator("button.credit").click()
    confirm_movement(operator)
    expect(operator.page.locator("#notice")).to_have_attribute("data-kind", "error")
    operator.page.unroute("**/operator/wallets/*/credit")
    assert kinds() == ["credit"], "the credit whose answer was lost was done"
    # The lost answer is the browser's own complaint, not the page's.
    operator.errors[:] = [line for line in operator.errors if "ERR_CONNECTION_RESET" not in line]
    settle(operator)  # the page drawn again after the failure: the amount typed again
    row.locator("input[name=amount]").fill("1000")
    row.locator("button.credit").click()  # the same credit again, now that the network is back
    confirm_movement(operator)
    settle(operator)
    check("Credit pressed again after a lost answer", kinds(), ["credit"])
    row.locator("input[name=amount]").fill("100")
    row.locator("button.credit").dblclick()  # one confirmation opens, and is double-clicked
    confirm_movement(operator, double=True)
    no_error(operator)
    check("Credit double-clicked", kinds(), ["credit", "credit"])
    row.locator("input[name=amount]").fill("100")
    row.locator("button.debit").dblclick()
    confirm_movement(operator, double=True)
    no_error(operator)
    check("Debit double-clicked", kinds(), ["credit", "credit", "debit"])

    for name, role in ((dario.name, "dealer"), (ines.name, "inspector")):
        operator.page.fill("#grant-form input[name=username]", name)
        operator.page.select_option("#grant-form select[name=role]", role)
        operator.page.locator("#grant-form button[type=submit]").dblclick()
        expect(operator.page.locator(f"#operator-staff tr[data-staff='{name}']")).to_have_count(1)
        no_error(operator)
    operator.page.fill("#assign-form input[name=username]", dario.name)
    operator.page.select_option("#assign-table", str(table_id))
    operator.page.locator("#assign-form button[type=submit]").dblclick()
    dealer_row = operator.page.locator(f"#operator-staff tr[data-staff='{dario.name}']")
    expect(dealer_row.locator(f".dealer-table[data-table='{table_id}']")).to_have_count(1)
    no_error(operator)
    balance = Fraction(_get(live_server, olga_token, "/me")["balance"], 100)

    # --- the table: a seat, a bet, Deal, Hit and Stand --------------------------------------
    olga.go(f"/table/{table_id}")
    expect(olga.page.locator("#connection")).to_have_attribute("data-state", "connected")
    olga.page.locator("li[data-seat='1'] button.sit").dblclick()
    expect(olga.page.locator("input[name='1:main']")).to_be_visible()
    olga.page.fill("input[name='1:main']", "10")
    olga.page.locator("#place-bets").dblclick()
    expect(olga.page.locator("#ready")).to_be_visible()
    olga.page.locator("#ready").dblclick()
    hit = olga.page.locator("#actions button[data-action='hit']")
    expect(hit).to_be_visible()
    hit.dblclick()
    stand = olga.page.locator("#actions button[data-action='stand']")
    expect(stand).to_be_visible()
    stand.dblclick()
    engine = seeded_round(PROFILE, seed)
    engine.place_bet(1, "main", 10)
    engine.deal()
    engine.act(1, Action("hit"))
    engine.act(1, Action("stand"))
    assert engine.is_done
    wait_for_balance(olga, balance + engine.results().net(1))
    no_error(olga)
    round_id = int(_get(live_server, olga_token, "/me/rounds")["rounds"][0]["round"])
    recall = _get(live_server, olga_token, f"/rounds/{round_id}")
    operations = [event["kind"] for event in recall["events"] if event["kind"] in {"Hit", "Stood"}]
    check("Hit, then Stand, each double-clicked", operations, ["Hit", "Stood"])
    seats = _get(live_server, olga_token, f"/tables/{table_id}")["table"]["seats"]
    check("a seat double-clicked", [seat for seat, who in seats.items() if who == olga.name], ["1"])

    # --- the recall: a dispute, and the dealer's proposal -----------------------------------
    olga.go(f"/recall/{round_id}")
    olga.page.fill("#dispute-form textarea[name=text]", "¿La carta llegó después de que me planté?")
    olga.page.locator("#dispute-form button[type=submit]").dblclick()
    expect(olga.page.locator("#dispute-filed")).to_be_visible()
    no_error(olga)
    mine = _get(live_server, olga_token, "/me/disputes")["disputes"]
    check("disputes sent by a double-click", [item["round"] for item in mine], [round_id])

    dario.go(f"/recall/{round_id}")
    expect(dario.page.locator("#propose-correction")).to_be_visible()
    dario.page.select_option("#propose-player", olga.name)
    dario.page.fill("#propose-form input[name=amount]", "2.50")
    dario.page.fill("#propose-form input[name=reason]", "Pago corto")
    dario.page.locator("#propose-form button[type=submit]").dblclick()
    no_error(dario)
    listed = _get(live_server, OPERATOR_TOKEN, "/operator/corrections")["corrections"]
    proposed = [item for item in listed if item["round"] == round_id]
    check(
        "corrections proposed by a double-click",
        [(item["username"], item["amount"]) for item in proposed],
        [(olga.name, 250)],
    )

    # --- the inspector's page: the correction confirmed, the dispute decided ------------------
    before = kinds()
    ines.go("/inspector")
    first = proposed[0]["correction"]
    queued = f"#correction-queue tr[data-correction='{first}']"
    ines.page.locator(f"{queued} .confirm-correction").dblclick()
    expect(ines.page.locator(queued)).to_have_attribute("data-status", "confirmed")
    no_error(ines)
    check(
        "ledger entries of a correction confirmed by a double-click", len(kinds()), len(before) + 1
    )
    ines.go(f"/inspector/{mine[0]['dispute']}")
    ines.page.locator("#decision-form input[value=rejected]").check()
    ines.page.fill("#decision-form [name=reason]", "El registro muestra carta y luego me planto.")
    ines.page.locator("#decision-form button[type=submit]").dblclick()
    expect(ines.page.locator("#decided")).to_be_visible()
    no_error(ines)
    decided = _get(live_server, olga_token, "/me/disputes")["disputes"]
    check("a dispute decided by a double-click", [item["status"] for item in decided], ["rejected"])
    assert not wrong, "\n".join(wrong)

    # The recall of a round that does not exist offers nothing to dispute (issue 26, item 7).
    olga.go("/recall/999999")
    expect(olga.page.locator("#notice")).to_have_attribute("data-kind", "error")
    expect(olga.page.locator("#dispute-round")).to_be_hidden()
    olga.errors[:] = [line for line in olga.errors if "404" not in line]
