"""``croupier settle`` for Casino Hold'em: the fixed contract and every refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli.main import app
from croupier.errors import CroupierError
from croupier.games.events import Event
from croupier.settle import settle_document, settle_text

# Draw order: zone 1, zone 2, dealer; zone 1, zone 2, dealer; burn; flop; burn; turn; river.
SHOE = ["Kh", "2c", "4s", "Kd", "7c", "4d", "3s", "Ks", "9h", "2d", "5c", "Jc", "Qd"]


def document(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "casino-holdem",
        "rules": "casino-holdem-peru-2007",
        "shoe": list(SHOE),
        "seats": [
            {"seat": 1, "bets": {"ante": 10, "progressive": 1}, "actions": ["call"]},
            {"seat": 2, "bets": {"ante": 5}, "actions": ["fold"]},
        ],
        "jackpot": 5000,
    }
    base.update(changes)
    return base


def test_the_contract_example() -> None:
    result = settle_document(document())
    assert result["dealer"] == {"cards": ["4s", "4d"], "hand": "pair", "qualifies": True}
    assert result["board"] == ["Ks", "9h", "2d", "Jc", "Qd"]
    assert result["seats"] == [
        {
            "seat": 1,
            "hand": "three of a kind",
            "result": "win",
            "bets": {
                "ante": {"bet": 10, "payout": 20},
                "bet": {"bet": 20, "payout": 40},
                "progressive": {"bet": 1, "payout": 0},
            },
            "staked": 31,
            "returned": 60,
            "net": 29,
            "progressive_hand": "three of a kind",
        },
        {
            "seat": 2,
            "hand": "pair",
            "result": "fold",
            "bets": {
                "ante": {"bet": 5, "payout": 0},
                "bet": {"bet": 0, "payout": 0},
                "progressive": {"bet": 0, "payout": 0},
            },
            "staked": 5,
            "returned": 0,
            "net": -5,
        },
    ]
    assert result["jackpot"] == 5000.5
    kinds = [event["kind"] for event in result["events"]]
    assert kinds[:2] == ["RoundStarted", "MeterOpened"] and kinds[-1] == "RoundEnded"
    burns = [e["card"] for e in result["events"] if e.get("purpose") == "burn"]
    assert burns == ["3s", "5c"]
    # The events are the round's record: they read back as events.
    assert all(Event.from_json(e).to_json() == e for e in result["events"])


def test_the_jackpot_defaults_to_the_seed_and_carries_fractions() -> None:
    doc = document()
    del doc["jackpot"]
    assert settle_document(doc)["jackpot"] == 5000.5
    assert settle_document(document(jackpot=100.5))["jackpot"] == 101


def test_a_royal_flush_on_the_flop_pays_the_meter_and_reseeds() -> None:
    shoe = ["Ah", "2c", "4s", "Kh", "7c", "4d", "3s", "Qh", "Jh", "Th", "5c", "9d", "8s"]
    seats = [
        {"seat": 1, "bets": {"ante": 10, "progressive": 1}, "actions": ["fold"]},
        {"seat": 3, "bets": {"ante": 5, "progressive": 1}, "actions": ["call"]},
    ]
    result = settle_document(document(shoe=shoe, seats=seats, jackpot=1000))
    first = result["seats"][0]
    assert first["progressive_hand"] == "royal flush" and first["result"] == "fold"
    assert first["bets"]["progressive"] == {"bet": 1, "payout": 1001}
    assert result["jackpot"] == 5000


def test_the_standard_profile_pays_a_non_qualifying_ante_by_the_paytable() -> None:
    # Zone 1: As 9s with Ks 7s 2s on board = flush; dealer 3h 3d does not qualify.
    shoe = ["As", "Tc", "3h", "9s", "8c", "3d", "4c", "Ks", "7s", "2s", "6c", "5c", "Jd"]
    seats = [
        {"seat": 1, "bets": {"ante": 10}, "actions": ["call"]},
        {"seat": 2, "bets": {"ante": 10}, "actions": ["fold"]},
    ]
    standard = settle_document(document(rules="casino-holdem-standard", shoe=shoe, seats=seats))
    peru = settle_document(document(shoe=shoe, seats=seats))
    assert standard["dealer"]["qualifies"] is False
    assert standard["seats"][0]["bets"]["ante"] == {"bet": 10, "payout": 30}
    assert peru["seats"][0]["bets"]["ante"] == {"bet": 10, "payout": 20}
    assert standard["seats"][0]["bets"]["bet"] == {"bet": 20, "payout": 20}


def test_a_zero_ante_seat_is_no_player() -> None:
    """docs/rules.md §6: a wager of 0 is no wager (a settle file may list it)."""
    seats = [*document()["seats"], {"seat": 5, "bets": {"ante": 0}, "actions": []}]
    result = settle_document(document(seats=seats))
    assert [seat["seat"] for seat in result["seats"]] == [1, 2]


def seat(number: int = 1, **changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": number, "bets": {"ante": 10}, "actions": ["call"]}
    entry.update(changes)
    return entry


BAD_DOCUMENTS = [
    (document(rules="casino-holdem-macau"), "unknown profile 'casino-holdem-macau'"),
    (document(rules="peru-2016"), "is for blackjack"),
    (document(shoe=["Kh", "2x", *SHOE[2:]]), "unknown suit 'x'"),
    (document(shoe=["Kh", "Kh", *SHOE[2:]]), "2 copies of Kh"),
    (document(shoe=SHOE[:12]), "empty|holds 12 cards"),
    (document(shoe="Kh 2c"), "'shoe' must be a list"),
    (document(jackpot=-1), "'jackpot' cannot be negative"),
    (document(jackpot="5000"), "'jackpot' must be a number"),
    (document(extra=1), "unknown field 'extra'"),
    (document(seats=[seat(1, bets={"ante": -10}), seat(2)]), "negative"),
    (document(seats=[seat(1, bets={"ante": 2.5}), seat(2)]), "not a whole number"),
    (
        document(seats=[seat(1, bets={"ante": 10001}), seat(2)]),
        "outside the table limits 1 to 10000",
    ),
    (
        document(seats=[seat(1, bets={"ante": 10, "progressive": 2}), seat(2)]),
        "exactly 1 unit, not 2",
    ),
    (
        document(seats=[seat(1, bets={"ante": 10, "progressive": 0.5}), seat(2)]),
        "not a whole number",
    ),
    (document(seats=[seat(1, bets={"progressive": 1}, actions=[]), seat(2)]), "needs an Ante"),
    (document(seats=[seat(1)]), "at least 2"),
    (document(seats=[seat(1), seat(2, actions=[])]), "seat 2: no action listed"),
    (document(seats=[seat(1, actions=["raise"]), seat(2)]), "'raise' is not allowed"),
    (document(seats=[seat(1, actions=["call", "fold"]), seat(2)]), "left over"),
    (document(seats=[seat(1), seat(2), seat(4, bets={}, actions=["call"])]), "seat 4: action"),
    (document(seats=[seat(1), seat(1)]), "seat 1 is listed twice"),
    (document(seats=[seat(1), seat(9)]), "zone 9 does not exist"),
    (document(seats=[seat(1), seat("2")]), "a zone is a whole number"),
    (document(seats=[seat(1, bets={"ante": 10, "trips": 5}), seat(2)]), "unknown wager 'trips'"),
    (document(seats=[seat(1, colour="red"), seat(2)]), "unknown field 'colour'"),
    (document(seats=[seat(1, actions="call"), seat(2)]), "'actions' must be a list"),
    (document(seats=[seat(1, actions=[3]), seat(2)]), "an action is text"),
    (document(seats={"seat": 1}), "'seats' must be a list"),
]


@pytest.mark.parametrize(("bad", "message"), BAD_DOCUMENTS)
def test_bad_input_is_a_typed_error_naming_it(bad: dict[str, Any], message: str) -> None:
    with pytest.raises(CroupierError, match=message):
        settle_document(bad)


def test_malformed_json_is_a_typed_error() -> None:
    with pytest.raises(CroupierError, match="malformed JSON"):
        settle_text('{"game": "casino-holdem",')


def test_cli_prints_the_result_and_exits_0(tmp_path: Any) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(document()))
    outcome = CliRunner().invoke(app, ["settle", str(path)])
    assert outcome.exit_code == 0, outcome.output
    assert json.loads(outcome.stdout)["seats"][0]["net"] == 29


@pytest.mark.parametrize(("bad", "message"), BAD_DOCUMENTS[:6:2])
def test_cli_bad_input_exits_2_with_one_stderr_line_and_no_stdout(
    tmp_path: Any, bad: dict[str, Any], message: str
) -> None:
    import subprocess
    import sys

    path = tmp_path / "round.json"
    path.write_text(json.dumps(bad))
    completed = subprocess.run(
        [sys.executable, "-c", "from croupier.cli.main import main; main()", "settle", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("croupier: error: ")
