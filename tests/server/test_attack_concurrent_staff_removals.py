"""The operator's removals sent at once (``DELETE /operator/staff/{name}/{role}``, ``DELETE
/operator/tables/{id}/dealers/{name}``), each with its own idempotency key: one removes, the
others are refused (409) and record nothing. Each read that the role or the assignment was
there and then deleted without asking whether it deleted anything: on PostgreSQL eight
removals of one dealer answered 200 eight times, and the staff's record (R15, Spain 1979 III:
who did what and when) held eight "role-removed" and eight "dealer-unassigned" actions."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from server_support import OPERATOR_TOKEN, Api, Table

AT_ONCE = 8


def _at_once(api: Api, path: str) -> list[int]:
    def delete(target: str) -> int:
        headers = api.headers(OPERATOR_TOKEN, api.key())
        status: int = api.client.delete(target, headers=headers).status_code
        return status

    with ThreadPoolExecutor(AT_ONCE) as pool:
        return sorted(pool.map(delete, [path] * AT_ONCE))


def _granted_and_assigned(api: Api, name: str, table: Table) -> None:
    api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "dealer"})
    assert granted.status_code == 201, granted.text
    path = f"/operator/tables/{table.id}/dealers"
    assert api.post(path, OPERATOR_TOKEN, {"username": name}).status_code == 200


def _actions(api: Api, name: str) -> Counter[str]:
    listed = api.get("/operator/staff/actions?limit=500", OPERATOR_TOKEN).json()["actions"]
    return Counter(a["kind"] for a in listed if a["detail"].get("username") == name)


def test_removals_sent_at_once_remove_once_and_are_recorded_once(api: Api) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann"])
    for trial in range(3):
        role, seat = f"dora{trial}", f"otto{trial}"
        _granted_and_assigned(api, role, table)
        _granted_and_assigned(api, seat, table)
        assert _at_once(api, f"/operator/staff/{role}/dealer") == [200] + [409] * (AT_ONCE - 1)
        path = f"/operator/tables/{table.id}/dealers/{seat}"
        assert _at_once(api, path) == [200] + [409] * (AT_ONCE - 1)
        assert _actions(api, role) == {
            "role-granted": 1,
            "dealer-assigned": 1,
            "dealer-unassigned": 1,
            "role-removed": 1,
        }
        assert _actions(api, seat)["dealer-unassigned"] == 1
    assert api.audit()["problems"] == []
