"""croupier's blackjack as an OpenSpiel Python game (the optional ``openspiel`` extra):
OpenSpiel's own algorithms on the engine's round give the analysis's figure and croupier's
expectimax. Skipped where ``open_spiel`` is not installed (``uv sync --extra openspiel``)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (the optional 'openspiel' extra)"
)

from open_spiel.python import policy as openspiel_policy  # noqa: E402
from open_spiel.python.algorithms import expected_game_score, minimax  # noqa: E402

from croupier.analysis.blackjack import (  # noqa: E402
    Game,
    chart_action,
    derive_strategy,
    evaluate_round,
)
from croupier.cards import FULL_DECK, Card, parse_cards  # noqa: E402
from croupier.envs import openspiel  # noqa: E402
from croupier.games.blackjack import BlackjackRound  # noqa: E402
from croupier.games.chance import expectimax  # noqa: E402
from croupier.rules import BlackjackRules, load_profile  # noqa: E402

SHOE = "As 5d 6h 9s Tc Td Th Ts"


def _value(card: Card) -> int:
    return card.rank.blackjack_value


def test_policy_value_of_the_chart_equals_the_analysis() -> None:
    """OpenSpiel's ``expected_game_score.policy_value`` walks the game's tree (chance nodes
    by their outcomes) under the basic strategy chart: the analysis's expected value for the
    same shoe, to 1e-12."""
    rules = load_profile("peru-2016")
    assert isinstance(rules, BlackjackRules)
    counts = [0] * 10
    for card in parse_cards(SHOE):
        counts[_value(card) - 1] += 1
    analysis_game = dataclasses.replace(Game.of(rules, 1), shoe=tuple(counts))
    strategy = derive_strategy(analysis_game)
    analysed = evaluate_round(analysis_game, strategy).expected_value

    class Chart(openspiel_policy.Policy):  # type: ignore[misc]
        def action_probabilities(
            self, state: Any, player_id: int | None = None
        ) -> dict[int, float]:
            round_ = state.round
            assert isinstance(round_, BlackjackRound)
            decision = round_.pending()
            assert decision is not None
            if decision.question == "insurance":
                return {openspiel.CATALOGUE.index("no-insurance"): 1.0}
            turn = round_.current()
            assert turn is not None
            name = chart_action(
                strategy,
                [_value(card) for card in turn[1].cards],
                _value(round_.up_card),
                {action.name for action in decision.legal},
                from_split=turn[1].from_split,
            )
            return {openspiel.CATALOGUE.index(name): 1.0}

    game = pyspiel.load_game("python_croupier_blackjack", {"profile": "peru-2016", "shoe": SHOE})
    [value] = expected_game_score.policy_value(game.new_initial_state(), [Chart(game, [0])])
    assert abs(value - analysed) < 1e-12, (value, analysed)


def test_expectiminimax_agrees_with_croupiers_expectimax() -> None:
    """spain-1979 deals no hole card (Art. 03 V.1.a), so a search over the whole state is
    the player's: box 5d 7h against the dealer's 9, OpenSpiel's ``expectiminimax`` and
    croupier's ``expectimax`` (every legal action tried) give the same value and stand."""
    game = pyspiel.load_game(
        "python_croupier_blackjack",
        {"profile": "spain-1979", "shoe": "As 2c 5d 6h 7h 9s Tc Td Th Kh"},
    )
    state = game.new_initial_state()
    assert state.is_chance_node()
    for card in parse_cards("5d 9s 7h"):
        state.apply_action(FULL_DECK.index(card))
    assert state.current_player() == 0
    value, best = minimax.expectiminimax(state, 100, None, 0)
    ours = expectimax(
        state.round,
        lambda _round, decision: list(decision.legal),
        same=_value,
    )
    assert abs(value - float(ours)) < 1e-12, (value, ours)
    assert openspiel.CATALOGUE.names[best] == "stand"
    assert ours == Fraction(-11, 15)  # 12 against a 9 from this shoe: a loss, mostly
