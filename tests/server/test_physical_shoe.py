"""A physical-shoe table (issue 14, item 2): a dealer deals from a real shoe and enters each
card, the engine says where it goes, and the round runs as at any table.

- Spain 1979, Art. 03 V.3 (docs/rules.md §2): the croupier mixes the cards, a player cuts, the
  cut card leaves at least a deck behind it, the first five cards are put aside;
- Dragon Six, Peru 2016, Art. 6 d) (docs/rules.md §4): the first card of a new shoe is turned
  and as many more cards as its value are burnt;
- Casino Hold'em, Peru 2007, Arts. 12-13 (docs/rules.md §5): two cards to each player and to the
  dealer, a burn before the flop and before the turn and river;
- docs/rules.md §6: a shoe never holds more copies of a card than its decks.

Every round is played card by card through the API on SQLite, and every profile's again on
PostgreSQL in one short test, with exact payouts and the ledger summing to 0; ``croupier audit
verify`` passes.
"""

from __future__ import annotations

from typing import Any

import pytest
from physical_support import PhysicalTable, approved, audited
from server_support import OPERATOR_TOKEN, Api, make_api
from sqlalchemy import text

from croupier.audit.verify import verify
from croupier.service.database import make_engine

BLACKJACK = ["peru-2016", "spain-1979", "veintiuno-real"]
CASINO_HOLDEM = ["casino-holdem-peru-2007", "casino-holdem-standard"]
BURNS = {
    "peru-2016": ["2c"],
    "veintiuno-real": ["2c"],
    "spain-1979": ["2c", "3c", "4c", "5c", "6c"],
}
"""Docs/rules.md §2: Spain 1979 Art. 03 V.3.c puts the first five cards aside; the Peru and
Veintiuno Real profiles burn one (docs/rules.md#D-BJ-16)."""


def _blackjack_round(
    api: Api, profile: str, ann: str = "ann", dealer: str = "dora"
) -> PhysicalTable:
    """One box bets 10 and stands on T-9 (19); the dealer shows 9, has 7 under it (or draws
    it: Spain deals no hole card), draws a ten and busts: the box is paid 1 to 1."""
    table = PhysicalTable(api, profile, [ann], dealer=dealer)
    round_id = table.bet(ann, 10)
    assert table.ready() == [False], "the shoe is not made yet: no deal"
    table.make_shoe(list(BURNS[profile]))
    table.tick()
    assert table.state()["round"]["status"] == "playing"
    spain = profile == "spain-1979"
    table.deal({"player:1": ["Td", "9s"], "dealer": ["9h"] if spain else ["9h", "7c"]})
    box, up = {"purpose": "player", "seat": 1, "hand": 0}, {"purpose": "dealer", "seat": None}
    hole = [] if spain else [{"purpose": "hole", "seat": None, "hand": None}]
    assert table.went == [box, {**up, "hand": None}, box, *hole]
    answer = table.act(ann, "stand")
    assert answer.status_code == 200, answer.text
    dealer = ["Tc"] if profile != "spain-1979" else ["7c", "Tc"]
    table.deal({"dealer": dealer})
    assert table.state()["round"]["id"] != round_id, "the round is settled, the next one open"
    assert table.balances() == {ann: table.credit + 1000}
    return table


@pytest.mark.parametrize("profile", BLACKJACK)
def test_blackjack_a_physical_shoe_round_card_by_card_pays_as_any_round(
    sqlite_api: Any, profile: str
) -> None:
    """docs/rules.md §2 (each profile's shoe article): the shoe is made and burnt as its
    profile says, each card goes where the engine says, and 19 against a dealer's bust is
    paid 1 to 1 (10 units: 1,000 minor); the ledger sums to 0 and the chain verifies."""
    api, url = sqlite_api
    _blackjack_round(api, profile)
    audited(api, url)


