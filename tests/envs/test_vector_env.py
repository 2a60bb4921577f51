"""The compiled vector environment plays the single environment's game, card for card.

Each environment of a ``CroupierVectorEnv`` deals from its own shoe; at every betting step
the rest of that shoe is stacked into a ``CroupierEnv`` (``reset(options={"shoe": ...})``,
the engine's own round), both take the same random legal actions, and every step must agree:
the observation, the action mask, the reward and the end of the episode.
"""

from __future__ import annotations

import math
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import croupier.envs  # noqa: F401 - registers the ids
from croupier.analysis.blackjack import analyse_blackjack
from croupier.cards import Card
from croupier.envs.actions import BLACKJACK
from croupier.envs.table import CroupierEnv
from croupier.envs.vector import CroupierVectorEnv
from croupier.errors import IllegalActionError, ProfileError
from croupier.rules import BlackjackRules, load_profile
from croupier.shoe import Shoe
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation import blackjack_vector as compiled
from croupier.simulation.blackjack_sim import BlackjackStrategy, chart_tables

PROFILES = ("peru-2016", "spain-1979", "veintiuno-real")
Z99 = 2.5758293035489004


def _single_round(vector: CroupierVectorEnv, index: int, betting: bool) -> CroupierEnv:
    single = CroupierEnv(vector.profile, bet=vector.bet, betting=betting)
    cards = [Card.from_index(c) for c in vector.shoe_ahead(index)]
    single.reset(options={"shoe": Shoe(cards, vector.profile.decks)})
    return single


def _assert_same(
    vector_obs: dict[str, Any], single_obs: dict[str, Any], index: int, where: str
) -> None:
    for key, value in single_obs.items():
        np.testing.assert_array_equal(
            vector_obs[key][index], value, err_msg=f"{where}: observation {key!r}"
        )


@pytest.mark.parametrize(
    ("profile", "betting"),
    [*((name, False) for name in PROFILES), ("peru-2016", True)],
)
def test_steps_agree_with_the_single_environment(profile: str, betting: bool) -> None:
    envs = 3
    vector = CroupierVectorEnv(envs, profile, betting=betting)
    observation, info = vector.reset(seed=20261205)
    singles = [_single_round(vector, i, betting) for i in range(envs)]
    rng = np.random.default_rng(7)
    rounds = decisions = 0
    for step in range(1500):
        mask = info["action_mask"]
        for i, single in enumerate(singles):
            np.testing.assert_array_equal(mask[i], single.mask, err_msg=f"step {step}: mask")
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        was_done = [single.stage == 2 for single in singles]
        observation, rewards, terminated, _, info = vector.step(actions)
        for i in range(envs):
            if was_done[i]:
                singles[i] = _single_round(vector, i, betting)
                single_obs = singles[i]._observation()
                assert not terminated[i] and rewards[i] == 0.0
            else:
                single_obs, reward, done, _, _ = singles[i].step(actions[i])
                assert rewards[i] == reward, f"step {step}: env {i} reward"
                assert terminated[i] == done, f"step {step}: env {i} end"
                rounds += done
                decisions += single_obs["phase"] == 1
            _assert_same(observation, single_obs, i, f"step {step}, env {i}")
    assert rounds > 300 and decisions > 300


