"""``croupier settle`` for blackjack: the fixed JSON contract. Good rounds print exact JSON;
every bad input exits with status 2, one line on stderr and nothing on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from croupier.cli.main import main

GOOD = {
    "game": "blackjack",
    "rules": "peru-2016",
    "shoe": ["Th", "9c", "9d", "7s", "Kd"],
    "seats": [{"seat": 1, "bets": {"main": 10, "21+3": 5}, "actions": ["stand"]}],
}


def _run(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    path = tmp_path / "round.json"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["croupier", "settle", str(path)])
    code = 0
    try:
        main()
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _with(**changes: Any) -> str:
    document = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key == "seat":
            document["seats"][0].update(value)
        else:
            document[key] = value
    return json.dumps(document)


def test_good_round_exact_json(tmp_path, capsys, monkeypatch):
    code, out, err = _run(tmp_path, json.dumps(GOOD), capsys, monkeypatch)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["dealer"] == {"cards": ["9c", "7s", "Kd"], "total": 26, "blackjack": False}
    assert result["seats"] == [
        {
            "seat": 1,
            "hands": [
                {
                    "hand": 0,
                    "cards": ["Th", "9d"],
                    "bet": 10,
                    "total": 19,
                    "result": "win",
                    "payout": 20,
                }
            ],
            "side_bets": {"21+3": {"bet": 5, "result": "none", "payout": 0}},
            "insurance": {"bet": 0, "payout": 0},
            "staked": 15,
            "returned": 20,
            "net": 5,
        }
    ]
    assert result["house_net"] == -5
    assert [e["kind"] for e in result["events"]] == [
        "RoundStarted",
        "BetPlaced",
        "BetPlaced",
        "BetsClosed",
        "CardDrawn",
        "CardDrawn",
        "CardDrawn",
        "CardDrawn",
        "Settled",
        "Stood",
        "HoleCardRevealed",
        "CardDrawn",
        "Settled",
        "RoundEnded",
    ]


def test_half_units_are_json_numbers(tmp_path, capsys, monkeypatch):
    text = _with(shoe=["As", "9c", "Kd", "7s"], seat={"bets": {"main": 5}, "actions": []})
    code, out, _ = _run(tmp_path, text, capsys, monkeypatch)
    assert code == 0
    seat = json.loads(out)["seats"][0]
    assert seat["hands"][0]["payout"] == 12.5
    assert (seat["staked"], seat["returned"], seat["net"]) == (5, 12.5, 7.5)


BAD = {
    "unknown card": (_with(shoe=["Th", "9x", "9d", "7s", "Kd"]), "unknown suit 'x'"),
    "card not text": (_with(shoe=["Th", 9, "9d", "7s", "Kd"]), "'shoe' must be a list of cards"),
    "unknown profile": (_with(rules="peru-2099"), "unknown profile 'peru-2099'"),
    "profile of another game": (
        _with(rules="dragon-six-peru-2016"),
        "is for baccarat, not blackjack",
    ),
    "unknown game": (_with(game="poker"), "unknown game 'poker'"),
    "negative amount": (_with(seat={"bets": {"main": -10}}), "amount -10 is negative"),
    "fractional amount": (_with(seat={"bets": {"main": 10.5}}), "not a whole number"),
    "amount as text": (_with(seat={"bets": {"main": "10"}}), "is not a number"),
    "bet over the limit": (_with(seat={"bets": {"main": 10001}}), "outside the limits 1 to 10000"),
    "unknown wager": (_with(seat={"bets": {"main": 10, "tie": 5}}), "unknown wager 'tie'"),
    "illegal action": (_with(seat={"actions": ["split"]}), "split refused"),
    "unknown action": (_with(seat={"actions": ["surrender"]}), "surrender refused"),
    "malformed action": (_with(seat={"actions": ["double five"]}), "unknown action 'double five'"),
    "missing action": (_with(seat={"actions": []}), "a decision is needed on hand 0"),
    "actions left over": (
        _with(seat={"actions": ["stand", "hit"]}),
        "1 action(s) left over, from 'hit'",
    ),
    "too few cards": (_with(shoe=["Th", "9c", "9d", "7s"]), "the shoe is empty after 4 cards"),
    "too many copies": (_with(shoe=["As"] * 7), "7 copies of As but 6 decks allow 6"),
    "malformed JSON": ('{"game": "blackjack", ', "malformed JSON"),
    "not an object": ("[1, 2]", "a round is a JSON object"),
    "unknown field": (_with(dealer="Bob"), "unknown field 'dealer'"),
    "unknown seat field": (_with(seat={"tip": 5}), "unknown field 'tip'"),
    "seat out of range": (_with(seat={"seat": 9}), "boxes are numbered 1 to 7"),
    "seat twice": (
        json.dumps({**GOOD, "seats": GOOD["seats"] * 2}),
        "seat 1 is listed twice",
    ),
    "no seats": (_with(seats=[]), "'seats' must be a non-empty list"),
    "side bet without main": (_with(seat={"bets": {"21+3": 5}}), "21+3 needs a main bet"),
    "insurance over half": (
        _with(shoe=["9h", "As", "9d", "7c", "Kd"], seat={"actions": ["insurance 6", "stand"]}),
        "insurance 6 refused",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_exits_2_with_one_line_and_no_result(case, tmp_path, capsys, monkeypatch):
    text, why = BAD[case]
    code, out, err = _run(tmp_path, text, capsys, monkeypatch)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("croupier: error: ")
    assert why in err


def test_the_installed_command_end_to_end(tmp_path):
    """The console script itself, as a user runs it: one good round and one bad."""
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GOOD), encoding="utf-8")
    command = [sys.executable, "-c", "from croupier.cli.main import main; main()", "settle"]
    done = subprocess.run([*command, str(good)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["seats"][0]["net"] == 5
    bad = subprocess.run([*command, "-"], input="{", capture_output=True, text=True, check=False)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr.startswith("croupier: error: malformed JSON") and bad.stderr.count("\n") == 1
