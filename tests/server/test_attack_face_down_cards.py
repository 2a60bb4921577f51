"""R6 from the newer doors: the table's dealer's console and the recall of a voided round.

At a random shoe's table the server deals, so the dealer assigned to it has no more right to a
face-down card than a spectator (a dealer who could read the hole card could pass it to a
player); at a physical shoe the dealer handled every card and sees them all. A round voided
before its hole card was turned leaves that card face down for good: a player's recall must
not turn it over while the shoe it came from is still being dealt (GLI-19 4.4.4(a))."""

from __future__ import annotations

import json
from typing import Any

from physical_support import approved
from server_support import OPERATOR_TOKEN, Api, Table

from croupier.games.base import GameRound


def _dealer_of(api: Api, name: str, *tables: Table) -> str:
    token = api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "dealer"})
    assert granted.status_code == 201, granted.text
    for table in tables:
        path = f"/operator/tables/{table.id}/dealers"
        assigned = api.post(path, OPERATOR_TOKEN, {"username": name})
        assert assigned.status_code == 200, assigned.text
    return token


def _live_round(api: Api, table: Table) -> GameRound:
    game_round = api.server.casino.tables[table.id].round
    assert game_round is not None
    return game_round


def _dealt(table: Table) -> int:
    round_id = table.bet_all()
    table.ready_all()
    assert table.state()["round"]["id"] == round_id, "the round ended at the deal"
    return round_id


def test_a_random_shoes_dealer_console_shows_the_round_as_a_spectator_sees_it(api: Api) -> None:
    """peru-2016's hole card, and Casino Hold'em's dealer cards and every player's two cards
    before the call, stay ``??`` on ``GET /dealer/tables/{id}`` (they were shown whole)."""
    blackjack = Table(api, "peru-2016", ["ann", "ben"])
    holdem = Table(api, "casino-holdem-standard", ["cid", "dot"])
    dana = _dealer_of(api, "dana", blackjack, holdem)
    for table in (blackjack, holdem):
        _dealt(table)
        answer = api.get(f"/dealer/tables/{table.id}", dana)
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()["view"]
        game_round = _live_round(api, table)
        assert view == json.loads(json.dumps(game_round.view(None)))
        assert view != json.loads(json.dumps(game_round.view(None, everything=True)))
        assert "??" in view["dealer"]["cards"]
    holdem_view = api.get(f"/dealer/tables/{holdem.id}", dana).json()["view"]
    assert all(
        hand["cards"] == ["??", "??"] for seat in holdem_view["seats"] for hand in seat["hands"]
    )


def _hole_events(document: dict[str, Any]) -> list[str]:
    found = [e["card"] for e in document["events"] if e.get("purpose") == "hole"]
    for step in document["steps"] or []:
        found += [e["card"] for e in step["events"] if e.get("purpose") == "hole"]
    return found


def test_a_voided_rounds_recall_keeps_its_unturned_hole_card_face_down(api: Api) -> None:
    """Voided in the players' turns: the players, the table's dealer and ``/me/rounds`` read
    the hole card as ``??`` (it was the card itself); the operator still reads it."""
    table = Table(api, "peru-2016", ["ann", "ben"])
    dana = _dealer_of(api, "dana", table)
    round_id = _dealt(table)
    hole = str(_live_round(api, table).dealer[1])  # type: ignore[attr-defined]
    voided = api.post(f"/rounds/{round_id}/void", dana, {"reason": "the shoe fell"})
    approved(api, voided, "ines")  # the cards were seen: an inspector approves (issue 25)
    readers = {"ann": table.tokens["ann"], "ben": table.tokens["ben"], "dana": dana}
    for name, token in readers.items():
        answer = api.get(f"/rounds/{round_id}", token)
        assert answer.status_code == 200, (name, answer.text)
        shown = _hole_events(answer.json())
        assert shown and set(shown) == {"??"}, (name, shown)
    mine = api.get(f"/me/rounds?table_id={table.id}", table.tokens["ann"]).json()
    listed = next(item for item in mine["rounds"] if item["round"] == round_id)
    assert [e["card"] for e in listed["events"] if e.get("purpose") == "hole"] == ["??"]
    assert set(_hole_events(table.recall(round_id))) == {hole}  # the operator's recall


def test_a_settled_rounds_recall_still_shows_its_turned_hole_card(api: Api) -> None:
    """The hole card the dealer turned is the players' to read in the recall, as before."""
    table = Table(api, "peru-2016", ["ann"])
    round_id = table.play_round()
    events = table.recall(round_id, "ann")["events"]
    turned = [e["card"] for e in events if e["kind"] == "HoleCardRevealed"]
    assert turned and [e["card"] for e in events if e.get("purpose") == "hole"] == turned
