"""Issue 26, item 4: a back bet that no consent could ever accept is refused when it is asked,
not left waiting for the box owner. spain-1979, Art. 03 IV.a-b: a back bet rides "dentro de
los límites de la apuesta máxima" of the box (docs/rules.md#D-BJ-28; the table's maximum is
200 there), and like any bet it is the backer's own money. Each refusal is a typed 422 with
its params, changes nothing and leaves nothing for the owner to answer."""

from __future__ import annotations

import pytest
from server_support import Api, Table

from croupier.server.app import playable_profiles

pytestmark = pytest.mark.skipif(
    "spain-1979" not in playable_profiles(), reason="blackjack has not landed yet"
)

MAXIMUM = 200
"""spain-1979's box maximum (profiles/spain-1979.toml, Art. 03 V.2.b)."""


def _nothing_waits_for(api: Api, table: Table) -> None:
    """The owner has no back bet to answer and the books are sound."""
    waiting = api.get(f"/web/api/tables/{table.id}/back-bets", table.tokens["ann"]).json()[
        "back_bets"
    ]
    assert [back for back in waiting if back["awaits_my_consent"]] == []
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


def test_a_back_bet_over_the_box_maximum_is_refused_when_asked(api: Api) -> None:
    table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
    ben = api.player("ben", 100_000)
    table.bet_all(10)
    answer = api.post(
        f"/tables/{table.id}/back-bets", ben, {"seat": 1, "wager": "main", "amount": MAXIMUM + 1}
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "back_bet_over_maximum"
    assert answer.json()["params"] == {"seat": 1, "amount": MAXIMUM + 1, "maximum": MAXIMUM}
    assert api.balance(ben) == 100_000
    _nothing_waits_for(api, table)


def test_a_back_bet_over_the_backers_balance_is_refused_when_asked(api: Api) -> None:
    table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
    ben = api.player("ben", 4_000)  # 40.00
    table.bet_all(10)
    answer = api.post(
        f"/tables/{table.id}/back-bets", ben, {"seat": 1, "wager": "main", "amount": 41}
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "back_bet_over_balance"
    assert answer.json()["params"] == {"seat": 1, "amount": 41, "balance_minor": 4_000}
    assert api.balance(ben) == 4_000
    _nothing_waits_for(api, table)
    # What the balance covers, up to the whole of it, still waits for the owner's answer.
    whole = api.post(
        f"/tables/{table.id}/back-bets", ben, {"seat": 1, "wager": "main", "amount": 40}
    )
    assert whole.status_code == 200 and whole.json()["status"] == "asked"
