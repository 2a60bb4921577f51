"""Disputes an inspector settles (issue 14, item 4), through the API on SQLite and PostgreSQL.

- Dragon Six, Peru 2016, Art. 12: "El personal de la Sala de Juego procurará corregir en forma
  inmediata los errores detectados en las partidas. Cuando un jugador no esté de acuerdo con la
  decisión del personal de la Sala de Juego podrá solicitar la presencia del Inspector o en su
  defecto, presentar un escrito ante la Dirección General de Juegos de Casino y Máquinas."
- Veintiuno Real sheet, item 14: "Los casos de dudas o controversias serán resueltos por el
  supervisor y sus fallos son inapelables."
- Spain 1979, III: the inspector "resolver los problemas que durante el transcurso del mismo se
  le presenten"; the first five cards of a shoe are put aside (V.3.c).

The queue's ``paid`` is read from the ledger and ``resettled`` from ``croupier settle`` on the
round's record; the test's own figure comes from a third reading, the engine's ``replay`` of
the recorded events, seat by seat (as R14 does).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from server_support import OPERATOR_TOKEN, Api, Table, make_api
from sqlalchemy import text

from croupier.audit.verify import verify, verify_database
from croupier.games.base import RoundResult
from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.ledger.book import to_minor
from croupier.service import disputes
from croupier.service.database import make_engine
from croupier.service.models import RoundRecord


def _inspector(api: Api, name: str = "ines") -> str:
    token = api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "inspector"})
    assert granted.status_code == 201, granted.text
    return token


def _engine_payouts(table: Table, round_id: int) -> dict[str, int]:
    """Minor units the engine's replay of the recorded events pays each player."""
    events = [Event.from_json(e) for e in table.recall(round_id)["events"]]
    results = replay(events, table.profile).results()
    paid: dict[str, int] = defaultdict(int)
    for wager in results.wagers:
        paid[table.owner[wager.seat]] += to_minor(wager.payout)
    return {name: amount for name, amount in paid.items() if amount}


def _sign_in_again(api: Api, table: Table, name: str) -> None:
    """After a long wait the session has idled out (R16): the player signs in again."""
    body = {"username": name, "password": f"password-of-{name}"}
    answer = api.post("/auth/signin", None, body, key=None)
    assert answer.status_code == 200, answer.text
    table.tokens[name] = answer.json()["token"]


def _dispute(api: Api, token: str, round_id: int, text: str = "I was paid short") -> Any:
    return api.post(f"/rounds/{round_id}/disputes", token, {"text": text})


def _queue_item(api: Api, inspector: str, dispute: int) -> dict[str, Any]:
    answer = api.get("/inspector/disputes", inspector)
    assert answer.status_code == 200, answer.text
    item: dict[str, Any] = next(d for d in answer.json()["disputes"] if d["dispute"] == dispute)
    return item


def _decide(api: Api, inspector: str, dispute: int, body: dict[str, Any], key: str = "auto") -> Any:
    return api.post(f"/inspector/disputes/{dispute}/decision", inspector, body, key=key)


def _approved(api: Api, waiting: Any, approver: str) -> Any:
    """A decision that pays beyond what the round owes waits (202, issue 25): a second
    inspector approves it, and the corrections post then."""
    assert waiting.status_code == 202, waiting.text
    assert waiting.json()["status"] == "awaiting_approval"
    number = waiting.json()["approval"]
    body = {"decision": "approved", "reason": "checked"}
    answer = api.post(f"/inspector/approvals/{number}/decision", approver, body)
    assert answer.status_code == 200, answer.text
    return answer


