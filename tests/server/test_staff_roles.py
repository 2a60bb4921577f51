"""Roles with separated duties (issue 14, item 1): player, dealer, inspector, operator.

Spain 1979, III ("Personal del Black Jack"): "El inspector o jefe de mesa. Le corresponde
controlar el juego y resolver los problemas que durante el transcurso del mismo se le
presenten ... El «croupier». Es el que dirige la partida, teniendo como misión la mezcla de
las cartas, su distribución a los jugadores, el pago ... y retirar las posturas perdedoras."
The operator grants and removes the roles; a dealer acts only at the tables assigned to
them; an inspector moves no money except through a dispute decision; every staff action is
recorded with who and when. Through the API, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest
from server_support import OPERATOR_TOKEN, Api

from croupier.service import staff
from croupier.service.accounts import Principal
from croupier.service.errors import Forbidden


def _open_table(api: Api, name: str) -> int:
    created = api.post("/operator/tables", OPERATOR_TOKEN, {"name": name, "profile": "spain-1979"})
    assert created.status_code == 201, created.text
    table: int = created.json()["table"]
    return table


def _principal(api: Api, token: str) -> Principal:
    me = api.get("/me", token).json()
    return Principal(me["user"], me["username"], me["role"])


def test_spain_1979_iii_the_operator_grants_and_removes_the_staff_roles(api: Api) -> None:
    ines = api.player("ines")
    api.player("carlos")
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": "ines", "role": "inspector"})
    assert granted.status_code == 201, granted.text
    assert granted.json() == {"username": "ines", "role": "inspector", "granted": True}
    assert (
        api.post(
            "/operator/staff", OPERATOR_TOKEN, {"username": "carlos", "role": "dealer"}
        ).status_code
        == 201
    )
    assert api.get("/me/roles", ines).json() == {"username": "ines", "roles": ["inspector"]}
    listed = api.get("/operator/staff", OPERATOR_TOKEN).json()["staff"]
    assert listed == [
        {"username": "carlos", "roles": ["dealer"], "tables": []},
        {"username": "ines", "roles": ["inspector"], "tables": []},
    ]
    # Granting twice is a conflict; a player cannot grant; an unknown role is refused.
    assert (
        api.post(
            "/operator/staff", OPERATOR_TOKEN, {"username": "ines", "role": "inspector"}
        ).status_code
        == 409
    )
    assert (
        api.post("/operator/staff", ines, {"username": "ines", "role": "dealer"}).status_code == 403
    )
    assert (
        api.post(
            "/operator/staff", OPERATOR_TOKEN, {"username": "ines", "role": "operator"}
        ).status_code
        == 422
    )
    assert (
        api.post(
            "/operator/staff", OPERATOR_TOKEN, {"username": "nobody", "role": "dealer"}
        ).status_code
        == 404
    )
    assert (
        api.post(
            "/operator/staff", OPERATOR_TOKEN, {"username": "operator", "role": "dealer"}
        ).status_code
        == 422
    )
    # Removal: DELETE /operator/staff/{username}/{role}, with an Idempotency-Key like any change.
    removed = api.client.delete(
        "/operator/staff/ines/inspector", headers=api.headers(OPERATOR_TOKEN, api.key())
    )
    assert removed.status_code == 200, removed.text
    assert removed.json() == {"username": "ines", "role": "inspector", "granted": False}
    assert api.get("/me/roles", ines).json()["roles"] == []
    no_key = api.client.delete("/operator/staff/carlos/dealer", headers=api.headers(OPERATOR_TOKEN))
    assert no_key.status_code == 400
    body = {"username": "ines", "role": "dealer"}
    assert api.post("/operator/staff", OPERATOR_TOKEN, body, key=None).status_code == 400
    assert api.get("/inspector/disputes", ines).status_code == 403


def test_spain_1979_iii_a_dealer_acts_only_at_the_tables_assigned_to_them(api: Api) -> None:
    carlos = api.player("carlos")
    first, second = _open_table(api, "mesa-1"), _open_table(api, "mesa-2")
    # Not a dealer yet: no assignment.
    refused = api.post(f"/operator/tables/{first}/dealers", OPERATOR_TOKEN, {"username": "carlos"})
    assert refused.status_code == 422
    api.post("/operator/staff", OPERATOR_TOKEN, {"username": "carlos", "role": "dealer"})
    assigned = api.post(f"/operator/tables/{first}/dealers", OPERATOR_TOKEN, {"username": "carlos"})
    assert assigned.status_code == 200, assigned.text
    assert assigned.json() == {"table": first, "dealers": ["carlos"]}
    assert (
        api.post(
            f"/operator/tables/{999}/dealers", OPERATOR_TOKEN, {"username": "carlos"}
        ).status_code
        == 404
    )
    assert (
        api.post(f"/operator/tables/{first}/dealers", carlos, {"username": "carlos"}).status_code
        == 403
    )

    who = _principal(api, carlos)
    dora = _principal(api, api.player("dora"))
    uow = api.server.uow
    assert uow.read(lambda s: staff.can_deal_at(s, who, first))
    assert not uow.read(lambda s: staff.can_deal_at(s, who, second))
    assert not uow.read(lambda s: staff.can_deal_at(s, dora, first))
    uow.read(lambda s: staff.verify_dealer_at(s, who, first))
    with pytest.raises(Forbidden, match="not a dealer assigned to table"):
        uow.read(lambda s: staff.verify_dealer_at(s, who, second))
    # The operator holds no staff role: duties are separated.
    operator = Principal(1, "operator", "operator")
    assert not uow.read(lambda s: staff.can_deal_at(s, operator, first))

    # Off the table, and with the role removed, the dealer deals nowhere.
    off = api.client.delete(
        f"/operator/tables/{first}/dealers/carlos", headers=api.headers(OPERATOR_TOKEN, api.key())
    )
    assert off.status_code == 200 and off.json()["dealers"] == []
    assert not uow.read(lambda s: staff.can_deal_at(s, who, first))
    api.post(f"/operator/tables/{second}/dealers", OPERATOR_TOKEN, {"username": "carlos"})
    api.client.delete(
        "/operator/staff/carlos/dealer", headers=api.headers(OPERATOR_TOKEN, api.key())
    )
    assert not uow.read(lambda s: staff.can_deal_at(s, who, second))
    assert api.get("/operator/staff", OPERATOR_TOKEN).json()["staff"] == []


def test_spain_1979_iii_an_inspector_moves_no_money_but_by_a_dispute_decision(api: Api) -> None:
    ines = api.player("ines")
    api.player("pablo", credit_minor=10_000)
    api.post("/operator/staff", OPERATOR_TOKEN, {"username": "ines", "role": "inspector"})
    for path in ("/operator/wallets/pablo/credit", "/operator/wallets/pablo/debit"):
        assert api.post(path, ines, {"amount": 500}).status_code == 403
        assert api.post(path, ines, {"amount": 500}).json()["error"] == "Forbidden"
    assert api.post("/operator/wallets/ines/credit", ines, {"amount": 500}).status_code == 403
    assert (
        api.post("/operator/tables", ines, {"name": "x", "profile": "spain-1979"}).status_code
        == 403
    )
    assert api.get("/operator/audit", ines).status_code == 403
    assert api.audit()["accounts"]["wallet:2"] == 0  # ines's wallet: nothing moved
    assert api.audit()["sum"] == 0


def test_every_staff_action_is_recorded_with_who_and_when(api: Api) -> None:
    api.player("carlos")
    table = _open_table(api, "mesa-1")
    api.clock.advance(10)
    when = api.server.settings.clock.now()
    api.post("/operator/staff", OPERATOR_TOKEN, {"username": "carlos", "role": "dealer"})
    api.post(f"/operator/tables/{table}/dealers", OPERATOR_TOKEN, {"username": "carlos"})
    api.client.delete(
        "/operator/staff/carlos/dealer", headers=api.headers(OPERATOR_TOKEN, api.key())
    )
    actions = api.get("/operator/staff/actions", OPERATOR_TOKEN).json()["actions"]
    assert [(a["kind"], a["by"], a["at"]) for a in reversed(actions)] == [
        ("role-granted", "operator", when),
        ("dealer-assigned", "operator", when),
        ("dealer-unassigned", "operator", when),  # the role's removal takes the table first
        ("role-removed", "operator", when),
    ]
    assert actions[-1]["detail"] == {"actor": "operator", "username": "carlos", "role": "dealer"}
    assert actions[-2]["detail"]["table"] == table
    assert api.get("/operator/staff/actions", api.player("pablo")).status_code == 403
