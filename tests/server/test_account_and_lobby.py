"""Issue 13, item 8: what the account page and the lobby read. A player's history comes
newest first by time, a page at a time, each round with what it moved in the wallet
(``net_minor``, read from the ledger); the statement pages the same way with each movement's
time and round; the lobby learns who sits, whether a round is under way, and how many
players a round needs (Casino Hold'em: two, Art. 9)."""

from __future__ import annotations

import pytest
from server_support import OPERATOR_TOKEN, Api, Table

from croupier.server.app import playable_profiles

PROFILES = playable_profiles()
pytestmark = pytest.mark.skipif(not PROFILES, reason="no game engine has landed yet")


def test_history_is_newest_first_by_time_paged_with_each_rounds_net(api: Api) -> None:
    table = Table(api, "veintiuno-real", ["ann", "ben"])
    played = []
    for _ in range(3):
        played.append(table.play_round())
        api.clock.advance(60)
    ann = table.tokens["ann"]
    first = api.get("/me/rounds?limit=2", ann).json()
    second = api.get("/me/rounds?limit=2&offset=2", ann).json()
    rounds = first["rounds"] + second["rounds"]
    assert [r["round"] for r in rounds] == sorted(played, reverse=True)
    assert [r["started_at"] for r in rounds] == sorted(
        (r["started_at"] for r in rounds), reverse=True
    )
    for document in rounds:
        expected = table.expected_balances([document["round"]])["ann"] - table.credit
        assert document["net_minor"] == expected
    assert sum(r["net_minor"] for r in rounds) == api.balance(ann) - table.credit


def test_the_statement_names_each_movements_time_and_round_and_pages(api: Api) -> None:
    table = Table(api, "veintiuno-real", ["ann", "ben"])
    round_id = table.play_round()
    ann = table.tokens["ann"]
    entries = api.get("/me/ledger?limit=50", ann).json()["entries"]
    assert entries[-1]["kind"] == "credit" and entries[-1]["round"] is None
    assert {entry["round"] for entry in entries[:-1]} == {round_id}
    assert all(isinstance(entry["at"], float) for entry in entries)
    assert entries[0]["balance_after"] == api.balance(ann)
    paged = api.get("/me/ledger?limit=1&offset=1", ann).json()["entries"]
    assert paged == entries[1:2]


def test_the_lobby_learns_who_sits_whether_a_round_is_under_way_and_the_players_needed(
    api: Api,
) -> None:
    table = Table(api, "veintiuno-real", ["ann", "ben"])
    holdem = Table(api, "casino-holdem-peru-2007", ["cid"])

    def listed(table_id: int) -> dict[str, object]:
        tables = api.get("/tables", OPERATOR_TOKEN).json()["tables"]
        return next(entry for entry in tables if entry["id"] == table_id)

    lobby = listed(table.id)
    assert lobby["seats"] == {"1": "ann", "2": "ben"}
    assert lobby["round"] == {"id": table.state()["round"]["id"], "status": "betting", "bets": 0}
    assert lobby["title"] == table.profile.title and lobby["min_players"] == 1
    table.bet_all()
    assert listed(table.id)["round"]["bets"] == 2
    table.ready_all()
    assert listed(table.id)["round"]["status"] == "playing"
    one_player = listed(holdem.id)
    assert one_player["min_players"] == 2 and len(one_player["seats"]) == 1


def test_a_tables_last_round_is_asked_of_that_table_not_the_players_last_anywhere(
    api: Api,
) -> None:
    """The baccarat page recalls the last coup at its own table (``table_id``): Ann played
    there, then at another table, and her very last round is the other table's."""
    here = Table(api, "dragon-six-peru-2016", ["ann"])
    played_here = here.play_round()
    elsewhere = Table(api, "dragon-six-peru-2016", ["ben"])
    ann = here.tokens["ann"]
    seated = api.post(f"/tables/{elsewhere.id}/seats/2", ann)
    assert seated.status_code == 200, seated.text
    elsewhere.tokens["ann"], elsewhere.seat_of["ann"], elsewhere.owner[2] = ann, 2, "ann"
    api.clock.advance(60)
    played_elsewhere = elsewhere.play_round()

    anywhere = api.get("/me/rounds?limit=1", ann).json()["rounds"]
    assert [r["round"] for r in anywhere] == [played_elsewhere]
    at_here = api.get(f"/me/rounds?limit=1&table_id={here.id}", ann).json()["rounds"]
    assert [(r["round"], r["table_id"]) for r in at_here] == [(played_here, here.id)]
    assert at_here[0]["events"] == here.recall(played_here, "ann")["events"]
    # A table Ann never played at has no rounds of hers; a table number below 0 is refused.
    never = Table(api, "dragon-six-peru-2016", ["cat"])
    assert api.get(f"/me/rounds?table_id={never.id}", ann).json()["rounds"] == []
    refused = api.get("/me/rounds?table_id=-1", ann)
    assert refused.status_code == 422 and refused.json()["code"], refused.text


@pytest.mark.parametrize(
    ("profile", "house"),
    [
        ("peru-2016", "dealer"),
        ("dragon-six-peru-2016", "winner"),
        ("casino-holdem-peru-2007", "dealer"),
    ],
)
def test_the_lobby_shows_each_tables_last_results_as_their_recall_ends(
    api: Api, profile: str, house: str
) -> None:
    """Issue 26, item 4: a tile's last results are the ends of the table's last rounds,
    newest first, as the felt showed them (each round's recall's last step, a spectator's
    view): the dealer's total (blackjack), hand and qualification (Casino Hold'em), or the
    winner and the totals (baccarat)."""
    table = Table(api, profile, ["ann", "ben"])
    played = [table.play_round() for _ in range(2)]
    tables = api.get("/tables", OPERATOR_TOKEN).json()["tables"]
    recent = next(entry for entry in tables if entry["id"] == table.id)["recent"]
    assert [item["round"] for item in recent] == played[::-1]
    for item in recent:
        end = table.recall(item["round"])["steps"][-1]["view"]
        if house == "winner":
            expected = {
                "winner": end["winner"],
                "player": end["player"]["total"],
                "banker": end["banker"]["total"],
            }
        else:
            expected = {"dealer": end["dealer"]["total"], "cards": len(end["dealer"]["cards"])}
            if "qualifies" in end["dealer"]:
                expected["qualifies"] = end["dealer"]["qualifies"]
        assert item == {"round": item["round"], **expected}


def test_my_rounds_come_in_the_order_they_were_played(api: Api) -> None:
    """Issue 26, item 6: "My rounds" listed a round by when it opened, and a round waits open
    for bets as long as its table is quiet: a round just played came on page 2. The round
    that opened first but was played last comes first."""
    quiet = Table(api, "veintiuno-real", ["ann"])  # its round opens now, and waits
    api.clock.advance(60)
    busy = Table(api, "veintiuno-real", ["bob"])
    ann = quiet.tokens["ann"]
    assert api.post(f"/tables/{busy.id}/seats/2", ann).status_code == 200
    busy.tokens["ann"], busy.seat_of["ann"], busy.owner[2] = ann, 2, "ann"
    played_first = busy.play_round()
    api.clock.advance(600)
    played_last = quiet.play_round()
    assert played_last < played_first  # it opened first
    rounds = api.get("/me/rounds?limit=1", ann).json()["rounds"]
    assert [item["round"] for item in rounds] == [played_last]
    both = api.get("/me/rounds?limit=5", ann).json()["rounds"]
    assert [item["round"] for item in both][:2] == [played_last, played_first]
