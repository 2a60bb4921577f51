"""R14 (game recall) for the inspector of issue 14: the staff member who decides disputes and
confirms payout corrections recalls any ended round whole, as the operator does, without
having played it. Before, only the operator, the round's players and the table's dealer could
open ``GET /rounds/{id}``: an inspector got 403 and saw a round only through a dispute."""

from __future__ import annotations

from server_support import OPERATOR_TOKEN, Api, Table


def _inspector(api: Api, name: str) -> str:
    token = api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "inspector"})
    assert granted.status_code == 201, granted.text
    return token


def test_an_inspector_recalls_a_round_they_did_not_play_as_the_operator_does(api: Api) -> None:
    table = Table(api, "peru-2016", ["ann", "ben"])
    round_id = table.bet_all()
    table.ready_all()
    table.play_out(round_id)
    inspector = _inspector(api, "ines")
    stranger = api.player("stan")

    answer = api.get(f"/rounds/{round_id}", inspector)
    assert answer.status_code == 200, answer.text
    operators = table.recall(round_id)
    for key in ("events", "steps", "inputs"):  # every card, every step, as the operator's
        assert answer.json()[key] == operators[key], key
    assert answer.json()["may_propose_correction"] is False  # the dealer's and operator's
    hole = [e for e in answer.json()["events"] if e.get("purpose") == "hole"]
    assert hole and all(e["card"] != "??" for e in hole)
    refused = api.get(f"/rounds/{round_id}", stranger)
    assert refused.status_code == 403, refused.text
