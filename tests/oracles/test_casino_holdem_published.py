"""Casino Hold'em (RULES.md §5) against published figures.

- Five-card hand frequencies over all 2,598,960 hands (the progressive pays on hole cards +
  flop): royal 4, straight flush 36, four of a kind 624, full house 3,744, flush 5,108,
  straight 10,200, three of a kind 54,912, two pair 123,552, pair 1,098,240, high card
  1,302,540 (any probability textbook; Wizard of Odds, "Poker Probabilities").
- The common international game's Ante + Bet with optimal strategy: house edge 2.16% per
  Ante (Wizard of Odds, "Casino Hold'em"). croupier's figure is a Monte Carlo estimate: the
  test asks it to land within three of its standard errors.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.analysis.casino_holdem import (
    analyse_progressive,
    estimate_ante_game,
    five_card_category_counts,
)
from croupier.rules import CasinoHoldemRules, load_profile


def _rules(name: str) -> CasinoHoldemRules:
    rules = load_profile(name)
    assert isinstance(rules, CasinoHoldemRules)
    return rules


def test_five_card_frequencies_are_the_textbook_counts() -> None:
    assert list(five_card_category_counts()) == [
        4,
        36,
        624,
        3744,
        5108,
        10200,
        54912,
        123552,
        1098240,
        1302540,
    ]


def test_progressive_pays_shares_of_the_meter_and_fixed_units() -> None:
    """RULES.md §5: royal 100% of the meter, straight flush 10%, quads 500, full house 100,
    flush 50 units; the 1-unit stake is always collected."""
    figures = analyse_progressive(_rules("casino-holdem-peru-2007"), meter=10_000)
    expected_return = (
        Fraction(4 * 10_000 + 36 * 1_000 + 624 * 500 + 3744 * 100 + 5108 * 50, 2_598_960) - 1
    )
    assert figures.exact_house_edge == -expected_return


def test_standard_game_ante_estimate_is_within_three_standard_errors_of_published() -> None:
    figures = estimate_ante_game(_rules("casino-holdem-standard"), rounds=64_000, inner=200)
    assert figures.standard_error is not None
    assert abs(figures.house_edge - 0.0216) <= 3 * figures.standard_error
    assert figures.as_json()["exact"] is False
