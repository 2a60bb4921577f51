"""examples/learn_count_betting.py: the counting agent on the vector environment plays its
chart exactly as ``croupier analyze``'s chart does, reads Hi-Lo's true count from the cards
seen, and bets up where it learned a positive return (the full run is the example itself)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import gymnasium as gym
import numpy as np
import pytest

import croupier.envs  # noqa: F401 - registers the ids
from croupier.analysis.blackjack import Strategy, chart_action
from croupier.envs.actions import BLACKJACK

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "learn_count_betting", EXAMPLES / "learn_count_betting.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _blackjack_rank(code: int) -> int:
    rank = (code - 1) >> 2  # Card.index >> 2: 0 the Two ... 12 the Ace
    return 1 if rank == 12 else min(rank + 2, 10)


def test_the_chart_policy_decides_as_the_analysis_chart(example: ModuleType) -> None:
    chart = Strategy.from_json(
        json.loads((EXAMPLES / "learned-chart-peru-2016.json").read_text()), surrender=False
    )
    policy = example.ChartPolicy(chart)
    vector = gym.make_vec(
        "croupier/peru-2016-v0", num_envs=64, vectorization_mode="vector_entry_point"
    )
    observation, info = vector.reset(seed=11)
    decisions = splits = doubles = 0
    for _ in range(300):
        mask = info["action_mask"]
        actions = policy.decide(observation, mask)
        for i in np.flatnonzero(observation["phase"] == 1):
            legal = [BLACKJACK.names[k] for k in np.flatnonzero(mask[i])]
            if "no-insurance" in legal:
                expected = "no-insurance"  # the chart declines insurance
            else:
                codes = [int(c) for c in observation["hand"][i] if c]
                expected = chart_action(
                    chart,
                    [_blackjack_rank(c) for c in codes],
                    _blackjack_rank(int(observation["dealer"][i, 0])),
                    legal,
                    from_split=bool(observation["hands"][i] > 1),
                )
                decisions += 1
                splits += expected == "split"
                doubles += expected == "double"
            assert BLACKJACK.names[actions[i]] == expected, (i, observation["hand"][i])
        betting = observation["phase"] != 1
        observation, _, _, _, info = vector.step(np.where(betting, mask.argmax(axis=1), actions))
    assert decisions > 3000 and splits > 20 and doubles > 100


def test_the_true_count_is_hi_lo_over_the_decks_not_seen(example: ModuleType) -> None:
    seen = np.zeros((2, 13), dtype=np.int64)
    seen[0, 3] = 10  # ten Fives: +10, 10 cards of 312 seen, 5.58 decks left: +1.79
    seen[0, 12] = 2  # two Aces: -2, so +8 over 12 cards: 8 / 5.77 = +1.39, floored +1
    seen[1, 8:] = 40  # two hundred tens and Aces: -200 over 112 cards left: the lowest bin
    counts = example.CountBettor.true_count(seen, decks=6) + example.LOWEST
    assert counts.tolist() == [1, example.LOWEST]


def test_the_bettor_bets_up_only_where_it_learned_a_positive_return(
    example: ModuleType,
) -> None:
    bettor = example.CountBettor(epsilon=0.0, seed=1)
    plus_three, minus_one = 3 - example.LOWEST, -1 - example.LOWEST
    returns = np.tile([1.0, -1.0, 1.0, 1.0], 1000)  # +50% a unit
    bettor.learn(np.full(returns.size, plus_three), returns)
    bettor.learn(np.full(returns.size, minus_one), -returns)
    legal = np.arange(8)  # bet-1x ... bet-16x
    multiples = example.MULTIPLES[bettor.multiples(legal)]
    assert multiples[plus_three] == 16
    assert multiples[minus_one] == 1
    assert (np.delete(multiples, plus_three) == 1).all()  # never seen: the smallest
