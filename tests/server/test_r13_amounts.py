"""R13: money input is integer minor units within limits; negative, zero, float, NaN, string,
huge values are refused (GLI-19 4.3.3(b)). Every refusal is a 422 naming the value, and
changes nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_support import OPERATOR_TOKEN, Api

BAD_AMOUNTS = [-1, 0, 1.5, 5.0, "100", True, None, [], {}, 10**30, -(10**30), 0.001]
RAW_BAD_BODIES = [
    '{"amount": NaN}',
    '{"amount": Infinity}',
    '{"amount": -Infinity}',
    '{"amount": 1e400}',
]


@pytest.mark.parametrize("direction", ["credit", "debit"])
def test_every_malformed_amount_is_refused_and_changes_nothing(api: Api, direction: str) -> None:
    token = api.player("alice", credit_minor=10_000)
    for amount in BAD_AMOUNTS:
        answer = api.post(
            f"/operator/wallets/alice/{direction}", OPERATOR_TOKEN, {"amount": amount}
        )
        assert answer.status_code == 422, (amount, answer.text)
        assert answer.json()["error"] == "AmountError"
    for raw in RAW_BAD_BODIES:
        answer = api.client.post(
            f"/operator/wallets/alice/{direction}",
            content=raw,
            headers={**api.headers(OPERATOR_TOKEN, api.key()), "Content-Type": "application/json"},
        )
        assert answer.status_code == 422, (raw, answer.text)
    assert api.balance(token) == 10_000
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0


def test_a_debit_over_the_balance_is_refused(api: Api) -> None:
    token = api.player("bob", credit_minor=500)
    answer = api.post("/operator/wallets/bob/debit", OPERATOR_TOKEN, {"amount": 501})
    assert (answer.status_code, answer.json()["error"]) == (402, "InsufficientFunds")
    assert (
        api.post("/operator/wallets/bob/debit", OPERATOR_TOKEN, {"amount": 500}).status_code == 200
    )
    assert api.balance(token) == 0


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    amount=st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=8),
        st.integers(max_value=0),
        st.integers(min_value=10**13 + 1),
        st.booleans(),
        st.none(),
        st.lists(st.integers(), max_size=2),
    )
)
def test_fuzzed_amounts_are_all_refused(fuzz_api: Api, amount: object) -> None:
    before = fuzz_api.audit()["accounts"]
    body = json.dumps({"amount": amount})  # NaN and Infinity go out as JSON's extensions
    answer = fuzz_api.client.post(
        "/operator/wallets/fuzz/credit",
        content=body,
        headers={
            **fuzz_api.headers(OPERATOR_TOKEN, fuzz_api.key()),
            "Content-Type": "application/json",
        },
    )
    assert answer.status_code == 422, (amount, answer.text)
    assert fuzz_api.audit()["accounts"] == before


@pytest.fixture
def fuzz_api(api: Api) -> Api:
    api.post("/auth/signup", None, {"username": "fuzz", "password": "password-of-fuzz"}, key=None)
    return api
