"""Every page of croupier in a fixed state, for pictures that must come out the same each time.

One live table server (uvicorn in a thread, SQLite in a folder given) with a clock that does
not move and shoes shuffled from seeds chosen here, then the same people doing the same
things through the API: so table, round and dispute numbers, balances, cards and shoe
commitments are the same on every run. Used by ``tests/e2e/test_approved_screenshots.py``
(each page against its approved image) and ``tools/readme_screenshot.py`` (the README's).

What the scenes hold: ``ana`` and ``ben`` at a Peru 2016 blackjack table mid-round (ana's
decision, her 21+3 beside her main bet), after one round played out and disputed by ana; a
Dragon Six table after three coups with ana's next bets placed; a Casino Hold'em table
mid-round (ana to call or fold); ``iris`` the inspector with ana's dispute in her queue.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from croupier.games.base import Action, GameRound
from croupier.rules.registry import load_profile
from croupier.service import engines

OPERATOR_TOKEN = "scenes-operator-token-" + "x" * 16
PASSWORD = "correct horse battery"
FIXED_TIME = 1_767_225_600.0  # 2026-01-01 00:00 UTC: every record's time
CHROMIUM = Path("/usr/bin/chromium")
BROWSER_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Debian's Chromium, headless, as every browser test starts it (tests/e2e/conftest.py)."""
CHROMIUM_ARGS = [*BROWSER_ARGS, "--font-render-hinting=none", "--hide-scrollbars"]
"""For pictures compared pixel by pixel: no font hinting, no scroll bars."""


class StoppedClock:
    """The server's clock, stopped: record times are fixed, no deadline ever passes (the
    scenes hold rounds mid-way for as long as the pictures take)."""

    def now(self) -> float:
        return FIXED_TIME


class StackedSeeds:
    """Stands in for ``secrets`` inside ``croupier.service.rounds``: each new shoe is shuffled
    from the next seed queued, else from ``secrets`` (``unqueued``)."""

    def __init__(self) -> None:
        self.queue: list[bytes] = []

    def token_bytes(self, count: int | None = None) -> bytes:
        if self.queue:
            return self.queue.pop(0)
        return self.unqueued(count)

    def unqueued(self, count: int | None) -> bytes:
        return secrets.token_bytes(count)

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


class ChosenSeeds(StackedSeeds):
    """Stacked seeds whose unqueued shoes come from a seed counted from a fixed phrase, so
    every picture's shoes are the same on every run."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def unqueued(self, count: int | None) -> bytes:
        self.count += 1
        return hashlib.sha256(f"croupier scenes shoe {self.count}".encode()).digest()


@dataclass
class Live:
    url: str
    seeds: ChosenSeeds


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def served_in_thread(app: Any, name: str, **config: Any) -> Iterator[int]:
    """``app`` served by uvicorn on a free loopback port in a thread of this process, until
    the end: the port. A real server, not the test client, where its answers differ (a
    WebSocket refused before its handshake is HTTP 403 through uvicorn)."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **config
        )
    )
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the table server did not start")
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def serving(folder: Path) -> Iterator[Live]:
    """A table server on a free loopback port, its database in ``folder``, until the end."""
    from croupier.server.app import create_app, start
    from croupier.server.context import Settings
    from croupier.service import rounds

    seeds = ChosenSeeds()
    original = rounds.secrets
    rounds.secrets = seeds  # type: ignore[assignment]
    # An analysis cache of the scenes' own, empty: the rules panel's returns read "being
    # computed" on every machine, whatever analyses another run left in the user's cache.
    cache_before = os.environ.get("CROUPIER_CACHE_DIR")
    os.environ["CROUPIER_CACHE_DIR"] = str(folder / "analysis-cache")
    try:
        settings = Settings(
            database_url=f"sqlite:///{folder / 'croupier.sqlite'}",
            operator_token=OPERATOR_TOKEN,
            demo_tables=False,
            betting_seconds=600.0,
            decision_seconds=600.0,
            rate_limit="100000/minute",
            clock=StoppedClock(),
        )
        app = create_app(settings, server=start(settings))
        # No Date header: the pages would take the real time for the server's and count the
        # stopped clock's deadlines as long past.
        with served_in_thread(app, "scenes-server", date_header=False) as port:
            yield Live(f"http://127.0.0.1:{port}", seeds)
    finally:
        rounds.secrets = original
        if cache_before is None:
            os.environ.pop("CROUPIER_CACHE_DIR", None)
        else:
            os.environ["CROUPIER_CACHE_DIR"] = cache_before


