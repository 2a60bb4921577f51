"""The pages are served in the browser's language, with every string from the catalogues."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from croupier.games import GAME_MODULES
from croupier.rules.baccarat import BaccaratWager
from croupier.rules.casino_holdem import PokerCategory
from croupier.server.app import create_app, start
from croupier.server.context import Settings
from croupier.web.language import LANGUAGES, Catalogue, negotiate

WEB = Path(__file__).resolve().parents[2] / "src" / "croupier" / "web"

PAGES = [
    "/",
    "/sign-in",
    "/sign-up",
    "/table/1",
    "/account",
    "/recall/7",
    "/operator",
    "/disputes",
    "/inspector",
    "/inspector/3",
    "/dealer",
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The table server with its demo tables: table 1 exists (the table page asks)."""
    database = tmp_path_factory.mktemp("pages") / "croupier.sqlite"
    settings = Settings(database_url=f"sqlite:///{database}", operator_token="o" * 32)
    with TestClient(create_app(settings, server=start(settings))) as client:
        yield client


@pytest.mark.parametrize("path", PAGES)
def test_each_page_is_served_in_spanish_when_the_browser_prefers_it(
    client: TestClient, path: str
) -> None:
    answer = client.get(path, headers={"Accept-Language": "es-PE,es;q=0.9,en;q=0.5"})
    assert answer.status_code == 200
    assert '<html lang="es">' in answer.text
    assert answer.headers["content-language"] == "es"
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    messages = json.loads(re.search(r'id="messages">(.*?)</script>', answer.text, re.S).group(1))
    assert messages == Catalogue.load("es").messages


@pytest.mark.parametrize("path", PAGES)
def test_each_page_is_served_in_english_by_default(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    assert '<html lang="en">' in answer.text
    assert "Sign in" in answer.text


def test_a_table_number_must_be_a_positive_whole_number(client: TestClient) -> None:
    assert client.get("/table/0").status_code == 422
    assert client.get("/table/abc").status_code == 422


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_path_is_a_page_for_a_browser_and_json_for_a_client(
    client: TestClient, language: str
) -> None:
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language": language}
    page = client.get("/no/such/page", headers=browser)
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert f'<html lang="{language}">' in page.text
    assert Catalogue.load(language).text("not_found.page") in page.text
    answer = client.get("/no/such/page", headers={"Accept": "application/json"})
    assert answer.status_code == 404
    assert answer.json()["code"] == "no_such_path"
    assert answer.json()["error"] == "HTTPError"


def test_a_table_that_does_not_exist_says_so_before_the_page_connects(
    client: TestClient,
) -> None:
    answer = client.get("/table/999", headers={"Accept-Language": "es"})
    assert answer.status_code == 404
    assert Catalogue.load("es").text("not_found.table") in answer.text
    assert 'src="/web/static/js/table.js"' not in answer.text
    assert client.get("/table/1").status_code == 200


def test_static_assets_and_the_page_modules_they_name_exist(client: TestClient) -> None:
    for path in PAGES:
        page = client.get(path).text
        for asset in re.findall(r'(?:src|href)="(/web/static/[^"]+)"', page):
            assert client.get(asset).status_code == 200, asset
    assert client.get("/favicon.ico", follow_redirects=True).status_code == 200


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("es", "es"),
        ("es-ES", "es"),
        ("en-GB,en;q=0.9", "en"),
        ("fr, es;q=0.8, en;q=0.7", "es"),
        ("de", "en"),
        ("*", "en"),
        ("es;q=0, en", "en"),
        ("garbage;;;q=x", "en"),
        ("", "en"),
    ],
)
def test_the_language_follows_accept_language_weights(header: str, language: str) -> None:
    assert negotiate(header) == language


def test_both_catalogues_have_the_same_keys_and_placeholders() -> None:
    english, spanish = (Catalogue.load(language).messages for language in LANGUAGES)
    assert set(english) == set(spanish)
    for key in english:
        placeholders = set(re.findall(r"\{([a-z_]+)\}", english[key]))
        assert placeholders == set(re.findall(r"\{([a-z_]+)\}", spanish[key])), key
        assert spanish[key].strip(), key


