"""``croupier play casino-holdem`` with scripted input (typer's CliRunner on the real app)."""

from __future__ import annotations

import re
from fractions import Fraction

from typer.testing import CliRunner

from croupier.cards import parse_cards
from croupier.cli.main import app
from croupier.cli.play.casino_holdem import COMPUTER, YOU, computer_decision, parse_bets
from croupier.games.base import Action
from croupier.games.casino_holdem import CasinoHoldemRound, new_shoe
from croupier.randomness import SeededRandomSource
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import load_profile_of

PROFILE = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
assert isinstance(PROFILE, CasinoHoldemRules)


def run(script: str, seed: str = "table-7", balance: int = 100) -> str:
    outcome = CliRunner().invoke(
        app,
        ["play", "casino-holdem", "--seed", seed, "--balance", str(balance)],
        input=script,
    )
    assert outcome.exit_code == 0, outcome.output
    return outcome.output


def expected_balance(seed: str, balance: int, games: list[tuple[int, int, str]]) -> Fraction:
    """The same session through the engine directly: one seeded source, a deck a game."""
    source = SeededRandomSource(seed)
    money = Fraction(balance)
    meter = Fraction(PROFILE.progressive.meter_seed)
    for ante, progressive, action in games:
        game = CasinoHoldemRound(PROFILE, new_shoe(source), meter=meter)
        game.place_bet(YOU, "ante", ante)
        game.place_bet(YOU, "progressive", progressive)
        game.place_bet(COMPUTER, "ante", 1)
        game.place_bet(COMPUTER, "progressive", 1)
        game.deal()
        game.act(YOU, Action(action))
        game.act(COMPUTER, computer_decision(game.hole_cards[COMPUTER], game.board[:3]))
        money += game.results().net(YOU)
        meter = game.meter
    return money


def test_a_scripted_session_ends_with_the_engines_balance() -> None:
    output = run("10 p\nc\n\nf\n5\nc\nq\n")
    final = re.findall(r"Final balance: (\S+)", output)
    expected = expected_balance("table-7", 100, [(10, 1, "call"), (10, 1, "fold"), (5, 0, "call")])
    assert final == [str(expected)]
    assert output.count("Your hand:") == 3


def test_hidden_cards_stay_hidden_until_the_reveal() -> None:
    """R6: before the decision the table shows only zone 1's cards and the flop."""
    output = run("10\nf\nq\n")
    before_decision = output.split("Call (the Bet")[0]
    source = SeededRandomSource("table-7")
    deck = new_shoe(source).peek_order()
    # Zone 1's cards are the 1st and 4th of the deck; zone 2's the 2nd and 5th; the
    # dealer's the 3rd and 6th.
    assert str(deck[0]) in before_decision and str(deck[3]) in before_decision
    for hidden in (deck[1], deck[4], deck[2], deck[5]):
        assert str(hidden) not in before_decision
    after = output.split("Call (the Bet")[1]
    assert str(deck[2]) in after and str(deck[5]) in after  # the dealer's, revealed
    assert str(deck[1]) not in after and str(deck[4]) not in after  # never the computer's


def test_bad_bets_are_refused_and_the_session_goes_on() -> None:
    output = run("ten\n20000\n40\n0\nq\n", balance=100)
    assert "type the Ante as a whole number" in output
    assert "an Ante of 20000 needs 60000 units to call" in output
    assert "an Ante of 40 needs 120 units" in output
    assert "places the Ante (Art. 9 e)" in output
    assert "Final balance: 100" in output


def test_end_of_input_at_the_decision_folds() -> None:
    output = run("10\n")
    assert "fold" in output
    assert "Final balance: 90" in output


def test_the_computer_strategy() -> None:
    flop = parse_cards("9c 5d 2h")
    assert computer_decision(parse_cards("9s 3h"), flop) == Action("call")  # a pair
    assert computer_decision(parse_cards("Ks 3h"), flop) == Action("call")  # a King
    assert computer_decision(parse_cards("Qs 3h"), flop) == Action("fold")


def test_parse_bets() -> None:
    assert parse_bets("10 p", PROFILE) == (10, 1)
    assert parse_bets("25", PROFILE) == (25, 0)
