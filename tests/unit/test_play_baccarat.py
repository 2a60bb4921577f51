"""``croupier play baccarat`` with scripted input: the session is the engine's, card for card
and unit for unit, on the same seed."""

from __future__ import annotations

import re
from fractions import Fraction

from typer.testing import CliRunner

from croupier.cli.main import app
from croupier.games.baccarat import BaccaratRound, new_shoe
from croupier.games.events import CardDrawn
from croupier.money import json_number
from croupier.randomness import SeededRandomSource
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of

PROFILE = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(PROFILE, BaccaratRules)


def run(seed: str, balance: int, script: str) -> str:
    result = CliRunner().invoke(
        app,
        ["play", "baccarat", "--seed", seed, "--balance", str(balance)],
        input=script,
    )
    assert result.exit_code == 0, result.output
    return result.output


def expected_session(seed: str, balance: int, rounds: list[dict[str, int]]):
    """The same rounds played through the engine directly: cards dealt and final balance."""
    source = SeededRandomSource(seed)
    shoe, preparation = new_shoe(PROFILE, source)
    money = Fraction(balance)
    dealt: list[list[str]] = []
    shoes = 1
    for bets in rounds:
        coup = BaccaratRound(PROFILE, shoe)
        for wager, amount in bets.items():
            coup.place_bet(1, wager, amount)
        coup.deal()
        money += coup.results().net(1)
        dealt.append([str(e.card) for e in coup.events if isinstance(e, CardDrawn)])
        if coup.is_last_round_of_shoe:
            shoe, preparation = new_shoe(PROFILE, source)
            shoes += 1
    return dealt, money, shoes, preparation


def test_a_session_deals_the_engine_rounds_and_pays_them() -> None:
    output = run("session", 100, "banker 10 tie 2\np 5 pp 1\nq\n")
    dealt, money, _, _ = expected_session(
        "session", 100, [{"banker": 10, "tie": 2}, {"player": 5, "player_pair": 1}]
    )
    shown = re.findall(r"^\s+(?:Player|Banker)\s+(\S\S)$", output, flags=re.MULTILINE)
    assert shown == dealt[0] + dealt[1]
    assert f"You leave the table with {json_number(money)}." in output
    assert "New shoe: 8 decks (416 cards)" in output
    assert re.search(r"Burn \(Art\. 6 d\)\): the first card \S\S burns \d+ more\.", output)


def test_refused_bets_change_nothing_and_say_why() -> None:
    output = run(
        "refusals",
        50,
        "player 5 banker 5\ntie 20000\nbanker 60\ndragon 5\ntie 2.5\nbanker\nq\n",
    )
    assert "player and banker may not be bet together (Art. 8)" in output
    assert "bets of 20000 exceed the balance of 50" in output
    assert "bets of 60 exceed the balance of 50" in output
    assert "unknown wager 'dragon'" in output
    assert "amount '2.5' is not a whole number" in output
    assert "bets come in pairs" in output
    assert "You leave the table with 50." in output
    assert "Player " not in output.split("Balance:")[-1]


def test_a_bet_over_the_table_limit_is_refused() -> None:
    output = run("limits", 50_000, "tie 10001\nq\n")
    assert "tie: 10001 is outside the table limits 1 to 10000" in output


def test_an_empty_line_repeats_and_the_shoe_is_renewed_after_the_cut_card() -> None:
    """Art. 6: once the cut card has come out, a new shoe is shuffled and burnt."""
    rounds = 100
    output = run("renew", 1000, "banker 1\n" + "\n" * (rounds - 1) + "q\n")
    dealt, money, shoes, _ = expected_session("renew", 1000, [{"banker": 1}] * rounds)
    assert shoes == 2
    assert output.count("New shoe:") == 2
    assert output.count("The cut card is out") == 1
    assert f"You leave the table with {json_number(money)}." in output
    shown = re.findall(r"^\s+(?:Player|Banker)\s+(\S\S)$", output, flags=re.MULTILINE)
    assert shown == [card for cards in dealt for card in cards]


def test_end_of_input_leaves_the_table() -> None:
    output = run("eof", 10, "")
    assert "You leave the table with 10." in output


def test_a_banker_win_with_six_is_announced_and_paid_half() -> None:
    """Seed ``golden-22`` deals a Banker win with 6 in its seventh round (the golden
    playthrough): Art. 8 b) pays the Banker bet half."""
    output = run("golden-22", 100, "b 10\n" + "\n" * 6 + "q\n")
    _, money, _, _ = expected_session("golden-22", 100, [{"banker": 10}] * 7)
    assert output.count("Banker wins with 6: Banker bets are paid half (Art. 8 b)).") == 1
    assert "│ banker │ 10  │ win    │ 15      │" in output
    assert f"You leave the table with {json_number(money)}." in output
