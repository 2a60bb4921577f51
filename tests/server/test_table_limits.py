"""The operator sets a live table's limits (docs/rules.md §6: "Table limits are the operator's
(profile values)"); they take effect when the next round opens, never mid-round."""

from __future__ import annotations

from typing import Any

import pytest
from server_support import OPERATOR_TOKEN, Api, Table


def _set(api: Api, table: Table, body: dict[str, Any], key: str | None = "auto") -> Any:
    return api.post(f"/operator/tables/{table.id}/limits", OPERATOR_TOKEN, body, key=key)


def _bet(api: Api, table: Table, name: str, amount: int, wager: str = "main") -> Any:
    return api.post(
        f"/tables/{table.id}/bets",
        table.tokens[name],
        {"seat": table.seat_of[name], "wager": wager, "amount": amount},
    )


def _next_round(table: Table) -> int:
    """Play the round under way out at the minimum; the id of the round that opens next."""
    table.play_round()
    round_id: int = table.state()["round"]["id"]
    return round_id


def test_limits_set_by_the_operator_bind_the_next_round(api: Api) -> None:
    """docs/rules.md §6 "Table limits are the operator's": a bet under the new minimum or over the
    new maximum is refused with 422 and moves no money; one within them is taken."""
    table = Table(api, "spain-1979", ["ana"])
    answer = _set(api, table, {"wager": "main", "minimum": 5, "maximum": 50})
    assert answer.status_code == 200, answer.text
    assert answer.json()["limits"]["main"] == {"minimum": 5, "maximum": 50}
    assert table.state()["table"]["next_limits"]["main"] == {"minimum": 5, "maximum": 50}
    round_id = _next_round(table)
    state = table.state()
    assert state["table"]["limits"]["main"] == {"minimum": 5, "maximum": 50}
    assert state["table"]["next_limits"] is None
    listed = api.get("/tables", OPERATOR_TOKEN).json()["tables"]
    assert [t["limits"]["main"] for t in listed if t["id"] == table.id] == [
        {"minimum": 5, "maximum": 50}
    ]
    facts = api.get("/web/api/profiles", OPERATOR_TOKEN).json()["tables"][str(table.id)]
    assert next(w for w in facts["wagers"] if w["name"] == "main")["minimum"] == 5
    shipped = api.get("/web/api/profiles", OPERATOR_TOKEN).json()["profiles"]
    assert [p["wagers"][0]["minimum"] for p in shipped if p["name"] == "spain-1979"] == [1]
    before = api.balance(table.tokens["ana"])
    for amount in (4, 51):
        refused = _bet(api, table, "ana", amount)
        assert refused.status_code == 422, refused.text
        assert str(amount) in refused.json()["detail"]
    assert api.balance(table.tokens["ana"]) == before
    assert table.state()["round"]["stakes"] == {}
    assert _bet(api, table, "ana", 50).status_code == 200
    assert api.balance(table.tokens["ana"]) == before - 50 * 100
    assert table.state()["round"]["id"] == round_id
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0


def test_a_round_already_betting_keeps_the_limits_it_opened_with(api: Api) -> None:
    """Decision: new limits apply from the next round; a round open for bets keeps its own
    (a bet placed under them stays valid), and its recall names the rules it was dealt under."""
    table = Table(api, "spain-1979", ["ana"])
    first = table.state()["round"]["id"]
    assert _bet(api, table, "ana", 1).status_code == 200
    assert _set(api, table, {"wager": "main", "minimum": 10, "maximum": 20}).status_code == 200
    assert _bet(api, table, "ana", 100).status_code == 200  # the old maximum (200) still holds
    assert table.state()["table"]["limits"]["main"] == {"minimum": 1, "maximum": 200}
    table.ready_all()
    table.play_out(first)
    second = table.state()["round"]["id"]
    assert _bet(api, table, "ana", 100).status_code == 422
    assert _bet(api, table, "ana", 10).status_code == 200
    table.ready_all()
    table.play_out(second)
    old, new = table.recall(first)["rules_version"], table.recall(second)["rules_version"]
    assert old.startswith("spain-1979@") and new.startswith("spain-1979@") and old != new
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0