def test_dragon_six_art_12_a_player_calls_the_inspector_who_upholds_with_a_correction(
    api: Api,
) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _inspector(api)
    before = table.balances()

    filed = _dispute(api, table.tokens["ann"], round_id)
    assert filed.status_code == 201, filed.text
    assert filed.json() == {"dispute": filed.json()["dispute"], "status": "open"}
    dispute = filed.json()["dispute"]

    item = _queue_item(api, ines, dispute)
    assert {"dispute", "round", "status", "text", "paid", "resettled"} <= set(item)
    assert (item["round"], item["status"], item["text"]) == (round_id, "open", "I was paid short")
    expected = _engine_payouts(table, round_id)
    assert item["paid"] == expected
    assert item["resettled"] == expected
    assert item["commitment"]["commitment_holds"] is True
    assert item["commitment"]["cards_follow_the_shoe"] is True
    assert (
        item["commitment"]["commitment"]
        == api.get(f"/shoes/{item['commitment']['shoe']}", OPERATOR_TOKEN).json()["commitment"]
    )

    # Only an inspector's token reads the queue or decides.
    for token in (OPERATOR_TOKEN, table.tokens["ann"], table.tokens["ben"]):
        assert api.get("/inspector/disputes", token).status_code == 403
        assert (
            _decide(api, token, dispute, {"decision": "rejected", "reason": "no"}).status_code
            == 403
        )
    assert api.get("/operator/disputes", OPERATOR_TOKEN).json()["disputes"][0]["dispute"] == dispute

    key = api.key()
    body = {
        "decision": "upheld",
        "reason": "the tie was paid 8:1, the table pays 9:1",
        "corrections": [{"username": "ann", "amount": 500}],
    }
    decided = _decide(api, ines, dispute, body, key=key)
    # The round was paid as dealt: 500 more is beyond what it owes, a second inspector
    # approves it (issue 25) and nothing moves until then.
    assert table.balances() == before
    # The same request again (a retry) answers the same and asks nothing twice (R8).
    assert _decide(api, ines, dispute, body, key=key).json() == decided.json()
    approved = _approved(api, decided, _inspector(api, "jon"))
    assert approved.json()["status"] == "approved" and approved.json()["transaction"]
    assert table.balances() == {"ann": before["ann"] + 500, "ben": before["ben"]}
    # A second decision is refused and moves nothing.
    again = _decide(api, ines, dispute, {"decision": "rejected", "reason": "changed my mind"})
    assert again.status_code == 409, again.text
    again = _decide(api, ines, dispute, body)
    assert again.status_code == 409
    assert table.balances() == {"ann": before["ann"] + 500, "ben": before["ben"]}
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0

    # The statement shows the correction under its round, with the decision's reason.
    entry = api.get("/me/ledger", table.tokens["ann"]).json()["entries"][0]
    assert (entry["kind"], entry["round"], entry["amount"]) == ("dispute-correction", round_id, 500)
    assert entry["correction"] == {
        "dispute": dispute,
        "reason": "the tie was paid 8:1, the table pays 9:1",
    }
    mine = api.get("/me/disputes", table.tokens["ann"]).json()["disputes"]
    assert [(d["dispute"], d["round"], d["status"], d["decision"], d["reason"]) for d in mine] == [
        (dispute, round_id, "upheld", "upheld", "the tie was paid 8:1, the table pays 9:1")
    ]
    assert mine[0]["corrections"] == [{"username": "ann", "amount": 500}]
    assert mine[0]["final"] is False
    assert mine[0]["regulator"] == "Dirección General de Juegos de Casino y Máquinas"
    assert api.get("/me/disputes", table.tokens["ben"]).json() == {"disputes": []}
    item = _queue_item(api, ines, dispute)
    assert item["corrected"] == {"ann": 500} and item["paid"] == expected  # the round's own
    actions = api.get("/operator/staff/actions", OPERATOR_TOKEN).json()["actions"]
    kinds = {action["kind"]: action for action in reversed(actions)}
    assert actions[0]["kind"] == "approval-decided" and actions[0]["by"] == "jon"
    assert kinds["approval-asked"]["by"] == "ines"
    assert kinds["approval-asked"]["detail"]["corrections"] == [{"username": "ann", "amount": 500}]