def test_spain_1979_art_03_the_new_shoe_burns_five_and_is_recorded(sqlite_api: Any) -> None:
    """Spain 1979 Art. 03 V.3.b-c: the croupier shuffles, a player cuts, the cut card is placed,
    and the first five cards are put aside: each step recorded with who and when."""
    api, url = sqlite_api
    table = PhysicalTable(api, "spain-1979", ["ann"])
    assert table.console()["shoe"]["next_procedure"] == "shuffled"
    refused = table.procedure("cut")
    assert refused.status_code == 409 and refused.json()["code"] == "procedure_out_of_order"
    assert refused.json()["params"]["expected"] == "shuffled"
    early = table.card("As")
    assert early.status_code == 409 and early.json()["code"] == "procedure_first"
    table.make_shoe(["2c", "3c", "4c", "5c", "6c"])
    shoe = table.console()["shoe"]
    assert shoe["procedures"] == ["shuffled", "cut", "cut_card_placed"]
    assert shoe["burnt"] == ["2c", "3c", "4c", "5c", "6c"] and shoe["burns_left"] == 0
    assert table.console()["next_card"] is None, "no round is dealt: no card is needed"
    audited(api, url)


def test_refusals_change_nothing(sqlite_api: Any) -> None:
    """A malformed card (422 notation), a card when none is needed (409), a card the decks
    cannot hold any more (docs/rules.md §6: 422 card_not_in_shoe), and a card from anyone but
    the table's dealer (403): each typed, and the round as it was."""
    api, url = sqlite_api
    table = PhysicalTable(api, "veintiuno-real", ["ann", "bob"])
    table.make_shoe(["Td"])
    none_needed = table.card("Ts")
    assert none_needed.status_code == 409 and none_needed.json()["code"] == "no_card_needed"
    table.bet("ann", 10)
    table.bet("bob", 10)
    table.ready()
    malformed = table.card("Tx")
    assert malformed.status_code == 422 and malformed.json()["code"] == "notation"
    assert table.card("Ts", table.tokens["ann"]).status_code == 403
    assert table.card("Ts", OPERATOR_TOKEN).status_code == 403
    other = api.player("otto")
    api.post("/operator/staff", OPERATOR_TOKEN, {"username": "otto", "role": "dealer"})
    assert table.card("Ts", other).status_code == 403, "a dealer not assigned to the table"
    # Six decks hold six Td; one was burnt: both boxes' two cards and the dealer's up card
    # are five more; the hole card may not be a seventh.
    for _ in range(5):
        assert table.card("Td").status_code == 200
    before = table.console()
    assert before["next_card"] == {"purpose": "hole", "seat": None, "hand": None}
    seventh = table.card("Td")
    assert seventh.status_code == 422, seventh.text
    assert seventh.json()["code"] == "card_not_in_shoe"
    assert seventh.json()["params"] == {"card": "Td", "decks": 6, "out": 6}
    assert table.console() == before
    acted = table.act("ann", "stand")
    assert acted.status_code == 409 and acted.json()["code"] in {
        "card_needed_first",
        "not_allowed_now",
    }
    assert table.console() == before
    audited(api, url)


def test_dragon_six_art_6_d_the_first_card_says_how_many_burn_and_a_coup_is_dealt(
    sqlite_api: Any,
) -> None:
    """Dragon Six, Peru 2016, Art. 6 d) (docs/rules.md §4): the first card of the new shoe, a 3,
    burns three more, the engine asking for each; then Art. 10: Player, Banker, Player,
    Banker. Banker's natural 9 beats Player's 8 (Art. 8): the Banker bet of 10 is paid 1 to 1."""
    api, url = sqlite_api
    _dragon_six_coup(api)
    audited(api, url)


def _dragon_six_coup(api: Api, ann: str = "ann", dealer: str = "dora") -> PhysicalTable:
    table = PhysicalTable(api, "dragon-six-peru-2016", [ann], dealer=dealer)
    table.procedure("shuffled")
    table.procedure("cut")
    table.procedure("cut_card_placed")
    assert table.console()["shoe"]["burns_left"] == 1, "one card, then its value in burns"
    table.card("3c")
    assert table.console()["shoe"]["burns_left"] == 3
    table.make_shoe(["4d", "5h", "6s"])
    round_id = table.bet(ann, 10)
    table.ready()
    table.deal({"player": ["8h", "Kd"], "banker": ["9c", "Qs"]})
    assert [place["purpose"] for place in table.went] == ["player", "banker"] * 2
    assert table.state()["round"]["id"] != round_id
    assert table.balances() == {ann: table.credit + 1000}
    return table


