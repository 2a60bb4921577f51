"""People at the tables, in a real browser: sign up, get credit, sit, bet, decide, settle,
reload mid-round, recall the round, and the operator's books at zero.

Each round is dealt by the live server from a seed the test chose (see ``conftest``); the
test plays the same round through the engine beside it, so every button offered and every
payout shown is checked against the rules, not against the page itself.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from croupier.cards import Card
from croupier.fairness import commitment, revealed_document
from croupier.games.base import Action, GameRound
from croupier.games.commands import Deal
from croupier.games.replay import steps
from croupier.hands.blackjack import hand_total
from croupier.rules.registry import load_profile
from croupier.service import engines

from .conftest import OPERATOR_TOKEN, PASSWORD, LiveServer, Person

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

CREDIT_UNITS = 1000
SHIPPED_PROFILES = Path(engines.__file__).resolve().parents[1] / "rules" / "profiles"


# --- the engine beside the browser -----------------------------------------------------------


def needs_engine(profile_name: str) -> None:
    """Skip, saying so, where this build has no engine for the profile's game yet."""
    try:
        engines.round_class(load_profile(profile_name))
    except (ModuleNotFoundError, LookupError):
        pytest.skip(f"no engine for {profile_name} in this build yet")


def seeded_round(profile_name: str, seed: bytes) -> GameRound:
    """The round the server deals first on a new table whose shoe is shuffled from ``seed``."""
    profile = load_profile(profile_name)
    return engines.new_round(profile, engines.open_shoe(profile, seed))


def seed_where(profile_name: str, wanted: Callable[[bytes], bool]) -> bytes:
    for attempt in range(20_000):
        seed = hashlib.sha256(f"croupier e2e {profile_name} {attempt}".encode()).digest()
        if wanted(seed):
            return seed
    raise AssertionError(f"no seed found for {profile_name}")


def number(text: str) -> Fraction:
    """A shown amount back to an exact number: "1,005.50" (en), "1.005,50" or "995,00" (es)."""
    cleaned = text.strip().replace("\u00a0", "").replace(" ", "")
    if "," in cleaned and cleaned.rfind(",") > cleaned.rfind("."):
        cleaned = cleaned.replace(".", "").replace(",", ".")
    else:
        cleaned = cleaned.replace(",", "")
    return Fraction(cleaned)


def shown_units(amount: Fraction) -> str:
    """An exact amount as the English pages show it: grouped, two decimals (1,005.00)."""
    cents = amount * 100
    assert cents.denominator == 1, amount
    whole, part = divmod(abs(cents.numerator), 100)
    return f"{'-' if amount < 0 else ''}{whole:,}.{part:02d}"


# --- what a person does on the pages ---------------------------------------------------------


def sign_up(someone: Person) -> None:
    someone.go("/sign-up")
    someone.page.fill("input[name=username]", someone.name)
    someone.page.fill("input[name=password]", PASSWORD)
    someone.page.click("#sign-up-form button[type=submit]")
    someone.page.wait_for_url(someone.base + "/")
    expect(someone.page.locator("#lobby-tables")).to_be_visible()


def sign_in(someone: Person) -> None:
    """On the sign-in page (where signing out leaves a player), ``someone`` signs in with the
    password ``sign_up`` gave them and lands in the lobby."""
    someone.page.fill("input[name=username]", someone.name)
    someone.page.fill("input[name=password]", PASSWORD)
    someone.page.click("#sign-in-form button[type=submit]")
    someone.page.wait_for_url(someone.base + "/")


def operator_signs_in(operator: Person) -> None:
    operator.go("/sign-in")
    operator.page.click("details.operator-sign-in summary")
    operator.page.fill("input[name=token]", OPERATOR_TOKEN)
    operator.page.click("#operator-form button[type=submit]")
    operator.page.wait_for_url(operator.base + "/operator")
    expect(operator.page.locator("#zero-sum")).to_contain_text("0.00")


def open_table(operator: Person, server: LiveServer, name: str, profile: str, seed: bytes) -> int:
    """The operator opens a table on the operator page; its first shoe comes from ``seed``."""
    server.seeds.queue.append(seed)
    operator.go("/operator")
    row = operator.page.locator("#operator-tables tbody tr", has_text=name)
    for attempt in range(2):
        operator.page.fill("#new-table-form input[name=name]", name)
        operator.page.select_option("#profile-select", profile)
        operator.page.click("#new-table-form button[type=submit]")
        try:
            expect(row).to_have_count(1)
            break
        except AssertionError:
            # Seen twice in CI under load (cause not found): the submit reached no server
            # (no table, the seed not taken, no notice). Only then is it sent once more.
            notice = operator.page.locator("#notice")
            if attempt or seed not in server.seeds.queue or notice.is_visible():
                break
    try:
        expect(row).to_have_count(1, timeout=1000)
    except AssertionError as missing:
        # The seed goes back out of the worker's queue, or every later table on this worker
        # takes the wrong shoe (one failure seen in CI became seven), and the failure says
        # what the page showed: the open table's submit once left no row and took no seed.
        taken = seed not in server.seeds.queue
        if not taken:
            server.seeds.queue.remove(seed)
        notice = operator.page.locator("#notice")
        said = notice.inner_text() if notice.is_visible() else "(no notice)"
        raise AssertionError(
            f"no row for table {name!r} at {operator.page.url}; the page said {said!r};"
            f" its seed was {'' if taken else 'not '}taken"
        ) from missing
    assert not server.seeds.queue, "the new table's shoe took the stacked seed"
    return int(row.get_attribute("data-table-id") or 0)


