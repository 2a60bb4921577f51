"""A wrong payout or a wrong collection found later, and a round the dealer cannot finish
(issue 14, item 3), through the API: on SQLite in CI, the PostgreSQL duplicate in the slow
form.

- Dragon Six, Peru 2016, Art. 12: "El personal de la Sala de Juego procurará corregir en forma
  inmediata los errores detectados en las partidas" (the staff correct errors); a player who
  disagrees calls the Inspector.
- Spain 1979, III: the croupier "paga y cobra" (pays and collects); the inspector or table
  chief "controlar el juego y resolver los problemas": the dealer proposes, an inspector
  confirms, and only the confirmation moves money (issue 14: "a dealer alone may not").

Every figure is exact, in minor units: the balance after a confirmation is the balance before
it plus the correction, the books still sum to 0, ``croupier audit verify`` passes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from server_support import OPERATOR_TOKEN, Api, Table, make_api
from typer.testing import CliRunner

from croupier.audit.verify import verify_database
from croupier.cli.main import app as croupier_cli
from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.ledger.book import to_minor
from croupier.service.database import alembic_config, make_engine

DRAGON_SIX = "dragon-six-peru-2016"


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=[pytest.mark.postgres, pytest.mark.slow])]
)
def url(request: pytest.FixtureRequest, database_url_for: Any) -> Iterator[str]:
    """SQLite in CI; the same tests on PostgreSQL in the slow form (CI's budget)."""
    yield from database_url_for(request.param)


@pytest.fixture
def api(url: str) -> Iterator[Api]:
    yield from make_api(url)


def _grant(api: Api, name: str, role: str, token: str | None = None) -> str:
    token = token or api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": role})
    assert granted.status_code == 201, granted.text
    return token


def _dealer_at(api: Api, name: str, table: Table, token: str | None = None) -> str:
    token = _grant(api, name, "dealer", token=token)
    assigned = api.post(f"/operator/tables/{table.id}/dealers", OPERATOR_TOKEN, {"username": name})
    assert assigned.status_code == 200, assigned.text
    return token


def _propose(
    api: Api, token: str, round_id: int, body: dict[str, Any], key: str | None = "auto"
) -> Any:
    return api.post(f"/rounds/{round_id}/corrections", token, body, key=key)


def _decide(api: Api, token: str, correction: int, body: dict[str, Any], key: str = "auto") -> Any:
    return api.post(f"/inspector/corrections/{correction}/decision", token, body, key=key)


def _statement(api: Api, token: str) -> list[dict[str, Any]]:
    answer = api.get("/me/ledger?limit=500", token)
    assert answer.status_code == 200, answer.text
    entries: list[dict[str, Any]] = answer.json()["entries"]
    return entries


def _books_balance(api: Api) -> None:
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


SHORT = "the tie was paid 8:1; the table pays it 9:1"


def _engine_payouts(table: Table, round_id: int) -> dict[str, int]:
    """Minor units the engine's replay of the recorded events pays each player."""
    events = [Event.from_json(e) for e in table.recall(round_id)["events"]]
    paid: dict[str, int] = {}
    for wager in replay(events, table.profile).results().wagers:
        name = table.owner[wager.seat]
        paid[name] = paid.get(name, 0) + to_minor(wager.payout)
    return paid


def test_dragon_six_art_12_the_dealer_proposes_and_an_inspector_confirms_a_payout_correction(
    api: Api, url: str
) -> None:
    table = Table(api, DRAGON_SIX, ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    dana = _dealer_at(api, "dana", table)
    ines = _grant(api, "ines", "inspector")
    before = table.balances()
    entries_before = len(_statement(api, table.tokens["ann"]))

    proposed = _propose(api, dana, round_id, {"username": "ann", "amount": 500, "reason": SHORT})
    assert proposed.status_code == 201, proposed.text
    correction = proposed.json()
    assert {k: correction[k] for k in ("round", "username", "amount", "reason", "status")} == {
        "round": round_id,
        "username": "ann",
        "amount": 500,
        "reason": SHORT,
        "status": "proposed",
    }
    assert correction["proposed_by"] == "dana" and correction["transaction"] is None
    # A proposal moves nothing: "a dealer alone may not move money".
    assert table.balances() == before
    assert len(_statement(api, table.tokens["ann"])) == entries_before

    # The table's dealer reads the round's recall (as a spectator) to propose from it.
    seen = table.api.get(f"/rounds/{round_id}", dana).json()
    assert seen["may_propose_correction"] is True and seen["players"] == ["ann", "ben"]
    assert table.recall(round_id, "ann")["may_propose_correction"] is False
    assert "players" not in table.recall(round_id, "ann")

    # Only an inspector decides: the dealer, the operator and the players get 403.
    for token in (dana, OPERATOR_TOKEN, table.tokens["ann"], table.tokens["ben"]):
        refused = _decide(api, token, correction["correction"], {"decision": "confirmed"})
        assert refused.status_code == 403, refused.text
        assert api.get("/inspector/corrections", token).status_code == 403
    assert table.balances() == before

    queue = api.get("/inspector/corrections", ines).json()["corrections"]
    assert [(c["correction"], c["status"]) for c in queue] == [
        (correction["correction"], "proposed")
    ]
    # Beside it, what the ledger paid ann for the round and what the engine pays its record.
    settled = [
        e["amount"]
        for e in _statement(api, table.tokens["ann"])
        if e["round"] == round_id and e["kind"] == "settlement"
    ]
    engine_pays = _engine_payouts(table, round_id).get("ann", 0)
    assert (queue[0]["paid"], queue[0]["resettled"], queue[0]["corrected"]) == (
        sum(settled),
        engine_pays,
        0,
    )
    assert sum(settled) == engine_pays
    key = api.key()
    confirmed = _decide(api, ines, correction["correction"], {"decision": "confirmed"}, key=key)
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["status"] == "confirmed" and confirmed.json()["decided_by"] == "ines"
    assert confirmed.json()["transaction"]
    assert table.balances() == {"ann": before["ann"] + 500, "ben": before["ben"]}
    _books_balance(api)
    # The same request again (a retry) answers the same and moves nothing twice (R8).
    again = _decide(api, ines, correction["correction"], {"decision": "confirmed"}, key=key)
    assert again.json() == confirmed.json()
    # A second decision is refused (409) and moves nothing.
    for decision in ({"decision": "confirmed"}, {"decision": "refused", "reason": "no"}):
        second = _decide(api, ines, correction["correction"], decision)
        assert second.status_code == 409, second.text
        assert second.json()["code"] == "correction_decided"
        assert second.json()["params"] == {"correction": correction["correction"]}
    assert table.balances() == {"ann": before["ann"] + 500, "ben": before["ben"]}

    # The player's statement: its own transaction, referenced to the round, with the reason;
    # the round's own entries are as they were.
    statement = _statement(api, table.tokens["ann"])
    assert len(statement) == entries_before + 1
    newest = statement[0]
    assert (newest["kind"], newest["round"], newest["amount"]) == (
        "payout-correction",
        round_id,
        500,
    )
    assert newest["reference"] == f"round:{round_id}:correction:{correction['correction']}"
    assert newest["balance_after"] - newest["balance_before"] == 500
    assert newest["correction"] == {"correction": correction["correction"], "reason": SHORT}
    assert statement[1:] == _statement(api, table.tokens["ann"])[1:]
    # The round's recall shows it to its player, with the reason; not to the other player.
    recalled = table.recall(round_id, "ann")["corrections"]
    assert [(c["amount"], c["reason"], c["status"]) for c in recalled] == [
        (500, SHORT, "confirmed")
    ]
    assert table.recall(round_id, "ben")["corrections"] == []
    # The player's rounds: the round's net counts the correction, which is listed with it.
    rounds = api.get("/me/rounds?limit=50", table.tokens["ann"]).json()["rounds"]
    mine = next(r for r in rounds if r["round"] == round_id)
    assert [c["reason"] for c in mine["corrections"]] == [SHORT]
    settled = sum(e["amount"] for e in statement if e["round"] == round_id) - 500
    assert mine["net_minor"] == settled + 500

    # Each step is a staff action with who and when.
    actions = api.get("/operator/staff/actions", OPERATOR_TOKEN).json()["actions"]
    kinds = [(a["kind"], a["by"], a["subject"]) for a in actions[:2]]
    assert kinds == [
        ("correction-decided", "ines", f"correction:{correction['correction']}"),
        ("correction-proposed", "dana", f"correction:{correction['correction']}"),
    ]
    assert actions[0]["detail"]["transaction"] == confirmed.json()["transaction"]
    assert actions[0]["at"] == api.clock.now()
    # The inspector's dispute queue counts it among what the round's payments were corrected by.
    filed = api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "still short"})
    item = api.get("/inspector/disputes", ines).json()["disputes"][0]
    assert item["dispute"] == filed.json()["dispute"] and item["corrected"] == {"ann": 500}
    # R15: the chain covers the correction, its transaction and the actions.
    verified = CliRunner().invoke(croupier_cli, ["audit", "verify", "--database", url])
    assert verified.exit_code == 0, verified.output