@pytest.mark.parametrize("profile", CASINO_HOLDEM)
def test_casino_holdem_arts_12_13_a_game_dealt_card_by_card(sqlite_api: Any, profile: str) -> None:
    """Casino Hold'em Arts. 7, 12-13 (docs/rules.md §5): a fresh deck shuffled and cut for the
    game, two cards each (the players, then the dealer, twice), a burn, the flop; ann folds
    and loses her Ante of 10; bob calls 20 with a pair of aces; a burn, turn and river; the
    dealer's king high does not qualify (Art. 13 g): bob's Ante is paid 1 to 1, the call
    comes back. The next game needs a new deck, shuffled and cut again."""
    api, url = sqlite_api
    _casino_holdem_game(api, profile)
    audited(api, url)


def _casino_holdem_game(
    api: Api, profile: str, players: tuple[str, str, str] = ("ann", "bob", "dora")
) -> None:
    ann, bob, dealer = players
    table = PhysicalTable(api, profile, [ann, bob], dealer=dealer)
    table.make_shoe([])
    round_id = table.bet(ann, 10)
    table.bet(bob, 10)
    table.ready()
    table.deal(
        {
            "player:1": ["2c", "7d"],
            "player:2": ["As", "Ad"],
            "dealer": ["3h", "8s"],
            "burn": ["4c"],
            "board": ["Kc", "9d", "5s"],
        }
    )
    seats = [place["seat"] for place in table.went[:6]]
    assert seats == [1, 2, None, 1, 2, None]
    ann_view = table.state(ann)["round"]["public"]
    assert "3h" not in str(ann_view) and "8s" not in str(ann_view), "the dealer's cards hidden"
    assert "As" not in str(ann_view), "bob's hole cards are his own (Art. 9 d)"
    assert table.act(ann, "fold").status_code == 200
    assert table.act(bob, "call").status_code == 200
    table.deal({"burn": ["6c"], "board": ["Jh", "2d"]})
    assert table.state()["round"]["id"] != round_id
    assert table.balances() == {ann: table.credit - 1000, bob: table.credit + 1000}
    assert table.console()["shoe"]["next_procedure"] == "shuffled", "a new deck each game"


@pytest.mark.postgres
def test_every_profile_card_by_card_on_postgresql(database_url_for: Any) -> None:
    """The rounds above (on SQLite, one test each), every shipped profile's, played card by
    card through the API on PostgreSQL in CI's short form: one server for them all, with
    exact payouts; the ledger sums to 0 and the chain verifies after them all."""
    for url in database_url_for("postgresql"):
        for api in make_api(url):
            for index, profile in enumerate(BLACKJACK):
                _blackjack_round(api, profile, f"box{index}", f"dora{index}")
            for index, profile in enumerate(CASINO_HOLDEM):
                players = (f"ante{index}", f"call{index}", f"croupier{index}")
                _casino_holdem_game(api, profile, players)
            _dragon_six_coup(api, "punto", "banca")
            audited(api, url)


def _serving(url: str) -> Any:
    made = make_api(url)
    return made, next(made)


def _restart_mid_round(url: str) -> None:
    made, api = _serving(url)
    try:
        table = PhysicalTable(api, "peru-2016", ["ann"])
        table.make_shoe(["2c"])
        round_id = table.bet("ann", 10)
        table.ready()
        table.deal_some(["Td", "9h"])
        waiting = table.console()
        assert waiting["next_card"] == {"purpose": "player", "seat": 1, "hand": 0}
    finally:
        made.close()
    made, api = _serving(url)  # the server restarts in the middle of the deal
    try:
        table.api = api
        assert table.console() == waiting, "the round waits for the same card"
        live = api.server.casino.table(table.id)
        assert api.server.casino.rebuilt(table.id).durable_state() == live.durable_state()
        table.deal({"player:1": ["9s"], "dealer": ["7c"]})
        assert table.act("ann", "hit").status_code == 200
        assert table.console()["next_card"] == {"purpose": "player", "seat": 1, "hand": 0}
    finally:
        made.close()
    made, api = _serving(url)  # and again in the middle of a hit
    try:
        table.api = api
        table.deal({"player:1": ["2h"], "dealer": ["Tc"]})  # 21 stands; 16 draws and busts
        assert table.state()["round"]["id"] != round_id
        assert table.balances() == {"ann": table.credit + 1000}
        audited(api, url)
    finally:
        made.close()


