"""A user's Casino Hold'em call rule (``--strategy rule.toml``): read from TOML, decided by
the kernel clause by clause on stacked decks (Art. 13 d: a fold loses the Ante), and run by
``croupier simulate``. The rule is checked game for game against the engine in
tests/consistency/test_casino_holdem_kernel.py."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.cards import FULL_DECK, Card, Rank
from croupier.cli.main import app
from croupier.rules.casino_holdem import PokerCategory
from croupier.rules.registry import load_profile_of
from croupier.simulation.casino_holdem import (
    RULE,
    CallRule,
    CallRuleError,
    Paytable,
    load_call_rule,
    play_decks,
)

runner = CliRunner()
PROFILE = load_profile_of("casino-holdem", "casino-holdem-standard")


def _deck(hole: str, dealer: str, flop: str, turn_river: str) -> list[int]:
    """One box: positions 0 and 2 its cards, 1 and 3 the dealer's, 4 a burn, 5-7 the flop,
    8 a burn, 9-10 the turn and river (Arts. 12-13); the rest of the deck after them."""
    h, d = [Card.parse(c) for c in hole.split()], [Card.parse(c) for c in dealer.split()]
    rest = [Card.parse(c) for c in turn_river.split()]
    board = [Card.parse(c) for c in flop.split()]
    used = {*h, *d, *board, *rest}
    spare = [card for card in FULL_DECK if card not in used]
    order = [h[0], d[0], h[1], d[1], spare.pop(), *board, spare.pop(), *rest, *spare]
    return [card.index for card in order]


def _net(deck: list[int], rule: CallRule) -> int:
    table = Paytable.of(PROFILE)
    return int(play_decks(np.array([deck]), 1, RULE, table, rule=rule)[0, 0])


def test_each_clause_calls_and_folds() -> None:
    denominator = Paytable.of(PROFILE).denominator
    folds = -denominator  # the Ante lost, nothing more
    # 2h 7d with 9h Jh 4h: no pair, no high hole card, four hearts.
    draw = _deck("2h 7d", "3c 8s", "9h Jh 4h", "5c 6d")
    nothing = CallRule("nothing")
    assert _net(draw, nothing) == folds
    assert _net(draw, CallRule("draws", four_to_a_flush=True)) != folds
    assert _net(draw, CallRule("pairs", PokerCategory.PAIR)) == folds
    # Qd 3s with 9c 3h Kd: a pair of threes and a Queen in hand.
    pair = _deck("Qd 3s", "2c 8s", "9c 3h Kd", "5c 6d")
    assert _net(pair, CallRule("pairs", PokerCategory.PAIR)) != folds
    assert _net(pair, CallRule("two pair", PokerCategory.TWO_PAIR)) == folds
    assert _net(pair, CallRule("queens", hole_card_at_least=Rank.QUEEN)) != folds
    assert _net(pair, CallRule("kings", hole_card_at_least=Rank.KING)) == folds
    assert _net(pair, CallRule("every game", PokerCategory.HIGH_CARD)) != folds


def test_a_rule_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'title = "two pair or an Ace"\n'
        'call_with_at_least = "two pair"\n'
        'call_with_hole_card_at_least = "A"\n'
        "call_with_four_to_a_flush = true\n",
        encoding="utf-8",
    )
    assert load_call_rule(path) == CallRule(
        "two pair or an Ace", PokerCategory.TWO_PAIR, Rank.ACE, True
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('call_with_at_least = "a pair"\n', "category 'a pair'"),
        ('call_with_hole_card_at_least = "X"\n', "rank 'X'"),
        ("call_with_four_to_a_flush = 1\n", "true or false"),
        ("call_when = 3\n", "unknown keys ['call_when']"),
        ("call_with_at_least = \n", "call rule"),
    ],
)
def test_a_bad_rule_file_is_a_typed_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CallRuleError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_call_rule(path)


def test_simulate_plays_a_rule_file_and_the_computer_rule_is_one(tmp_path: Path) -> None:
    """The computer player's rule written as a file gives the computer's figures exactly."""
    path = tmp_path / "computer.toml"
    path.write_text(
        'call_with_at_least = "pair"\ncall_with_hole_card_at_least = "K"\n', encoding="utf-8"
    )
    common = ["simulate", "casino-holdem-standard", "--rounds", "20000", "--seed", "4", "--json"]
    by_file = runner.invoke(app, [*common, "--strategy", str(path)])
    assert by_file.exit_code == 0, by_file.output
    built_in = runner.invoke(app, [*common, "--strategy", "computer"])
    assert built_in.exit_code == 0, built_in.output
    file_document, computer_document = json.loads(by_file.stdout), json.loads(built_in.stdout)
    assert file_document["bets"] == computer_document["bets"]
    assert file_document["strategy"] == "computer (computer.toml)"
    bad = tmp_path / "bad.toml"
    bad.write_text('call_with_at_least = "a pair"\n', encoding="utf-8")
    refused = runner.invoke(app, [*common, "--strategy", str(bad)])
    assert refused.exit_code != 0
    assert isinstance(refused.exception, CallRuleError)