def test_dragon_six_art_12_only_a_player_of_the_round_disputes_it(api: Api) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    outsider = api.player("zoe")
    assert _dispute(api, outsider, round_id).status_code == 403
    assert _dispute(api, table.tokens["ann"], 10**6).status_code == 404
    assert _dispute(api, OPERATOR_TOKEN, round_id).status_code == 403
    assert _dispute(api, table.tokens["ann"], round_id, "").status_code == 422
    assert _dispute(api, table.tokens["ann"], round_id, "   ").status_code == 422
    assert _dispute(api, table.tokens["ann"], round_id, "x" * 2001).status_code == 422
    assert _dispute(api, table.tokens["ann"], round_id, "nul\x00byte").status_code == 422
    assert _dispute(api, table.tokens["ann"], round_id, "bell\x07").status_code == 422
    assert (
        api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": 5}).status_code
        == 422
    )
    no_key = api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "a"}, key=None)
    assert no_key.status_code == 400
    first = _dispute(api, table.tokens["ann"], round_id, "two lines:\n\tpaid short")
    assert first.status_code == 201
    # One open dispute per player and round (issue 26): refused by its own code, whose words
    # the player's page says (a second tab, a double-click with its own key).
    again = _dispute(api, table.tokens["ann"], round_id)
    assert again.status_code == 409
    assert again.json()["code"] == "dispute_already_open"
    assert again.json()["params"] == {"dispute": first.json()["dispute"], "round": round_id}


def test_dragon_six_art_12_a_live_round_may_be_disputed_and_is_resettled_when_it_ends(
    api: Api,
) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    ines = _inspector(api)
    round_id = table.bet_all()
    filed = _dispute(api, table.tokens["ann"], round_id, "the dealer took my chips early")
    assert filed.status_code == 201, filed.text
    item = _queue_item(api, ines, filed.json()["dispute"])
    assert item["resettled"] is None and item["paid"] == {}
    assert "in progress" in item["problem"]
    detail = api.get(f"/inspector/disputes/{filed.json()['dispute']}", ines).json()
    assert detail["round_record"]["events"] == []  # no card of a live round (R6)
    early = {"decision": "upheld", "corrections": [{"username": "ann", "amount": 100}]}
    refused = _decide(api, ines, filed.json()["dispute"], early)
    assert refused.status_code == 409 and "in progress" in refused.json()["detail"]
    table.ready_all()
    table.play_out(round_id)
    item = _queue_item(api, ines, filed.json()["dispute"])
    assert item["resettled"] == item["paid"] == _engine_payouts(table, round_id)


def test_dragon_six_art_12_the_decision_refuses_what_it_cannot_do_and_moves_nothing(
    api: Api,
) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _inspector(api)
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]
    before = table.balances()
    hostile: list[dict[str, Any]] = [
        {"decision": "rejected", "reason": ""},
        {"decision": "rejected", "reason": "  "},
        {"decision": "rejected", "reason": "nul\x00byte"},
        {"decision": "rejected", "reason": "x" * 2001},
        {"decision": "rejected", "reason": "no", "corrections": [{"username": "ann", "amount": 5}]},
        {"decision": "maybe", "reason": "?"},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": 0}]},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": 1.5}]},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": 5.0}]},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": "500"}]},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": True}]},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": 10**14}]},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": -(10**14)}]},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": 10**400}]},
        {"decision": "upheld", "corrections": [{"username": "ann"}]},
        {"decision": "upheld", "corrections": [{"username": "zoe", "amount": 5}]},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": 5}] * 2},
        {"decision": "upheld", "corrections": [{"username": "ann", "amount": 5}] * 17},
        {"decision": "upheld", "corrections": {"username": "ann", "amount": 5}},
    ]
    for body in hostile:
        answer = _decide(api, ines, dispute, body)
        assert answer.status_code == 422, (body, answer.text)
    no_key = _decide(api, ines, dispute, {"decision": "rejected", "reason": "x"}, key=None)
    assert no_key.status_code == 400 and no_key.json()["error"] == "IdempotencyError"
    # A correction that takes back more than the wallet holds waits for a second inspector
    # (it is beyond what the round overpaid); approved, it is 402 and nothing moves; refused,
    # the dispute is open again.
    take_back = [{"username": "ben", "amount": -(before["ben"] + 1)}]
    waiting = _decide(api, ines, dispute, {"decision": "upheld", "corrections": take_back})
    assert waiting.status_code == 202, waiting.text
    jon = _inspector(api, "jon")
    approval = f"/inspector/approvals/{waiting.json()['approval']}/decision"
    short = api.post(approval, jon, {"decision": "approved"})
    assert short.status_code == 402, short.text
    mine = api.get("/me/disputes", table.tokens["ann"]).json()["disputes"][0]
    assert mine["status"] == "awaiting_approval"
    assert api.post(approval, jon, {"decision": "refused", "reason": "no"}).status_code == 200
    assert _decide(api, ines, 10**6, {"decision": "rejected", "reason": "x"}).status_code == 404
    assert table.balances() == before
    assert api.get("/me/disputes", table.tokens["ann"]).json()["disputes"][0]["status"] == "open"
    # Corrections both ways in one transaction: the ledger still sums to zero.
    both = [{"username": "ann", "amount": 250}, {"username": "ben", "amount": -100}]
    _approved(api, _decide(api, ines, dispute, {"decision": "upheld", "corrections": both}), jon)
    assert table.balances() == {"ann": before["ann"] + 250, "ben": before["ben"] - 100}
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0
    assert api.audit()["accounts"]["house:house"] == -150 + _house_before(api, round_id)


