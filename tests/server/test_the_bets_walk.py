"""Issue 28: the bet's walk in ``docs/architecture.md`` is the code's own path.

One bet is served in process, a player's socket open on its table, and a profiler
(``threading.setprofile``) notes every file of ``src/croupier`` the request and the push
enter, in order. Each file entered is either one of the walk's files, named by the table of
the walk in the document, or one the walk does not count, listed below with why (a value it
carries, a helper every request passes through whatever it asks, a detail a stop hands a
step to). So a new file on the bet's path fails here until the document says where it
stands, and a file the document names that the bet no longer enters fails too.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from server_support import OPERATOR_TOKEN, Api, make_api

import croupier

SOURCE = Path(croupier.__file__).resolve().parent
DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"

VALUES = {
    "cards.py": "cards and their notation",
    "shoe.py": "the shoe",
    "money.py": "amounts in table units",
    "rules/base.py": "the profile's records (a wager's limits)",
    "games/events.py": "the round's events and their JSON",
    "service/live.py": "the table in memory (LiveTable)",
}
"""The values the bet carries (the document's rule: not counted)."""

EVERY_REQUEST = {
    "server/metrics.py": "the request's timing (middleware)",
    "server/forwarding.py": "a request for a table run elsewhere (middleware; none here)",
    "server/fail_safe_http.py": "R17's refusal (middleware)",
    "service/fail_safe.py": "R17's check",
    "server/context.py": "the request's context: its caller, its body and its once (R8)",
    "server/schemas.py": "a body read as its model (every body)",
    "service/accounts.py": "the caller's session (R16, every request)",
    "service/database.py": "each connection's settings",
    "audit/actor.py": "who acts, for the audit chain",
    "clock.py": "the time",
}
"""Helpers every request passes through, whatever it asks (not counted)."""

DETAILS = {
    "audit/records.py": "the audit chain's canonical rows (audit/chain.py's step)",
    "service/absence.py": "the seats stored when a seat that missed rounds bets again (rounds')",
    "games/blackjack.py": "the game's own view of its hands (games/viewing.py's step)",
    "service/table_facts.py": "the shoe's progress in the published table (publishing's)",
    "service/limits.py": "the limits in the published table (publishing's)",
    "server/protection_routes.py": "a reality check due? (issue 27; the push's, at each wake)",
}
"""Files a stop hands part of its own step to (named in the document beside that stop)."""

MIDDLEWARE_OF_THE_APP = ("BodyLimit.",)
"""``server/app.py`` assembles the app; its body-size middleware is every request's, and
anything else of it entered by the bet counts (and fails until the document names it)."""

BACKGROUND = ("_tick_forever", "watch", "_publish_audit_head_forever", "keep_forever")
"""The server's own threads (the deadline ticker, the fail safe's probes, the audit head,
the leases): they run beside the bet, not for it."""


def walk_in_the_document() -> list[str]:
    """The files of the walk's table (``src/croupier/...`` in its rows), in order."""
    text = DOCUMENT.read_text(encoding="utf-8")
    table = text.split("## The request", 1)[1].split("\n## ", 1)[0]
    files: list[str] = []
    for row in table.splitlines():
        if row.startswith("| ") and not row.startswith("| #"):
            for path in re.findall(r"`src/croupier/([\w/]+\.py)`", row):
                if path not in files:
                    files.append(path)
    return files


class Tracer:
    """The files of ``src/croupier`` entered while ``on`` (threads started after it)."""

    def __init__(self) -> None:
        self.on = False
        self.entered: list[tuple[str, str]] = []

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if not self.on or event != "call":
            return
        name = frame.f_code.co_filename
        if not name.startswith(str(SOURCE)):
            return
        if any(f"({target})" in threading.current_thread().name for target in BACKGROUND):
            return
        self.entered.append((Path(name).relative_to(SOURCE).as_posix(), frame.f_code.co_qualname))


@pytest.fixture
def traced(tmp_path: Path) -> Iterator[tuple[Api, Tracer]]:
    tracer = Tracer()
    threading.setprofile(tracer)  # the server's threads start below, with the profiler
    try:
        yield from ((api, tracer) for api in make_api(f"sqlite:///{tmp_path / 'walk.sqlite'}"))
    finally:
        threading.setprofile(None)  # type: ignore[arg-type]


def test_the_bets_walk_is_the_files_the_document_names(traced: tuple[Api, Tracer]) -> None:
    api, tracer = traced
    created = api.post(
        "/operator/tables",
        OPERATOR_TOKEN,
        {"name": "walk", "profile": "veintiuno-real", "betting_seconds": 60},
    )
    table = created.json()["table"]
    ana, bea = api.player("anita", 100_000), api.player("beatriz", 100_000)
    for seat, token in ((2, ana), (3, bea)):
        assert api.post(f"/tables/{table}/seats/{seat}", token).status_code == 200
    # Bea's bet first: whatever the first bet of a process warms up is not the walk.
    bet = {"seat": 3, "wager": "main", "amount": 10}
    assert api.post(f"/tables/{table}/bets", bea, bet).status_code == 200
    with api.client.websocket_connect(f"/tables/{table}/ws?token={ana}") as socket:
        assert socket.receive_json()["type"] == "state"
        tracer.on = True
        answer = api.post(f"/tables/{table}/bets", ana, {"seat": 2, "wager": "main", "amount": 10})
        pushed = socket.receive_json()
        tracer.on = False
    assert answer.status_code == 200 and answer.json()["held"] == 1_000
    assert pushed["type"] == "state" and pushed["round"]["stakes"]["2"] == 1_000

    not_counted = VALUES.keys() | EVERY_REQUEST.keys() | DETAILS.keys()
    walk: list[str] = []
    for path, function in tracer.entered:
        if path == "server/app.py" and function.startswith(MIDDLEWARE_OF_THE_APP):
            continue
        if path not in not_counted and path not in walk:
            walk.append(path)
    named = walk_in_the_document()
    assert sorted(walk) == sorted(named), "the walk's table in docs/architecture.md is stale"
    count = re.search(r"crosses \*\*(\d+) files\*\*", DOCUMENT.read_text(encoding="utf-8"))
    assert count is not None and int(count.group(1)) == len(walk)