@pytest.mark.parametrize(
    ("profile", "body", "named"),
    [
        ("spain-1979", {"wager": "main", "minimum": 0, "maximum": 10}, "0"),
        ("spain-1979", {"wager": "main", "minimum": 20, "maximum": 10}, "20"),
        ("spain-1979", {"wager": "main", "minimum": 1.5, "maximum": 10}, "1.5"),
        ("spain-1979", {"wager": "main", "minimum": "5", "maximum": 10}, "'5'"),
        ("spain-1979", {"wager": "main", "minimum": True, "maximum": 10}, "True"),
        ("spain-1979", {"wager": "banker", "minimum": 1, "maximum": 10}, "banker"),
        ("spain-1979", {"wager": 7, "minimum": 1, "maximum": 10}, "7"),
        ("spain-1979", {"wager": "main", "maximum": 10}, "minimum"),
        ("casino-holdem-standard", {"wager": "progressive", "minimum": 2, "maximum": 2}, "2"),
        ("casino-holdem-standard", {"wager": "ante", "minimum": 5, "maximum": 4}, "5"),
    ],
)
def test_impossible_limits_are_refused_and_change_nothing(
    api: Api, profile: str, body: dict[str, Any], named: str
) -> None:
    """Bad input gets a 422 naming the bad value (STYLE), and the table keeps its limits."""
    table = Table(api, profile, ["ana"])
    before = table.state()["table"]
    answer = _set(api, table, body)
    assert answer.status_code == 422, answer.text
    assert named in answer.json()["detail"]
    assert table.state()["table"] == before
    _next_round_unless_waiting(table)
    assert table.state()["table"]["limits"] == before["limits"]


def _next_round_unless_waiting(table: Table) -> None:
    if table.profile.game == "blackjack":
        _next_round(table)


def test_the_other_wagers_of_each_game_take_limits(api: Api) -> None:
    """Every wager name of the bet route: blackjack's 21+3, a baccarat wager, the Ante."""
    for profile, wager in (
        ("peru-2016", "21+3"),
        ("dragon-six-peru-2016", "banker"),
        ("casino-holdem-standard", "ante"),
        ("casino-holdem-standard", "progressive"),
    ):
        table = Table(api, profile, [])
        stake = 1 if wager == "progressive" else 3
        answer = _set(api, table, {"wager": wager, "minimum": stake, "maximum": stake})
        assert answer.status_code == 200, (profile, answer.text)
        assert answer.json()["limits"][wager] == {"minimum": stake, "maximum": stake}


def test_a_player_may_not_set_limits(api: Api) -> None:
    table = Table(api, "spain-1979", ["ana"])
    answer = api.post(
        f"/operator/tables/{table.id}/limits",
        table.tokens["ana"],
        {"wager": "main", "minimum": 5, "maximum": 50},
    )
    assert answer.status_code == 403, answer.text
    assert table.state()["table"]["next_limits"] is None


def test_a_repeat_with_the_same_key_returns_the_stored_answer(api: Api) -> None:
    """R8: a repeat returns the first answer; the same key with another body is refused."""
    table = Table(api, "spain-1979", ["ana"])
    key = api.key()
    first = _set(api, table, {"wager": "main", "minimum": 5, "maximum": 50}, key=key)
    again = _set(api, table, {"wager": "main", "minimum": 5, "maximum": 50}, key=key)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json()
    other = _set(api, table, {"wager": "main", "minimum": 6, "maximum": 50}, key=key)
    assert other.status_code == 422, other.text
    assert table.state()["table"]["next_limits"]["main"] == {"minimum": 5, "maximum": 50}
    assert _set(
        api, table, {"wager": "main", "minimum": 5, "maximum": 50}, key=None
    ).status_code in (
        400,
        422,
    )


def test_limits_survive_a_restart_and_the_round_under_way_keeps_its_own(
    database_url: str,
) -> None:
    """The limits are stored on the table. A restart while the round they were set in is
    still betting rebuilds that round under the limits it opened with; the next one deals
    under the new."""
    from server_support import make_api

    made = make_api(database_url)
    api = next(made)
    table = Table(api, "spain-1979", ["ana"])
    assert _bet(api, table, "ana", 100).status_code == 200
    assert _set(api, table, {"wager": "main", "minimum": 5, "maximum": 20}).status_code == 200
    assert _set(api, table, {"wager": "main", "minimum": 5, "maximum": 50}).status_code == 200
    made.close()
    made = make_api(database_url)
    table.api = api = next(made)
    state = table.state()
    assert state["table"]["limits"]["main"] == {"minimum": 1, "maximum": 200}
    assert state["table"]["next_limits"]["main"] == {"minimum": 5, "maximum": 50}
    assert state["round"]["stakes"] == {"1": 100 * 100}  # the bet was not voided
    first = state["round"]["id"]
    table.ready_all()
    table.play_out(first)
    assert table.state()["table"]["limits"]["main"] == {"minimum": 5, "maximum": 50}
    assert _bet(api, table, "ana", 51).status_code == 422
    assert _bet(api, table, "ana", 50).status_code == 200
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0
    made.close()