def _house_before(api: Api, round_id: int) -> int:
    """The house's balance less what the corrections moved (read back from the ledger)."""
    from sqlalchemy import func, select

    from croupier.service.models import Account, LedgerEntry, LedgerTransaction

    def read(session):  # type: ignore[no-untyped-def]
        return session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0))
            .join(Account, Account.id == LedgerEntry.account_id)
            .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
            .where(Account.kind == "house", LedgerTransaction.kind != "dispute-correction")
        )

    value: int = api.server.uow.read(read)
    return value


def test_spain_1979_iii_the_inspector_resolves_a_first_round_of_the_shoe(api: Api) -> None:
    """V.3.c: the first five cards of the shoe are put aside; the first round's record
    holds those burns, and the re-settlement leaves them out as the shoe did."""
    table = Table(api, "spain-1979", ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    events = table.recall(round_id)["events"]
    assert sum(1 for e in events if e["kind"] == "CardDrawn" and e["purpose"] == "burn") == 5
    ines = _inspector(api)
    dispute = _dispute(api, table.tokens["ben"], round_id).json()["dispute"]
    item = _queue_item(api, ines, dispute)
    assert item["resettled"] == item["paid"] == _engine_payouts(table, round_id)
    rejected = _decide(api, ines, dispute, {"decision": "rejected", "reason": "paid as dealt"})
    assert rejected.status_code == 200, rejected.text
    mine = api.get("/me/disputes", table.tokens["ben"]).json()["disputes"]
    assert (mine[0]["status"], mine[0]["decision"], mine[0]["reason"]) == (
        "rejected",
        "rejected",
        "paid as dealt",
    )


def test_spain_1979_iii_an_inspector_does_not_decide_a_round_they_played(api: Api) -> None:
    table = Table(api, "spain-1979", ["ann", "ines"], credit_minor=100_000)
    round_id = table.play_round()
    api.post("/operator/staff", OPERATOR_TOKEN, {"username": "ines", "role": "inspector"})
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]
    body = {"decision": "upheld", "corrections": [{"username": "ines", "amount": 10_000}]}
    assert _decide(api, table.tokens["ines"], dispute, body).status_code == 403
    assert table.balances() == {
        "ann": api.balance(table.tokens["ann"]),
        "ines": api.balance(table.tokens["ines"]),
    }
    other = _inspector(api, "iris")
    assert (
        _decide(
            api, other, dispute, {"decision": "rejected", "reason": "paid as dealt"}
        ).status_code
        == 200
    )