def open_table_with_players(
    operator: Person,
    server: LiveServer,
    name: str,
    profile: str,
    seed: bytes,
    *,
    players: Sequence[Person],
    credited: Sequence[Person] | None = None,
) -> int:
    """The opening most browser tests share, set up through the API as an operator's script
    would: the table opened (its first shoe from ``seed``), the players signed up and signed
    in in their browsers, ``CREDIT_UNITS`` credited to each of ``credited`` (every player
    unless told), and the operator signed in on the operator page, which lists them.

    The pages that do each of these by hand are tested on their own (``sign_up``,
    ``operator_signs_in``, ``open_table`` and ``credit``, in this file and in
    ``test_back_office_in_a_browser.py``); through the pages, this opening took 5 s of a
    quiet machine's time at each of its 28 uses."""
    server.seeds.queue.append(seed)
    table_id = int(
        api_call(
            server, OPERATOR_TOKEN, "POST", "/operator/tables", {"name": name, "profile": profile}
        )["table"]
    )
    assert not server.seeds.queue, "the new table's shoe took the stacked seed"
    for someone in players:
        login = {"username": someone.name, "password": PASSWORD}
        api_call(server, None, "POST", "/auth/signup", login)
        token = api_call(server, None, "POST", "/auth/signin", login)["token"]
        signed_in(someone, token, "player")
    for someone in players if credited is None else credited:
        api_call(
            server,
            OPERATOR_TOKEN,
            "POST",
            f"/operator/wallets/{someone.name}/credit",
            {"amount": CREDIT_UNITS * 100},
        )
    signed_in(operator, OPERATOR_TOKEN, "operator")
    operator.go("/operator")
    expect(operator.page.locator("#zero-sum")).to_contain_text("0.00")
    return table_id


def api_call(
    server: LiveServer, token: str | None, method: str, path: str, body: Any = None
) -> Any:
    """One request to the live server, as a script would send it (a command with its own
    idempotency key); a refusal fails the test with the server's answer."""
    headers = {"Idempotency-Key": uuid.uuid4().hex}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    answer = httpx.request(method, server.url + path, json=body, headers=headers, timeout=30)
    assert answer.status_code < 300, f"{method} {path}: {answer.status_code} {answer.text}"
    return answer.json()


def signed_in(someone: Person, token: str, role: str) -> None:
    """``someone``'s browser holds the session a sign-in gives (``session.start`` in
    ``common.js``), set on the sign-in page."""
    someone.go("/sign-in")
    someone.page.evaluate(
        "([token, role, name]) => { localStorage.setItem('croupier.token', token);"
        " localStorage.setItem('croupier.role', role);"
        " localStorage.setItem('croupier.username', name); }",
        [token, role, someone.name],
    )


def credit(operator: Person, username: str, units: int) -> None:
    row = operator.page.locator(f"#operator-players tr[data-player='{username}']")
    row.locator("input[name=amount]").fill(str(units))
    row.locator("button.credit").click()
    confirm_movement(operator)
    expect(row.locator(".balance")).to_have_text(shown_units(Fraction(units)))


def confirm_movement(operator: Person, *, double: bool = False) -> None:
    """Every movement of money on the operator's page is confirmed first (issue 27, item 6):
    the dialog names the player, the amount and the balance after; Confirm sends it."""
    dialog = operator.page.locator("#money-confirm")
    expect(dialog).to_be_visible()
    button = dialog.locator("#confirm-money")
    expect(button).to_be_focused()  # Enter confirms
    if double:
        button.dblclick()
    else:
        button.click()
    expect(dialog).to_be_hidden()


def set_limits(operator: Person, table: str, wager: str, maximum: int) -> None:
    """docs/rules.md §6: the operator sets a wager's limits with the keyboard; the row shows them
    waiting for the next round (the round under way keeps its own)."""
    row = operator.page.locator("#operator-tables tbody tr", has_text=table)
    row.locator("select[name=wager]").select_option(wager)
    row.locator("input[name=maximum]").fill(str(maximum))
    row.locator("input[name=maximum]").press("Enter")
    expect(row.locator(".next-limits")).to_contain_text(str(maximum))


def sit(someone: Person, table_id: int, seat: int) -> None:
    someone.go(f"/table/{table_id}")
    expect(someone.page.locator("#connection")).to_have_attribute("data-state", "connected")
    someone.page.click(f"li[data-seat='{seat}'] button.sit")
    expect(someone.page.locator(f"li[data-seat='{seat}']")).to_have_class(re.compile(r"\bmine\b"))


def bet(someone: Person, seat: int, wager: str, amount: int) -> None:
    page = someone.page
    page.fill(f"input[name='{seat}:{wager}']", str(amount))
    page.click("#place-bets")
    expect(page.locator("#ready")).to_be_visible()