class Client:
    """The API as one person drives it, each command with its own idempotency key."""

    def __init__(self, url: str, token: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        self.token = token

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"}
        if method != "GET":
            headers["Idempotency-Key"] = uuid.uuid4().hex
        answer = self.http.request(method, path, json=body, headers=headers)
        assert answer.status_code < 300, f"{method} {path}: {answer.text}"
        return answer.json()


def sign_up(url: str, name: str) -> Client:
    http = httpx.Client(base_url=url, timeout=30)
    login = {"username": name, "password": PASSWORD}
    assert http.post("/auth/signup", json=login).status_code == 201
    return Client(url, http.post("/auth/signin", json=login).json()["token"])


def _seed_where(profile_name: str, wanted: Callable[[bytes], bool]) -> bytes:
    for attempt in range(20_000):
        seed = hashlib.sha256(f"croupier scenes {profile_name} {attempt}".encode()).digest()
        if wanted(seed):
            return seed
    raise AssertionError(f"no seed found for {profile_name}")


def _play_defaults(game: GameRound) -> None:
    while (decision := game.pending()) is not None:
        game.act(decision.seat, decision.default)


def _blackjack_second_round_waits_on_ana(seed: bytes) -> bool:
    """Round 1 (ana 25 + 21+3 5, ben 10) played out by the defaults; round 2 dealt from the
    same shoe with ana's first question "play" (no Ace up), a hand she may hit or double."""
    profile = load_profile("peru-2016")
    shoe = engines.open_shoe(profile, seed)
    for number in (1, 2):
        game = engines.new_round(profile, shoe)
        game.place_bet(1, "main", 25)
        game.place_bet(1, "21+3", 5)
        game.place_bet(3, "main", 10)
        game.deal()
        if number == 1:
            _play_defaults(game)
            if not game.is_done:
                return False
    decision = game.pending()
    return (
        decision is not None
        and decision.seat == 1
        and decision.question == "play"
        and Action("hit") in decision.legal
    )


def _holdem_waits_on_ana(seed: bytes) -> bool:
    profile = load_profile("casino-holdem-peru-2007")
    game = engines.new_round(profile, engines.open_shoe(profile, seed))
    game.place_bet(1, "ante", 10)
    game.place_bet(1, "progressive", 1)
    game.place_bet(2, "ante", 5)
    game.deal()
    decision = game.pending()
    return decision is not None and decision.seat == 1


@dataclass
class Scenes:
    """What the pictures show: the people (tokens) and the numbers of what they made."""

    url: str
    tokens: dict[str, str] = field(default_factory=dict)
    tables: dict[str, int] = field(default_factory=dict)
    finished_round: int = 0
    dispute: int = 0


def _wait_for_decision(operator: Client, table: int, round_id: int) -> dict[str, Any]:
    for _ in range(200):
        state: dict[str, Any] = operator.call("GET", f"/tables/{table}")["round"]
        if state["id"] != round_id or state["pending"] is not None:
            return state
        time.sleep(0.05)
    raise AssertionError(f"round {round_id} neither asked nor ended")


def _play_out(players: dict[int, Client], operator: Client, table: int, round_id: int) -> None:
    for _ in range(100):
        state = _wait_for_decision(operator, table, round_id)
        if state["id"] != round_id:
            return
        pending = state["pending"]
        players[pending["seat"]].call(
            "POST",
            f"/tables/{table}/actions",
            {"seat": pending["seat"], "action": pending["default"]},
        )
    raise AssertionError(f"round {round_id} did not end")


def build(live: Live) -> Scenes:
    """Make every scene, always in the same order (the numbers follow from it)."""
    scenes = Scenes(live.url)
    operator = Client(live.url, OPERATOR_TOKEN)
    people = {name: sign_up(live.url, name) for name in ("ana", "ben", "iris")}
    scenes.tokens = {name: client.token for name, client in people.items()}
    scenes.tokens["operator"] = OPERATOR_TOKEN
    ana, ben = people["ana"], people["ben"]
    for name, minor in (("ana", 250_000), ("ben", 120_050)):
        operator.call("POST", f"/operator/wallets/{name}/credit", {"amount": minor})
    operator.call("POST", "/operator/staff", {"username": "iris", "role": "inspector"})

    def table(name: str, profile: str, seed: bytes | None) -> int:
        if seed is not None:
            live.seeds.queue.append(seed)
        made = operator.call(
            "POST",
            "/operator/tables",
            {"name": name, "profile": profile, "betting_seconds": 600, "decision_seconds": 600},
        )
        number: int = made["table"]
        return number

    # Blackjack: a round played out and disputed, the next one waiting on ana.
    blackjack = table(
        "Lima 1", "peru-2016", _seed_where("peru-2016", _blackjack_second_round_waits_on_ana)
    )
    ana.call("POST", f"/tables/{blackjack}/seats/1", {})
    ben.call("POST", f"/tables/{blackjack}/seats/3", {})
    seats = {1: ana, 3: ben}
    for number in (1, 2):
        round_id = operator.call("GET", f"/tables/{blackjack}")["round"]["id"]
        ana.call("POST", f"/tables/{blackjack}/bets", {"seat": 1, "wager": "main", "amount": 25})
        ana.call("POST", f"/tables/{blackjack}/bets", {"seat": 1, "wager": "21+3", "amount": 5})
        ben.call("POST", f"/tables/{blackjack}/bets", {"seat": 3, "wager": "main", "amount": 10})
        ana.call("POST", f"/tables/{blackjack}/ready", {})
        ben.call("POST", f"/tables/{blackjack}/ready", {})
        if number == 1:
            _play_out(seats, operator, blackjack, round_id)
            scenes.finished_round = round_id
        else:
            _wait_for_decision(operator, blackjack, round_id)
    scenes.dispute = ana.call(
        "POST",
        f"/rounds/{scenes.finished_round}/disputes",
        {"text": "The dealer's second card looked turned before my decision."},
    )["dispute"]

    # Dragon Six: three coups, then ana's and ben's bets on the next.
    baccarat = table("Cusco", "dragon-six-peru-2016", None)
    ana.call("POST", f"/tables/{baccarat}/seats/2", {})
    ben.call("POST", f"/tables/{baccarat}/seats/5", {})
    for number in range(4):
        ana.call("POST", f"/tables/{baccarat}/bets", {"seat": 2, "wager": "banker", "amount": 10})
        ana.call("POST", f"/tables/{baccarat}/bets", {"seat": 2, "wager": "tie", "amount": 1})
        ben.call("POST", f"/tables/{baccarat}/bets", {"seat": 5, "wager": "player", "amount": 5})
        if number < 3:
            ana.call("POST", f"/tables/{baccarat}/ready", {})
            ben.call("POST", f"/tables/{baccarat}/ready", {})

    # Casino Hold'em: dealt, ana to call or fold.
    holdem = table(
        "Arequipa",
        "casino-holdem-peru-2007",
        _seed_where("casino-holdem-peru-2007", _holdem_waits_on_ana),
    )
    ana.call("POST", f"/tables/{holdem}/seats/1", {})
    ben.call("POST", f"/tables/{holdem}/seats/2", {})
    round_id = operator.call("GET", f"/tables/{holdem}")["round"]["id"]
    ana.call("POST", f"/tables/{holdem}/bets", {"seat": 1, "wager": "ante", "amount": 10})
    ana.call("POST", f"/tables/{holdem}/bets", {"seat": 1, "wager": "progressive", "amount": 1})
    ben.call("POST", f"/tables/{holdem}/bets", {"seat": 2, "wager": "ante", "amount": 5})
    ana.call("POST", f"/tables/{holdem}/ready", {})
    ben.call("POST", f"/tables/{holdem}/ready", {})
    _wait_for_decision(operator, holdem, round_id)
    scenes.tables = {"blackjack": blackjack, "baccarat": baccarat, "casino-holdem": holdem}
    return scenes


@dataclass(frozen=True)
class Shot:
    """One page as one person sees it: ``ready`` is shown once the page has drawn itself."""

    name: str
    path: str
    who: str | None
    ready: str
    opens: str | None = None
    """A control pressed before the picture (the rules panel, folded by default)."""


RULES = "#rules-panel > summary"
SHOT_NAMES = (
    "sign-in",
    "not-found",
    "lobby",
    "table-blackjack",
    "table-baccarat",
    "table-casino-holdem",
    "recall",
    "account",
    "disputes",
    "inspector",
    "operator",
)
"""Every page, in the order ``shots`` lists them."""


def shots(scenes: Scenes) -> list[Shot]:
    tables = scenes.tables
    return [
        Shot("sign-in", "/sign-in", None, "#sign-in-form"),
        Shot("not-found", "/no/such/page", None, "h1"),
        Shot("lobby", "/", "ana", "#lobby-tiles .tile[data-table-id]"),
        Shot("table-blackjack", f"/table/{tables['blackjack']}", "ana", "#actions button", RULES),
        Shot("table-baccarat", f"/table/{tables['baccarat']}", "ana", "#roads .bead", RULES),
        Shot(
            "table-casino-holdem",
            f"/table/{tables['casino-holdem']}",
            "ana",
            "#actions button",
            RULES,
        ),
        Shot("recall", f"/recall/{scenes.finished_round}", "ana", "#felt .card"),
        Shot("account", "/account", "ana", "#statement tbody tr"),
        Shot("disputes", "/disputes", "ana", "#my-disputes tbody tr, #my-disputes li"),
        Shot("inspector", "/inspector", "iris", "#dispute-queue tbody tr, #dispute-queue li"),
        # Today at a glance is drawn after the tables, from five answers: its alerts come last.
        Shot("operator", "/operator", "operator", "#alerts li"),
    ]


ROLES = {
    "operator": "operator"
}  # an inspector signs in as a person (a player account with the role)


def open_page(
    browser: Any,
    scenes: Scenes,
    shot: Shot,
    width: int,
    *,
    height: int = 900,
    locale: str = "en-US",
) -> Any:
    """A fresh browser context (UTC, English unless told, no motion) at ``width``, signed in as
    ``shot.who``, on the page drawn out: its cards all dealt, its fonts loaded."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        timezone_id="UTC",
        reduced_motion="reduce",
        device_scale_factor=1,
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    # The browser's clock reads the server's stopped time (timers still run): a decision's
    # timer shows its full time, the same in every picture.
    page.clock.set_fixed_time(FIXED_TIME)
    if shot.who is not None:
        page.goto(scenes.url + "/sign-in")
        page.evaluate(
            """([token, role, name]) => {
                localStorage.setItem("croupier.token", token);
                localStorage.setItem("croupier.role", role);
                localStorage.setItem("croupier.username", name);
            }""",
            [scenes.tokens[shot.who], ROLES.get(shot.who, "player"), shot.who],
        )
    page.goto(scenes.url + shot.path)
    page.locator(shot.ready).first.wait_for(state="visible")
    page.wait_for_load_state("networkidle")
    if shot.opens is not None:
        page.locator(shot.opens).click()
        if shot.opens == RULES:
            page.locator("#rules-body .paytable").first.wait_for(state="visible")
    # The live felt deals its cards a beat apart (pace.js): wait until every one is down.
    page.wait_for_function(
        "() => !document.querySelector('#felt.dealing, #felt .card.pending')"
        " && document.fonts.status === 'loaded'"
    )
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    return page


def screenshot(page: Any, path: Path, *, full_page: bool = True) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    image: bytes = page.screenshot(
        path=str(path), full_page=full_page, animations="disabled", caret="hide"
    )
    return image
