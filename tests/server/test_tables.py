"""Full rounds at a live table over HTTP and WebSocket, several players, every landed game,
on SQLite and PostgreSQL: the money each player ends with is exactly what the engine's
settlement says, and the books balance."""

from __future__ import annotations

from typing import Any

import pytest
from server_support import OPERATOR_TOKEN, Api, Table

from croupier.server.app import playable_profiles

PROFILES = playable_profiles()
pytestmark = pytest.mark.skipif(not PROFILES, reason="no game engine has landed yet")


def bold(pending: dict[str, Any]) -> str:
    """The first legal action: hits, doubles, splits and calls get exercised, not only stands."""
    legal: list[str] = pending["legal"]
    return legal[0]


@pytest.mark.parametrize("profile", PROFILES)
def test_three_players_play_full_rounds_and_every_unit_is_accounted_for(
    api: Api, profile: str
) -> None:
    table = Table(api, profile, ["ann", "ben", "cat"])
    with api.client.websocket_connect(
        f"/tables/{table.id}/ws?token={table.tokens['ann']}"
    ) as socket:
        first = socket.receive_json()
        assert first["type"] == "state" and first["table"]["id"] == table.id
        rounds = [table.play_round(bold), table.play_round(), table.play_round(bold)]
        last = socket.receive_json()
        assert set(last["round"]["mine"]) <= {str(table.seat_of["ann"])}
    for round_id in rounds:
        document = table.recall(round_id)
        assert document["status"] == "complete"
        assert document["rules_version"].startswith(table.profile.name + "@")
        assert {seat["seat"] for seat in document["seats"]} == {1, 2, 3}
    assert table.balances() == table.expected_balances(rounds)
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0
    assert audit["accounts"][f"escrow:table:{table.id}"] == 0


@pytest.mark.parametrize("profile", PROFILES)
def test_a_reconnecting_client_gets_the_current_state(api: Api, profile: str) -> None:
    table = Table(api, profile, ["ann", "ben"])
    round_id = table.bet_all()
    with api.client.websocket_connect(
        f"/tables/{table.id}/ws?token={table.tokens['ben']}"
    ) as socket:
        state = socket.receive_json()
    assert state["round"]["id"] == round_id and state["round"]["status"] == "betting"
    assert state["round"]["stakes"] == {"1": table.stake * 100, "2": table.stake * 100}


def test_a_websocket_without_a_valid_token_is_refused(api: Api) -> None:
    table = Table(api, PROFILES[0], ["ann"])
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect),
        api.client.websocket_connect(f"/tables/{table.id}/ws?token=forged") as socket,
    ):
        socket.receive_json()


def test_a_player_sees_their_own_history_and_not_another_players(api: Api) -> None:
    table = Table(api, PROFILES[0], ["ann", "ben"])
    round_id = table.play_round()
    outsider = api.player("zed")
    mine = api.get("/me/rounds", table.tokens["ann"]).json()["rounds"]
    assert [r["round"] for r in mine if r["status"] != "in progress"] == [round_id]
    assert api.get(f"/rounds/{round_id}", outsider).status_code == 403
    assert api.get(f"/rounds/{round_id}", OPERATOR_TOKEN).status_code == 200


def test_betting_closes_at_its_deadline_and_decisions_default_at_theirs(api: Api) -> None:
    """Deadlines: the betting window closes by itself; a seat that does not answer in time
    gets the regulation's default (Decision.default: stand, fold, no insurance)."""
    table = Table(api, PROFILES[0], ["ann", "ben"])
    round_id = table.bet_all()
    api.clock.advance(61)
    api.server.casino.tick(wait=True)
    for _ in range(50):
        state = table.state()
        if state["round"]["id"] != round_id:
            break
        assert state["round"]["status"] == "playing"
        api.clock.advance(61)
        api.server.casino.tick(wait=True)
    assert table.recall(round_id)["status"] == "complete"
    timeouts = [step for step in table.recall(round_id)["inputs"] if step.get("timeout")]
    assert timeouts or table.recall(round_id)["inputs"][-1]["op"] == "deal"


def test_the_pushed_state_is_exactly_what_the_table_endpoint_shows_that_player(api: Api) -> None:
    # The push is encoded from shared parts once per change (Publisher.state_message); it must say
    # exactly what the snapshot says to the same player: nothing more (R6), nothing less.
    table = Table(api, PROFILES[0], ["ann", "ben"])
    table.bet_all()
    for name in ("ann", "ben"):
        with api.client.websocket_connect(
            f"/tables/{table.id}/ws?token={table.tokens[name]}"
        ) as socket:
            pushed = socket.receive_json()
        shown = api.get(f"/tables/{table.id}", table.tokens[name]).json()
        assert pushed == {"type": "state", **shown}
        assert set(pushed["round"]["mine"]) == {str(table.seat_of[name])}
