"""Casino Hold'em's short strategy (``croupier.analysis.casino_holdem_strategy``): each rule
decides the hands it names, as a person reading the rules would; its exact figures come from
the exact table (the slow form values it on the whole game)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.analysis.casino_holdem_strategy import RULES, short_strategy_calls_with
from croupier.cards import parse_cards
from croupier.errors import NotationError


@pytest.mark.parametrize(
    ("hole", "flop", "calls", "rule"),
    [
        ("7c 2d", "7h Ks 3c", True, 1),  # a hole card pairs the flop
        ("3c 3d", "Kh Qs 9c", True, 1),  # a pocket pair
        ("2h 9h", "Kh 4h Qc", True, 2),  # four to a flush
        ("5c 6d", "7h 8c Kd", True, 2),  # 5-6-7-8: open-ended
        ("9c 2d", "Jh Qs Kc", True, 2),  # 9-J-Q-K: inside
        ("8c 2d", "7h 5s 3c", True, 3),  # the 8 is above every flop card
        ("Tc 2d", "Kh Qs 7c", True, 4),  # a Ten in the hole
        ("9c 4d", "Kh Qs 2c", False, 5),
        ("7c 2d", "Kh Qs 3c", False, 5),
        ("8c 3d", "Qh Qs 9c", False, 5),  # the board's pair is the dealer's too
    ],
)
def test_each_rule_decides_the_hands_it_names(hole: str, flop: str, calls: bool, rule: int) -> None:
    assert short_strategy_calls_with(parse_cards(f"{hole} {flop}")) is calls, RULES[rule - 1]


def test_five_distinct_cards_are_needed() -> None:
    with pytest.raises(NotationError):
        short_strategy_calls_with(parse_cards("Ah Ah Kd 2c 3s"))


@pytest.mark.slow
def test_short_strategy_costs_little_against_the_optimal_one() -> None:
    """Exact over every deal (the first run enumerates the table: minutes): the short
    strategy is worse than the optimal decision, by the figure docs/analyze.md prints."""
    from croupier.analysis.casino_holdem_game import analyse_ante_game
    from croupier.rules import CasinoHoldemRules, load_profile

    rules = load_profile("casino-holdem-standard")
    assert isinstance(rules, CasinoHoldemRules)
    short = analyse_ante_game(rules).short_strategy
    assert short is not None
    assert short.optimal_house_edge == Fraction(1363917077, 63213204600)
    assert round(float(short.cost) * 100, 4) == 0.9156  # as docs/analyze.md prints it