def test_make_vec_returns_the_compiled_environment() -> None:
    envs = gym.make_vec(
        "croupier/spain-1979-v0", num_envs=5, vectorization_mode="vector_entry_point"
    )
    assert isinstance(envs.unwrapped, CroupierVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    observation, info = envs.reset(seed=1)
    assert observation["hand"].shape == (5, 22)
    assert info["action_mask"].shape == (5, len(BLACKJACK))
    assert envs.observation_space.contains(observation)


def test_the_kernel_speaks_the_catalogue() -> None:
    names = BLACKJACK.names
    assert names[compiled.A_STAND] == "stand"
    assert names[compiled.A_SPLIT] == "split"
    assert names[compiled.A_EVEN_MONEY] == "even-money"
    assert names[compiled.A_DOUBLE_QUARTERS] == "double-1/4"
    assert names[compiled.A_INSURANCE_QUARTERS] == "insurance-1/4"
    assert names[compiled.A_BETS] == "bet-1x"
    assert len(names) == compiled.N_ACTIONS


def test_an_illegal_action_names_the_environment_and_changes_nothing() -> None:
    vector = CroupierVectorEnv(2, "peru-2016")
    vector.reset(seed=3)
    vector.step(np.zeros(2, dtype=np.int64))  # the betting step: every index deals
    fields = vector._state.fields.copy()
    illegal = int(np.flatnonzero(vector._mask[1] == 0)[0])
    with pytest.raises(IllegalActionError, match="environment 1"):
        vector.step(np.array([int(np.flatnonzero(vector._mask[0])[0]), illegal]))
    np.testing.assert_array_equal(vector._state.fields, fields)


def _chart_action(
    vector: CroupierVectorEnv, i: int, mask: Any, tables: tuple[Any, Any, int]
) -> int:
    """The catalogue index basic strategy plays in environment ``i`` now, read from the
    decision tables as the rollout reads them (one unit bet, no insurance: ``bet=1``)."""
    two_cards, more_cards, level = tables
    state = vector._state
    phase = state.fields[i, compiled.E_PHASE]
    if phase in (compiled.PH_BET, compiled.PH_DONE):
        return compiled.A_BETS  # the betting step (a round's end: the autoreset ignores it)
    if phase == compiled.PH_INSURANCE:
        return compiled.A_NO_INSURANCE  # basic strategy declines both
    h = state.fields[i, compiled.E_TURN]
    hand = state.hands[i, h]
    up = _value(int(state.dealer[i, 0])) - 1
    if hand[compiled.H_N] == 2:
        first, second = (_value(int(c)) - 1 for c in state.hand_cards[i, h, :2])
        code = two_cards[
            level, hand[compiled.H_SPLIT], hand[compiled.H_ACES], mask[compiled.A_SPLIT], first,
            second, up,
        ]  # fmt: skip
    else:
        code = more_cards[level, hand[compiled.H_HARD], hand[compiled.H_ACE], up]
    return {
        kernel.DO_STAND: compiled.A_STAND,
        kernel.DO_HIT: compiled.A_HIT,
        kernel.DO_DOUBLE: compiled.A_DOUBLE,
        kernel.DO_SPLIT: compiled.A_SPLIT,
        kernel.DO_SURRENDER: compiled.A_SURRENDER,
    }[int(code)]


def _value(card: int) -> int:
    rank = card >> 2
    return 1 if rank == 12 else min(rank + 2, 10)


@pytest.mark.parametrize("profile", PROFILES)
def test_the_rollout_deals_the_rounds_step_deals(profile: str) -> None:
    """``rollout`` (the simulator's one-box loop on each environment's shoe and stream) and
    ``step`` from ``reset`` on the same seed, played by the same chart, deal the same rounds:
    the same nets, round by round summed, in every environment."""
    envs, rounds, seed = 4, 150, 11
    vector = CroupierVectorEnv(envs, profile, bet=1)
    p = vector._p
    chart = BlackjackStrategy.basic(vector.profile)
    charts = chart_tables(chart, None, surrender=bool(p[kernel.P_SURRENDER]))
    lo, hi = kernel.index_levels(charts.hard[2], charts.soft[2], charts.pairs[2])
    two_cards, more_cards = kernel.decision_tables(
        p, lo, hi, (*charts.hard, *charts.soft, *charts.pairs)
    )
    tables = (two_cards, more_cards, min(max(0, lo), hi) - lo)
    _, info = vector.reset(seed=seed)
    unit = int(p[kernel.P_DENOMINATOR])
    played = np.zeros(envs, dtype=np.int64)
    net = net_squared = 0
    while played.min() < rounds:
        mask = info["action_mask"]
        actions = np.array([_chart_action(vector, i, mask[i], tables) for i in range(envs)])
        _, rewards, terminated, _, info = vector.step(actions)
        for i in np.flatnonzero(terminated):
            if played[i] < rounds:
                played[i] += 1
                round_net = round(float(rewards[i]) * unit)
                net += round_net
                net_squared += round_net * round_net
    result = CroupierVectorEnv(envs, profile).rollout(rounds=rounds, seed=seed)
    assert result.rounds == envs * rounds
    assert (result.net * unit, result.net_squared * unit**2) == (net, net_squared)


def test_other_games_have_no_compiled_vector_environment() -> None:
    with pytest.raises(ProfileError, match="blackjack"):
        CroupierVectorEnv(2, "dragon-six-peru-2016")


def _basic_strategy_edge(name: str, rounds: int) -> None:
    """Basic strategy played in the vector environment's kernel (``rollout``) returns
    ``croupier analyze``'s exact edge inside its 99% interval (dealt to the cut card, the
    figure moves by a few hundredths of a percent: inside it, as the simulator's own test
    finds, tests/consistency/test_simulator_blackjack_agrees_with_exact.py)."""
    profile = load_profile(name)
    assert isinstance(profile, BlackjackRules)
    exact = analyse_blackjack(profile).main
    envs = 64
    result = CroupierVectorEnv(envs, profile).rollout(rounds=rounds // envs, seed=2026)
    assert result.rounds == rounds // envs * envs
    half = Z99 * exact.std_dev / math.sqrt(result.rounds)
    assert abs(result.mean - exact.expected_value) <= half, (
        f"{name}: {result.mean:.5f} over {result.rounds} rounds, exact "
        f"{exact.expected_value:.5f} +/- {half:.5f} (99%)"
    )


@pytest.mark.parametrize("name", PROFILES)
def test_basic_strategy_returns_the_exact_edge(name: str) -> None:
    _basic_strategy_edge(name, 1_000_000)


@pytest.mark.slow
@pytest.mark.parametrize("name", PROFILES)
def test_basic_strategy_returns_the_exact_edge_ten_million(name: str) -> None:
    _basic_strategy_edge(name, 10_000_000)