def test_r15_a_correction_edited_behind_the_servers_back_is_caught(api: Api, url: str) -> None:
    """The corrections' table is in the audited set: an amount changed in the database after
    the confirmation makes ``croupier audit verify`` exit 1 naming the row."""
    table = Table(api, DRAGON_SIX, ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _grant(api, "ines", "inspector")
    body = {"username": "ann", "amount": 500, "reason": "paid short"}
    number = _propose(api, OPERATOR_TOKEN, round_id, body).json()["correction"]
    assert _decide(api, ines, number, {"decision": "confirmed"}).status_code == 200
    assert verify_database(url).is_intact
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE payout_corrections SET amount = 50000 WHERE id = :id"), {"id": number}
        )
    engine.dispose()
    verified = CliRunner().invoke(croupier_cli, ["audit", "verify", "--database", url])
    assert verified.exit_code == 1, verified.output
    assert "payout_corrections" in verified.output


def test_dragon_six_art_12_a_refused_correction_moves_nothing(api: Api, url: str) -> None:
    table = Table(api, DRAGON_SIX, ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _grant(api, "ines", "inspector")
    before = table.balances()
    statement = _statement(api, table.tokens["ann"])
    # The operator proposes taking back an overpayment (negative: from the player).
    proposed = _propose(
        api, OPERATOR_TOKEN, round_id, {"username": "ann", "amount": -300, "reason": "paid 3:2"}
    )
    assert proposed.status_code == 201, proposed.text
    number = proposed.json()["correction"]
    blank = _decide(api, ines, number, {"decision": "refused", "reason": "   "})
    assert blank.status_code == 422 and blank.json()["code"] == "correction_needs_reason"
    refused = _decide(api, ines, number, {"decision": "refused", "reason": "the payout was right"})
    assert refused.status_code == 200, refused.text
    assert refused.json()["status"] == "refused" and refused.json()["transaction"] is None
    assert refused.json()["decision_reason"] == "the payout was right"
    assert table.balances() == before
    assert _statement(api, table.tokens["ann"]) == statement
    assert table.recall(round_id, "ann")["corrections"] == []
    late = _decide(api, ines, number, {"decision": "confirmed"})
    assert late.status_code == 409
    assert table.balances() == before
    _books_balance(api)
    listed = api.get("/operator/corrections", OPERATOR_TOKEN).json()["corrections"]
    assert [(c["correction"], c["status"], c["amount"]) for c in listed] == [
        (number, "refused", -300)
    ]
    assert verify_database(url).is_intact


def test_spain_1979_iii_the_duties_are_separated(api: Api) -> None:
    """Who proposes and who confirms. A dealer of another table, an inspector and a player
    do not propose; a person who is both dealer and inspector does not confirm their own
    proposal, nor does an inspector who played the round (four eyes: see
    ``service.payout_corrections``)."""
    table = Table(api, DRAGON_SIX, ["ann", "ben"], credit_minor=100_000)
    other = Table(api, DRAGON_SIX, ["cid"], credit_minor=100_000)
    round_id = table.play_round()
    body = {"username": "ann", "amount": 200, "reason": "collected in error"}
    elsewhere = _dealer_at(api, "otto", other)
    ines = _grant(api, "ines", "inspector")
    assert api.get(f"/rounds/{round_id}", elsewhere).status_code == 403  # not their table
    for token in (elsewhere, ines, table.tokens["ann"]):
        answer = _propose(api, token, round_id, body)
        assert answer.status_code == 403, answer.text
        assert answer.json()["code"] == "correction_proposer_only"
    # One person with both roles proposes as the table's dealer...
    both = _dealer_at(api, "bea", table)
    _grant(api, "bea", "inspector", token=both)
    number = _propose(api, both, round_id, body).json()["correction"]
    own = _decide(api, both, number, {"decision": "confirmed"})
    assert own.status_code == 403 and own.json()["code"] == "correction_own_proposal"
    # ... a dealer who played the round does not propose to their own wallet ...
    # (a player of it who has left the table: staff do not play, docs/rules.md#D-GEN-17)
    left = api.client.delete(
        f"/tables/{table.id}/seats/{table.seat_of['ben']}",
        headers=api.headers(table.tokens["ben"], api.key()),
    )
    assert left.status_code == 200, left.text
    _dealer_at(api, "ben", table, token=table.tokens["ben"])  # a player of it, made its dealer
    to_self = _propose(api, table.tokens["ben"], round_id, {**body, "username": "ben"})
    assert to_self.status_code == 403 and to_self.json()["code"] == "correction_to_self"
    # ... an inspector who played the round does not decide either ...
    _grant(api, "ben", "inspector", token=table.tokens["ben"])
    played = _decide(api, table.tokens["ben"], number, {"decision": "confirmed"})
    assert played.status_code == 403 and played.json()["code"] == "correction_own_round"
    before = table.balances()
    # ... another inspector does.
    assert _decide(api, ines, number, {"decision": "confirmed"}).status_code == 200
    assert table.balances() == {"ann": before["ann"] + 200, "ben": before["ben"]}
    _books_balance(api)


def test_dragon_six_art_12_a_bad_proposal_is_refused_with_its_code_and_moves_nothing(
    api: Api,
) -> None:
    table = Table(api, DRAGON_SIX, ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _grant(api, "ines", "inspector")
    outsider = api.player("zoe")
    before = table.balances()
    good = {"username": "ann", "amount": 500, "reason": "paid short"}
    for bad in (
        {**good, "amount": 0},
        {**good, "amount": 5.0},
        {**good, "amount": "500"},
        {**good, "amount": 10**14},
        {**good, "reason": ""},
        {**good, "reason": "nul\x00"},
        {"username": "ann", "amount": 500},
        {**good, "extra": 1},
    ):
        answer = _propose(api, OPERATOR_TOKEN, round_id, bad)
        assert answer.status_code == 422, (bad, answer.text)
        assert answer.json()["code"] and "params" in answer.json()
    blank = _propose(api, OPERATOR_TOKEN, round_id, {**good, "reason": "  "})
    assert blank.status_code == 422 and blank.json()["code"] == "correction_needs_reason"
    stranger = _propose(api, OPERATOR_TOKEN, round_id, {**good, "username": "zoe"})
    assert stranger.status_code == 422
    assert stranger.json()["code"] == "not_a_player_of_round"
    assert stranger.json()["params"] == {"username": "zoe", "round": round_id}
    assert _propose(api, OPERATOR_TOKEN, 10**6, good).status_code == 404
    assert _propose(api, OPERATOR_TOKEN, round_id, good, key=None).status_code == 400
    assert _propose(api, outsider, round_id, good).status_code == 403
    live = table.bet_all()
    early = _propose(api, OPERATOR_TOKEN, live, good)
    assert early.status_code == 409 and early.json()["code"] == "round_in_progress"
    assert _decide(api, ines, 10**6, {"decision": "confirmed"}).status_code == 404
    assert _decide(api, ines, 1, {"decision": "maybe"}).status_code == 422
    assert api.get("/inspector/corrections", ines).json() == {"corrections": []}
    # Only the bets of the round under way left the wallet.
    assert table.balances() == {"ann": before["ann"] - table.stake * 100}


def test_one_open_proposal_per_round_player_and_amount(api: Api) -> None:
    """Issue 26: "Propose" pressed twice (each press its own key, as a second tab's) filed two
    corrections of 2.50 and an inspector confirmed both. The second is refused (409,
    ``correction_already_proposed``) while the first is open; another amount, another player
    or the same amount once the first is decided are proposals of their own."""
    table = Table(api, DRAGON_SIX, ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    dana = _dealer_at(api, "dana", table)
    ines = _grant(api, "ines", "inspector")
    body = {"username": "ann", "amount": 250, "reason": SHORT}
    first = _propose(api, dana, round_id, body)
    assert first.status_code == 201, first.text
    again = _propose(api, dana, round_id, body)
    assert again.status_code == 409, again.text
    assert again.json()["code"] == "correction_already_proposed"
    assert again.json()["params"] == {"correction": first.json()["correction"], "round": round_id}
    assert _propose(api, OPERATOR_TOKEN, round_id, body).status_code == 409  # anyone's
    assert _propose(api, dana, round_id, {**body, "amount": 300}).status_code == 201
    assert _propose(api, dana, round_id, {**body, "username": "ben"}).status_code == 201
    queue = api.get("/inspector/corrections", ines).json()["corrections"]
    assert sorted((c["username"], c["amount"]) for c in queue) == [
        ("ann", 250),
        ("ann", 300),
        ("ben", 250),
    ]
    decided = _decide(api, ines, first.json()["correction"], {"decision": "refused", "reason": "x"})
    assert decided.status_code == 200, decided.text
    assert _propose(api, dana, round_id, body).status_code == 201


def test_a_taken_back_overpayment_the_wallet_cannot_cover_moves_nothing(api: Api) -> None:
    table = Table(api, DRAGON_SIX, ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    ines = _grant(api, "ines", "inspector")
    balance = table.balances()["ann"]
    body = {"username": "ann", "amount": -(balance + 1), "reason": "paid over"}
    number = _propose(api, OPERATOR_TOKEN, round_id, body).json()["correction"]
    refused = _decide(api, ines, number, {"decision": "confirmed"})
    assert refused.status_code == 402, refused.text
    assert refused.json()["code"] == "balance_too_low"
    assert table.balances()["ann"] == balance
    listed = api.get("/inspector/corrections", ines).json()["corrections"]
    assert listed[0]["status"] == "proposed"  # still open: another decision may follow
    _books_balance(api)


def test_spain_1979_iii_the_dealer_of_the_table_voids_a_round_it_cannot_finish(
    api: Api, url: str
) -> None:
    """Every stake returned: each wallet as it was before the round's bets, exactly."""
    table = Table(api, "veintiuno-real", ["ann", "ben"], credit_minor=100_000)
    dana = _dealer_at(api, "dana", table)
    otto = _dealer_at(api, "otto", Table(api, DRAGON_SIX, ["cid"]))
    before = table.balances()
    round_id = table.bet_all()
    assert table.balances() == {name: value - table.stake * 100 for name, value in before.items()}
    body = {"reason": "the shoe fell on the floor"}
    for token in (otto, table.tokens["ann"]):
        refused = api.post(f"/rounds/{round_id}/void", token, body)
        assert refused.status_code == 403 and refused.json()["code"] == "void_dealer_only"
    blank = api.post(f"/rounds/{round_id}/void", dana, {"reason": " "})
    assert blank.status_code == 422 and blank.json()["code"] == "void_needs_reason"
    voided = api.post(f"/rounds/{round_id}/void", dana, body)
    assert voided.status_code == 200, voided.text
    assert voided.json() == {
        "round": round_id,
        "table": table.id,
        "status": "voided",
        "reason": "the shoe fell on the floor",
    }
    assert table.balances() == before
    assert table.state()["round"]["id"] != round_id  # the next round is open for bets
    events = table.recall(round_id)["events"]
    assert any(e["kind"] == "RoundVoided" and e["reason"] == body["reason"] for e in events)
    again = api.post(f"/rounds/{round_id}/void", dana, body)
    assert again.status_code == 409 and again.json()["code"] == "round_not_under_way"
    # The inspector's re-settlement of the voided record agrees with what the ledger paid.
    ines = _grant(api, "ines", "inspector")
    filed = api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "why void?"})
    assert filed.status_code == 201, filed.text
    item = api.get("/inspector/disputes", ines).json()["disputes"][0]
    assert item["problem"] is None, item["problem"]
    assert item["resettled"] == item["paid"] == {"ann": table.stake * 100, "ben": table.stake * 100}
    actions = api.get("/operator/staff/actions", OPERATOR_TOKEN).json()["actions"]
    voids = [a for a in actions if a["kind"] == "round-voided"]
    assert [(a["by"], a["subject"]) for a in voids] == [("dana", f"round:{round_id}")]
    assert voids[0]["detail"]["held_minor"] == 2 * table.stake * 100
    assert voids[0]["detail"]["reason"] == body["reason"]
    assert table.recall(round_id)["status"] == "interrupted"  # read as a void, as R11's
    # The operator may too, once the cards are out: what was settled already stands (a
    # natural paid at once), every stake still in play comes back.
    dealt = table.bet_all()
    table.ready_all()
    if table.state()["round"]["id"] == dealt:
        # Once a card is seen the void waits for an inspector (issue 25, item 4).
        waiting = api.post(f"/rounds/{dealt}/void", OPERATOR_TOKEN, body)
        assert waiting.status_code == 202, waiting.text
        number = waiting.json()["approval"]
        approved = api.post(
            f"/inspector/approvals/{number}/decision", ines, {"decision": "approved"}
        )
        assert approved.status_code == 200, approved.text
    assert table.balances() == table.expected_balances([round_id, dealt])
    _books_balance(api)
    assert verify_database(url).is_intact


def test_revision_0007_downgrades_and_upgrades_again(url: str) -> None:
    """The corrections' table and its R15 triggers come and go with their revision."""
    engine = make_engine(url)
    with engine.begin() as connection:
        config = alembic_config(url)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        assert "payout_corrections" in sa.inspect(connection).get_table_names()
        command.downgrade(config, "0006")
        assert "payout_corrections" not in sa.inspect(connection).get_table_names()
        assert "disputes" in sa.inspect(connection).get_table_names()
        command.upgrade(config, "head")
        columns = {c["name"] for c in sa.inspect(connection).get_columns("payout_corrections")}
        assert {"round_id", "user_id", "amount", "reason", "status", "transaction_id"} <= columns
        assert _audit_triggers(connection) != []
        command.downgrade(config, "0006")
        assert _audit_triggers(connection) == []
        command.upgrade(config, "head")
        assert _audit_triggers(connection) != []
    engine.dispose()


def _audit_triggers(connection: sa.Connection) -> list[str]:
    """The R15 triggers on ``payout_corrections`` (revision 0007 installs them)."""
    if connection.dialect.name == "sqlite":
        found = connection.execute(
            sa.text(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' "
                "AND tbl_name = 'payout_corrections'"
            )
        )
    else:
        found = connection.execute(
            sa.text(
                "SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE c.relname = 'payout_corrections' AND NOT t.tgisinternal "
                # this test's schema only: other tests' schemas live in the same database
                "AND c.relnamespace = current_schema()::regnamespace"
            )
        )
    return sorted(str(name) for name in found.scalars())


def test_four_inspectors_confirming_at_once_move_the_money_once(api: Api) -> None:
    """The conditional update is the guard: of concurrent confirmations one wins, the others
    get 409 and move nothing (R7)."""
    from concurrent.futures import ThreadPoolExecutor

    table = Table(api, DRAGON_SIX, ["ann"], credit_minor=100_000)
    round_id = table.play_round()
    inspectors = [_grant(api, f"insp{n}", "inspector") for n in range(4)]
    body = {"username": "ann", "amount": 700, "reason": "paid short"}
    number = _propose(api, OPERATOR_TOKEN, round_id, body).json()["correction"]
    before = api.balance(table.tokens["ann"])
    confirm = {"decision": "confirmed"}
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda t: _decide(api, t, number, confirm), inspectors))
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
    assert api.balance(table.tokens["ann"]) == before + 700
    corrections = [e for e in _statement(api, table.tokens["ann"]) if "correction" in e]
    assert [e["amount"] for e in corrections] == [700]
    _books_balance(api)


