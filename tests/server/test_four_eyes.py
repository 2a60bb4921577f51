"""Four eyes on the hands that move money (issue 25, items 3 and 4; docs/rules.md#D-GEN-18).

Spain 1979, III separates the croupier who pays from the inspector who controls; Dragon Six,
Peru 2016, Art. 12 sends a player's complaint to the Inspector. The attacks these answer: one
inspector upheld a dispute with a correction of 10^13 minor units on a 10-unit round, posted at
once; a dealer voided a 13 against the dealer's Ace after seeing the cards and got the stake
back. Now what goes beyond what ``croupier settle`` says a round owes, and a void after a card
is seen, wait for a second inspector.
"""

from __future__ import annotations

from typing import Any

from physical_support import PhysicalTable, audited
from server_support import OPERATOR_TOKEN, Api, Table


def _inspector(api: Api, name: str) -> str:
    token = api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "inspector"})
    assert granted.status_code == 201, granted.text
    return token


def _answer(api: Api, token: str, approval: int, body: dict[str, Any]) -> Any:
    return api.post(f"/inspector/approvals/{approval}/decision", token, body)


def test_dragon_six_art_12_one_inspector_cannot_pay_beyond_what_the_round_owes(
    api: Api,
) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    ines, jon = _inspector(api, "ines"), _inspector(api, "jon")
    before = table.balances()
    dispute = api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "short"})
    number = dispute.json()["dispute"]
    body = {
        "decision": "upheld",
        "reason": "generous",
        "corrections": [{"username": "ann", "amount": 10**13}],
    }
    asked = api.post(f"/inspector/disputes/{number}/decision", ines, body)
    assert asked.status_code == 202, asked.text
    approval = asked.json()["approval"]
    assert asked.json() == {"dispute": number, "status": "awaiting_approval", "approval": approval}
    assert table.balances() == before  # nothing moved
    mine = api.get("/me/disputes", table.tokens["ann"]).json()["disputes"][0]
    assert mine["status"] == "awaiting_approval"
    assert api.get(f"/me/disputes/{number}/dossier.pdf", table.tokens["ann"]).status_code == 200
    # What waits, who asked, why, the amounts and the round's re-settlement.
    for token in (ines, OPERATOR_TOKEN):
        path = "/inspector/approvals" if token == ines else "/operator/approvals"
        listed = api.get(path, token).json()["approvals"]
        assert [(a["approval"], a["kind"], a["status"]) for a in listed] == [
            (approval, "dispute", "awaiting")
        ]
        item = listed[0]
        assert (item["dispute"], item["round"], item["requested_by"], item["reason"]) == (
            number,
            round_id,
            "ines",
            "generous",
        )
        assert item["amounts"] == [{"username": "ann", "amount": 10**13}]
        assert item["resettlement"]["resettled"] == item["resettlement"]["paid"]
        assert item["owed"] == {}  # the round was paid as dealt
    assert api.get("/inspector/approvals", table.tokens["ann"]).status_code == 403
    # Not the one who asked, not one who played the round, not the operator.
    own = _answer(api, ines, approval, {"decision": "approved"})
    assert own.status_code == 403 and own.json()["code"] == "approval_own_request"
    assert _answer(api, OPERATOR_TOKEN, approval, {"decision": "approved"}).status_code == 403
    left = api.client.delete(
        f"/tables/{table.id}/seats/{table.seat_of['ben']}",
        headers=api.headers(table.tokens["ben"], api.key()),
    )
    assert left.status_code == 200, left.text
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": "ben", "role": "inspector"})
    assert granted.status_code == 201, granted.text
    played = _answer(api, table.tokens["ben"], approval, {"decision": "approved"})
    assert played.status_code == 403 and played.json()["code"] == "approval_own_round"
    blank = _answer(api, jon, approval, {"decision": "refused", "reason": " "})
    assert blank.status_code == 422 and blank.json()["code"] == "approval_needs_reason"
    assert table.balances() == before
    # A second inspector refuses: nothing moves, the dispute is open again; a second answer 409.
    refused = _answer(api, jon, approval, {"decision": "refused", "reason": "no basis"})
    assert refused.status_code == 200, refused.text
    assert (refused.json()["status"], refused.json()["decided_by"]) == ("refused", "jon")
    again = _answer(api, jon, approval, {"decision": "approved"})
    assert again.status_code == 409 and again.json()["code"] == "approval_decided"
    assert table.balances() == before
    mine = api.get("/me/disputes", table.tokens["ann"]).json()["disputes"][0]
    assert (mine["status"], mine["decision"]) == ("open", None)
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


