"""What a player reads at a table besides the round (issue 13, items 3 and 4): the posted
rules from the table's own profile, how many cards have left the shoe (never their order,
R6), and the baccarat roads from the recorded rounds of the shoe in play."""

from __future__ import annotations

from typing import Any

from server_support import OPERATOR_TOKEN, Api, Table


def test_the_rules_are_the_tables_profile_with_the_operators_limits(api: Api) -> None:
    """docs/rules.md §6: the limits are the operator's, from the next round on."""
    table = Table(api, "spain-1979", ["ana"])
    token = table.tokens["ana"]
    rules = api.get(f"/tables/{table.id}/rules", token).json()
    assert rules["profile"] == "spain-1979"
    assert "rules.hole_card_none" in [rule["words"] for rule in rules["rules"]]
    assert limits_of(rules) == [{"wager": "main", "minimum": 1, "maximum": 200}]
    answer = api.post(
        f"/operator/tables/{table.id}/limits",
        OPERATOR_TOKEN,
        {"wager": "main", "minimum": 5, "maximum": 50},
    )
    assert answer.status_code == 200, answer.text
    assert api.get(f"/tables/{table.id}/rules", token).json()["limits"][0]["minimum"] == 1
    table.play_round()
    assert limits_of(api.get(f"/tables/{table.id}/rules", token).json()) == [
        {"wager": "main", "minimum": 5, "maximum": 50}
    ]


def limits_of(rules: dict[str, Any]) -> list[dict[str, Any]]:
    """Each wager's limits, without its return to player (tests/reports check that)."""
    return [
        {key: limit[key] for key in ("wager", "minimum", "maximum")} for limit in rules["limits"]
    ]


def test_no_such_table_and_no_session_are_refused(api: Api) -> None:
    table = Table(api, "peru-2016", ["ana"])
    for path in ("rules", "roads"):
        missing = api.get(f"/tables/99999/{path}", table.tokens["ana"])
        assert missing.status_code == 404, missing.text
        assert missing.json()["code"]
        assert api.get(f"/tables/{table.id}/{path}", None).status_code == 401


def _cards_drawn(table: Table, round_ids: list[int]) -> int:
    return sum(
        1
        for round_id in round_ids
        for event in table.recall(round_id)["events"]
        if event["kind"] == "CardDrawn"
    )


def test_the_shoe_count_is_every_card_the_shoes_rounds_drew_and_nothing_of_its_order(
    api: Api,
) -> None:
    table = Table(api, "peru-2016", ["ana"])
    before = table.state("ana")["table"]["shoe_cards"]
    assert before["cards"] == 6 * 52
    assert before["cut_card_at"] == 6 * 52 - 78  # docs/rules.md#D-BJ-16: 78 from the bottom
    played = [table.play_round() for _ in range(3)]
    state = table.state("ana")["table"]
    assert before["dealt"] == 1  # the new shoe's burn (docs/rules.md#D-BJ-16), in round 1's record
    assert state["shoe_cards"]["dealt"] == _cards_drawn(table, played)
    assert set(state["shoe_cards"]) == {"dealt", "cards", "cut_card_at"}
    holdem = Table(api, "casino-holdem-peru-2007", ["bob", "cyd"])
    assert holdem.state("bob")["table"]["shoe_cards"] is None  # a fresh deck every game
    assert api.get(f"/tables/{table.id}/roads", table.tokens["ana"]).json()["roads"] is None


def test_the_roads_are_the_recorded_coups_of_the_shoe_in_play(api: Api) -> None:
    table = Table(api, "dragon-six-peru-2016", ["ana"])
    token = table.tokens["ana"]
    empty = api.get(f"/tables/{table.id}/roads", token).json()
    assert empty["roads"]["coups"] == 0 and empty["roads"]["big_road"] == []
    played = [table.play_round() for _ in range(4)]
    roads = api.get(f"/tables/{table.id}/roads", token).json()
    assert roads["shoe"] == table.state("ana")["table"]["shoe"]
    winners = []
    for round_id in played:
        decided = [e for e in table.recall(round_id)["events"] if e["kind"] == "CoupDecided"]
        winners.append({"player": "P", "banker": "B", "tie": "T"}[decided[0]["winner"]])
    beads = roads["roads"]["bead_plate"]
    assert [bead["winner"] for bead in beads] == winners
    assert [bead["round"] for bead in beads] == played
    assert [(bead["column"], bead["row"]) for bead in beads] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert len(roads["roads"]["big_road"]) == sum(1 for w in winners if w != "T")
    assert roads["roads"]["counts"] == {side: winners.count(side) for side in "PBT"}