def test_r11_a_restart_mid_deal_and_mid_hit_resumes_at_the_same_card(
    database_url_for: Any,
) -> None:
    """R11: a physical shoe's round stopped for a card is rebuilt on restart by the one replay
    and waits for the same card; the round then ends as it would have (Peru 2016 Art. 13)."""
    for url in database_url_for("sqlite"):
        _restart_mid_round(url)


@pytest.mark.postgres
def test_r11_a_restart_mid_round_on_postgresql(database_url_for: Any) -> None:
    """The same on PostgreSQL: the one PostgreSQL test of the physical shoe in CI."""
    for url in database_url_for("postgresql"):
        _restart_mid_round(url)


def test_r06_the_hole_card_and_the_next_cards_stay_hidden(sqlite_api: Any) -> None:
    """R6, Peru 2016 Art. 13 (docs/rules.md §2): the hole card the dealer entered is shown to
    no player nor spectator until it is turned; the dealer's console shows it."""
    api, _url = sqlite_api
    table = PhysicalTable(api, "peru-2016", ["ann", "bob"])
    table.make_shoe(["2c"])
    table.bet("ann", 10)
    table.bet("bob", 10)
    table.ready()
    spectator = api.player("sam")
    table.deal({"player:1": ["Td", "9s"], "player:2": ["8d", "8c"], "dealer": ["9h", "7c"]})
    for token in (table.tokens["ann"], table.tokens["bob"], spectator, None):
        seen = api.get(f"/tables/{table.id}", token)
        if token is None:
            assert seen.status_code == 401
            continue
        # The card as the JSON says a card (quoted): the table's random hex name may hold
        # the letters 7c (p-...7c..., about one run in 37), which is no card shown.
        assert '"7c"' not in seen.text, "the hole card before it is turned"
        assert '"??"' in seen.text
    assert "7c" in str(table.console()["view"]["dealer"]), "the dealer entered it"
    assert table.act("ann", "stand").status_code == 200
    assert table.act("bob", "stand").status_code == 200
    table.deal({"dealer": ["Tc"]})
    recall = api.get(f"/rounds/{table.state()['round']['id'] - 1}", table.tokens["ann"])
    assert recall.status_code == 200 and '"7c"' in recall.text, "turned: now everyone's"


def test_the_round_in_which_the_cut_card_comes_out_is_the_shoes_last(sqlite_api: Any) -> None:
    """docs/rules.md §6 (Spain 1979 Art. 03 V.3.b): the dealer says the cut card came out; the
    round under way finishes, and the next needs a new shoe, shuffled, cut and burnt again."""
    api, url = sqlite_api
    table = PhysicalTable(api, "veintiuno-real", ["ann"])
    early = table.procedure("cut_card_out")
    assert early.status_code == 409 and early.json()["code"] == "procedure_out_of_order"
    table.make_shoe(["2c"])
    first_shoe = table.console()["shoe"]["shoe"]
    table.bet("ann", 10)
    table.ready()
    table.deal({"player:1": ["Td", "9s"], "dealer": ["9h", "7c"]})
    assert table.procedure("cut_card_out").status_code == 200
    again = table.procedure("cut_card_out")
    assert again.status_code == 409 and again.json()["code"] == "procedure_done"
    assert table.act("ann", "stand").status_code == 200
    table.deal({"dealer": ["Tc"]})
    assert table.balances() == {"ann": table.credit + 1000}
    shoe = table.console()["shoe"]
    assert shoe["shoe"] != first_shoe and shoe["next_procedure"] == "shuffled"
    table.bet("ann", 10)
    assert table.ready() == [False], "no round of the new shoe deals before it is made"
    audited(api, url)