def test_dragon_six_art_12_what_the_round_owes_posts_with_the_decision(api: Api) -> None:
    """A payout correction confirmed in error took 500 from ann (two people did it): the
    round's re-settlement now owes her 500, which one inspector gives back with the decision;
    one minor unit more waits for a second inspector."""
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    ines, jon = _inspector(api, "ines"), _inspector(api, "jon")
    proposed = api.post(
        f"/rounds/{round_id}/corrections",
        OPERATOR_TOKEN,
        {"username": "ann", "amount": -500, "reason": "paid over (it was not)"},
    )
    assert proposed.status_code == 201, proposed.text
    confirmed = api.post(
        f"/inspector/corrections/{proposed.json()['correction']}/decision",
        jon,
        {"decision": "confirmed"},
    )
    assert confirmed.status_code == 200, confirmed.text
    before = table.balances()
    number = api.post(
        f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "500 taken"}
    ).json()["dispute"]
    too_much = {"decision": "upheld", "corrections": [{"username": "ann", "amount": 501}]}
    waits = api.post(f"/inspector/disputes/{number}/decision", ines, too_much)
    assert waits.status_code == 202, waits.text
    assert waits.json()["status"] == "awaiting_approval"
    listed = api.get("/inspector/approvals", ines).json()["approvals"]
    assert listed[0]["owed"] == {"ann": 500}
    refused = _answer(
        api, jon, waits.json()["approval"], {"decision": "refused", "reason": "1 over"}
    )
    assert refused.status_code == 200, refused.text
    owed = {
        "decision": "upheld",
        "reason": "taken in error",
        "corrections": [{"username": "ann", "amount": 500}],
    }
    decided = api.post(f"/inspector/disputes/{number}/decision", ines, owed)
    assert decided.status_code == 200, decided.text
    assert decided.json()["status"] == "upheld" and decided.json()["transaction"]
    assert table.balances() == {"ann": before["ann"] + 500}
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


def _thirteen_against_an_ace(api: Api) -> tuple[PhysicalTable, int]:
    """peru-2016 dealt from a stacked (physical) shoe: ann bets 50 and holds T-3 (13) against
    the dealer's Ace."""
    table = PhysicalTable(api, "peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.bet("ann", 50)
    assert table.ready() == [False], "the shoe is not made yet: no deal"
    table.make_shoe(["2c"])
    table.tick()
    assert table.state()["round"]["status"] == "playing"
    table.deal_some(["Td", "As", "3h", "9c"])  # box, dealer's up card, box, hole
    assert table.state("ann")["round"]["pending"]["seat"] == 1
    return table, round_id


def test_a_void_after_a_card_is_seen_waits_for_an_inspector_and_the_round_stands_still(
    sqlite_api: Any,
) -> None:
    api, url = sqlite_api
    table, round_id = _thirteen_against_an_ace(api)
    ines, jon = _inspector(api, "ines"), _inspector(api, "jon")
    staked = table.balances()
    assert staked == {"ann": 100_000 - 5_000}
    body = {"reason": "the shoe fell on the floor"}
    asked = api.post(f"/rounds/{round_id}/void", table.dealer, body)
    assert asked.status_code == 202, asked.text
    approval = asked.json()["approval"]
    assert (asked.json()["status"], asked.json()["round"]) == ("awaiting_approval", round_id)
    assert table.balances() == staked  # the stake stays in escrow
    listed = api.get("/inspector/approvals", ines).json()["approvals"]
    assert (listed[0]["kind"], listed[0]["amounts"]) == (
        "void",
        [{"username": "ann", "amount": 5_000}],
    )
    # The round stands still: no decision, no card, no second void; the clock applies nothing.
    pending = table.state("ann")["round"]["pending"]
    stood = table.act("ann", pending["default"])
    assert stood.status_code == 409 and stood.json()["code"] == "void_awaiting_approval"
    card = table.card("7d")
    assert card.status_code == 409 and card.json()["code"] == "void_awaiting_approval"
    twice = api.post(f"/rounds/{round_id}/void", table.dealer, body)
    assert twice.status_code == 409 and twice.json()["code"] == "void_awaiting_approval"
    api.clock.advance(120)  # twice the decision time (60 s)
    table.tick()
    assert table.state()["round"]["id"] == round_id
    assert table.state()["round"]["deadline"] is None
    # A restart keeps the waiting void: the round is rebuilt standing still.
    api.server.casino.load()
    assert api.server.casino.table(table.id).void_waiting == approval
    assert table.act("ann", pending["default"]).status_code == 409
    # The dealer is no inspector; refused, the round goes on with its clock running again.
    assert _answer(api, table.dealer, approval, {"decision": "approved"}).status_code == 403
    refused = _answer(api, ines, approval, {"decision": "refused", "reason": "play it out"})
    assert refused.status_code == 200, refused.text
    assert table.state()["round"]["deadline"] is not None
    assert table.balances() == staked
    # Asked again and approved: voided exactly as an immediate void, the stake back.
    again = api.post(f"/rounds/{round_id}/void", table.dealer, body).json()["approval"]
    approved = _answer(api, jon, again, {"decision": "approved"})
    assert approved.status_code == 200, approved.text
    assert table.balances() == {"ann": 100_000}
    assert table.state()["round"]["id"] != round_id
    recalled = api.get(f"/rounds/{round_id}", OPERATOR_TOKEN).json()
    assert recalled["status"] == "interrupted"
    assert any(e["kind"] == "RoundVoided" for e in recalled["events"])
    assert _answer(api, ines, again, {"decision": "refused", "reason": "late"}).status_code == 409
    audited(api, url)


def test_a_void_before_the_deal_stays_immediate(sqlite_api: Any) -> None:
    api, url = sqlite_api
    table = PhysicalTable(api, "peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.bet("ann", 50)
    voided = api.post(f"/rounds/{round_id}/void", table.dealer, {"reason": "no shoe today"})
    assert voided.status_code == 200, voided.text
    assert voided.json()["status"] == "voided"
    assert table.balances() == {"ann": 100_000}
    audited(api, url)
