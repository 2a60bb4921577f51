"""spain-1979, Art. 03 IV.a-b (docs/rules.md §2, D-BJ-28): "others ... may bet on a box with
the consent of its owner ... only the seated owner of the box takes its decisions". Issue 13,
item 7: the back bet is seen by both sides, on the felt, in the round's record, in each one's
history and statement, and the backer's balance moves when the owner accepts, not later.

A stacked shoe deals the box 20 against the dealer's 17 (after the new shoe's five burns,
Art. 03 V.3.c): the box's 10 returns 20, so Ben's back bet of 5 returns 10, "won 5.00"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from server_support import Api, Table, make_api

from croupier.rules.base import Profile
from croupier.service import engines
from croupier.shoe import Shoe

# Burns (5), the box's Ts, the dealer's 7d, the box's Qh, the dealer's Tc: 20 against 17.
STACK = "2c 2c 2c 2c 2c Ts 7d Qh Tc " + "9c 9d 9h 9s " * 5


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=[pytest.mark.postgres, pytest.mark.slow])]
)
def api(
    request: pytest.FixtureRequest, database_url_for: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Api]:
    def stacked(profile: Profile, seed: bytes) -> Shoe:
        return Shoe.parse(STACK, decks=profile.table.decks)

    monkeypatch.setattr(engines, "open_shoe", stacked)
    for url in database_url_for(request.param):
        yield from make_api(url)


def test_a_back_bet_is_seen_and_paid_on_both_sides(api: Api) -> None:
    table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
    ann = table.tokens["ann"]
    ben = api.player("ben", 100_000)
    round_id = table.bet_all(10)
    asked = api.post(f"/tables/{table.id}/back-bets", ben, {"seat": 1, "amount": 5})
    assert asked.status_code == 200, asked.text
    back = asked.json()["back_bet"]
    assert api.balance(ben) == 100_000  # asked only: nothing moves yet
    accepted = api.post(f"/tables/{table.id}/back-bets/{back}/consent", ann, {"accept": True})
    assert accepted.status_code == 200, accepted.text
    assert api.balance(ben) == 99_500  # the stake moves to escrow at acceptance
    on_the_felt = [{"seat": 1, "backer": "ben", "amount_minor": 500}]
    for token in (ann, ben, api.player("cat")):
        assert api.get(f"/tables/{table.id}", token).json()["round"]["back_bets"] == on_the_felt
    live = api.server.casino.table(table.id)
    assert live.durable_state() == api.server.casino.rebuilt(table.id).durable_state()

    table.ready_all()
    table.play_out(round_id, lambda pending: "stand")
    assert api.balance(ann) == 101_000 and api.balance(ben) == 100_500
    assert api.get(f"/tables/{table.id}", ben).json()["round"]["back_bets"] == []

    settled = {
        "id": back,
        "seat": 1,
        "user": _user_id(api, ben),
        "backer": "ben",
        "wager": "main",
        "amount_minor": 500,
        "payout_minor": 1_000,
        "status": "settled",
    }
    for name, token in (("ann", ann), ("ben", ben)):
        document = api.get(f"/rounds/{round_id}", token).json()
        assert document["back_bets"] == [settled], name
        history = api.get("/me/rounds", token).json()["rounds"]
        assert history[0]["round"] == round_id
        assert history[0]["back_bets"] == [settled]
    assert api.get("/me/rounds", ann).json()["rounds"][0]["net_minor"] == 1_000
    assert api.get("/me/rounds", ben).json()["rounds"][0]["net_minor"] == 500
    statement = api.get("/me/ledger", ben).json()["entries"]
    assert [(e["kind"], e["amount"], e["round"]) for e in statement[:2]] == [
        ("settlement", 1_000, round_id),
        ("back-bet", -500, round_id),
    ]
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0
    assert audit["accounts"][f"escrow:table:{table.id}"] == 0


def _user_id(api: Api, token: str) -> int:
    user: int = api.get("/me", token).json()["user"]
    return user