def test_d_bj_31_and_d_gen_11_corrections_at_a_physical_shoe(sqlite_api: Any) -> None:
    """docs/rules.md#D-BJ-31: a hole card exposed in error is burnt and the next card takes its
    place, the engine asking the dealer for it; docs/rules.md#D-GEN-11: a card found face up
    in the shoe is the dealer's to name and is burnt (Peru 2016), while the round waits for a
    card too (#D-GEN-12 likewise), the same card then still awaited; a card exposed while a
    card is awaited is refused."""
    api, url = sqlite_api
    table = PhysicalTable(api, "peru-2016", ["ann"])
    table.make_shoe(["2c"])
    table.bet("ann", 10)
    table.ready()
    table.deal_some(["Td"])

    def correct(body: dict[str, Any]) -> Any:
        return api.post(f"/dealer/tables/{table.id}/corrections", table.dealer, body)

    legal = api.get(f"/dealer/tables/{table.id}/corrections", table.dealer).json()
    kinds = ["confused-deal", "dealt-in-error", "face-up", "void"]
    assert (legal["kinds"], legal["places"]) == (kinds, [])
    awaited = table.console()["next_card"]
    assert awaited == {"purpose": "dealer", "seat": None, "hand": None}
    for body, kind in (
        ({"kind": "face-up", "card": "5d"}, "CardFoundFaceUp"),
        ({"kind": "dealt-in-error", "card": "4s"}, "CardDealtInError"),
    ):
        made = correct(body)
        assert made.status_code == 200, made.text
        event = made.json()["events"][-1]
        assert (event["kind"], event["card"], event["awaited"]) == (kind, body["card"], "dealer")
        assert table.console()["next_card"] == awaited, "the same card is still awaited"
    live = api.server.casino.table(table.id)
    assert api.server.casino.rebuilt(table.id).durable_state() == live.durable_state()
    refused = correct({"kind": "exposed", "place": "hole"})
    assert refused.status_code == 409, refused.text
    table.deal({"player:1": ["9s"], "dealer": ["9h", "7c"]})
    assert "5d" not in str(table.state("ann")["round"]["public"]["dealer"]["cards"])
    legal = api.get(f"/dealer/tables/{table.id}/corrections", table.dealer).json()
    assert "exposed" in legal["kinds"] and legal["places"] == ["hole"]
    unnamed = correct({"kind": "face-up"})
    assert unnamed.status_code == 409 and unnamed.json()["code"] == "card_to_name"
    assert correct({"kind": "face-up", "card": "5d"}).status_code == 200
    exposed = correct({"kind": "exposed", "place": "hole"})
    assert exposed.status_code == 200, exposed.text
    assert table.console()["next_card"] == {"purpose": "hole", "seat": None, "hand": None}
    assert "6c" not in table.state("ann")["round"]["public"]["dealer"]["cards"]
    table.deal({"dealer": ["6c"]})
    assert table.act("ann", "stand").status_code == 200
    table.deal({"dealer": ["Tc"]})  # 9 and 6 draw a ten: 25, the dealer busts
    assert table.balances() == {"ann": table.credit + 1000}
    events = api.get(f"/rounds/{table.state()['round']['id'] - 1}", OPERATOR_TOKEN).json()
    kinds = [event["kind"] for event in events["events"]]
    assert kinds.count("CardFoundFaceUp") == 2 and "CardExposed" in kinds
    assert "CardDealtInError" in kinds
    audited(api, url)


def test_d_gen_6_a_physical_round_waiting_for_a_card_may_be_voided(sqlite_api: Any) -> None:
    """docs/rules.md#D-GEN-6: a round the dealer cannot finish (the shoe fell mid-deal) is void,
    every stake returned; the next round opens and a restart finds it as it was."""
    api, url = sqlite_api
    table = PhysicalTable(api, "veintiuno-real", ["ann"])
    table.make_shoe(["2c"])
    round_id = table.bet("ann", 10)
    table.ready()
    table.deal_some(["Td", "9h"])
    answer = api.post(
        f"/dealer/tables/{table.id}/corrections",
        table.dealer,
        {"kind": "void", "reason": "the shoe fell"},
    )
    approved(api, answer, "ines")  # a card was seen: an inspector approves (issue 25)
    assert table.state()["round"]["id"] != round_id
    assert table.balances() == {"ann": table.credit}
    recall = api.get(f"/rounds/{round_id}", table.tokens["ann"])
    assert recall.status_code == 200, recall.text
    assert recall.json()["events"][-1]["kind"] == "RoundEnded"
    live = api.server.casino.table(table.id)
    assert api.server.casino.rebuilt(table.id).durable_state() == live.durable_state()
    audited(api, url)


