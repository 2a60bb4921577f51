"""The dealer's corrections through the API (issue 14, item 3; docs/rules.md#D-GEN-14):
``POST /dealer/tables/{id}/corrections``, only by a dealer assigned to the table, each
correction its own recorded event, a staff action with who and when, in the R15 chain. Players
see it in the table's view and in the recall. Refusals are typed and change nothing; the
ledger still sums to zero. On SQLite; the PostgreSQL duplicate is in the slow form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from server_support import OPERATOR_TOKEN, Api, Table, make_api
from sqlalchemy import text

from croupier.audit.verify import verify_database
from croupier.service.database import make_engine


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=[pytest.mark.postgres, pytest.mark.slow])]
)
def database(request: pytest.FixtureRequest, database_url_for: Any) -> Iterator[str]:
    yield from database_url_for(request.param)


@pytest.fixture
def api(database: str) -> Iterator[Api]:
    yield from make_api(database)


def _dealer_at(api: Api, table: Table, name: str = "carlos") -> str:
    token = api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "dealer"})
    assert granted.status_code == 201, granted.text
    assigned = api.post(f"/operator/tables/{table.id}/dealers", OPERATOR_TOKEN, {"username": name})
    assert assigned.status_code == 200, assigned.text
    return token


def _correct(
    api: Api, token: str, table: Table, body: dict[str, Any], key: str | None = "auto"
) -> Any:
    return api.post(f"/dealer/tables/{table.id}/corrections", token, body, key=key)


def _live(api: Api, table: Table) -> Any:
    return api.server.casino.table(table.id)


def _dealt_waiting(table: Table) -> tuple[int, list[int]]:
    """A round dealt and waiting on a decision (a natural can end one at the deal: the next),
    and every round dealt on the way, that one last: a natural paid at the deal moved money
    too, so a test's expected balances count them all (a blackjack at the first deal once
    made ann 150 richer than her round's own result)."""
    dealt: list[int] = []
    for _ in range(20):
        round_id = table.bet_all()
        dealt.append(round_id)
        table.ready_all()
        state = table.state()
        if state["round"]["id"] == round_id and state["round"]["pending"] is not None:
            return round_id, dealt
    raise AssertionError("no round waited on a decision in 20 deals")


def _audit_balanced(api: Api) -> None:
    report = api.audit()
    assert report["problems"] == [] and report["sum"] == 0, report


def test_spain_1979_v3c_the_dealer_removes_a_card_found_face_up_in_the_shoe(api: Api) -> None:
    table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
    carlos = _dealer_at(api, table)
    round_id = table.bet_all()
    shoe = _live(api, table).shoe
    found, after = shoe.undealt()[:2]
    answer = _correct(api, carlos, table, {"kind": "face-up"})
    assert answer.status_code == 200, answer.text
    assert answer.json() | {"action": 0} == {
        "table": table.id,
        "round": round_id,
        "correction": "face-up",
        "events": [{"kind": "CardFoundFaceUp", "card": str(found), "disposal": "removed"}],
        "round_over": False,
        "action": 0,
    }
    # Ann sees it on the table at once; the deal then starts from the card after it.
    seen = table.state("ann")["round"]
    assert seen["public"]["corrections"] == answer.json()["events"]
    assert seen["mine"]["1"]["corrections"] == answer.json()["events"]
    table.ready_all()
    table.play_out(round_id)
    recall = table.recall(round_id, "ann")
    kinds = [event["kind"] for event in recall["events"]]
    assert kinds.index("CardFoundFaceUp") < kinds.index("BetsClosed")
    first = next(e for e in recall["events"] if e["kind"] == "CardDrawn" and e.get("seat") == 1)
    assert first["card"] == str(after)
    assert f"face-up {found}" in [step["command"] for step in recall["steps"]]
    assert table.balances() == table.expected_balances([round_id])
    # Who made it and when: the operator's staff actions.
    actions = api.get("/operator/staff/actions", OPERATOR_TOKEN).json()["actions"]
    made = next(a for a in actions if a["kind"] == "round-corrected")
    assert made["action"] == answer.json()["action"]
    assert (made["by"], made["at"], made["subject"]) == (
        "carlos",
        api.clock.now(),
        f"round:{round_id}",
    )
    assert made["detail"]["correction"] == "face-up"
    assert made["detail"]["events"] == answer.json()["events"]
    _audit_balanced(api)


