"""A payout correction's amount is minor units, positive to the player and negative to take
back, within 10^13 either way (``PayoutCorrectionBody``). A bad one was refused as if it were
a bet in table units: -(10^13 + 1) as "main: amount ... is negative" (code
``amount_negative``, though a negative correction is legal) and 10^14 as a ``BetError``
"above the maximum of 100000000000 units". Each is now an ``AmountError`` naming the field's
own bound, and nothing moves."""

from __future__ import annotations

from server_support import OPERATOR_TOKEN, Api, Table

from croupier.ledger.book import MAX_MINOR_AMOUNT


def test_a_bad_correction_amount_is_refused_in_its_own_units(api: Api) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    before = table.balances()
    path = f"/rounds/{round_id}/corrections"
    for amount, bound in ((-MAX_MINOR_AMOUNT - 1, -MAX_MINOR_AMOUNT), (10**14, MAX_MINOR_AMOUNT)):
        body = {"username": "ann", "amount": amount, "reason": "paid short"}
        answer = api.post(path, OPERATOR_TOKEN, body)
        assert answer.status_code == 422, answer.text
        refusal = answer.json()
        assert refusal["error"] == "AmountError" and refusal["code"] == "amount", refusal
        assert str(bound) in refusal["detail"] and str(amount) in refusal["detail"], refusal
        assert "main" not in refusal["detail"] and "units" not in refusal["detail"], refusal
    fraction = api.post(path, OPERATOR_TOKEN, {"username": "ann", "amount": 5.0, "reason": "x"})
    assert fraction.status_code == 422 and fraction.json()["error"] == "AmountError"
    taken_back = api.post(path, OPERATOR_TOKEN, {"username": "ann", "amount": -500, "reason": "x"})
    assert taken_back.status_code == 201, taken_back.text
    assert table.balances() == before
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0
