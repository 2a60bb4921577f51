"""Staff never play where they deal, nor anywhere on the casino they work for (issue 25,
item 2; docs/rules.md#D-GEN-17, after Mississippi Gaming Regulations, Title 13 Part 3, Rule
1.8: no key employee "shall play or place a wager at any gambling game ... owned ... by that
gaming licensee").

The attack this answers: the dealer assigned to a physical-shoe table sat at seat 3, bet,
entered the cards for their own box and was paid. Through the API, on SQLite and PostgreSQL;
each refusal leaves every wallet as it was.
"""

from __future__ import annotations

from server_support import OPERATOR_TOKEN, Api, Table

from croupier.service.staff_models import StaffRoleRecord


def _grant(api: Api, name: str, role: str) -> Api:
    answer = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": role})
    assert answer.status_code == 201, answer.text
    return api


def _assign(api: Api, table: Table, name: str) -> object:
    return api.post(f"/operator/tables/{table.id}/dealers", OPERATOR_TOKEN, {"username": name})


def test_d_gen_17_the_tables_dealer_takes_no_seat_and_no_back_bet(api: Api) -> None:
    table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
    dealer = api.player("dora", 100_000)
    _grant(api, "dora", "dealer")
    assert _assign(api, table, "dora").status_code == 200  # type: ignore[attr-defined]
    sat = api.post(f"/tables/{table.id}/seats/3", dealer)
    assert sat.status_code == 403, sat.text
    assert sat.json()["code"] == "staff_may_not_play"
    table.bet_all(10)
    backed = api.post(
        f"/tables/{table.id}/back-bets", dealer, {"seat": 1, "wager": "main", "amount": 5}
    )
    assert backed.status_code == 403 and backed.json()["code"] == "staff_may_not_play"
    assert api.balance(dealer) == 100_000
    assert table.state()["table"]["seats"] == {"1": "ann"}
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


def test_d_gen_17_an_inspector_plays_at_no_table_of_the_casino(api: Api) -> None:
    table = Table(api, "peru-2016", [], credit_minor=100_000)
    inspector = api.player("ines", 100_000)
    _grant(api, "ines", "inspector")
    sat = api.post(f"/tables/{table.id}/seats/1", inspector)
    assert sat.status_code == 403 and sat.json()["code"] == "staff_may_not_play"
    assert api.balance(inspector) == 100_000


def test_d_gen_17_a_seated_player_takes_no_staff_role_and_deals_nowhere_they_play(
    api: Api,
) -> None:
    table = Table(api, "peru-2016", ["ann"], credit_minor=100_000)
    table.bet_all()
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": "ann", "role": "dealer"})
    assert granted.status_code == 409, granted.text
    assert granted.json()["code"] == "staff_role_while_playing"
    assert granted.json()["params"] == {"username": "ann", "table": table.id}
    # A role granted before this rule (a database of an earlier version) while ann was seated:
    # she is still never assigned as that table's dealer, and bets no more.
    me = api.get("/me", table.tokens["ann"]).json()
    api.server.uow.run(
        lambda s: s.add(
            StaffRoleRecord(user_id=me["user"], role="dealer", granted_by=1, granted_at=0.0)
        )
    )
    assigned = _assign(api, table, "ann")
    assert assigned.status_code == 409, assigned.text  # type: ignore[attr-defined]
    assert assigned.json()["code"] == "dealer_plays_at_table"  # type: ignore[attr-defined]
    assert api.get("/operator/staff", OPERATOR_TOKEN).json()["staff"][0]["tables"] == []
    before = api.balance(table.tokens["ann"])
    bet = api.post(
        f"/tables/{table.id}/bets",
        table.tokens["ann"],
        {"seat": 1, "wager": table.wager, "amount": table.stake},
    )
    assert bet.status_code == 403 and bet.json()["code"] == "staff_may_not_play"
    assert api.balance(table.tokens["ann"]) == before