def test_dragon_six_art_6_the_cut_card_out_of_a_physical_shoe_is_recorded_as_from_a_random(
    sqlite_api: Any,
) -> None:
    """Dragon Six, Peru 2016, Art. 6 (docs/rules.md §4): "cuando en una partida aparece el
    cortador" that coup is the shoe's last. The dealer confirms the cut card out after the
    coup's second card: the coup records ``LastRoundOfShoe`` after its next card, as a coup
    dealt from a random shoe does; a rebuild from the database agrees; the next coup needs a
    new shoe, shuffled, cut and burnt."""
    api, url = sqlite_api
    table = _dragon_six_coup(api)
    live = api.server.casino.table(table.id)
    round_id = table.bet("ann", 10)
    table.ready()
    table.deal_some(["2s", "3h"])
    assert table.procedure("cut_card_out").status_code == 200
    assert api.server.casino.rebuilt(table.id).durable_state() == live.durable_state()
    table.deal({"player": ["4d"], "banker": ["5c"]})  # P 2+4 = 6, B 3+5 = 8: Banker wins
    events = api.get(f"/rounds/{round_id}", OPERATOR_TOKEN).json()["events"]
    kinds = [event["kind"] for event in events]
    assert kinds.count("LastRoundOfShoe") == 1
    before = [
        e["card"] for e in events[: kinds.index("LastRoundOfShoe")] if e["kind"] == "CardDrawn"
    ]
    assert before[-3:] == ["2s", "3h", "4d"]
    assert table.balances() == {"ann": table.credit + 2000}  # Banker's 8 wins twice, 1 to 1
    assert table.console()["shoe"]["next_procedure"] == "shuffled"
    audited(api, url)


def test_issue_14_each_card_names_the_dealer_who_entered_it_and_the_chain_covers_it(
    sqlite_api: Any,
) -> None:
    """Issue 14, item 2 ("every staff action is recorded with who and when"): at a table with
    two dealers, each card entered, a burn included, is recorded with the dealer who entered
    it and where it went; the operator's recall and the inspector's dispute page list them;
    the R15 chain covers each, and an edit of who entered a card is caught naming its row."""
    api, url = sqlite_api
    table = PhysicalTable(api, "peru-2016", ["ann"])
    relief = api.player("dario")
    for path, body in (
        ("/operator/staff", {"username": "dario", "role": "dealer"}),
        (f"/operator/tables/{table.id}/dealers", {"username": "dario"}),
    ):
        assert api.post(path, OPERATOR_TOKEN, body).status_code in (200, 201)
    table.make_shoe(["2c"])  # dora burns
    round_id = table.bet("ann", 10)
    table.ready()
    table.deal_some(["Td", "9h"])  # dora: box, up card
    table.dealer = relief  # dario takes over the table
    table.deal({"player:1": ["9s"], "dealer": ["7c"]})
    assert table.act("ann", "stand").status_code == 200
    table.deal({"dealer": ["Tc"]})  # 9 7 T: the dealer busts
    recall = api.get(f"/rounds/{round_id}", OPERATOR_TOKEN).json()
    entered = [(c["card"], c["went"]["purpose"], c["by"]) for c in recall["cards_entered"]]
    assert entered == [
        ("Td", "player", "dora"),
        ("9h", "dealer", "dora"),
        ("9s", "player", "dario"),
        ("7c", "hole", "dario"),
        ("Tc", "dealer", "dario"),
    ]
    assert [c["position"] for c in recall["cards_entered"]] == [1, 2, 3, 4, 5]
    assert "cards_entered" not in api.get(f"/rounds/{round_id}", table.tokens["ann"]).json()
    inspector = api.player("ines")
    api.post("/operator/staff", OPERATOR_TOKEN, {"username": "ines", "role": "inspector"})
    filed = api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "who?"})
    assert filed.status_code == 201, filed.text
    page = api.get(f"/inspector/disputes/{filed.json()['dispute']}", inspector).json()
    assert page["round_record"]["cards_entered"] == recall["cards_entered"]
    audited(api, url)
    engine = make_engine(url)
    try:
        with engine.connect() as connection, connection.begin():
            kinds = list(connection.execute(text("SELECT kind FROM audit_chain")).scalars())
            assert kinds.count("staff card-entered") == 6, "five cards and the burn"
            row = recall["cards_entered"][2]["action"]
            forged = '{"actor": "dora", "card": "9s"}'
            connection.execute(
                text("UPDATE staff_actions SET detail = :forged WHERE id = :row"),
                {"forged": forged, "row": row},
            )
            report = verify(connection)
            connection.rollback()
    finally:
        engine.dispose()
    assert report.problems and f"staff_actions [{row}]" in report.problems[0], report.problems