def say_ready(someone: Person) -> None:
    someone.page.click("#ready")


def sit_bet_and_say_ready(
    someone: Person, table_id: int, seat: int, wager: str, amount: int
) -> None:
    """A player's round in three steps: sits at ``seat``, bets ``amount`` on ``wager``, and
    says ready."""
    sit(someone, table_id, seat)
    bet(someone, seat, wager, amount)
    say_ready(someone)


def shown_actions(someone: Person) -> list[str]:
    buttons = someone.page.locator("#actions button")
    return [
        buttons.nth(index).get_attribute("data-action") or "" for index in range(buttons.count())
    ]


def wait_for_turn(someone: Person, legal: list[str]) -> None:
    """The page offers exactly the decisions the engine calls legal, as buttons."""
    expect(someone.page.locator("#actions button")).to_have_count(len(legal))
    assert shown_actions(someone) == legal


def decide(someone: Person, action: str) -> None:
    someone.page.click(f"#actions button[data-action='{action}']")


def decide_by_keyboard(someone: Person, action: str) -> None:
    """Tab to the decision's button (its focus ring visible) and press Enter: no mouse."""
    page = someone.page
    for _ in range(30):
        focused = page.evaluate("document.activeElement?.dataset?.action ?? null")
        if focused == action:
            outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline != "none", "the focused button shows where the focus is"
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{action!r} cannot be reached with the Tab key")


def assert_fits_the_screen(someone: Person) -> None:
    """Nothing sticks out sideways: the page reads on a phone without scrolling across."""
    widths = someone.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{someone.name}'s page is {widths[0]} px wide on {widths[1]}"


def felt_cards(someone: Person) -> list[str]:
    cards = someone.page.locator("#felt .card")
    return [cards.nth(index).get_attribute("data-card") or "" for index in range(cards.count())]


def shown_results(someone: Person) -> list[tuple[str, str, Fraction, Fraction]]:
    rows = someone.page.locator("#results-body tr:not(.back-bet)")  # the box's own wagers
    shown = []
    for index in range(rows.count()):
        cells = [rows.nth(index).locator("td").nth(column).inner_text() for column in range(5)]
        shown.append((cells[0], cells[1], number(cells[2]), number(cells[4])))
    return shown


def wait_for_balance(someone: Person, expected: Fraction) -> None:
    """The balance on the page comes to ``expected`` (it follows the settlement)."""
    balance = someone.page.locator("#balance")
    for _ in range(100):
        text = balance.inner_text()
        if text != "…" and number(text) == expected:
            return
        someone.page.wait_for_timeout(100)
    raise AssertionError(f"{someone.name}'s balance shows {balance.inner_text()}, not {expected}")


def approve_and_see_it_approved(inspector: Person, waiting: Any) -> None:
    """The second inspector approves the one request ``waiting`` (a row of the approval
    queue) and sees that same request approved. The live server is the worker's, shared by
    its tests: a count of approved rows would be met at once by another test's approval,
    before this one has committed (a failure seen in CI: the next page read still showed
    the decision awaiting approval)."""
    approval = waiting.get_attribute("data-approval")
    assert approval, "an approval's row names its request"
    waiting.locator("button.approve").click()
    answered = inspector.page.locator(f"#approval-queue tr[data-approval='{approval}']")
    expect(answered).to_have_attribute("data-status", "approved")


def play_along(
    round_: GameRound, players: dict[int, Person], choose: Callable[[int, list[str]], str]
) -> None:
    """Each pending decision: the seat's page offers exactly the legal actions; it clicks
    the one ``choose`` picks, and the engine beside it applies the same."""
    while not round_.is_done:
        decision = round_.pending()
        assert decision is not None
        legal = [str(option) for option in decision.legal]
        someone = players[decision.seat]
        wait_for_turn(someone, legal)
        choice = choose(decision.seat, legal)
        if someone.keyboard_only:
            decide_by_keyboard(someone, choice)
        else:
            decide(someone, choice)
        round_.act(decision.seat, Action.parse(choice))


def stand_if_you_may(seat: int, legal: list[str]) -> str:
    for choice in ("stand", "no-insurance"):
        if choice in legal:
            return choice
    return legal[0]


def expected_rows(
    round_: GameRound, seats: set[int] | None = None
) -> list[tuple[int, str, Fraction, Fraction]]:
    return [
        (wager.seat, wager.wager, wager.stake, wager.payout)
        for wager in round_.results().wagers
        if seats is None or wager.seat in seats
    ]


def assert_results_shown(someone: Person, round_: GameRound) -> None:
    expect(someone.page.locator("#results")).to_be_visible()
    expected = expected_rows(round_)
    expect(someone.page.locator("#results-body tr:not(.back-bet)")).to_have_count(len(expected))
    shown = shown_results(someone)
    assert sorted(
        (int(seat.split()[0]), stake, payout) for seat, _w, stake, payout in shown
    ) == sorted((seat, stake, payout) for seat, _w, stake, payout in expected)