def test_an_edited_record_is_caught_by_the_resettlement_and_the_commitment_check(
    api: Api,
) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _inspector(api)
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]

    def swap_first_card(session):  # type: ignore[no-untyped-def]
        record = session.get(RoundRecord, round_id)
        events = [dict(e) for e in record.events]
        drawn = [e for e in events if e["kind"] == "CardDrawn"]
        # Eight decks may draw the same card twice running: swap the first two that differ.
        other = next(e for e in drawn[1:] if e["card"] != drawn[0]["card"])
        drawn[0]["card"], other["card"] = other["card"], drawn[0]["card"]
        record.events = events

    api.server.uow.run(swap_first_card)
    item = _queue_item(api, ines, dispute)
    assert item["commitment"]["commitment_holds"] is True  # the shoe's own record is intact
    assert item["commitment"]["cards_follow_the_shoe"] is False


def test_veintiuno_real_item_14_the_supervisors_ruling_is_final_and_has_its_window(
    api: Api,
) -> None:
    table = Table(api, "veintiuno-real", ["ann"], credit_minor=100_000)
    ines = _inspector(api)
    late = table.play_round()
    api.clock.advance(24 * 3600 + 1)
    _sign_in_again(api, table, "ann")
    ines = api.post(
        "/auth/signin", None, {"username": "ines", "password": "password-of-ines"}, key=None
    ).json()["token"]
    closed = _dispute(api, table.tokens["ann"], late)
    assert closed.status_code == 409 and "24 hours" in closed.json()["detail"]
    round_id = table.play_round()
    api.clock.advance(24 * 3600 - 1)
    _sign_in_again(api, table, "ann")
    ines = api.post(
        "/auth/signin", None, {"username": "ines", "password": "password-of-ines"}, key=None
    ).json()["token"]
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]
    assert (
        _decide(api, ines, dispute, {"decision": "rejected", "reason": "paid as dealt"}).status_code
        == 200
    )
    mine = api.get("/me/disputes", table.tokens["ann"]).json()["disputes"][0]
    assert (mine["final"], mine["regulator"], mine["dossier"]) == (True, None, False)
    refused = api.get(f"/me/disputes/{dispute}/dossier.pdf", table.tokens["ann"])
    assert refused.status_code == 409 and "final" in refused.json()["detail"]


@pytest.mark.parametrize(
    "profile", ["peru-2016", pytest.param("casino-holdem-peru-2007", marks=pytest.mark.slow)]
)
def test_peru_profiles_follow_dragon_six_art_12_the_regulator(api: Api, profile: str) -> None:
    table = Table(api, profile, ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _inspector(api)
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]
    item = _queue_item(api, ines, dispute)
    assert item["resettled"] == item["paid"] == _engine_payouts(table, round_id)
    mine = api.get("/me/disputes", table.tokens["ann"]).json()["disputes"][0]
    assert (mine["final"], mine["regulator"], mine["dossier"]) == (
        False,
        "Dirección General de Juegos de Casino y Máquinas",
        False,
    )


