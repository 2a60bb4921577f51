"""Casino Hold'em: the Monte Carlo estimate (``croupier analyze --ante-monte-carlo``) against
the exact enumeration, within the estimate's 99% interval.

- Short form (CI): for a few hole cards + flops, the estimate's mean net of calling over a
  sample of turns, rivers and dealer hands against the exact mean over all 1,070,190 of them
  (``call_value``); the interval uses the exact standard deviation of that net.
- Slow form: the whole game, the estimate's default sample against the exact house edge of
  both profiles (docs/rules.md §5: Art. 13g's even money, and the common game's paytable, when the
  dealer does not qualify).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from croupier.analysis.casino_holdem import estimate_ante_game, estimate_call_value
from croupier.analysis.casino_holdem_exact import (
    COMPLETIONS,
    bin_values,
    call_value,
    completion_counts,
)
from croupier.analysis.casino_holdem_game import analyse_ante_game
from croupier.cards import parse_cards
from croupier.rules import CasinoHoldemRules, load_profile

Z99 = 2.5758293035489004
PROFILES = ["casino-holdem-peru-2007", "casino-holdem-standard"]


def _rules(name: str) -> CasinoHoldemRules:
    rules = load_profile(name)
    assert isinstance(rules, CasinoHoldemRules)
    return rules


@pytest.mark.parametrize("name", PROFILES)
@pytest.mark.parametrize("text", ["Ah Kd 2c 7d Ks", "9h 8h 7h 2c Kd", "4s 2d 4c 9h Jc"])
def test_sampled_call_value_agrees_with_the_exact_one(name: str, text: str) -> None:
    rules = _rules(name)
    cards = parse_cards(text)
    exact = call_value(rules, cards)
    counts = completion_counts(rules, cards)
    values = bin_values(rules)
    mean = float(exact)
    variance = (
        sum(int(c) * (float(v) - mean) ** 2 for c, v in zip(counts, values, strict=True))
        / COMPLETIONS
    )
    samples = 200_000
    estimate = estimate_call_value(rules, cards, samples, seed=f"{name}-{text}")
    assert abs(estimate - mean) <= Z99 * math.sqrt(variance / samples)


@pytest.mark.slow
@pytest.mark.parametrize("name", PROFILES)
def test_estimated_game_agrees_with_the_exact_game(name: str, casino_holdem_cache: Path) -> None:
    rules = _rules(name)
    exact = analyse_ante_game(rules)
    assert exact.table_was_cached  # one qualifier, one table: the session's enumeration
    estimate = estimate_ante_game(rules)
    assert estimate.standard_error is not None
    assert abs(estimate.house_edge - exact.figures.house_edge) <= Z99 * estimate.standard_error
