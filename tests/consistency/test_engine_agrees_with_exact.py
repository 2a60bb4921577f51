"""The reference engine (the one ``croupier settle`` uses), playing the computed strategy on
seeded shoes, lands within the 99% confidence interval of the exact figures.

Each shoe is shuffled from a seeded source and dealt to its cut card, one box, one unit on
the main bet (and on 21+3 where offered), insurance and even money declined as the strategy
says. The exact figures are off the top of a full shoe; dealing down to the cut card moves the
expectation by a few hundredths of a percent, far inside the interval. The short form runs
in CI; the 10**6-round form is ``slow`` (``benchmarks/slow_checks.py`` runs it).
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass

import pytest

from croupier.analysis.blackjack import BlackjackAnalysis, analyse_blackjack, chart_action
from croupier.analysis.figures import WagerFigures
from croupier.randomness import SeededRandomSource
from croupier.rules import BlackjackRules, load_profile
from croupier.shoe import Shoe

Z99 = 2.5758293035489004  # two-sided 99% normal quantile

HAS_BLACKJACK = importlib.util.find_spec("croupier.games.blackjack") is not None
HAS_BACCARAT = importlib.util.find_spec("croupier.games.baccarat") is not None


@dataclass
class Tally:
    rounds: int = 0
    total: float = 0.0

    def add(self, net: float) -> None:
        self.rounds += 1
        self.total += net

    def check(self, exact: WagerFigures) -> None:
        mean = self.total / self.rounds
        half_width = Z99 * exact.std_dev / math.sqrt(self.rounds)
        assert abs(mean - exact.expected_value) <= half_width, (
            f"{exact.name}: simulated {mean:.5f} over {self.rounds} rounds, exact "
            f"{exact.expected_value:.5f} +/- {half_width:.5f} (99%)"
        )


def _blackjack_value(card: object) -> int:
    from croupier.cards import Card

    assert isinstance(card, Card)
    return card.rank.blackjack_value


def _simulate_blackjack(
    rules: BlackjackRules, analysis: BlackjackAnalysis, rounds: int, seed: str
) -> dict[str, Tally]:
    from croupier.games.base import Action
    from croupier.games.blackjack import BlackjackRound

    tallies = {"main": Tally(), "21+3": Tally()}
    source = SeededRandomSource(seed)
    shoe = Shoe.shuffled(rules.decks, source, cut_card_from_bottom=rules.shoe.cut_card_from_bottom)
    while tallies["main"].rounds < rounds:
        if shoe.is_cut_card_out or shoe.remaining < 30:
            shoe = Shoe.shuffled(
                rules.decks, source, cut_card_from_bottom=rules.shoe.cut_card_from_bottom
            )
        game = BlackjackRound(rules, shoe)
        game.place_bet(1, "main", 1)
        if rules.twenty_one_plus_three is not None:
            game.place_bet(1, "21+3", 1)
        game.deal()
        while not game.is_done:
            decision = game.pending()
            assert decision is not None
            legal = {action.name for action in decision.legal}
            if decision.question == "insurance":
                game.act(decision.seat, Action("no-insurance"))
                continue
            turn = game.current()
            assert turn is not None
            _box, hand = turn
            name = chart_action(
                analysis.strategy,
                [_blackjack_value(card) for card in hand.cards],
                _blackjack_value(game.up_card),
                legal,
                from_split=hand.from_split,
            )
            game.act(decision.seat, Action(name))
        result = game.results()
        main = sum(
            (w.payout - w.stake for w in result.wagers if w.wager not in ("21+3", "insurance")),
        )
        tallies["main"].add(float(main))
        side = [w.payout - w.stake for w in result.wagers if w.wager == "21+3"]
        if side:
            tallies["21+3"].add(float(side[0]))
    return tallies


BLACKJACK_PROFILES = ("peru-2016", "spain-1979", "veintiuno-real")


def _check_blackjack(name: str, rounds: int) -> None:
    rules = load_profile(name)
    assert isinstance(rules, BlackjackRules)
    analysis = analyse_blackjack(rules)
    tallies = _simulate_blackjack(rules, analysis, rounds, f"consistency-{name}")
    tallies["main"].check(analysis.main)
    if rules.twenty_one_plus_three is not None:
        from croupier.analysis.three_card import analyse_twenty_one_plus_three

        tallies["21+3"].check(analyse_twenty_one_plus_three(rules))


@pytest.mark.skipif(not HAS_BLACKJACK, reason="croupier.games.blackjack has not landed")
@pytest.mark.parametrize("name", BLACKJACK_PROFILES)
def test_blackjack_engine_with_the_computed_strategy_short(name: str) -> None:
    _check_blackjack(name, 20_000)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_BLACKJACK, reason="croupier.games.blackjack has not landed")
@pytest.mark.parametrize("name", BLACKJACK_PROFILES)
def test_blackjack_engine_with_the_computed_strategy_million(name: str) -> None:
    _check_blackjack(name, 1_000_000)
