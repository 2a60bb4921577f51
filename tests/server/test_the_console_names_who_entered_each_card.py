"""Issue 26, item 5: at a physical shoe the dealer's console shows who entered each card of the
round under way (issue 14, item 2: "every staff action is recorded with who and when").
``GET /dealer/tables/{id}`` carries ``cards_entered`` as the recall does: the card, where it
went, its place in the shoe, the dealer and when; two dealers at one table each named for
their own cards; the shoe's burn, entered before the round, is not the round's."""

from __future__ import annotations

from typing import Any

from physical_support import PhysicalTable
from server_support import OPERATOR_TOKEN


def test_the_console_lists_each_card_of_the_round_with_the_dealer_who_entered_it(
    sqlite_api: Any,
) -> None:
    api, _url = sqlite_api
    table = PhysicalTable(api, "peru-2016", ["ann"])
    relief = api.player("dario")
    for path, body in (
        ("/operator/staff", {"username": "dario", "role": "dealer"}),
        (f"/operator/tables/{table.id}/dealers", {"username": "dario"}),
    ):
        assert api.post(path, OPERATOR_TOKEN, body).status_code in (200, 201)
    table.make_shoe(["2c"])  # dora burns
    assert table.console()["cards_entered"] == []  # the round under way has no card yet
    table.bet("ann", 10)
    table.ready()
    table.deal_some(["Td", "9h"])  # dora: box 1, the up card
    table.dealer = relief  # dario takes over the table
    table.deal_some(["9s"])
    entered = table.console()["cards_entered"]
    assert [(c["card"], c["went"], c["position"], c["by"]) for c in entered] == [
        ("Td", {"purpose": "player", "seat": 1, "hand": 0}, 1, "dora"),
        ("9h", {"purpose": "dealer", "seat": None, "hand": None}, 2, "dora"),
        ("9s", {"purpose": "player", "seat": 1, "hand": 0}, 3, "dario"),
    ]
    assert all(isinstance(c["at"], float) for c in entered)
