"""End-to-end: a real table server (uvicorn in a thread, SQLite in a temporary folder) and
Debian's Chromium driven by Playwright, with a person's pages as they would see them.

Chromium comes from ``tools/install_packages.py`` (``tools/check.py`` runs it first);
``playwright install`` cannot download here. Without ``/usr/bin/chromium`` these tests skip.

Shoes are stacked the one way a live server allows: the seed a new shoe is shuffled from.
``StackedSeeds`` stands in for the module ``secrets`` inside ``croupier.service.rounds`` (in
the tests only) so that the test chooses the next shoe's seed; the round is then dealt by the
real server from ``SeededRandomSource(seed)`` exactly as in play.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from page_scenes import BROWSER_ARGS, CHROMIUM, StackedSeeds, served_in_thread

# What a page shows after a click waits on the server: on CI's two loaded cores (two workers,
# their browsers and the live servers) Playwright's 5 s default for an assertion was once too
# short for a new table's row. Actions already wait 15 s (``person``); a passing assertion
# takes no longer for it, a failing one 10 s instead of 5.
expect.set_options(timeout=10_000)

OPERATOR_TOKEN = "e2e-operator-token-" + "x" * 16
PASSWORD = "correct horse battery"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class LiveServer:
    url: str
    seeds: StackedSeeds
    database_url: str = ""
    """The live server's database, for a check the pages cannot make (``audit verify``)."""


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from croupier.server.app import create_app, start
    from croupier.server.context import Settings
    from croupier.service import rounds

    seeds = StackedSeeds()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rounds, "secrets", seeds)  # where a live shoe's seed is drawn
        database = tmp_path_factory.mktemp("e2e") / "croupier.sqlite"
        settings = Settings(
            database_url=f"sqlite:///{database}",
            operator_token=OPERATOR_TOKEN,
            demo_tables=False,
            betting_seconds=120.0,
            decision_seconds=120.0,
            rate_limit="100000/minute",  # every person signs up and in from 127.0.0.1
        )
        app = create_app(settings, server=start(settings))
        with served_in_thread(app, "e2e-server") as port:
            yield LiveServer(f"http://127.0.0.1:{port}", seeds, settings.database_url)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"Chromium not found at {CHROMIUM}: run `python tools/install_packages.py` "
            "(apt-get install chromium; tools/check.py does it before the tests)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        yield launched
        launched.close()


@dataclass
class Person:
    """One browser (its own context: storage, cookies) and what its pages complained of."""

    name: str
    page: Any
    base: str
    errors: list[str] = field(default_factory=list)
    keyboard_only: bool = False

    def go(self, path: str) -> None:
        self.page.goto(self.base + path)

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Whether the test's own body failed, for ``person``'s teardown to read."""
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


@pytest.fixture
def person(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Person]]:
    """Open a browser for someone: ``person("alice", phone=True, locale="es-ES")``."""
    opened: list[tuple[Any, Person]] = []

    def open_browser(name: str, *, phone: bool = False, locale: str = "en-US") -> Person:
        context = browser.new_context(
            viewport=PHONE if phone else DESKTOP, locale=locale, reduced_motion="reduce"
        )
        context.set_default_timeout(15_000)
        page = context.new_page()
        someone = Person(name, page, live_server.url)

        def on_console(message: Any) -> None:
            if message.type == "error":
                someone.errors.append(f"console error: {message.text} ({message.location})")

        page.on("console", on_console)
        page.on("pageerror", lambda error: someone.errors.append(f"page error: {error}"))
        opened.append((context, someone))
        return someone

    yield open_browser
    # Under pytest-xdist two workers can each end a test with an "operator" at once: the
    # worker's name keeps one's last sight from overwriting (or tearing) the other's.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    complaints = {someone.name: someone.errors for _context, someone in opened if someone.errors}
    failed = request.node.stash.get(CALL_FAILED, True) or bool(complaints)
    for context, someone in opened:
        # The last sight of every page, for whoever reads a failure (only then: a full-page
        # picture of every page of every test was up to 12 s of a test's teardown).
        if failed:
            name = f"last-{worker}-{someone.name}" if worker else f"last-{someone.name}"
            someone.screenshot(name)
        context.close()
    assert not complaints, f"the browser console reported errors: {complaints}"
