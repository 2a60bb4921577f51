"""Many blackjack boxes at once on the compiled kernel: ``CroupierVectorEnv``.

``gym.make_vec("croupier/peru-2016-v0", num_envs=1024, vectorization_mode="vector_entry_point")``
returns it for every blackjack profile (and ``croupier/table-v0`` with a blackjack profile
file). Each environment is the single environment's game (``croupier.envs.table``: one box,
the profile's shoe kept from round to round until its cut card comes out, the same action
catalogue, observations and rewards), dealt by ``croupier.simulation.blackjack_vector``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from croupier.envs.actions import BLACKJACK
from croupier.envs.table import DEFAULT_BET, CroupierEnv
from croupier.errors import IllegalActionError, ProfileError
from croupier.rules.blackjack import BlackjackRules
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation import blackjack_vector as compiled
from croupier.simulation.blackjack_sim import BlackjackStrategy, chart_tables, parameters

__all__ = ["CroupierVectorEnv", "RolloutSums", "table_vector_env"]


def vector_parameters(profile: BlackjackRules) -> npt.NDArray[np.int64]:
    """The simulator's packed rules (``blackjack_sim.parameters``) and the vector kernel's
    one more: a double for less (the simulator's chart always doubles in full). No chart:
    the agent takes every decision, insurance and even money too (deriving the basic
    strategy here made a first environment compile the exact analysis: 20 s more)."""
    p = parameters(profile, None, None)
    return np.append(p, np.int64(profile.double_for_less))


@dataclass(frozen=True)
class RolloutSums:
    """A chart's rounds in the kernel: nets in base bets, summed over every environment."""

    rounds: int
    net: float
    net_squared: float

    @property
    def mean(self) -> float:
        """The net per round: the player's edge (negative: the house's)."""
        return self.net / self.rounds

    @property
    def standard_error(self) -> float:
        variance = self.net_squared / self.rounds - self.mean**2
        return math.sqrt(max(variance, 0.0) / self.rounds)


class CroupierVectorEnv(VectorEnv[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` blackjack boxes, each the single environment's game, stepped together in
    compiled code.

    Description
        ``CroupierEnv``'s blackjack for each of ``num_envs`` environments, each with its own
        shoe and random stream (seeded from ``reset(seed=...)`` by
        ``numpy.random.SeedSequence(seed).spawn``): the same episodes (the betting step,
        insurance, each hand's decisions), the same rules and settlement, card for card
        (``tests/envs/test_vector_env.py`` replays them through the single environment).
        Next-step autoreset (``metadata["autoreset_mode"]``): the step after an episode ends
        opens the next round's betting step and ignores its action.
    Actions
        A ``MultiDiscrete`` of the blackjack catalogue (``croupier.envs.actions``), one index
        per environment; ``info["action_mask"]`` (``num_envs`` x 22, int8) marks the legal
        ones as the engine's ``legal_actions`` would, the quarters of a double for less and of
        a partial insurance included. An illegal index raises ``IllegalActionError`` naming
        the environment and changes nothing.
    Observations
        The single environment's ``Dict``, batched (``gymnasium.vector.utils.batch_space``).
    Rewards
        The round's net in base bets at its last step (a float64 per environment), exactly
        the engine's settlement.
    Arguments
        ``num_envs``; ``profile`` (a blackjack profile's name or file); ``bet``, ``betting``
        and ``counting`` as ``CroupierEnv``'s. Side bets and the oracle are the single
        environment's only (``side_bets`` and ``oracle=True`` raise ``ProfileError``).
    References
        As ``CroupierEnv``'s.
    Version History
        v0: the first version (issue 30).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
        profile: str | Path | BlackjackRules = "peru-2016",
        *,
        bet: int = DEFAULT_BET,
        betting: bool = False,
        counting: bool = False,
        side_bets: dict[str, int] | None = None,
        oracle: bool = False,
        render_mode: str | None = None,
    ) -> None:
        single = CroupierEnv(profile, bet=bet, betting=betting, counting=counting)
        if not isinstance(single.profile, BlackjackRules):
            raise ProfileError(
                f"the vector environment deals blackjack, not {single.profile.game} "
                f"(use vectorization_mode='sync' for {single.profile.name})"
            )
        if side_bets or oracle or render_mode is not None:
            raise ProfileError(
                "side_bets, oracle and render_mode are the single environment's "
                "(croupier.envs.table.CroupierEnv)"
            )
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ProfileError(f"num_envs: 1 or more, not {num_envs!r}")
        if single.wagers[0] != "main":
            raise ProfileError(f"{single.profile.name}: the main wager must come first")
        self.profile: BlackjackRules = single.profile
        self.num_envs = num_envs
        self.bet, self.betting, self.counting = bet, betting, counting
        self.single_observation_space = single.observation_space
        self.single_action_space = spaces.Discrete(len(BLACKJACK))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._p = vector_parameters(self.profile)
        max_hands = int(self._p[kernel.P_MAX_HANDS])
        self._state = compiled.new_state(num_envs, self.profile.decks, max_hands)
        self._mask = np.zeros((num_envs, len(BLACKJACK)), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._seeded = False
        self._configure_bets()

    def _blank_observation(self) -> dict[str, npt.NDArray[Any]]:
        """New arrays for one observation, in the kernel's order (``VIEW``); the kernel
        writes every row whole, so none is cleared here."""
        n = self.num_envs
        shapes: dict[str, tuple[tuple[int, ...], type]] = {
            "phase": ((n,), np.int64),
            "bets": ((n, len(self.profile.table.wagers)), np.float64),
            "hand": ((n, 22), np.int64),
            "total": ((n,), np.int64),
            "soft": ((n,), np.int64),
            "hand_number": ((n,), np.int64),
            "hands": ((n,), np.int64),
            "stake": ((n, 1), np.float64),
            "dealer": ((n, 22), np.int64),
            "seen": ((n if self.counting else 0, 13), np.int64),
        }
        return {key: np.empty(*shapes[key]) for key in compiled.VIEW}

    def _configure_bets(self) -> None:
        fields = self._state.fields
        fields[:, compiled.E_BASE] = self.bet
        limits = self.profile.table.wagers["main"]
        fields[:, compiled.E_LIMIT_LOW] = limits.minimum if self.betting else 0
        fields[:, compiled.E_LIMIT_HIGH] = limits.maximum if self.betting else 0

    # --- the Gymnasium interface ----------------------------------------------------------
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Every environment at a new round's betting step. ``seed``: new streams (and new
        shoes) from ``SeedSequence(seed).spawn(num_envs)``; without one the shoes go on
        (the first ones from the OS's entropy). ``options``: ``bet`` and ``betting``."""
        options = dict(options or {})
        unknown = sorted(set(options) - {"bet", "betting"})
        if unknown:
            raise ProfileError(f"reset options: {', '.join(unknown)} unknown (bet, betting)")
        if options:
            check = CroupierEnv(
                self.profile,
                bet=options.get("bet", self.bet),
                betting=options.get("betting", self.betting),
            )
            self.bet, self.betting = check.bet, check.betting
            self._configure_bets()
        state = self._state
        if isinstance(seed, list):
            raise ProfileError("seed: one number for the batch (each environment's is spawned)")
        if seed is not None or not self._seeded:
            state.streams[:] = compiled.stream_states(seed, self.num_envs)
            state.fields[:, compiled.E_EXHAUSTED] = 1  # new shoes
            state.fields[:, compiled.E_SHOES] = 0
            self._seeded = True
        compiled.reset_batch(
            self._p, state.fields, state.shoes, state.streams, state.seen, self._mask,
            state.hands, state.hand_cards,
        )  # fmt: skip
        self._rewards[:] = 0.0
        self._terminated[:] = False
        observation = self._blank_observation()
        compiled.observe_batch(
            self._p, state.fields, state.hands, state.hand_cards, state.dealer, state.seen,
            tuple(observation.values()),
        )  # fmt: skip
        return self._answer(observation), self._info()

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        state = self._state
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        observation = self._blank_observation()
        refused = compiled.step_batch(
            chosen, self._p, state.fields, state.hands, state.hand_cards, state.dealer,
            state.shoes, state.streams, state.seen, self._mask, self._rewards,
            self._terminated, tuple(observation.values()),
        )  # fmt: skip
        if refused >= 0:
            legal = ", ".join(
                f"{k} ({BLACKJACK.names[k]})" for k in np.flatnonzero(self._mask[refused])
            )
            raise IllegalActionError(
                f"environment {refused}: action {int(chosen[refused])} is not legal now; "
                f"legal: {legal}",
                code="action_not_legal_now",
                action=str(int(chosen[refused])),
            )
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return (
            self._answer(observation),
            self._rewards.copy(),
            self._terminated.copy(),
            truncated,
            self._info(),
        )

    def _answer(self, observation: dict[str, Any]) -> dict[str, Any]:
        if not self.counting:
            del observation["seen"]
        return observation

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self._mask.copy(),
            "_action_mask": np.ones(self.num_envs, dtype=np.bool_),
        }

    # --- what the tests and the benchmark read ---------------------------------------------
    def shoe_ahead(self, index: int) -> list[int]:
        """The cards environment ``index`` will deal next, in order (``Card.index``): the
        rest of its shoe (the differential test stacks them into the single environment)."""
        fields = self._state.fields
        return [int(c) for c in self._state.shoes[index, fields[index, compiled.E_POS] :]]

    def rollout(
        self, strategy: BlackjackStrategy | None = None, *, rounds: int, seed: int | None = None
    ) -> RolloutSums:
        """``rounds`` rounds in each environment played by ``strategy``'s chart (basic
        strategy by default), inside the kernel from deal to settlement: the simulator's
        one-box loop on each environment's shoe and stream (``reset(seed=...)``'s), the game
        ``step`` deals; on shoes of its own (the environments' rounds are left as they are).
        Flat one-unit bets: no insurance (a unit has no whole unit to insure), even money as
        the chart says."""
        chart = strategy or BlackjackStrategy.basic(self.profile)
        tables = chart_tables(chart, None, surrender=bool(self._p[kernel.P_SURRENDER]))
        p = parameters(self.profile, chart, None)
        p[kernel.P_HAS_SIDE] = 0  # side bets are the single environment's
        p[kernel.P_INSURE_MODE] = 0
        state = compiled.new_state(self.num_envs, self.profile.decks, 1)
        state.streams[:] = compiled.stream_states(seed, self.num_envs)
        net, net_squared = compiled.rollout_chart(
            p, rounds, state.shoes, state.streams, (*tables.hard, *tables.soft, *tables.pairs)
        )
        unit = int(self._p[kernel.P_DENOMINATOR])
        return RolloutSums(rounds * self.num_envs, net / unit, net_squared / unit**2)


def table_vector_env(
    num_envs: int = 1, profile: str | Path = "", **options: Any
) -> CroupierVectorEnv:
    """``croupier/table-v0``'s vector entry point: a blackjack profile file of one's own."""
    return CroupierVectorEnv(num_envs, profile, **options)
