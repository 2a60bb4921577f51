"""A dealer's card entry tried as an attacker would (issue 14, item 2; the guide's standard:
bad input gets a typed 4xx naming it and changes nothing): empty, padded, fullwidth and
control characters, a second card glued on, ranks and suits out of range, numbers, lists
and objects where a card is written, and an over-long string (past the body limit: 413).
Extra fields are ignored, as by every body of the API (``server.schemas.Body``)."""

from __future__ import annotations

from typing import Any

from physical_support import PhysicalTable, audited

HOSTILE: list[Any] = [
    "",
    " ",
    "Td ",
    " Td",
    "TdTd",
    "Td,Ts",
    "ＴＤ",  # fullwidth
    "T\u0000d",
    "T\u200bd",  # zero-width space
    "1d",
    "11d",
    "0d",
    "-2d",
    "Tz",
    "ZZ",
    "d",
    "T" * 9,
    10,
    10.5,
    True,
    None,
    ["Td"],
    {"rank": "T", "suit": "d"},
]


def test_hostile_cards_are_refused_typed_and_change_nothing(sqlite_api: Any) -> None:
    api, url = sqlite_api
    table = PhysicalTable(api, "peru-2016", ["hortensia"])
    table.make_shoe(["Td"])
    table.bet("hortensia", 10)
    table.ready()
    before = table.console()
    assert before["next_card"]["purpose"] == "player"
    for card in HOSTILE:
        answer = api.post(f"/dealer/tables/{table.id}/cards", table.dealer, {"card": card})
        assert answer.status_code == 422, (card, answer.status_code, answer.text[:200])
        assert answer.json()["code"], (card, answer.text[:200])
        assert table.console() == before, card
    huge = api.post(f"/dealer/tables/{table.id}/cards", table.dealer, {"card": "T" * 100_000})
    assert huge.status_code == 413 and huge.json()["code"] == "payload_too_large"
    assert table.console() == before
    audited(api, url)