def test_spain_1979_a_disputed_back_bet_is_resettled_by_the_tables_own_share_rule(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rules.md#D-BJ-28: a back bet returns its stake times its box's return, rounded
    down to the minor unit. The dispute's re-settlement reads the box's return from the
    engine's ``results()`` in exact fractions and shares it by the one rule the table settled
    the back bet by (``RoundResult.back_bet_payout``): were that rule another, the
    re-settlement would follow it."""
    table = Table(api, "spain-1979", ["ann"], credit_minor=100_000)
    ben = api.player("ben", 100_000)
    round_id = table.bet_all(10)
    body = {"seat": 1, "wager": "main", "amount": 5}
    back = api.post(f"/tables/{table.id}/back-bets", ben, body).json()["back_bet"]
    consent = api.post(
        f"/tables/{table.id}/back-bets/{back}/consent", table.tokens["ann"], {"accept": True}
    )
    assert consent.status_code == 200, consent.text
    table.ready_all()
    table.play_out(round_id)
    results = replay(
        [Event.from_json(e) for e in table.recall(round_id)["events"]], table.profile
    ).results()
    ines = _inspector(api)
    dispute = _dispute(api, ben, round_id).json()["dispute"]
    item = _queue_item(api, ines, dispute)
    assert item["resettled"] == item["paid"]
    assert item["resettled"].get("ben", 0) == results.back_bet_payout(1, 500)
    monkeypatch.setattr(RoundResult, "back_bet_payout", lambda _self, _seat, _amount: 7)
    assert _queue_item(api, ines, dispute)["resettled"]["ben"] == 7


def test_two_inspectors_deciding_at_once_move_the_money_once(api: Api) -> None:
    """The decision's conditional update is the guard: of concurrent decisions one wins,
    the others get 409 and move nothing (R7)."""
    from concurrent.futures import ThreadPoolExecutor

    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    inspectors = [_inspector(api, f"insp{n}") for n in range(4)]
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]
    before = api.balance(table.tokens["ann"])
    body = {"decision": "upheld", "corrections": [{"username": "ann", "amount": 700}]}
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda t: _decide(api, t, dispute, body), inspectors))
    assert sorted(a.status_code for a in answers) == [202, 409, 409, 409]
    # 700 is beyond what the round owes: it waits; of three approvals at once, one moves it.
    asker = next(n for n, a in enumerate(answers) if a.status_code == 202)
    number = answers[asker].json()["approval"]
    others = [token for n, token in enumerate(inspectors) if n != asker]
    path = f"/inspector/approvals/{number}/decision"
    with ThreadPoolExecutor(3) as pool:
        codes = sorted(
            pool.map(lambda t: api.post(path, t, {"decision": "approved"}).status_code, others)
        )
    assert codes == [200, 409, 409]
    assert api.balance(table.tokens["ann"]) == before + 700
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0


def test_rules_stored_before_disputes_still_load_and_set_no_window() -> None:
    """A table's rules stored before the ``disputes`` section existed (issue 10) load as
    they were, with the same text and version; their rounds cannot be disputed."""
    import json

    from croupier.rules import load_profile
    from croupier.service import table_rules

    data = json.loads(table_rules.document(load_profile("dragon-six-peru-2016")))
    del data["disputes"], data["sources"]["disputes"]
    text = json.dumps(data, sort_keys=True)
    version = table_rules.version_of("dragon-six-peru-2016", text)
    old = table_rules.from_document("baccarat", text, version)
    assert old.disputes is None
    assert table_rules.document(old) == text


def test_dragon_six_art_12_the_player_downloads_a_dossier_for_the_direccion_general(
    api: Api, tmp_path: Any
) -> None:
    from pypdf import PdfReader

    table = Table(api, "dragon-six-peru-2016", ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _inspector(api)
    dispute = _dispute(api, table.tokens["ann"], round_id, "my tie was paid 8 to 1").json()[
        "dispute"
    ]
    path = f"/me/disputes/{dispute}/dossier.pdf"
    assert api.get(path, table.tokens["ann"]).status_code == 409  # still open
    body = {
        "decision": "upheld",
        "reason": "tie pays 9:1 under Art. 8",
        "corrections": [{"username": "ann", "amount": 500}],
    }
    _approved(api, _decide(api, ines, dispute, body), _inspector(api, "jon"))
    assert api.get(path, table.tokens["ben"]).status_code == 403
    answer = api.get(path, table.tokens["ann"])
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "dossier.pdf"
    pdf.write_bytes(answer.content)
    if keep := os.environ.get("CROUPIER_KEEP_DOSSIER"):  # to render and look at it
        Path(keep).write_bytes(answer.content)
    text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    for expected in (
        f"Dispute {dispute}",
        "Dirección General de Juegos de Casino y Máquinas",
        "my tie was paid 8 to 1",
        "tie pays 9:1 under Art. 8",
        "ann: 5.00",
        api.get(f"/shoes/{table.recall(round_id)['shoe']}", OPERATOR_TOKEN).json()["commitment"][
            :40
        ],
        # R15: the chain's entries covering the dispute, its round and its corrections
        api.server.uow.read(lambda s: disputes.chain_entries(s, dispute))[-1]["hash"],
    ):
        # Long hex values are printed in lines: they are read with the lines joined.
        joined = "".join(text.split()) if " " not in expected else text.replace("\n", " ")
        assert expected in joined, expected


def test_dragon_six_art_12_the_dossier_carries_the_head_signed_with_the_operators_key(
    database_url: str, tmp_path: Path
) -> None:
    """Art. 12 with R15 and D-GEN-16a: what the player files lets the Dirección General check
    it without the operator's secret. The dossier lists the chain entries that cover the
    dispute, its round, the round's ledger transactions and entries (its stakes and its
    settlement) and the correction, and the chain's head signed with the server's Ed25519 key:
    the signature printed is the operator's public key's over the fields printed, the head is
    at or after every entry listed, and the database verifies against it."""
    from pypdf import PdfReader

    from croupier.audit.signing import read_private_key, signature_problem
    from croupier.audit.verify import read_signed_head
    from croupier.service.accounts import Principal

    key_file = tmp_path / "operator.audit-key"
    made = make_api(database_url, audit_key=key_file)
    api = next(made)
    try:
        table = Table(api, "dragon-six-peru-2016", ["sia", "teo"], credit_minor=100_000)
        round_id = table.play_round()
        ines = _inspector(api)
        dispute = _dispute(api, table.tokens["sia"], round_id, "short paid").json()["dispute"]
        body = {
            "decision": "upheld",
            "reason": "9:1",
            "corrections": [{"username": "sia", "amount": 300}],
        }
        _approved(api, _decide(api, ines, dispute, body), _inspector(api, "jon"))
        answer = api.get(f"/me/disputes/{dispute}/dossier.pdf", table.tokens["sia"])
        assert answer.status_code == 200, answer.text
        sia = api.get("/me/roles", table.tokens["sia"]).json()["username"]
        facts = api.server.uow.read(
            lambda s: disputes.dossier_facts(
                s, Principal(_user_id(s, sia), sia, "player"), dispute, read_private_key(key_file)
            )
        )
    finally:
        made.close()
    pdf = tmp_path / "dossier.pdf"
    pdf.write_bytes(answer.content)
    pages = [page.extract_text() for page in PdfReader(pdf).pages]
    printed = "".join("".join(page.split()) for page in pages)
    # The regulator's reading: the head's fields as printed (hex in lines, joined), as JSON.
    lines = "\n".join(pages).split("The signed head / La cabeza firmada (R15)")[1].splitlines()
    fields: dict[str, str] = {}
    name = None
    for line in lines[lines.index("format") :]:
        if line.startswith("Head time"):
            break
        if line in ("format", "seq", "hash", "at", "written_at", "public_key", "signature"):
            name, fields[line] = line, ""
        elif name is not None:
            fields[name] += line.strip()
    head = {
        **fields,
        "seq": int(fields["seq"]),
        "at": float(fields["at"]),
        "written_at": float(fields["written_at"]),
    }
    (tmp_path / "head.json").write_text(json.dumps(head), encoding="utf-8")
    trusted = read_private_key(key_file).public_key()
    assert signature_problem(head, trusted) is None, head
    assert signature_problem({**head, "seq": head["seq"] - 1}, trusted) is not None
    published, problem = read_signed_head(tmp_path / "head.json", trusted)
    assert problem is None
    assert verify_database(database_url, published).is_intact
    entries = facts["chain_entries"]
    assert head["seq"] >= max(entry["sequence"] for entry in entries)
    covered = {entry["covers"].split()[0] for entry in entries}
    assert {"disputes", "rounds", "ledger_transactions", "ledger_entries"} <= covered, covered
    for entry in entries:  # each listed with its kind, actor and hash
        assert entry["hash"] in printed and "".join(entry["actor"].split()) in printed
    staked = facts["verification"]["staked"]
    assert staked == {"sia": table.stake * 100, "teo": table.stake * 100}, staked


def _user_id(session: Any, username: str) -> int:
    from sqlalchemy import select

    from croupier.service.models import User

    return int(session.scalars(select(User.id).where(User.username == username)).one())


def test_a_round_voided_on_restart_shows_its_returned_stakes_and_why_it_does_not_resettle(
    api: Api,
) -> None:
    """R11: a round whose record cannot be rebuilt is voided, every stake returned; its
    dispute shows the stakes as paid and the record's failure to replay as the problem."""
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=10_000)
    ines = _inspector(api)
    round_id = table.bet_all()

    def corrupt(session):  # type: ignore[no-untyped-def]
        record = session.get(RoundRecord, round_id)
        record.events = [*record.events, {"kind": "RoundEnded"}]

    api.server.uow.run(corrupt)
    api.server.casino.load()
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]
    item = _queue_item(api, ines, dispute)
    assert item["paid"] == {"ann": table.stake * 100}
    assert item["resettled"] is None and "does not re-settle" in item["problem"]


