"""A third check of the math: an expectimax over the engine itself (the real round code,
explicit chance: ``croupier.games.chance``) gives the figures ``croupier analyze`` computes,
on a small shoe both are given.

The analysis takes a shoe's composition where ``analyze`` takes the profile's decks:
blackjack's ``Game.shoe`` (counts by value, Ace first) valued by ``evaluate_round`` under the
basic strategy chart ``derive_strategy`` makes (what ``analyse_blackjack`` runs), baccarat's
``analyse_baccarat_composition`` (counts by rank). The engine deals the same cards from a
``ChanceShoe``, one box playing the chart's decisions (``chart_action``, insurance declined
as the chart says), every card it may draw listed with its exact probability. Blackjack's
analysis is in floating point (to 1e-12); baccarat's is exact fractions (equal).

The peru-2016 and baccarat forms run in CI (about 4 s and 6 s); spain-1979,
veintiuno-real and a shoe with a pair to split are ``slow``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.baccarat import analyse_baccarat_composition
from croupier.analysis.blackjack import Game, chart_action, derive_strategy, evaluate_round
from croupier.cards import Card, parse_cards
from croupier.games.baccarat import BaccaratRound
from croupier.games.base import GameRound
from croupier.games.blackjack import BlackjackRound
from croupier.games.chance import ChanceShoe, apply_command, expectimax
from croupier.games.commands import Action, Deal, Decision
from croupier.hands.baccarat import points
from croupier.rules import BaccaratRules, BlackjackRules, load_profile

SMALL_BLACKJACK_SHOE = "As 2c 5d 6h 9s Tc Td Th Ts Jc Jd"
"""One deck with 41 cards removed: every round it deals can finish (enough tens), the
dealer's Ace, small cards and tens all reach the chart's decisions."""

SMALL_BACCARAT_SHOE = "As 2c 2d 6h 6s 9c Tc Kd"
"""Eight cards of one deck: every coup the tableau deals, third cards included."""


def _blackjack_value(card: Card) -> int:
    return card.rank.blackjack_value


def _engine_and_analysis(name: str, shoe: str) -> tuple[Fraction, float]:
    rules = load_profile(name)
    assert isinstance(rules, BlackjackRules)
    cards = parse_cards(shoe)
    counts = [0] * 10
    for card in cards:
        counts[_blackjack_value(card) - 1] += 1
    game = dataclasses.replace(Game.of(rules, 1), shoe=tuple(counts))
    strategy = derive_strategy(game)
    analysed = evaluate_round(game, strategy).expected_value

    def chart(round_: GameRound, decision: Decision) -> list[Action]:
        assert isinstance(round_, BlackjackRound)
        if decision.question == "insurance":
            return [Action("no-insurance")]
        turn = round_.current()
        assert turn is not None
        _box, hand = turn
        name = chart_action(
            strategy,
            [_blackjack_value(card) for card in hand.cards],
            _blackjack_value(round_.up_card),
            {action.name for action in decision.legal},
            from_split=hand.from_split,
        )
        return [Action(name)]

    one_deck = BlackjackRules.model_validate(
        {
            **rules.model_dump(),
            "decks": 1,
            "shoe": {"cut_card_from_bottom": 20, "burn_on_new_shoe": 1},
        }
    )  # validated again, so that the table record follows the decks
    start = BlackjackRound(one_deck, ChanceShoe.of(cards, decks=1))
    start.place_bet(1, "main", 1)
    dealt = apply_command(start, Deal())
    return expectimax(dealt, chart, same=_blackjack_value), analysed


@pytest.mark.parametrize(
    "name",
    [
        "peru-2016",
        pytest.param("spain-1979", marks=pytest.mark.slow),
        pytest.param("veintiuno-real", marks=pytest.mark.slow),
    ],
)
def test_blackjack_expectimax_over_the_engine_equals_the_analysis(name: str) -> None:
    engine, analysed = _engine_and_analysis(name, SMALL_BLACKJACK_SHOE)
    assert abs(float(engine) - analysed) < 1e-12, (name, engine, analysed)
    if name == "peru-2016":
        # The engine's value is an exact fraction: a golden of the round on this shoe.
        assert engine == Fraction(101, 1386)


@pytest.mark.slow
def test_blackjack_expectimax_with_a_split_equals_the_analysis() -> None:
    """A shoe that holds a pair of eights, which the chart splits (Art. 11): the split
    hands, each drawing from what the other left, through the engine (about 30 s)."""
    engine, analysed = _engine_and_analysis("peru-2016", "As 2c 5d 6h 8s 8c 9s Tc Td Th Ts Jc Jd")
    assert abs(float(engine) - analysed) < 1e-12, (engine, analysed)
    assert engine == Fraction(251, 4620)


def test_baccarat_expectimax_over_the_tableau_equals_the_analysis_exactly() -> None:
    rules = load_profile("dragon-six-peru-2016")
    assert isinstance(rules, BaccaratRules)
    cards = parse_cards(SMALL_BACCARAT_SHOE)
    order = "A23456789TJQK"  # analyse_baccarat_composition's ranks
    counts = np.zeros(13, dtype=np.int64)
    for card in cards:
        counts[order.index(card.rank.symbol)] += 1
    figures = analyse_baccarat_composition(rules, counts)
    one_deck = BaccaratRules.model_validate({**rules.model_dump(), "decks": 1})
    for wager in ("banker", "player", "tie"):
        start = BaccaratRound(one_deck, ChanceShoe.of(cards, decks=1))
        start.place_bet(1, wager, 1)
        dealt = apply_command(start, Deal())
        # Art. 11's tableau reads points alone: cards of one point value are one outcome.
        engine = expectimax(dealt, lambda _round, _decision: [], same=points)
        exact = figures[wager].exact_distribution
        assert exact is not None
        analysed = sum((net * probability for net, probability in exact.items()), Fraction(0))
        assert engine == analysed, (wager, engine, analysed)
