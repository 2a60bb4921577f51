"""An attacker at a live table: another player's token, acting out of turn, a bet over the
balance or the limit, a negative or fractional amount, a replayed idempotency key (and the
same key with another body), malformed bodies. Each gets a clear 4xx naming the problem and
changes nothing; the ledger still sums to zero."""

from __future__ import annotations

from typing import Any

import pytest
from server_support import OPERATOR_TOKEN, Api, Table

from croupier.server.app import playable_profiles

PROFILES = playable_profiles()
pytestmark = pytest.mark.skipif(not PROFILES, reason="no game engine has landed yet")


def unchanged(api: Api, table: Table, before: dict[str, Any]) -> None:
    assert table.balances() == before["balances"]
    assert table.state()["round"] == before["round"]
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


def snapshot(table: Table) -> dict[str, Any]:
    return {"balances": table.balances(), "round": table.state()["round"]}


def refused(answer: Any, status: int, error: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] == error and body["detail"], body


def test_betting_attacks_are_refused_and_change_nothing(api: Api) -> None:
    table = Table(api, PROFILES[0], ["ann", "ben"], credit_minor=5_000)
    ann, ben = table.tokens["ann"], table.tokens["ben"]
    path = f"/tables/{table.id}/bets"
    before = snapshot(table)
    wager = table.wager
    refused(api.post(path, ben, {"seat": 1, "wager": wager, "amount": 5}), 403, "Forbidden")
    refused(
        api.post(path, ann, {"seat": 1, "wager": wager, "amount": 51}), 402, "InsufficientFunds"
    )
    refused(api.post(path, ann, {"seat": 1, "wager": wager, "amount": -5}), 422, "AmountError")
    refused(api.post(path, ann, {"seat": 1, "wager": wager, "amount": 2.5}), 422, "AmountError")
    refused(api.post(path, ann, {"seat": 1, "wager": wager, "amount": 0.01}), 422, "AmountError")
    refused(api.post(path, ann, {"seat": 1, "wager": wager, "amount": "5"}), 422, "AmountError")
    refused(api.post(path, ann, {"seat": 1, "wager": wager, "amount": 10**40}), 422, "BetError")
    refused(api.post(path, ann, {"seat": "1", "wager": wager, "amount": 5}), 422, "RequestError")
    refused(api.post(path, ann, {"wager": wager, "amount": 5}), 422, "RequestError")
    refused(api.post(path, ann, [1, 2]), 422, "RequestError")
    answer = api.client.post(path, content=b"{not json", headers=api.headers(ann, api.key()))
    refused(answer, 422, "RequestError")
    refused(
        api.post(path, ann, {"seat": 1, "wager": wager, "amount": 5}, key=None),
        400,
        "IdempotencyError",
    )
    unchanged(api, table, before)


def test_a_bet_over_the_table_limit_is_refused(api: Api) -> None:
    table = Table(api, PROFILES[0], ["ann"], credit_minor=10**12)
    before = snapshot(table)
    answer = api.post(
        f"/tables/{table.id}/bets",
        table.tokens["ann"],
        {"seat": 1, "wager": table.wager, "amount": 10**9},
    )
    assert answer.status_code == 422 and answer.json()["error"] == "BetError", answer.text
    unchanged(api, table, before)


def test_a_replayed_bet_is_placed_once_and_a_reused_key_is_refused(api: Api) -> None:
    table = Table(api, PROFILES[0], ["ann", "ben"], credit_minor=5_000)
    ann = table.tokens["ann"]
    body = {"seat": 1, "wager": table.wager, "amount": table.stake}
    first = api.post(f"/tables/{table.id}/bets", ann, body, key="bet-key-000001")
    assert first.status_code == 200
    again = api.post(f"/tables/{table.id}/bets", ann, body, key="bet-key-000001")
    assert again.json() == first.json()
    assert table.balances()["ann"] == 5_000 - table.stake * 100
    other = api.post(
        f"/tables/{table.id}/bets", ann, {**body, "amount": table.stake + 1}, key="bet-key-000001"
    )
    refused(other, 422, "IdempotencyKeyReused")
    assert table.balances()["ann"] == 5_000 - table.stake * 100
    assert api.audit()["problems"] == []


def test_acting_out_of_turn_or_for_another_seat_is_refused(api: Api) -> None:
    table = Table(api, PROFILES[0], ["ann", "ben"])
    round_id = table.bet_all()
    # Before the deal nobody decides anything.
    refused(
        api.post(
            f"/tables/{table.id}/actions", table.tokens["ann"], {"seat": 1, "action": "stand"}
        ),
        409,
        "IllegalActionError",
    )
    table.ready_all()
    # After the deal no bet is taken.
    refused(
        api.post(
            f"/tables/{table.id}/bets",
            table.tokens["ann"],
            {"seat": 1, "wager": table.wager, "amount": table.stake},
        ),
        409,
        "IllegalActionError",
    )
    for _ in range(100):
        state = table.state()
        if state["round"]["id"] != round_id:
            break
        before = snapshot(table)
        pending = state["round"]["pending"]
        seat = pending["seat"]
        owner, other = table.owner[seat], table.owner[3 - seat]
        # Another player's token on this seat, and the other seat out of turn.
        refused(
            api.post(
                f"/tables/{table.id}/actions",
                table.tokens[other],
                {"seat": seat, "action": pending["default"]},
            ),
            403,
            "Forbidden",
        )
        refused(
            api.post(
                f"/tables/{table.id}/actions",
                table.tokens[other],
                {"seat": 3 - seat, "action": pending["default"]},
            ),
            409,
            "IllegalActionError",
        )
        refused(
            api.post(
                f"/tables/{table.id}/actions",
                table.tokens[owner],
                {"seat": seat, "action": "teleport"},
            ),
            409,
            "IllegalActionError",
        )
        refused(
            api.post(
                f"/tables/{table.id}/actions", table.tokens[owner], {"seat": seat, "action": 5}
            ),
            422,
            "RequestError",
        )
        unchanged(api, table, before)
        answer = api.post(
            f"/tables/{table.id}/actions",
            table.tokens[owner],
            {"seat": seat, "action": pending["default"]},
        )
        assert answer.status_code == 200
    assert table.recall(round_id)["status"] == "complete"
    assert api.audit()["problems"] == []


def test_players_cannot_reach_operator_routes(api: Api) -> None:
    table = Table(api, PROFILES[0], ["ann"])
    ann = table.tokens["ann"]
    refused(api.post("/operator/wallets/ann/credit", ann, {"amount": 10**6}), 403, "Forbidden")
    refused(
        api.post("/operator/tables", ann, {"name": "mine", "profile": PROFILES[0]}),
        403,
        "Forbidden",
    )
    refused(api.post(f"/operator/tables/{table.id}/close", ann, {}), 403, "Forbidden")
    assert api.get("/operator/audit", ann).status_code == 403
    assert api.post(f"/operator/tables/{table.id}/close", OPERATOR_TOKEN, {}).status_code == 200
    refused(
        api.post(
            f"/tables/{table.id}/bets",
            ann,
            {"seat": 1, "wager": table.wager, "amount": table.stake},
        ),
        409,
        "Conflict",
    )
