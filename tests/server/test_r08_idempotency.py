"""R8: exactly once. "an idempotency key on every mutating request; a repeat returns the
stored answer; the same key with another body is refused" - replays, reorders, concurrent
duplicates, and across a restart: 0 duplicate ledger effects."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from server_support import OPERATOR_TOKEN, Api, make_api


def credit(api: Api, key: str, amount: int, user: str = "alice") -> tuple[int, dict[str, object]]:
    answer = api.post(
        f"/operator/wallets/{user}/credit", OPERATOR_TOKEN, {"amount": amount}, key=key
    )
    return answer.status_code, answer.json()


def test_a_repeat_returns_the_stored_answer_and_moves_nothing(api: Api) -> None:
    token = api.player("alice")
    first = credit(api, "key-0001-alice", 700)
    assert first[0] == 200
    for _ in range(3):
        assert credit(api, "key-0001-alice", 700) == first
    assert api.balance(token) == 700


def test_the_same_key_with_another_body_is_refused(api: Api) -> None:
    token = api.player("alice")
    credit(api, "key-0002-alice", 700)
    status, body = credit(api, "key-0002-alice", 701)
    assert (status, body["error"]) == (422, "IdempotencyKeyReused")
    assert api.balance(token) == 700


def test_a_mutating_request_without_a_key_is_refused(api: Api) -> None:
    token = api.player("alice")
    answer = api.post("/operator/wallets/alice/credit", OPERATOR_TOKEN, {"amount": 5}, key=None)
    assert (answer.status_code, answer.json()["error"]) == (400, "IdempotencyError")
    answer = api.post("/operator/wallets/alice/credit", OPERATOR_TOKEN, {"amount": 5}, key="short")
    assert answer.status_code == 400
    assert api.balance(token) == 0


def test_replays_in_another_order_move_nothing(api: Api) -> None:
    token = api.player("alice")
    keys = [f"key-order-{n:04d}" for n in range(5)]
    answers = {key: credit(api, key, 100 + n) for n, key in enumerate(keys)}
    for key in reversed(keys):
        assert credit(api, key, 100 + keys.index(key)) == answers[key]
    assert api.balance(token) == sum(100 + n for n in range(5))


def test_concurrent_duplicates_take_effect_once(api: Api) -> None:
    token = api.player("alice")
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: credit(api, "key-concurrent-1", 900), range(16)))
    assert all(answer == answers[0] for answer in answers) and answers[0][0] == 200
    assert api.balance(token) == 900
    assert api.audit()["problems"] == []


def test_a_repeat_after_a_restart_returns_the_stored_answer(database_url: str) -> None:
    first_run = make_api(database_url)
    api = next(first_run)
    token = api.player("alice")
    first = credit(api, "key-restart-0001", 1234)
    first_run.close()  # the server stops
    second_run = make_api(database_url)
    api = next(second_run)
    assert credit(api, "key-restart-0001", 1234) == first
    assert api.balance(token) == 1234
    second_run.close()
