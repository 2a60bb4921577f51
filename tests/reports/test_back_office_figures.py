"""The back office's figures (issue 27, item 6): the operator's chart reads each table's day
by day (``GET /operator/reports/daily-range``), and each figure of a day is the daily
report's own; the player's activity statement (``GET /me/statement``) is the player's own
wallet and nobody else's."""

from __future__ import annotations

import csv
import io

import pytest
from report_support import DAY_START, house_movement, play, report, row
from server_support import OPERATOR_TOKEN, Api, Table

DAY_FIGURES = (
    "rounds",
    "handle_minor",
    "drop_minor",
    "win_minor",
    "jackpot_minor",
    "hold",
    "theoretical_win_minor",
    "z",
    "flagged",
)


def _range(api: Api, first: str, last: str) -> dict[str, object]:
    answer = api.get(f"/operator/reports/daily-range?from={first}&to={last}", OPERATOR_TOKEN)
    assert answer.status_code == 200, answer.text
    document: dict[str, object] = answer.json()
    return document


def test_each_day_of_the_range_is_that_days_report(api: Api, database_url: str) -> None:
    """Two gaming days of play (2026-12-04 before the 06:00 boundary, 2026-12-05 after it) and
    a quiet third: each table's figures of each day equal the daily report of that day, and
    the totals' win of each day is the house account's movement that day."""
    dragon = Table(api, "dragon-six-peru-2016", ["range-a", "range-b"])
    blackjack = Table(api, "veintiuno-real", ["range-c"])
    api.clock.advance(-4 * 3600 - 60)  # 05:59: gaming day 2026-12-04
    play(dragon, 2)
    api.clock.advance(4 * 3600 + 60)  # 10:00 on 2026-12-05
    play(dragon, 1)
    play(blackjack, 2)

    document = _range(api, "2026-12-04", "2026-12-06")
    assert document["from"] == "2026-12-04" and document["to"] == "2026-12-06"
    tables = {line["table"]: line for line in document["tables"]}  # type: ignore[attr-defined]
    for date in ("2026-12-04", "2026-12-05"):
        daily = report(api, date)
        for table in (dragon, blackjack):
            day = next(d for d in tables[table.id]["days"] if d["date"] == date)
            assert {name: day[name] for name in DAY_FIGURES} == {
                name: row(daily, table)[name] for name in DAY_FIGURES
            }, (date, table.profile.name)
    dragon_days = [day["rounds"] for day in tables[dragon.id]["days"]]
    assert dragon_days == [2, 1, 0]
    assert [day["rounds"] for day in tables[blackjack.id]["days"]] == [0, 2, 0]
    totals = document["totals"]
    assert [day["date"] for day in totals] == ["2026-12-04", "2026-12-05", "2026-12-06"]  # type: ignore[attr-defined]
    for offset, day in enumerate(totals):  # type: ignore[arg-type]
        start = DAY_START + (offset - 1) * 86_400
        assert day["win_minor"] == house_movement(database_url, start, start + 86_400)


@pytest.mark.parametrize(
    ("first", "last", "code"),
    [
        ("2026-12-05", "2026-12-04", "bad_report_span"),  # ends before it begins
        ("2026-01-01", "2026-12-31", "bad_report_span"),  # more than 92 days
        ("2026-12-05", "tomorrow", "bad_date"),
        ("9999-12-31", "9999-12-31", "bad_date"),  # its gaming day would end after 9999
    ],
)
def test_a_span_that_is_no_span_is_a_typed_422(api: Api, first: str, last: str, code: str) -> None:
    answer = api.get(f"/operator/reports/daily-range?from={first}&to={last}", OPERATOR_TOKEN)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == code


def test_only_the_operator_reads_the_range(api: Api) -> None:
    token = api.player("curious-range", 0)
    answer = api.get("/operator/reports/daily-range?from=2026-12-05&to=2026-12-05", token)
    assert answer.status_code == 403
    assert answer.json()["code"] == "operator_only"


def _statement(api: Api, token: str, form: str = "csv") -> list[dict[str, str]]:
    answer = api.get(f"/me/statement?from=2026-12-05&to=2026-12-05&format={form}", token)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(answer.text)))


