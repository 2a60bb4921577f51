"""The exact figures agree with themselves: probabilities sum to one, hit + push + loss = 1,
the house edge and standard deviation are those of the distribution.

Blackjack's main bet is the exception the figures say: its house edge is exact (split hands
included, ``analysis.blackjack_exact``) while its distribution approximates the re-split
rounds (``"approximation"`` in the JSON, ``analysis.blackjack_split_round``); the two means
then differ by that approximation, under 0.002 points for the shipped profiles, and agree to
1e-12 where the figures name no approximation."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from croupier.analysis.baccarat import analyse_baccarat
from croupier.analysis.figures import WagerFigures
from croupier.analysis.three_card import analyse_twenty_one_plus_three
from croupier.rules import load_profile


def _check(figures: WagerFigures) -> None:
    if figures.exact_distribution is not None:
        assert sum(figures.exact_distribution.values(), Fraction(0)) == 1
    assert math.isclose(figures.total_probability, 1.0, abs_tol=1e-12)
    assert math.isclose(
        figures.hit_frequency + figures.push + figures.loss_frequency, 1.0, abs_tol=1e-12
    )
    mean = sum(float(net) * p for net, p in figures.distribution.items())
    if figures.exact_expected_value is None or figures.approximation is None:
        assert math.isclose(-mean, figures.house_edge, abs_tol=1e-12)
    else:
        assert math.isclose(-mean, figures.house_edge, abs_tol=2e-5)
    second = sum(float(net) ** 2 * p for net, p in figures.distribution.items())
    assert math.isclose(figures.std_dev, math.sqrt(second - mean**2), rel_tol=1e-9)


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_baccarat_every_wager(decks: int) -> None:
    for figures in analyse_baccarat(load_profile("dragon-six-peru-2016"), decks).values():  # type: ignore[arg-type]
        _check(figures)


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_twenty_one_plus_three(decks: int) -> None:
    _check(analyse_twenty_one_plus_three(load_profile("peru-2016"), decks))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["peru-2016", "spain-1979", "veintiuno-real"])
def test_blackjack_main_bet(name: str) -> None:
    from croupier.analysis.blackjack import analyse_blackjack

    analysis = analyse_blackjack(load_profile(name))  # type: ignore[arg-type]
    _check(analysis.main)
    _check(analysis.insurance)
    # The element of risk divides the same loss by the average total wagered (> 1 unit).
    assert analysis.main.element_of_risk is not None
    assert 0 < analysis.main.element_of_risk < analysis.main.house_edge


def test_casino_holdem_progressive() -> None:
    from croupier.analysis.casino_holdem import analyse_progressive

    _check(analyse_progressive(load_profile("casino-holdem-peru-2007")))  # type: ignore[arg-type]
