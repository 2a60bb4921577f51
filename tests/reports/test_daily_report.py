"""The regulator's daily report (issue 27, item 4): it reconciles with the ledger to the
minor unit, cuts the gaming day where the operator says, and flags a hold outside its 99%
band."""

from __future__ import annotations

import csv
import io

import pytest
from report_support import DAY_START, GAMING_DAY, house_movement, play, report, row
from server_support import OPERATOR_TOKEN, Api, Table

from croupier.gaming_day import GamingDay
from croupier.server.app import playable_profiles


def _players_lost(api: Api, table: Table) -> int:
    """What the table's players lost, from their wallets (each was credited once)."""
    return sum(table.credit - api.balance(token) for token in table.tokens.values())


def test_a_day_of_seeded_play_at_every_profile_reconciles_with_the_ledger(
    api: Api, database_url: str
) -> None:
    """Every shipped profile played through the API: each table's win is what its players
    lost less what went into its progressive meter, the day's total win is the house
    account's movement over the gaming day exactly, and a round of the day before (05:59,
    before the 06:00 boundary) is in the month to date and not in the day."""
    yesterday = Table(api, "dragon-six-peru-2016", ["early-1", "early-2"])
    api.clock.advance(-4 * 3600 - 60)  # 05:59: still gaming day 2026-12-04
    play(yesterday, 2)
    api.clock.advance(4 * 3600 + 60)
    tables = {
        profile: Table(api, profile, [f"player-{number}-a", f"player-{number}-b"])
        for number, profile in enumerate(playable_profiles())
    }
    for table in tables.values():
        play(table, 2)
        api.clock.advance(60)
    document = report(api)

    assert document["gaming_day"] == {
        "starts": "06:00",
        "time_zone": "UTC",
        "from": DAY_START,
        "to": DAY_START + 86_400,
    }
    for profile, table in tables.items():
        line = row(document, table)
        assert line["profile"] == profile
        assert line["rounds"] == 2
        assert line["win_minor"] + line["jackpot_minor"] == _players_lost(api, table), profile
        assert line["drop_minor"] >= 2 * 2 * table.stake * 100
        assert sum(w["handle_minor"] for w in line["wagers"]) == line["handle_minor"]
    dragon = row(document, tables["dragon-six-peru-2016"])
    assert (
        dragon["handle_minor"]
        == dragon["drop_minor"]
        == 2 * 2 * tables["dragon-six-peru-2016"].stake * 100
    )  # banker bets only: no decision adds a stake
    early = row(document, yesterday)
    assert early["rounds"] == early["win_minor"] == early["handle_minor"] == 0
    assert early["month_to_date"]["rounds"] == early["year_to_date"]["rounds"] == 2
    assert early["month_to_date"]["win_minor"] == _players_lost(api, yesterday)

    totals = document["totals"]
    assert totals["win_minor"] == house_movement(database_url, DAY_START, DAY_START + 86_400)
    assert totals["win_minor"] == sum(t["win_minor"] for t in document["tables"])
    assert totals["rounds"] == 2 * len(tables)
    assert totals["month_to_date"]["win_minor"] == house_movement(
        database_url, DAY_START - 86_400 * 4, DAY_START + 86_400
    )
    # No analysis was in this test's cache, and a request never computes one.
    assert totals["theoretical_win_minor"] is None and totals["flagged"] is False
    assert set(document["pending_analysis"]) == set(tables)
    assert document["retention"]["years"] == 7

    lines = list(csv.DictReader(io.StringIO(_csv(api))))
    by_table = {line["table"]: line for line in lines if line["wager"] == ""}
    assert int(by_table["total"]["win_minor"]) == totals["win_minor"]
    for table in tables.values():
        assert int(by_table[str(table.id)]["win_minor"]) == row(document, table)["win_minor"]


def _csv(api: Api, date: str = "2026-12-05") -> str:
    answer = api.get(f"/operator/reports/daily?date={date}&format=csv", OPERATOR_TOKEN)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    text: str = answer.text
    return text


@pytest.mark.parametrize("date", ["2026-13-01", "yesterday", "2026-2-1", "2026-02-30"])
def test_a_date_that_is_no_day_is_a_typed_400(api: Api, date: str) -> None:
    answer = api.get(f"/operator/reports/daily?date={date}", OPERATOR_TOKEN)
    assert answer.status_code in (400, 422), answer.text
    assert answer.json()["error"]


def test_only_the_operator_reads_the_report(api: Api) -> None:
    token = api.player("curious", 0)
    answer = api.get("/operator/reports/daily?date=2026-12-05", token)
    assert answer.status_code == 403
    assert answer.json()["code"] == "operator_only"


def test_the_gaming_day_follows_the_operators_boundary_and_zone() -> None:
    """Lima is UTC-5 all year: its 06:00 day begins at 11:00 UTC."""
    lima = GamingDay.parse("06:00", "America/Lima")
    start, end = lima.window(GAMING_DAY.day_of(DAY_START))
    assert start - DAY_START == 5 * 3600 and end - start == 86_400