def test_the_statement_is_the_players_own_wallet_and_no_one_elses(api: Api) -> None:
    """Two players at one table: each one's statement is every movement of their own wallet
    (the credit, each stake and payout with its round and table) and none of the other's;
    a parameter naming the other player changes nothing (the token chooses the wallet)."""
    table = Table(api, "dragon-six-peru-2016", ["stella", "oscar"])
    rounds = play(table, 2)
    stella, oscar = table.tokens["stella"], table.tokens["oscar"]
    own = _statement(api, stella)
    other = _statement(api, oscar)
    assert not {line["entry"] for line in own} & {line["entry"] for line in other}
    assert own[0]["kind"] == "credit" and int(own[0]["amount_minor"]) == table.credit
    assert {int(line["round"]) for line in own if line["round"]} == set(rounds)
    named = {t["name"] for t in api.get("/tables", stella).json()["tables"] if t["id"] == table.id}
    assert {line["table"] for line in own if line["round"]} == named
    assert int(own[-1]["balance_after_minor"]) == api.balance(stella)
    assert sum(int(line["amount_minor"]) for line in own) == api.balance(stella)
    # Asking for the other player's by name, id or wallet reads the caller's own all the same.
    for sneaky in (
        "user=oscar",
        "username=oscar",
        f"user_id={table.api.get('/me', oscar).json()['user']}",
    ):
        answer = api.get(f"/me/statement?from=2026-12-05&to=2026-12-05&format=csv&{sneaky}", stella)
        assert answer.status_code == 200
        assert list(csv.DictReader(io.StringIO(answer.text))) == own
    # The JSON form says the same.
    answer = api.get("/me/statement?from=2026-12-05&to=2026-12-05", stella)
    assert [str(line["entry"]) for line in answer.json()["lines"]] == [
        line["entry"] for line in own
    ]


def test_the_statement_keeps_to_its_gaming_days(api: Api) -> None:
    """Credited at 10:00 on 2026-12-05, a round at 05:59 (gaming day 2026-12-04) and one at
    10:01: each day's statement holds its own movements only."""
    table = Table(api, "dragon-six-peru-2016", ["early"])
    api.clock.advance(-4 * 3600 - 60)  # 05:59: still gaming day 2026-12-04
    [first] = play(table, 1)
    api.clock.advance(4 * 3600 + 120)
    [second] = play(table, 1)
    token = table.tokens["early"]

    def lines(day: str) -> list[dict[str, object]]:
        answer = api.get(f"/me/statement?from={day}&to={day}", token)
        assert answer.status_code == 200, answer.text
        found: list[dict[str, object]] = answer.json()["lines"]
        return found

    assert {line["round"] for line in lines("2026-12-04")} == {first}
    assert next(line["round"] for line in lines("2026-12-05")) is None  # the credit
    assert {line["round"] for line in lines("2026-12-05")} == {None, second}
    answer = api.get("/me/statement?from=2025-01-01&to=2026-12-05", token)
    assert answer.status_code == 422 and answer.json()["code"] == "bad_report_span"


def test_the_players_day_is_read_from_their_wallets(api: Api) -> None:
    """Each player's rounds, wagered amount and net of the day, as their own wallet says."""
    table = Table(api, "dragon-six-peru-2016", ["pia", "pol"])
    rounds = play(table, 3)
    answer = api.get("/operator/players/activity?date=2026-12-05", OPERATOR_TOKEN)
    assert answer.status_code == 200, answer.text
    listed = {player["username"]: player for player in answer.json()["players"]}
    for name, token in table.tokens.items():
        player = listed[name]
        balance = api.balance(token)
        assert player["balance_minor"] == balance
        assert player["rounds"] == len(rounds)
        assert player["wagered_minor"] == len(rounds) * table.stake * 100  # banker bets only
        assert player["net_minor"] == balance - table.credit
        assert player["cashier_minor"] == table.credit
    token = api.player("nosy", 0)
    assert api.get("/operator/players/activity?date=2026-12-05", token).status_code == 403
