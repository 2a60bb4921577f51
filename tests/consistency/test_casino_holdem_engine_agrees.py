"""Casino Hold'em: the reference engine (``croupier settle``'s) against the analysis.

- The progressive (exact): seat 1 stakes it every game; the engine feeds the meter before any
  prize (docs/rules.md §5), so each fresh game pays on the seed plus that round's shares, and the
  exact figure is taken at that meter.
- The Ante + Bet game (a Monte Carlo estimate): seat 1 calls or folds by the estimate's own
  rule (``should_call``); the engine's mean must agree with the estimate within the 99%
  interval of both errors combined.
"""

from __future__ import annotations

import importlib.util
import math
from fractions import Fraction

import pytest

from croupier.analysis.casino_holdem import analyse_progressive, estimate_ante_game, should_call
from croupier.randomness import SeededRandomSource
from croupier.rules import CasinoHoldemRules, load_profile
from croupier.shoe import Shoe

HAS_ENGINE = importlib.util.find_spec("croupier.games.casino_holdem") is not None
Z99 = 2.5758293035489004


@pytest.mark.skipif(not HAS_ENGINE, reason="croupier.games.casino_holdem has not landed")
@pytest.mark.parametrize("name", ["casino-holdem-peru-2007", "casino-holdem-standard"])
def test_engine_agrees_with_the_analysis_short(name: str) -> None:
    from croupier.games.base import Action
    from croupier.games.casino_holdem import CasinoHoldemRound

    rules = load_profile(name)
    assert isinstance(rules, CasinoHoldemRules)
    rounds = 3_000
    source = SeededRandomSource(f"consistency-{name}")
    ante_total = 0.0
    progressive_total = 0.0
    for game_number in range(rounds):
        game = CasinoHoldemRound(rules, Shoe.shuffled(1, source))
        for seat in (1, 2):  # Art. 9: at least two players
            game.place_bet(seat, "ante", 1)
        game.place_bet(1, "progressive", rules.progressive.bet)
        game.deal()
        while (decision := game.pending()) is not None:
            if decision.seat == 1:
                call = should_call(
                    rules,
                    [*game.hole_cards[1], *game.board[:3]],
                    inner=400,
                    seed=f"{name}-{game_number}",
                )
                game.act(1, Action("call" if call else "fold"))
            else:
                game.act(decision.seat, Action("fold"))
        for wager in game.results().wagers:
            if wager.seat != 1:
                continue
            net = float(wager.payout - wager.stake)
            if wager.wager == "progressive":
                progressive_total += net
            else:
                ante_total += net
    meter = rules.progressive.meter_seed + rules.progressive.meter_contribution * Fraction(
        rules.progressive.bet
    )
    progressive = analyse_progressive(rules, meter)
    half = Z99 * progressive.std_dev / math.sqrt(rounds)
    assert abs(progressive_total / rounds - progressive.expected_value) <= half
    ante = estimate_ante_game(rules)
    assert ante.standard_error is not None
    combined = math.hypot(ante.std_dev / math.sqrt(rounds), ante.standard_error)
    assert abs(ante_total / rounds - ante.expected_value) <= Z99 * combined
