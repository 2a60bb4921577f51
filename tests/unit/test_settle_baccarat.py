"""``croupier settle`` for baccarat: the fixed contract and its errors (exit 2, one line on
stderr, nothing on stdout)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from typing import Any

import pytest

from croupier.cli.main import main
from croupier.errors import CroupierError
from croupier.settle import settle_document, settle_text


def document(shoe: list[str], *seats: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "game": "baccarat",
        "rules": "dragon-six-peru-2016",
        "shoe": shoe,
        "seats": list(seats),
        **extra,
    }


def run_cli(text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """``croupier settle -`` in this process, reading ``text`` from stdin."""
    monkeypatch.setattr(sys, "argv", ["croupier", "settle", "-"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    with pytest.raises(SystemExit) as exited:
        main()
    captured = capsys.readouterr()
    return exited.value.code, captured.out, captured.err


def test_the_contract_example_a_player_natural() -> None:
    result = settle_document(
        document(
            ["9s", "6h", "Kd", "Qc"],
            {
                "seat": 1,
                "bets": {"player": 10, "banker": 0, "tie": 5, "player_pair": 1, "banker_pair": 1},
            },
        )
    )
    assert result["player"] == {"cards": ["9s", "Kd"], "total": 9}
    assert result["banker"] == {"cards": ["6h", "Qc"], "total": 6}
    assert result["winner"] == "player"
    assert result["seats"] == [
        {
            "seat": 1,
            "bets": {
                "player": {"bet": 10, "payout": 20, "result": "win"},
                "tie": {"bet": 5, "payout": 0, "result": "lose"},
                "player_pair": {"bet": 1, "payout": 0, "result": "lose"},
                "banker_pair": {"bet": 1, "payout": 0, "result": "lose"},
            },
            "staked": 17,
            "returned": 20,
            "net": 3,
        }
    ]
    kinds = [event["kind"] for event in result["events"]]
    assert kinds[0] == "RoundStarted" and kinds[-1] == "RoundEnded"
    assert kinds.count("CardDrawn") == 4 and kinds.count("Settled") == 4


def test_a_banker_win_with_six_on_5_returns_7_5() -> None:
    result = settle_document(
        document(["Ks", "4h", "2d", "2c", "3c"], {"seat": 2, "bets": {"banker": 5}})
    )
    assert result["winner"] == "banker"
    assert result["banker"]["total"] == 6
    [seat] = result["seats"]
    assert seat["bets"] == {"banker": {"bet": 5, "payout": 7.5, "result": "win"}}
    assert (seat["staked"], seat["returned"], seat["net"]) == (5, 7.5, 2.5)


def test_third_cards_follow_the_tableau_and_extra_cards_stay_unused() -> None:
    result = settle_document(
        document(["Ks", "Kh", "2d", "2c", "5s", "7h", "9d"], {"seat": 1, "bets": {"tie": 1}})
    )
    assert result["player"] == {"cards": ["Ks", "2d", "5s"], "total": 7}
    assert result["banker"] == {"cards": ["Kh", "2c", "7h"], "total": 9}


def test_a_tie_pushes_player_and_banker_across_seats() -> None:
    result = settle_document(
        document(
            ["9s", "9h", "Ts", "Kh"],
            {"seat": 1, "bets": {"player": 10}},
            {"seat": 4, "bets": {"banker": 3, "tie": 2}},
        )
    )
    assert result["winner"] == "tie"
    assert [seat["net"] for seat in result["seats"]] == [0, 16]
    assert result["seats"][1]["bets"]["banker"]["result"] == "push"


def test_the_cli_prints_json_and_exits_0(monkeypatch, capsys) -> None:
    text = json.dumps(document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"player": 10}}))
    code, out, err = run_cli(text, monkeypatch, capsys)
    assert code in (0, None)
    assert err == ""
    assert json.loads(out)["seats"][0]["net"] == 10


BAD_INPUTS = {
    "unknown card": (
        document(["9x", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"player": 1}}),
        "shoe card 1: unknown card '9x': unknown suit 'x'",
    ),
    "card not text": (
        document([9, "6h", "Kd", "Qc"], {"seat": 1, "bets": {"player": 1}}),
        "shoe card 1: unknown card 9",
    ),
    "unknown profile": (
        {**document(["9s", "6h", "Kd", "Qc"]), "rules": "dragon-seven"},
        "unknown profile 'dragon-seven'",
    ),
    "profile of another game": (
        {**document(["9s", "6h", "Kd", "Qc"]), "rules": "peru-2016"},
        "is for blackjack",
    ),
    "negative amount": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"player": -5}}),
        "amount -5 is negative",
    ),
    "fractional amount": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"tie": 2.5}}),
        "not a whole number",
    ),
    "amount as text": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"tie": "5"}}),
        "is not a number",
    ),
    "above the limit": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"banker": 10001}}),
        "10001 is outside the table limits 1 to 10000",
    ),
    "player and banker": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"player": 5, "banker": 5}}),
        "player and banker may not be bet together",
    ),
    "unknown wager": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"dragon": 5}}),
        "unknown wager 'dragon'",
    ),
    "unknown top-level field": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {"player": 5}}, seed=3),
        "unknown field 'seed'",
    ),
    "unknown seat field": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {}, "decisions": []}),
        "unknown field 'decisions'",
    ),
    "seat out of range": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 8, "bets": {"player": 5}}),
        "zone 8 does not exist",
    ),
    "seat twice": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": {}}, {"seat": 1, "bets": {}}),
        "seat 1 is listed twice",
    ),
    "too few cards for the deal": (
        document(["9s", "6h", "Kd"], {"seat": 1, "bets": {"player": 5}}),
        "too few cards",
    ),
    "too few cards for a third card": (
        document(["Ks", "Kh", "2d", "2c", "5s"], {"seat": 1, "bets": {"player": 5}}),
        "too few cards: Banker's third card is card 6",
    ),
    "nine copies of a card": (
        document(["As"] * 9, {"seat": 1, "bets": {"player": 5}}),
        "9 copies of As but 8 decks allow 8",
    ),
    "shoe not a list": (document("9s 6h Kd Qc", {"seat": 1, "bets": {}}), "'shoe' must be"),
    "seats not a list": ({**document(["9s", "6h", "Kd", "Qc"]), "seats": {}}, "'seats' must be"),
    "bets not an object": (
        document(["9s", "6h", "Kd", "Qc"], {"seat": 1, "bets": [5]}),
        "'bets' must be an object",
    ),
}


@pytest.mark.parametrize(("bad", "message"), BAD_INPUTS.values(), ids=BAD_INPUTS.keys())
def test_bad_input_exits_2_with_one_line_and_no_stdout(
    bad: dict[str, Any], message: str, monkeypatch, capsys
) -> None:
    with pytest.raises(CroupierError, match=re.escape(message)):
        settle_document(bad)
    code, out, err = run_cli(json.dumps(bad), monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("croupier: error: ")
    assert message in err


@pytest.mark.parametrize("text", ["{", "", "[1, 2]", '"baccarat"', "null"])
def test_malformed_json_exits_2(text: str, monkeypatch, capsys) -> None:
    code, out, err = run_cli(text, monkeypatch, capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("croupier: error: ")


def test_settle_text_refuses_malformed_json() -> None:
    with pytest.raises(CroupierError, match="malformed JSON"):
        settle_text('{"game": "baccarat",')


def test_the_installed_command_end_to_end() -> None:
    """The real console script: stdout is the JSON, stderr empty; bad input exits 2."""
    good = json.dumps(document(["Ks", "4h", "2d", "2c", "3c"], {"seat": 1, "bets": {"banker": 5}}))
    command = [sys.executable, "-c", "from croupier.cli.main import main; main()", "settle", "-"]
    done = subprocess.run(command, input=good, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["seats"][0]["returned"] == 7.5
    bad = good.replace('"banker": 5', '"banker": 5, "player": 1')
    done = subprocess.run(command, input=bad, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip().endswith("player and banker may not be bet together (Art. 8)")
