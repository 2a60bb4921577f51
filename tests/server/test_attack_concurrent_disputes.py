"""A player's dispute of a round is one open dispute at a time (``file_dispute``: "your
dispute N of round R is still open", 409). The check read the open disputes and then
inserted: on PostgreSQL (READ COMMITTED) requests sent at once, each with its own
idempotency key, all passed the read, and one round had six open disputes of one player in
the inspector's queue. The round's row is now locked first, so they queue behind each
other and each after the first sees the first."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from server_support import Api, Table

AT_ONCE = 6
ROUNDS = 4


def test_disputes_filed_at_once_open_one_dispute(api: Api) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    ann = table.tokens["ann"]
    for _ in range(ROUNDS):
        round_id = table.play_round()
        path = f"/rounds/{round_id}/disputes"
        with ThreadPoolExecutor(AT_ONCE) as pool:
            answers = list(
                pool.map(lambda p: api.post(p, ann, {"text": "paid short"}), [path] * AT_ONCE)
            )
        codes = sorted(answer.status_code for answer in answers)
        assert codes == [201] + [409] * (AT_ONCE - 1), [a.text for a in answers]
        mine = api.get("/me/disputes", ann).json()["disputes"]
        assert [d["round"] for d in mine].count(round_id) == 1