@pytest.mark.parametrize(("language", "possessive"), [("en", "your"), ("es", "su")])
def test_the_turn_prompt_says_whose_turn_it_is_once(language: str, possessive: str) -> None:
    """The table's prompt is "Your turn: {question}" (or "..., hand {hand}: ..."): a blackjack
    turn's question once made it "Your turn: your move?", "Su turno: ¿su jugada?", saying
    the player's turn twice over. Each question now reads once after either prompt."""
    messages = Catalogue.load(language).messages
    questions = [key for key in messages if key.startswith("question.")]
    assert "question.play" in questions
    for prompt in ("table.your_turn", "table.your_turn_hand"):
        for key in questions:
            shown = messages[prompt].format(question=messages[key], hand=2)
            words = re.findall(r"\w+", shown.lower())
            assert words.count(possessive) == 1, (prompt, key, shown)


def _static_keys() -> set[str]:
    keys: set[str] = set()
    for template in (WEB / "templates").glob("*.html"):
        keys |= set(re.findall(r"""\bt\(\s*["']([a-z0-9_.+-]+)["']""", template.read_text()))
    for script in (WEB / "static" / "js").glob("*.js"):
        keys |= set(re.findall(r"""\bt\(\s*["']([a-z0-9_.+-]+)["']""", script.read_text()))
    return keys


def test_every_string_the_pages_ask_for_is_in_the_catalogues() -> None:
    keys = _static_keys()
    assert len(keys) > 100
    for language in LANGUAGES:
        missing = keys - set(Catalogue.load(language).messages)
        assert not missing, (language, sorted(missing))


def test_every_game_wager_and_poker_hand_has_a_name_in_both_languages() -> None:
    needed = {f"game.{game}" for game in GAME_MODULES}
    needed |= {f"wager.{wager.value}" for wager in BaccaratWager}
    needed |= {f"poker.{category.value}" for category in PokerCategory}
    needed |= {f"card.rank.{rank}" for rank in "A23456789TJQK"}
    needed |= {f"card.suit.{suit}" for suit in "shdc"}
    for language in LANGUAGES:
        assert not needed - set(Catalogue.load(language).messages), language


def test_the_catalogue_cannot_break_out_of_its_script_element() -> None:
    catalogue = Catalogue("en", {"x": "</script><script>alert(1)</script>"})
    assert "</script>" not in catalogue.as_json()
    assert json.loads(catalogue.as_json()) == catalogue.messages


# Keys the scripts build from a code the server sends (`tOr(`game.${table.game}`, ...)`).
DYNAMIC_PREFIXES = (
    "protection.kind.",
    "protection.period.",
    "protection.months.",
    "game.",
    "phase.",
    "status.",
    "action.",
    "question.",
    "wager.",
    "result.",
    "baccarat.",
    "poker.",
    "purpose.",
    "event.",
    "account.",
    "card.rank.",
    "card.suit.",
    "table.connect",
    "table.reconnect",
    "backstatus.",
    "dispute.status.",
    "approval.status.",  # an approval's status, and what it is about, by name (dispute-api.js)
    "approval.kind.",
    "error.",  # the server's error codes (common.js messageOf)
    "profile.",  # the profiles' titles by name
    "ledger.",  # the wallet statement's kinds of movement
    "rules.",  # the posted rules' words, named by the server (rules/posted.py)
    "roads.letter.",  # a bead's letter, by the coup's winner (roads.js)
    "strategy.",  # the basic strategy chart's letters (rules_panel.js)
    "dealer.procedure.",  # the physical shoe's procedures by name (dealer.js)
    "dealer.correct.",  # the dealer's corrections by kind (dealer.js)
    "disposal.",  # a card found face up: removed or burnt (felt.js correctionWords)
    "outcome.",  # a card exposed in error: replaced, or the round void
)


def test_every_catalogue_entry_is_used_somewhere() -> None:
    sources = [*(WEB / "templates").glob("*.html"), *(WEB / "static" / "js").glob("*.js")]
    text = "".join(
        path.read_text()
        for path in [*sources, WEB / "routes.py", WEB / "page.py", WEB / "staff_pages.py"]
    )
    unused = [
        key
        for key in Catalogue.load("en").messages
        if f'"{key}"' not in text
        and f"'{key}'" not in text
        and not key.startswith(DYNAMIC_PREFIXES)
    ]
    assert not unused
