"""R17 (GLI-19 2.3.2, 3.3.3): while the fail safe holds, no money moves by the staff's hand
either: the operator's credits and debits, an inspector's dispute decision and their
confirmation of a payout correction are refused with the same 503 as a bet.

The fail safe stopped table commands only; the staff's commands that post to the same ledger
were still taken while the database probe failed or the installed code differed from its
manifest (money moved by code that is not the code certified). They are refused now, moving
nothing, and taken again once the fault clears."""

from __future__ import annotations

from typing import Any

from server_support import OPERATOR_TOKEN, Api, Table, make_api

from croupier.service.fail_safe import Fault

SHORT = "the tie was paid 8:1, the table pays 9:1"


def _inspector(api: Api, name: str = "ines") -> str:
    token = api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "inspector"})
    assert granted.status_code == 201, granted.text
    return token


def _money_commands(api: Api, table: Table) -> list[tuple[str, str, dict[str, Any]]]:
    """(path, token, body) of each money-moving staff command, ready to send."""
    round_id = table.play_round()
    ines = _inspector(api)
    filed = api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "paid short"})
    assert filed.status_code == 201, filed.text
    proposed = api.post(
        f"/rounds/{round_id}/corrections",
        OPERATOR_TOKEN,
        {"username": "ben", "amount": 300, "reason": SHORT},
    )
    assert proposed.status_code == 201, proposed.text
    upheld = {
        "decision": "upheld",
        "reason": SHORT,
        "corrections": [{"username": "ann", "amount": 500}],
    }
    # Beyond what the round owes: the decision waits for a second inspector (issue 25),
    # whose approval is the command that moves the money.
    waiting = api.post(f"/inspector/disputes/{filed.json()['dispute']}/decision", ines, upheld)
    assert waiting.status_code == 202, waiting.text
    jon = _inspector(api, "jon")
    return [
        ("/operator/wallets/ann/credit", OPERATOR_TOKEN, {"amount": 1_000}),
        ("/operator/wallets/ben/debit", OPERATOR_TOKEN, {"amount": 200}),
        (
            f"/inspector/approvals/{waiting.json()['approval']}/decision",
            jon,
            {"decision": "approved"},
        ),
        (
            f"/inspector/corrections/{proposed.json()['correction']}/decision",
            ines,
            {"decision": "confirmed"},
        ),
    ]


def test_r17_the_staffs_money_commands_are_refused_while_the_fail_safe_holds(
    database_url_for: Any,
) -> None:
    for api in make_api(next(database_url_for("sqlite")), fail_safe_seconds=3600):
        table = Table(api, "dragon-six-peru-2016", ["ann", "ben"], credit_minor=100_000)
        commands = _money_commands(api, table)
        before = table.balances()
        safe = api.server.casino.fail_safe
        safe.engage(Fault.DATABASE, "the test took the database away")
        for path, token, body in commands:
            refused = api.post(path, token, body)
            assert refused.status_code == 503, (path, refused.text)
            assert refused.json()["code"] == "fail_safe", refused.json()
            assert int(refused.headers["Retry-After"]) > 0
        assert safe.check() == [Fault.DATABASE]  # every probe passes again: cleared
        assert table.balances() == before  # nothing moved meanwhile
        for path, token, body in commands:
            taken = api.post(path, token, body)
            assert taken.status_code == 200, (path, taken.text)
        assert table.balances() == {
            "ann": before["ann"] + 1_000 + 500,
            "ben": before["ben"] - 200 + 300,
        }
        assert api.audit()["problems"] == []
