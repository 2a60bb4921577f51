"""spain-1979, Art. 03: "others may back-bet on a box with the box owner's consent, within
the box maximum; the player in front of the box decides for it" (docs/rules.md §2). A back bet
waits for the owner's consent, then its stake moves to escrow; it shares its box's fortune
(payouts over stakes of the box, rounded down to the minor unit: a croupier decision)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from server_support import Api, Table

from croupier.server.app import playable_profiles

pytestmark = pytest.mark.skipif(
    "spain-1979" not in playable_profiles(), reason="blackjack has not landed yet"
)


def test_a_back_bet_with_consent_shares_the_box_result(api: Api) -> None:
    table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
    ben = api.player("ben", 100_000)
    round_id = table.bet_all(10)
    asked = api.post(
        f"/tables/{table.id}/back-bets", ben, {"seat": 1, "wager": "main", "amount": 5}
    )
    assert asked.status_code == 200, asked.text
    back = asked.json()["back_bet"]
    stranger = api.post(f"/tables/{table.id}/back-bets/{back}/consent", ben, {"accept": True})
    assert stranger.status_code == 403  # only the box owner consents
    assert api.balance(ben) == 100_000
    over = api.post(
        f"/tables/{table.id}/back-bets", ben, {"seat": 1, "wager": "main", "amount": 200}
    )
    refused = api.post(
        f"/tables/{table.id}/back-bets/{over.json()['back_bet']}/consent",
        table.tokens["ann"],
        {"accept": True},
    )
    assert refused.status_code == 422 and "box maximum" in refused.json()["detail"]
    consent = api.post(
        f"/tables/{table.id}/back-bets/{back}/consent", table.tokens["ann"], {"accept": True}
    )
    assert consent.status_code == 200 and consent.json()["status"] == "accepted"
    assert api.balance(ben) == 100_000 - 500
    table.ready_all()
    table.play_out(round_id)
    settled = [
        e for e in table.recall(round_id)["events"] if e["kind"] == "Settled" and e["seat"] == 1
    ]
    ratio = sum(Fraction(str(e["payout"])) for e in settled) / sum(
        Fraction(str(e["stake"])) for e in settled
    )
    assert api.balance(ben) == 100_000 - 500 + int(500 * ratio)
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


def test_back_betting_is_refused_where_the_profile_does_not_allow_it(api: Api) -> None:
    table = Table(api, "peru-2016", ["ann"])
    ben = api.player("ben", 100_000)
    table.bet_all()
    answer = api.post(
        f"/tables/{table.id}/back-bets", ben, {"seat": 1, "wager": "main", "amount": 5}
    )
    assert answer.status_code == 422 and answer.json()["error"] == "BetError"
