"""Casino Hold'em (docs/rules.md §5) against published figures.

- Five-card hand frequencies over all 2,598,960 hands (the progressive pays on hole cards +
  flop): royal 4, straight flush 36, four of a kind 624, full house 3,744, flush 5,108,
  straight 10,200, three of a kind 54,912, two pair 123,552, pair 1,098,240, high card
  1,302,540 (any probability textbook; Wizard of Odds, "Poker Probabilities").
- The common international game's Ante + Bet with optimal strategy (ante paytable
  100/20/10/3/2/1, dealer qualifies with a pair of 4s, Bet 2x the Ante): house edge 2.16% per
  Ante (Michael Shackleford, Wizard of Odds, "Casino Hold'em",
  https://wizardofodds.com/games/casino-holdem/), the optimal player calls 82% of the time
  (Shackleford, https://expert-gambler.com/online/eg-Casino-Hold'em.html: "the optimal
  strategy player will raise 82% of the time"), element of risk 0.82% per total bet (quoted,
  mislabelled "house edge", by http://www.winnergambling.com/casino-games/casino-holdem/;
  2.16% / (1 + 2 x 0.82) = 0.82% confirms which figure it is). croupier's exact figure must
  round to each published digit (slow: the first exact enumeration); the quick Monte Carlo
  estimate must land within three of its standard errors.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from croupier.analysis.casino_holdem import (
    analyse_progressive,
    estimate_ante_game,
    five_card_category_counts,
)
from croupier.analysis.casino_holdem_exact import (
    bin_values,
    choose,
    expected_net,
    load_or_compute_table,
    qualifier_threshold,
    tally,
)
from croupier.analysis.casino_holdem_game import analyse_ante_game
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
    """docs/rules.md §5: royal 100% of the meter, straight flush 10%, quads 500, full house 100,
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


@pytest.mark.slow
def test_standard_game_exact_figures_are_the_published_ones(casino_holdem_cache: Path) -> None:
    """Wizard of Odds: house edge 2.16% per Ante; 82% of hands called; element of risk 0.82%."""
    game = analyse_ante_game(_rules("casino-holdem-standard"))
    figures = game.figures
    assert figures.exact_distribution is not None
    assert sum(figures.exact_distribution.values()) == 1
    assert round(figures.house_edge * 100, 2) == 2.16
    assert round(float(game.call_frequency) * 100) == 82
    assert figures.element_of_risk is not None
    assert round(figures.element_of_risk * 100, 2) == 0.82
    assert figures.as_json()["exact"] is True


@pytest.mark.slow
def test_the_optimal_decision_beats_every_other_strategy_tried(casino_holdem_cache: Path) -> None:
    """Art. 12 (fold or Bet 2x): the chosen strategy is no worse than always calling or than
    the other profile's optimal strategy; Art. 13g's even money when the dealer does not
    qualify pays less than the common game's paytable, so Peru's edge is the higher."""
    peru, standard = _rules("casino-holdem-peru-2007"), _rules("casino-holdem-standard")
    table, cached = load_or_compute_table(qualifier_threshold(standard))
    assert cached
    strategies = {
        name: choose(table, bin_values(rules))
        for name, rules in (("peru", peru), ("standard", standard))
    }
    strategies["always call"] = strategies["peru"] | True
    for rules, best in ((peru, "peru"), (standard, "standard")):
        values = bin_values(rules)
        optimal = expected_net(*tally(table, strategies[best]), values)
        assert optimal == -analyse_ante_game(rules).figures.exact_house_edge  # type: ignore[operator]
        for name, calls in strategies.items():
            if name != best:
                assert expected_net(*tally(table, calls), values) < optimal, name
    assert (
        analyse_ante_game(peru).figures.house_edge > analyse_ante_game(standard).figures.house_edge
    )