def test_veintiuno_real_item_14_a_confused_deal_is_void_and_every_stake_returns(
    api: Api, database: str
) -> None:
    table = Table(api, "veintiuno-real", ["ann", "bob"], credit_minor=100_000)
    carlos = _dealer_at(api, table)
    round_id, dealt = _dealt_waiting(table)
    on_table = [str(card) for card in _live(api, table).game_round.cards_on_table()]
    answer = _correct(api, carlos, table, {"kind": "confused-deal"})
    # The cards were seen: the stakes come back once an inspector approves (issue 25).
    assert answer.status_code == 202, answer.text
    assert answer.json()["status"] == "awaiting_approval"
    ines = api.player("ines")
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": "ines", "role": "inspector"})
    assert granted.status_code == 201, granted.text
    approved = api.post(
        f"/inspector/approvals/{answer.json()['approval']}/decision", ines, {"decision": "approved"}
    )
    assert approved.status_code == 200, approved.text
    confused = [e for e in table.recall(round_id)["events"] if e["kind"] == "DealConfused"]
    assert confused == [{"kind": "DealConfused", "cards": on_table}]
    assert {"kind": "RoundVoided", "reason": "confused deal"} in table.recall(round_id)["events"]
    # Every stake of the voided round returned: only the rounds before it moved money.
    assert table.balances() == table.expected_balances(dealt)
    assert table.expected_balances(dealt) == table.expected_balances(dealt[:-1])
    assert table.state()["round"]["id"] != round_id  # the next round is open
    recall = table.recall(round_id, "bob")
    assert [e["result"] for e in recall["events"] if e["kind"] == "Settled"] == ["void", "void"]
    assert "confused-deal" in [step["command"] for step in recall["steps"]]
    _audit_balanced(api)
    # R15: the corrected round and the staff action are chain entries written with them.
    report = verify_database(database)
    assert report.is_intact, report.problems
    engine = make_engine(database)
    try:
        with engine.connect() as connection:
            kinds = set(connection.execute(text("SELECT kind FROM audit_chain")).scalars())
    finally:
        engine.dispose()
    assert {"staff approval-asked", "staff approval-decided", "round complete"} <= kinds, kinds


def test_d_bj_31_an_exposed_hole_card_is_replaced_and_the_new_one_stays_hidden(api: Api) -> None:
    table = Table(api, "peru-2016", ["ann"], credit_minor=100_000)
    carlos = _dealer_at(api, table)
    round_id, dealt = _dealt_waiting(table)
    game = _live(api, table).game_round
    exposed, replacement = game.dealer[1], _live(api, table).shoe.undealt()[0]
    # The dealer's console asks what may be corrected: places, never cards.
    legal = api.get(f"/dealer/tables/{table.id}/corrections", carlos)
    assert legal.status_code == 200, legal.text
    assert legal.json() == {
        "table": table.id,
        "round": round_id,
        "kinds": ["confused-deal", "dealt-in-error", "exposed", "face-up", "void"],
        "places": ["hole"],
    }
    assert api.get(f"/dealer/tables/{table.id}/corrections", table.tokens["ann"]).status_code == 403
    answer = _correct(api, carlos, table, {"kind": "exposed", "place": "hole"})
    assert answer.status_code == 200, answer.text
    # The answer and every view hold the exposed card, never the one now face down (R6).
    assert answer.json()["events"] == [
        {"kind": "CardExposed", "place": "hole", "card": str(exposed), "outcome": "replaced"}
    ]
    assert game.dealer[1] == replacement
    seen = table.state("ann")["round"]
    for view in (seen["public"], seen["mine"]["1"]):
        assert view["dealer"]["cards"][1] == "??"
        assert view["corrections"] == answer.json()["events"]
    if str(replacement) != str(exposed):  # six decks: the replacement may share its name
        assert str(replacement) not in answer.text
    # R11: the table rebuilt from the database (as after a crash) is the corrected round,
    # dealt from the shoe rebuilt from its seed, waiting where it was.
    api.server.casino.reload(table.id)
    rebuilt = _live(api, table).game_round
    assert rebuilt is not game and rebuilt.events == game.events
    assert rebuilt.dealer[1] == replacement and rebuilt.pending() == game.pending()
    table.play_out(round_id)
    recall = table.recall(round_id, "ann")
    assert "exposed hole" in [step["command"] for step in recall["steps"]]
    dealer = recall["steps"][-1]["view"]["dealer"]["cards"]
    assert dealer[:2] == [str(game.dealer[0]), str(replacement)]  # turned after the players
    assert table.balances() == table.expected_balances(dealt)
    _audit_balanced(api)
    # A dispute of the corrected round: the inspector's re-settlement (croupier settle on the
    # record, its corrections included) pays what the ledger paid, and the cards follow the
    # shoe's commitment, the exposed card and its replacement both in their places.
    inspector = api.player("ines")
    api.post("/operator/staff", OPERATOR_TOKEN, {"username": "ines", "role": "inspector"})
    filed = api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "the hole card"})
    assert filed.status_code == 201, filed.text
    queue = api.get("/inspector/disputes", inspector).json()["disputes"]
    item = next(d for d in queue if d["dispute"] == filed.json()["dispute"])
    assert item["resettled"] == item["paid"]
    assert item["commitment"]["cards_follow_the_shoe"] is True