def test_r15_the_decision_and_the_roles_enter_the_hash_chain(api: Api, database_url: str) -> None:
    """R15: a role granted, a dispute filed and its decision (with the correction's ledger
    transaction) are each a chain entry written with them; the database verifies, and an edit
    of the decided dispute's reason is caught, naming its row."""
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _inspector(api)
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]
    body = {
        "decision": "upheld",
        "reason": "short paid",
        "corrections": [{"username": "ann", "amount": 500}],
    }
    _approved(api, _decide(api, ines, dispute, body), _inspector(api, "jon"))
    assert verify_database(database_url).is_intact
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            kinds = set(connection.execute(text("SELECT kind FROM audit_chain")).scalars())
        assert {"staff role inspector", "dispute open", "dispute upheld"} <= kinds, kinds
        # Issue 25: the request and the second inspector's answer are chain entries too.
        assert {"dispute awaiting_approval", "approval dispute awaiting"} <= kinds, kinds
        assert "approval dispute approved" in kinds, kinds
        with engine.connect() as connection, connection.begin():
            connection.execute(
                text(f"UPDATE disputes SET reason = 'paid right' WHERE id = {dispute}")
            )
            report = verify(connection)
            connection.rollback()
    finally:
        engine.dispose()
    assert report.problems and f"disputes [{dispute}]" in report.problems[0], report.problems