def assert_settled_dealer_shown(someone: Person, engine: Any) -> None:
    """Peru 2016 Art. 13, Veintiuno Real item 3: once the players have finished, the dealer
    turns the hole card over. After settlement the felt (the table's, or the recall's last
    step) shows every dealer card face up and the total that counts them (the browser once
    rebuilt the round itself, waited for an event the engine never records, and kept the hole
    card down)."""
    side = someone.page.locator("#felt [data-side='dealer']")
    expect(side.locator(".card.back")).to_have_count(0)
    cards = [Card.parse(code) for code in engine.dealer_cards]
    expect(side.locator(".card")).to_have_count(len(cards))
    shown = [side.locator(".card").nth(i).get_attribute("data-card") for i in range(len(cards))]
    assert shown == engine.dealer_cards
    # A dealer's two-card 21 is named a blackjack (issue 26, item 7; Peru 2016 Art. 13).
    natural = len(cards) == 2 and hand_total(cards) == 21
    expect(side.locator(".total")).to_have_text(
        "Blackjack" if natural else f"Total {hand_total(cards)}"
    )


# --- blackjack: two players, a split and a double, a reload mid-round -------------------------


def _pair_for_seat_one(seed: bytes) -> bool:
    """Seat 1 is dealt a pair it may split (not Aces: they draw one card each), and the
    dealer shows no Ace (no insurance question first)."""
    round_ = seeded_round("peru-2016", seed)
    round_.place_bet(1, "main", 10)
    round_.place_bet(2, "main", 10)
    round_.deal()
    decision = round_.pending()
    if decision is None or decision.seat != 1 or decision.question != "play":
        return False
    if Action("split") not in decision.legal:
        return False
    view = round_.view(1)
    if view["seats"][0]["hands"][0]["cards"][0].startswith("A"):
        return False
    round_.act(1, Action("split"))
    after = round_.pending()
    return after is not None and after.seat == 1 and any(a.name == "double" for a in after.legal)