def test_d_gen_6_the_dealer_voids_a_round_they_cannot_finish(api: Api) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    carlos = _dealer_at(api, table)
    round_id = table.bet_all()
    assert table.balances() == {"ann": 100_000 - 100 * table.stake}
    answer = _correct(api, carlos, table, {"kind": "void", "reason": "the shoe fell"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["correction"] == "void the shoe fell"
    assert answer.json()["round_over"] is True
    assert table.balances() == {"ann": 100_000}
    recall = table.recall(round_id, "ann")
    assert {"kind": "RoundVoided", "reason": "the shoe fell"} in recall["events"]
    _audit_balanced(api)


def test_d_ch_11_an_exposed_hole_card_voids_the_game_and_returns_the_antes(api: Api) -> None:
    table = Table(api, "casino-holdem-peru-2007", ["ann", "bob"], credit_minor=100_000)
    carlos = _dealer_at(api, table)
    round_id = table.bet_all()
    progressive = {"seat": 1, "wager": "progressive", "amount": 1}
    assert api.post(f"/tables/{table.id}/bets", table.tokens["ann"], progressive).status_code == 200
    table.ready_all()
    assert table.state()["round"]["pending"] is not None  # the zones decide after the flop
    refused = _correct(api, carlos, table, {"kind": "exposed", "place": "dealer 3"})
    assert refused.status_code == 409 and refused.json()["code"] == "not_face_down"
    assert refused.json()["params"] == {"place": "dealer 3"}
    answer = _correct(api, carlos, table, {"kind": "exposed", "place": "seat 2 card 1"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["round_over"] is True
    assert [e["kind"] for e in answer.json()["events"]] == ["CardExposed", "RoundVoided"]
    results = [e for e in table.recall(round_id)["events"] if e["kind"] == "Settled"]
    voided = {(e["seat"], e["wager"], e["payout"]) for e in results if e["result"] == "void"}
    assert voided == {(1, "ante", table.stake), (2, "ante", table.stake)}
    # The progressive was settled after the flop (D-CH-8): it stands; every Ante returns.
    (prize,) = [e for e in results if e["wager"] == "progressive"]
    assert table.balances() == {"ann": 100_000 - 100 + 100 * prize["payout"], "bob": 100_000}
    _audit_balanced(api)


def test_d_gen_6_a_round_without_a_bet_may_be_voided_and_the_next_opens(api: Api) -> None:
    table = Table(api, "casino-holdem-peru-2007", ["ann"], credit_minor=100_000)
    carlos = _dealer_at(api, table)
    round_id = table.state()["round"]["id"]
    answer = _correct(api, carlos, table, {"kind": "void", "reason": "the table closes"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["round_over"] is True
    assert table.state()["round"]["id"] == round_id + 1
    assert table.balances() == {"ann": 100_000}
    _audit_balanced(api)


def test_d_gen_14_only_the_tables_dealer_corrects_and_refusals_change_nothing(api: Api) -> None:
    table = Table(api, "peru-2016", ["ann"], credit_minor=100_000)
    other = Table(api, "peru-2016", ["bob"], credit_minor=100_000)
    carlos = _dealer_at(api, table)
    dora = _dealer_at(api, other, "dora")
    round_id = table.bet_all()
    before = list(_live(api, table).game_round.events)
    balances = table.balances()

    def refused(token: str, body: dict[str, Any], status: int, code: str) -> None:
        answer = _correct(api, token, table, body)
        assert answer.status_code == status, answer.text
        assert answer.json()["code"] == code, answer.json()
        assert _live(api, table).game_round.events == before
        assert table.balances() == balances

    refused(table.tokens["ann"], {"kind": "face-up"}, 403, "forbidden")  # a player
    refused(dora, {"kind": "face-up"}, 403, "forbidden")  # another table's dealer
    refused(OPERATOR_TOKEN, {"kind": "face-up"}, 403, "forbidden")
    refused(carlos, {"kind": "exposed", "place": "hole"}, 409, "nothing_dealt_yet")
    refused(carlos, {"kind": "dealt-in-error"}, 409, "nothing_dealt_yet")
    for bad in (
        {"kind": "shuffle"},
        {"kind": "face-up", "place": "hole"},
        {"kind": "exposed"},
        {"kind": "void"},
        {"kind": "face-up", "card": "Td"},  # the live shoe's order is not the dealer's to probe
        {"kind": "exposed", "place": "hole; drop"},
    ):
        refused(carlos, bad, 422, "bad_request_fields")
    no_key = _correct(api, carlos, table, {"kind": "face-up"}, key=None)
    assert no_key.status_code == 400
    # Exactly once: the same key and body answer the first answer and correct once.
    first = _correct(api, carlos, table, {"kind": "face-up"}, key="correction-1")
    again = _correct(api, carlos, table, {"kind": "face-up"}, key="correction-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    made = [e for e in _live(api, table).game_round.events if e.kind == "CardFoundFaceUp"]
    assert len(made) == 1
    assert table.state()["round"]["id"] == round_id
    _audit_balanced(api)
