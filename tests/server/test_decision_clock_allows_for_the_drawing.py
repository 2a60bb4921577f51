"""A decision's clock starts when the cards it asks about are on the felt (issue 26, item 2):
the page turns up the cards a command dealt a beat apart (``pace.js``), so the server's
deadline is the decision's whole time after that drawing, from the same numbers
(``service.pace``, rendered on the table page for ``pace.js``)."""

from __future__ import annotations

import re

import pytest
from server_support import OPERATOR_TOKEN, Api, Table

from croupier.games.events import CardDrawn, Purpose
from croupier.service import pace

DECISION_SECONDS = 60  # server_support.Table's


def test_the_deadline_after_the_deal_allows_for_its_drawing(api: Api) -> None:
    table = Table(api, "peru-2016", ["ann", "ben", "cleo"])
    table.bet_all()
    dealt_at = api.clock.now()
    table.ready_all()  # the deal, at once: every player said ready
    state = table.state()
    assert state["round"]["pending"] is not None, "a seat decides after the deal"
    events = api.server.casino.table(table.id).game_round.events
    cards = sum(isinstance(event, CardDrawn) and event.purpose != Purpose.BURN for event in events)
    assert cards >= 6  # three boxes of two cards and the dealer's
    drawing = pace.drawing_seconds(cards)
    assert drawing > 0
    assert drawing == pytest.approx((cards - 1) * min(0.45, 3.2 / cards))
    assert state["round"]["deadline"] == pytest.approx(dealt_at + drawing + DECISION_SECONDS)


def test_the_page_draws_by_the_servers_numbers(api: Api) -> None:
    table = Table(api, "peru-2016", ["ann"])
    page = api.client.get(f"/table/{table.id}", headers={"Accept": "text/html"}).text
    found = dict(re.findall(r'data-(deal-beat-ms|deal-longest-ms|reconnect-ms)="(\d+)"', page))
    assert found == {
        "deal-beat-ms": str(round(pace.DEAL_BEAT_SECONDS * 1000)),
        "deal-longest-ms": str(round(pace.DEAL_LONGEST_SECONDS * 1000)),
        "reconnect-ms": str(round(pace.RECONNECT_SECONDS * 1000)),
    }
    assert api.get(f"/tables/{table.id}", OPERATOR_TOKEN).status_code == 200