def test_blackjack_two_players_split_double_reload_and_the_books_at_zero(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine("peru-2016")
    seed = seed_where("peru-2016", _pair_for_seat_one)
    operator = person("operator")
    alice = person("alice")
    bob = person("bob", phone=True, locale="es-ES")
    operator_signs_in(operator)
    table_id = open_table(operator, live_server, "Blackjack E2E", "peru-2016", seed)
    for player in (alice, bob):
        sign_up(player)
    lobby_row = alice.page.locator("#lobby-tiles .tile", has_text="Blackjack E2E")
    expect(lobby_row.locator(".players")).to_contain_text("7 of 7 seats free")
    operator.go("/operator")
    for player in (alice, bob):
        credit(operator, player.name, CREDIT_UNITS)
    set_limits(operator, "Blackjack E2E", "21+3", maximum=500)

    bob.keyboard_only = True  # Bob decides with the keyboard alone
    sit(alice, table_id, 1)
    sit(bob, table_id, 2)
    expect(bob.page.locator("li[data-seat='1'] .seat-player")).to_have_text("alice")
    expect(bob.page.locator("#phase")).to_have_text("Hagan sus apuestas")  # Accept-Language: es
    bet(alice, 1, "main", 10)
    bet(bob, 2, "main", 10)
    say_ready(alice)
    say_ready(bob)

    engine = seeded_round("peru-2016", seed)
    engine.place_bet(1, "main", 10)
    engine.place_bet(2, "main", 10)
    engine.deal()
    # Both see the same cards: the dealer's up card and a face-down hole card, both boxes.
    expect(alice.page.locator("#felt [data-side='dealer'] .card.back")).to_have_count(1)
    expect(bob.page.locator("#felt [data-side='dealer'] .card.back")).to_have_count(1)
    # Alice decides first: her clock sits with her buttons; Bob's, waiting, in the table's head.
    expect(alice.page.locator("#decision-timer")).to_be_visible()
    expect(bob.page.locator("#timer")).to_be_visible()

    plan = iter(["double", "stand"])  # after the split below: double hand 1, stand on hand 2

    def alice_then_bob(seat: int, legal: list[str]) -> str:
        if seat == 2:
            return "stand" if "stand" in legal else legal[0]
        wanted = next(plan, "stand")
        choice = next((option for option in legal if option.split()[0] == wanted), None)
        return choice or ("stand" if "stand" in legal else legal[0])

    # The split, seen by both; then Bob reloads his page mid-round and carries on.
    decision = engine.pending()
    assert decision is not None and decision.seat == 1
    wait_for_turn(alice, [str(a) for a in decision.legal])
    decide(alice, "split")
    engine.act(1, Action("split"))
    expect(alice.page.locator("li[data-seat='1'] .hand")).to_have_count(2)
    expect(bob.page.locator("li[data-seat='1'] .hand")).to_have_count(2)
    for player in (alice, bob):  # the split hands' new cards turned up, one by one
        expect(player.page.locator("#felt")).not_to_have_class(re.compile(r"\bdealing\b"))
    alice.screenshot("blackjack-table")
    bob.screenshot("blackjack-table-phone-es")
    before = felt_cards(bob)
    bob.page.reload()
    expect(bob.page.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(bob.page.locator("li[data-seat='1'] .hand")).to_have_count(2)
    assert felt_cards(bob) == before
    assert_fits_the_screen(bob)

    play_along(engine, {1: alice, 2: bob}, alice_then_bob)
    doubled = [e for e in engine.events if e.kind == "Doubled" and getattr(e, "seat", None) == 1]
    assert doubled, "seat 1 doubled a split hand"

    for player in (alice, bob):
        assert_results_shown(player, engine)
        assert_settled_dealer_shown(player, engine)
    alice.screenshot("blackjack-settled")
    first_round_id = int(alice.page.get_attribute("#recall-link", "href").rsplit("/", 1)[1])
    result = engine.results()
    for player, seat in ((alice, 1), (bob, 2)):
        wait_for_balance(player, CREDIT_UNITS + result.net(seat))

    # A second round from the same shoe: both stand (or take what is offered).
    bet(alice, 1, "main", 10)
    bet(bob, 2, "main", 10)
    say_ready(alice)
    say_ready(bob)
    # The server deals the next round on from the same shoe; so does the engine beside it.
    second = engines.new_round(load_profile("peru-2016"), engine.shoe)  # type: ignore[attr-defined]
    second.place_bet(1, "main", 10)
    second.place_bet(2, "main", 10)
    second.deal()
    play_along(second, {1: alice, 2: bob}, stand_if_you_may)
    for player in (alice, bob):
        assert_results_shown(player, second)
    for player, seat in ((alice, 1), (bob, 2)):
        wait_for_balance(player, CREDIT_UNITS + result.net(seat) + second.results().net(seat))

    # The recall of the first round, step by step: the engine's views as alice saw them.
    alice.go(f"/recall/{first_round_id}")
    recalled = list(steps(engine.events, 1))
    expect(alice.page.locator("#event-list > li")).to_have_count(len(recalled))
    expect(alice.page.locator("#next-step")).to_be_disabled()
    assert_settled_dealer_shown(alice, engine)
    # Each split and doubled hand as the engine dealt it, with its own bet.
    for hand in engine.boxes[1].hands:  # type: ignore[attr-defined]
        shown = alice.page.locator(f"li[data-seat='1'] .hand[data-hand='{hand.number}']")
        expect(shown.locator(".card")).to_have_count(len(hand.cards))
        assert [c.get_attribute("data-card") for c in shown.locator(".card").all()] == [
            str(card) for card in hand.cards
        ]
        expect(shown.locator(".hand-bet")).to_have_text(f"Bet {hand.total_stake}")
    alice.screenshot("blackjack-recall")
    alice.page.click("#first-step")
    expect(alice.page.locator("#felt .card")).to_have_count(0)
    alice.page.click("#next-step")
    alice.page.keyboard.press("ArrowRight")
    expect(alice.page.locator("#step-counter")).to_have_text(f"Step 3 of {len(recalled)}")
    # After the deal the hole card is face down, as it was at the table.
    dealt = next(i for i, step in enumerate(recalled) if step.command == Deal())
    for _ in range(dealt - 2):
        alice.page.keyboard.press("ArrowRight")
    expect(alice.page.locator("#step-counter")).to_have_text(f"Step {dealt + 1} of {len(recalled)}")
    expect(alice.page.locator("#felt [data-side='dealer'] .card.back")).to_have_count(1)
    alice.page.keyboard.press("End")
    expect(alice.page.locator("li[data-seat='1'] .hand")).to_have_count(2)
    expect(alice.page.locator("#next-step")).to_be_disabled()

    # The player's history, and the operator's books.
    alice.go("/account")
    expect(alice.page.locator("#history tbody tr")).to_have_count(2)
    operator.go("/operator")
    expect(operator.page.locator("#zero-sum")).to_have_attribute("data-ok", "true")
    expect(operator.page.locator("#ledger-sum")).to_contain_text("0.00")
    for player, seat in ((alice, 1), (bob, 2)):
        balance = operator.page.locator(
            f"#operator-players tr[data-player='{player.name}'] .balance"
        )
        net = result.net(seat) + second.results().net(seat)
        expect(balance).to_have_text(shown_units(CREDIT_UNITS + net))

    # The operator closes the table: the lobby says so.
    operator.page.click(f"#operator-tables tr[data-table-id='{table_id}'] button.close-table")
    expect(
        operator.page.locator(f"#operator-tables tr[data-table-id='{table_id}'] button.open-table")
    ).to_be_visible()
    alice.go("/")
    expect(lobby_row.locator(".round-state")).to_have_text("Closed")


# --- baccarat: a coup on Banca -----------------------------------------------------------------


def test_baccarat_coup_on_the_banker_paid_as_the_tableau_says(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine("dragon-six-peru-2016")
    seed = hashlib.sha256(b"croupier e2e baccarat").digest()
    operator = person("operator")
    carol = person("carol", phone=True)
    table_id = open_table_with_players(
        operator, live_server, "Mesa Piura", "dragon-six-peru-2016", seed, players=[carol]
    )

    sit(carol, table_id, 1)
    bet(carol, 1, "banker", 10)
    bet(carol, 1, "tie", 2)
    carol.screenshot("baccarat-betting")
    say_ready(carol)

    engine = seeded_round("dragon-six-peru-2016", seed)
    engine.place_bet(1, "banker", 10)
    engine.place_bet(1, "tie", 2)
    engine.deal()
    assert engine.is_done
    assert_results_shown(carol, engine)
    # The last coup stays on the felt while the next round takes bets: Punto and Banca.
    view = engine.view(1)
    for side in ("player", "banker"):
        cards = carol.page.locator(f"#felt [data-side='{side}'] .card")
        expect(cards).to_have_count(len(view[side]["cards"]))
        shown = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
        assert shown == view[side]["cards"]
    wait_for_balance(carol, CREDIT_UNITS + engine.results().net(1))
    # The shoe's roads count its one coup in the singular ("1 coups" read as a slip).
    expect(carol.page.locator("#roads .road-counts")).to_have_text(
        re.compile(r"^1 coup: Player \d, Banker \d, Tie \d$")
    )
    carol.screenshot("baccarat-table")
    assert_fits_the_screen(carol)

    # The coup's recall names the winner and both totals, as Art. 8 decides them.
    coup = next(event for event in engine.events if event.kind == "CoupDecided")
    carol.page.click("#recall-link")
    winner = {"player": "Player wins", "banker": "Banker wins", "tie": "Tie"}[coup.winner]  # type: ignore[attr-defined]
    totals = f"Player {coup.player_total}, Banker {coup.banker_total}"  # type: ignore[attr-defined]
    expect(carol.page.locator("#event-list")).to_contain_text(f"{winner}: {totals}.")
    expect(carol.page.locator("#event-list > li")).to_have_count(len(list(steps(engine.events, 1))))
    for side in ("player", "banker"):
        cards = carol.page.locator(f"#felt [data-side='{side}'] .card")
        assert [c.get_attribute("data-card") for c in cards.all()] == view[side]["cards"]
    carol.screenshot("baccarat-recall-phone")
    assert_fits_the_screen(carol)
    carol.go("/")
    assert_fits_the_screen(carol)


# --- Casino Hold'em: two players, one calls and one folds --------------------------------------


def test_casino_holdem_round_with_a_call_and_a_fold(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    needs_engine("casino-holdem-peru-2007")
    seed = hashlib.sha256(b"croupier e2e casino holdem").digest()
    operator = person("operator")
    dave = person("dave")
    erin = person("erin", locale="es")
    table_id = open_table_with_players(
        operator, live_server, "Hold'em E2E", "casino-holdem-peru-2007", seed, players=[dave, erin]
    )
    # Erin's table socket passes through the test, which can cut it as a network would.
    erin_sockets: list[Any] = []

    def through_the_test(socket: Any) -> None:
        socket.connect_to_server()
        erin_sockets.append(socket)

    erin.page.route_web_socket(re.compile(r"/tables/\d+/ws"), through_the_test)

    sit(dave, table_id, 1)
    sit(erin, table_id, 2)
    bet(dave, 1, "ante", 5)
    bet(erin, 2, "ante", 5)
    say_ready(dave)
    say_ready(erin)

    engine = seeded_round("casino-holdem-peru-2007", seed)
    engine.place_bet(1, "ante", 5)
    engine.place_bet(2, "ante", 5)
    engine.deal()
    # Each sees their own two cards and only the backs of the other's (R6) and the dealer's.
    own = engine.view(1)["seats"][0]["hands"][0]["cards"]
    expect(dave.page.locator("li[data-seat='1'] .card.face")).to_have_count(2)
    dave_cards = dave.page.locator("li[data-seat='1'] .card.face")
    assert [dave_cards.nth(i).get_attribute("data-card") for i in range(2)] == own
    expect(dave.page.locator("li[data-seat='2'] .card.back")).to_have_count(2)
    expect(erin.page.locator("li[data-seat='1'] .card.back")).to_have_count(2)
    expect(dave.page.locator("#felt [data-side='dealer'] .card.back")).to_have_count(2)
    expect(dave.page.locator("#felt [data-side='board'] .card.face")).to_have_count(3)
    dave.screenshot("casino-holdem-table")

    # Erin's connection drops; Dave calls meanwhile. Her page reconnects and finds her turn.
    connected = len(erin_sockets)
    erin_sockets[-1].close(code=1012, reason="the test cuts the connection")
    expect(erin.page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    decision = engine.pending()
    assert decision is not None and decision.seat == 1
    wait_for_turn(dave, [str(option) for option in decision.legal])
    decide(dave, "call")
    engine.act(1, Action("call"))
    expect(erin.page.locator("#connection")).to_have_attribute("data-state", "connected")
    assert len(erin_sockets) == connected + 1

    play_along(engine, {1: dave, 2: erin}, lambda seat, legal: "call" if seat == 1 else "fold")
    for player in (dave, erin):
        assert_results_shown(player, engine)
    # Each hand named (issue 13): Dave's own, as the engine ranks it, and the dealer's.
    final = engine.view(1)
    mine = dave.page.locator("li[data-seat='1'] .hand-name")
    expect(mine).to_have_attribute("data-hand", final["seats"][0]["hands"][0]["total"])
    expect(mine).to_have_text(re.compile(r"^Your hand: "))
    # Art. 13 d: the call is twice the ante; what the hand stakes is both, and says so (it said
    # "Bet 15", the call's name beside the sum of ante and call).
    expect(dave.page.locator("li[data-seat='1'] .hand-bet")).to_have_text("Ante + bet 15")
    dealer = dave.page.locator("#felt [data-side='dealer'] .hand-name")
    expect(dealer).to_have_attribute("data-hand", final["dealer"]["total"])
    expect(erin.page.locator("#round-banner li")).to_have_text(
        re.compile(r"^Se retira: pierde 5,00$")
    )
    dave.screenshot("casino-holdem-settled")
    for player, seat in ((dave, 1), (erin, 2)):
        wait_for_balance(player, CREDIT_UNITS + engine.results().net(seat))

    # One deck per game (Art. 7): the shoe ended with the round and is revealed (R18). The
    # operator sees the seed the test stacked, and the commitment published before the deal
    # is the SHA-256 of what is now revealed.
    profile = load_profile("casino-holdem-peru-2007")
    revealed = revealed_document(
        seed,
        profile.table.decks,
        profile.table.cut_card_from_bottom,
        engines.rules_version(profile),
    )
    operator.go("/operator")
    shoe_row = operator.page.locator("#operator-shoes tbody tr", has_text="Hold'em E2E").last
    expect(shoe_row.locator("code.hash")).to_have_text(commitment(revealed))
    shoe_row.locator("button", has_text="Show the reveal").click()
    expect(shoe_row).to_contain_text(seed.hex())


# --- the operator's limits: a table opened under the operator's own profile file -----------------


def test_operator_opens_a_table_with_its_own_limits_and_the_pages_hold_to_them(
    live_server: LiveServer, person: Callable[..., Person], tmp_path: Path
) -> None:
    """docs/rules.md §6: "Table limits are the operator's (profile values)". The operator copies a
    shipped profile with a 5 to 500 box bet and opens a table with it."""
    needs_engine("peru-2016")
    shipped = (SHIPPED_PROFILES / "peru-2016.toml").read_text(encoding="utf-8")
    own = shipped.replace('name = "peru-2016"', 'name = "peru-2016-high-floor"', 1).replace(
        "limits = { minimum = 1, maximum = 10000 }", "limits = { minimum = 5, maximum = 500 }", 1
    )
    profile_file = tmp_path / "peru-2016-high-floor.toml"
    profile_file.write_text(own, encoding="utf-8")

    operator = person("operator")
    frank = person("frank", locale="es-ES")
    operator_signs_in(operator)
    operator.page.fill("#new-table-form input[name=name]", "High floor")
    operator.page.fill("#new-table-form input[name=profile_file]", str(profile_file))
    operator.page.click("#new-table-form button[type=submit]")
    row = operator.page.locator("#operator-tables tbody tr", has_text="High floor")
    expect(row).to_contain_text("5 – 500")
    table_id = int(row.get_attribute("data-table-id") or 0)

    sign_up(frank)
    lobby_row = frank.page.locator("#lobby-tiles .tile", has_text="High floor")
    expect(lobby_row).to_contain_text("5 – 500")
    sit(frank, table_id, 1)
    box_bet = frank.page.locator("input[name='1:main']")
    expect(box_bet).to_have_value("5")
    expect(box_bet).to_have_attribute("max", "500")

    # Frank signs out, and signs in again (in Spanish, as his browser asks) to his seat.
    frank.page.click("#sign-out")
    frank.page.wait_for_url(re.compile(r"/sign-in"))
    expect(frank.page.locator("h1")).to_have_text("Entrar")
    sign_in(frank)
    frank.go(f"/table/{table_id}")
    expect(frank.page.locator("li[data-seat='1']")).to_have_class(re.compile(r"\bmine\b"))


# --- blackjack: insurance under a dealer's Ace (Art. 10) -------------------------------------------


def _dealer_shows_an_ace(seed: bytes) -> bool:
    round_ = seeded_round("peru-2016", seed)
    round_.place_bet(1, "main", 10)
    round_.deal()
    decision = round_.pending()
    return decision is not None and decision.question == "insurance"


def test_blackjack_insurance_offered_under_an_ace_up_to_half_the_bet(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    """Art. 10: with the dealer's Ace up, insurance is offered, up to half the original bet;
    the button offers exactly the amount the server allows, and the result is paid as the
    engine pays it."""
    needs_engine("peru-2016")
    seed = seed_where("peru-2016", _dealer_shows_an_ace)
    operator = person("operator")
    gina = person("gina", phone=True)
    table_id = open_table_with_players(
        operator, live_server, "Mesa Huancayo", "peru-2016", seed, players=[gina]
    )
    sit_bet_and_say_ready(gina, table_id, 1, "main", 10)

    engine = seeded_round("peru-2016", seed)
    engine.place_bet(1, "main", 10)
    engine.deal()
    expect(gina.page.locator("#felt [data-side='dealer'] .card.face")).to_have_attribute(
        "data-card", re.compile(r"^A")
    )
    decision = engine.pending()
    assert decision is not None and decision.question == "insurance"
    offered = [str(option) for option in decision.legal]
    assert "insurance 5" in offered  # half of the bet of 10
    wait_for_turn(gina, offered)
    expect(gina.page.locator("#actions button[data-action='insurance 5']")).to_have_text(
        "Insurance (5)"
    )
    decide(gina, "insurance 5")
    engine.act(1, Action.parse("insurance 5"))
    play_along(engine, {1: gina}, stand_if_you_may)
    assert_results_shown(gina, engine)
    assert any(wager.wager == "insurance" for wager in engine.results().wagers)
    wait_for_balance(gina, CREDIT_UNITS + engine.results().net(1))


# --- spain-1979: a back bet on another player's box, with the owner's consent ---------------------


def test_back_bet_on_another_players_box_with_consent_shares_its_fortune(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    """spain-1979 Art. 03: others may back-bet on a box with the box owner's consent; the back
    bet returns its stake times the box's return (rounded down to the cent: the server's
    decision)."""
    needs_engine("spain-1979")
    seed = hashlib.sha256(b"croupier e2e back bet").digest()
    operator = person("operator")
    hank = person("hank")
    ivy = person("ivy", phone=True)
    table_id = open_table_with_players(
        operator, live_server, "Mesa Ayacucho", "spain-1979", seed, players=[hank, ivy]
    )

    sit(hank, table_id, 1)
    bet(hank, 1, "main", 10)
    ivy.go(f"/table/{table_id}")
    expect(ivy.page.locator("#connection")).to_have_attribute("data-state", "connected")
    ivy.page.select_option("#back-seat", "1")
    ivy.page.fill("#back-bet-form input[name=amount]", "5")
    ivy.page.click("#back-bet-form button[type=submit]")
    expect(ivy.page.locator("#back-bet-list")).to_contain_text("waiting for consent")
    asking = hank.page.locator("#back-bet-list li", has_text="ivy asks to back seat 1 with 5.00")
    asking.locator("button.accept").click()
    expect(hank.page.locator("#back-bet-list")).to_contain_text(
        "ivy backs seat 1 with 5.00, accepted"
    )
    expect(ivy.page.locator("#back-bet-list")).to_contain_text("accepted")
    say_ready(hank)

    engine = seeded_round("spain-1979", seed)
    engine.place_bet(1, "main", 10)
    engine.deal()
    play_along(engine, {1: hank}, stand_if_you_may)
    assert_results_shown(hank, engine)
    result = engine.results()
    wait_for_balance(hank, CREDIT_UNITS + result.net(1))
    ratio = result.returned(1) / result.staked(1)
    back_payout_minor = int(500 * ratio)
    wait_for_balance(ivy, CREDIT_UNITS + Fraction(back_payout_minor - 500, 100))
    # Issue 13, item 7: both sides see the back bet in the round's results, paid exactly.
    for player in (hank, ivy):
        row = player.page.locator("#results-body tr.back-bet")
        expect(row).to_contain_text("ivy")
        expect(row.locator("td").nth(4)).to_have_text(shown_units(Fraction(back_payout_minor, 100)))


# --- Veintiuno Real: the dealer's hole card turned, at the table and in the recall -------------


def test_veintiuno_real_shows_the_turned_hole_card_at_the_table_and_in_the_recall(
    live_server: LiveServer, person: Callable[..., Person]
) -> None:
    """Veintiuno Real item 3: the dealer's second card is dealt face down and turned after the
    players. Once the round is settled, the table and the recall both show it face up and the
    dealer's total counting it, beside the hand's result (the browser's own replay once kept
    it face down: a 19 marked "Lose" beside a dealer showing 13)."""
    needs_engine("veintiuno-real")
    seed = hashlib.sha256(b"croupier e2e veintiuno real").digest()
    operator = person("operator")
    jo = person("julia")
    table_id = open_table_with_players(
        operator, live_server, "Veintiuno E2E", "veintiuno-real", seed, players=[jo]
    )
    sit_bet_and_say_ready(jo, table_id, 1, "main", 10)

    engine = seeded_round("veintiuno-real", seed)
    engine.place_bet(1, "main", 10)
    engine.deal()
    if not engine.is_done:
        expect(jo.page.locator("#felt [data-side='dealer'] .card.back")).to_have_count(1)
    play_along(engine, {1: jo}, stand_if_you_may)
    assert any(event.kind == "HoleCardRevealed" for event in engine.events)
    assert_results_shown(jo, engine)
    assert_settled_dealer_shown(jo, engine)
    hand = engine.boxes[1].hands[0]  # type: ignore[attr-defined]
    badge = jo.page.locator("li[data-seat='1'] .hand .result")
    expect(badge).to_have_class(re.compile(rf"\bresult-{hand.result}\b"))
    jo.screenshot("veintiuno-real-settled")

    jo.page.click("#recall-link")
    expect(jo.page.locator("#event-list > li")).to_have_count(len(list(steps(engine.events, 1))))
    assert_settled_dealer_shown(jo, engine)
    expect(jo.page.locator("li[data-seat='1'] .hand .result")).to_have_class(
        re.compile(rf"\bresult-{hand.result}\b")
    )
    jo.screenshot("veintiuno-real-recall")
