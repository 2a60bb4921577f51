"""Blackjack math details: the dealer's probabilities, insurance, doubling for less, the
rules' effects going the way the regulations' texts imply."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.blackjack import (
    Game,
    _after,
    _stand_value,
    _total_values,
    analyse_blackjack,
    insurance_figures,
)
from croupier.analysis.dealer import BLACKJACK, dealer_outcomes, full_shoe
from croupier.rules import BlackjackRules, load_profile


def _rules(name: str) -> BlackjackRules:
    rules = load_profile(name)
    assert isinstance(rules, BlackjackRules)
    return rules


def test_dealer_blackjack_under_an_ace_is_the_chance_of_a_ten_hole_card() -> None:
    counts = full_shoe(6)
    counts[0] -= 1
    outcomes = dealer_outcomes(counts, 0, False)
    assert outcomes[BLACKJACK] == pytest.approx(96 / 311, abs=1e-15)
    assert outcomes.sum() == pytest.approx(1.0, abs=1e-12)


def test_dealer_on_one_card_shoe_is_certain() -> None:
    """Up card 7 and a shoe holding a single King: the dealer makes exactly 17."""
    counts = np.zeros(10, dtype=np.int64)
    counts[9] = 1
    assert list(dealer_outcomes(counts, 6, False)) == [1, 0, 0, 0, 0, 0, 0]


def test_art_10_insurance_pays_two_to_one_off_the_top() -> None:
    """Art. 10: insurance pays 2:1 when the hole card is ten-valued: 96 tens of 311 cards."""
    figures = insurance_figures(Game.of(_rules("peru-2016")))
    assert figures.exact_house_edge == 1 - 3 * Fraction(96, 311)


def test_art_12_doubling_for_less_never_beats_a_full_double_or_no_double() -> None:
    """Art. 12 ('por un importe de hasta la apuesta inicial'): the value of a double is linear
    in the amount added, so its best is a full double or none; a zero double (one card and
    stand) is never better than hitting."""
    game = Game.of(_rules("peru-2016"))
    for up in range(10):
        counts = full_shoe(6)
        counts[up] -= 1
        draw = counts / counts.sum()
        dealer = dealer_outcomes(counts, up, False)
        values = _total_values(draw, dealer, game, 1.0)
        for total in range(5, 21):
            one_card = {
                fraction: sum(
                    draw[rank]
                    * _stand_value(_after(total, False, rank)[0], 1.0 + fraction, 1.0, dealer, game)
                    for rank in range(10)
                )
                for fraction in (0.0, 0.5, 1.0)
            }
            assert one_card[0.5] == pytest.approx((one_card[0.0] + one_card[1.0]) / 2)
            assert max(one_card[0.0], one_card[1.0]) >= one_card[0.5] - 1e-12
            assert one_card[0.0] <= values.hit[(total, False)] + 1e-12


def test_veintiuno_real_bonus_and_ace_ten_rule_lower_the_house_edge() -> None:
    """Sheet items 10c and 13 only add payouts to the player: removing them raises the edge."""
    rules = _rules("veintiuno-real")
    with_bonuses = analyse_blackjack(rules, joint=False).main.house_edge
    without = analyse_blackjack(
        rules.model_copy(update={"veintiuno_real": None, "split_ace_ten_is_blackjack": False}),
        joint=False,
    ).main.house_edge
    assert with_bonuses < without


def test_spain_dealer_blackjack_takes_every_bet_costs_the_player() -> None:
    """docs/rules.md §2 decision (all bets lost to a dealer blackjack) against OBO."""
    from croupier.rules.blackjack import DealerBlackjackTakes

    rules = _rules("spain-1979")
    all_bets = analyse_blackjack(rules, joint=False).main.house_edge
    obo = analyse_blackjack(
        rules.model_copy(update={"dealer_blackjack_takes": DealerBlackjackTakes.ORIGINAL_BET_ONLY}),
        joint=False,
    ).main.house_edge
    assert all_bets > obo