def test_r6_the_tables_dealer_reads_a_finished_round_as_a_spectator(api: Api) -> None:
    """The dealer reads the recall to propose a correction, and sees no player's private
    cards (Casino Hold'em's hole cards, R6); the house's cards and the burns of a shoe
    revealed (one round a shoe here) show as to anyone."""
    table = Table(api, "casino-holdem-peru-2007", ["ann", "ben"], credit_minor=100_000)
    round_id = table.play_round()
    dana = _dealer_at(api, "dana", table)
    seen = api.get(f"/rounds/{round_id}", dana)
    assert seen.status_code == 200, seen.text
    drawn = [e for e in seen.json()["events"] if e["kind"] == "CardDrawn"]
    private = [e for e in drawn if e["purpose"] == "player"]
    assert len(private) == 4 and all(e["card"] == "??" for e in private)
    assert all(e["card"] != "??" for e in drawn if e["purpose"] != "player")
    everything = table.recall(round_id)["events"]  # the operator's reading
    assert all(e["card"] != "??" for e in everything if e["kind"] == "CardDrawn")
    assert [e["purpose"] for e in drawn] == [
        e["purpose"] for e in everything if e["kind"] == "CardDrawn"
    ]


@pytest.mark.postgres
def test_on_postgresql_in_ci_a_payout_correction_confirmed_and_a_round_voided(
    database_url_for: Any,
) -> None:
    """CI's short form on PostgreSQL (every test above runs there in the slow form): Dragon
    Six Art. 12, a proposal and its confirmation in one transaction with the money; Spain
    1979 III, a dealer's void returning every stake. Each on its own fresh database."""
    for check in (
        test_dragon_six_art_12_the_dealer_proposes_and_an_inspector_confirms_a_payout_correction,
        test_spain_1979_iii_the_dealer_of_the_table_voids_a_round_it_cannot_finish,
    ):
        for url in database_url_for("postgresql"):
            for api in make_api(url):
                check(api, url)