def test_the_dossier_lists_the_chain_entries_that_cover_the_dispute(api: Api) -> None:
    """Issue 14 item 4 with R15: the dossier's chain entries are those covering the dispute's
    row (filed, then decided), its round and its corrections' ledger transaction, oldest first."""
    table = Table(api, "dragon-six-peru-2016", ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _inspector(api)
    dispute = _dispute(api, table.tokens["ann"], round_id).json()["dispute"]
    body = {
        "decision": "upheld",
        "reason": "short",
        "corrections": [{"username": "ann", "amount": 5}],
    }
    _approved(api, _decide(api, ines, dispute, body), _inspector(api, "jon"))
    entries = api.server.uow.read(lambda s: disputes.chain_entries(s, dispute))
    kinds = [entry["kind"] for entry in entries]
    assert kinds.index("dispute open") < kinds.index("dispute upheld"), kinds
    assert kinds.index("approval dispute awaiting") < kinds.index("approval dispute approved")
    assert any(kind.startswith("round ") for kind in kinds), kinds
    assert "dispute-correction" in kinds, kinds
    sequences = [entry["sequence"] for entry in entries]
    assert sequences == sorted(sequences) and len(set(sequences)) == len(sequences)


@pytest.mark.parametrize("name", ["\x00", "ann\n", "a" * 65])
def test_a_name_no_account_can_have_is_refused_as_unknown_and_moves_nothing(
    api: Api, name: str
) -> None:
    """Hostile user names in paths and bodies (a NUL byte was a 500 on PostgreSQL): each is a
    typed 4xx naming it, and the ledger is untouched."""
    before = api.audit()
    path = f"/operator/wallets/{quote(name)}/credit"
    assert api.post(path, OPERATOR_TOKEN, {"amount": 100}).status_code == 404
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "inspector"})
    assert granted.status_code in (404, 422), granted.text
    signin = api.client.post("/auth/signin", json={"username": name, "password": "x" * 12})
    assert signin.status_code == 401, signin.text
    assert api.audit() == before
