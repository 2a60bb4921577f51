"""Whole tables for several agents: PettingZoo environments over croupier's own round engine.

## Description

``env(profile=..., players=N)`` is an ``AECEnv`` (agents act in turn), ``parallel_env(...)``
a ``ParallelEnv`` (every live agent gives an action each step; only the one the round waits
on counts, the others' masks are all zeros). One episode is one round of the profile's game
at one table: the agents sit at boxes 1 to N (or back another agent's box, where the profile
allows back bets), share one shoe that lives across episodes until its cut card comes out
(then a new shoe, with the regulation's burns), and the engine deals, asks and settles: the
same ``GameRound`` the live table, ``croupier settle`` and the analysis use.

## Actions

``Discrete(n)`` over the game's stable catalogue (``croupier.envs.actions``), the same indices
as the single environments. A round opens with a betting step where one is asked for:
baccarat's agents each choose their wager (Art. 8), and with ``betting=True`` each agent
chooses its stake on the betting ladder (``bet-Nx``: N times ``bet``). Then each decision the
round asks for (``GameRound.pending``: hit, stand, double, split, surrender, insurance, even
money; Casino Hold'em's call or fold) goes to the agent of the box it is asked of. An action
the mask does not allow raises ``IllegalActionError`` (a ``ValueError``) naming the legal ones.

## Observations

``{"observation", "action_mask"}`` as PettingZoo's ``classic`` family has them. The
observation is an ``int8`` array ``(5, 52)``: for each of five places, how many of each card
(in ``croupier.cards.FULL_DECK`` order) the agent sees there: 0 its own cards (a backer: the
box it backs), 1 the hand the round asks it about now, 2 the house's cards (the dealer's;
baccarat's Player hand), 3 the board (Casino Hold'em) or baccarat's Banker hand, 4 the other
boxes' cards. It is read from the engine's view of that seat (``GameRound.view``), so a card
the seat may not see (the dealer's hole card, another player's Casino Hold'em hole cards,
the shoe) is never in it (R6). The mask is 1 for each index legal for the agent now, all
zeros when the round does not wait on it.

## Rewards

At the end of the round, each agent's net (what its wagers returned less what they staked,
doubles, splits and insurance included) in units of its initial bet, as the engine settled
it; a back bet returns its stake times its box's return, rounded down to the minor unit
(docs/rules.md#D-BJ-28). Zero at every other step.

## Arguments

``profile`` (a shipped name or a ``.toml`` path), ``players`` (boxes in play, at least the
table's ``min_players``: Casino Hold'em's two, Art. 9), ``backers`` (``{agent: agent}``: an
agent that backs another's box instead of playing one, spain-1979 Art. 03 IV.a-b), ``bet``
(units per base bet, 8 by default), ``betting`` (a betting step on the ladder),
``render_mode`` (``"ansi"``: the table as the public sees it). ``reset(seed=...)`` starts a
new shoe from the seed (the same seed, the same rounds); ``reset(options={"shoe": shoe})``
deals from a given ``Shoe`` (a stacked one) on from where it stands.

## References

The profile's regulation and articles (``croupier rules PROFILE``); docs/rules.md for the
decisions; PettingZoo's classic environments for the conventions.

## Version History

- v0: first version (issue 30).

>>> table = env(profile="casino-holdem-peru-2007", players=2)
>>> table.reset(seed=7)
>>> table.agent_selection, table.num_agents
('player_0', 2)
>>> sorted(table.observe("player_0"))
['action_mask', 'observation']
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from croupier.cards import FULL_DECK, Card
from croupier.envs.actions import (
    Catalogue,
    Kind,
    bet_mask,
    catalogue_of,
    entry_at,
    legal_mask,
    to_action,
    wager_mask,
)
from croupier.errors import IllegalActionError, ProfileError
from croupier.games.base import GameRound, round_class_of
from croupier.ledger.book import MINOR_PER_UNIT, to_minor
from croupier.randomness import RandomSource, SeededRandomSource, new_seed
from croupier.rules import load_profile
from croupier.rules.base import Profile
from croupier.shoe import Shoe

__all__ = ["PLACES", "ParallelTable", "Table", "TableEnv", "env", "parallel_env", "raw_env"]

PLACES = ("own", "in_turn", "house", "board", "others")
"""The observation's rows: where the agent sees each card."""

CARD_INDEX = {card: index for index, card in enumerate(FULL_DECK)}


class Table:
    """One table's rounds for ``players`` agents: the state both APIs share."""

    def __init__(
        self,
        profile: str | Path | Profile = "peru-2016",
        players: int = 2,
        *,
        backers: Mapping[int, int] | None = None,
        bet: int = 8,
        betting: bool = False,
    ) -> None:
        self.profile = profile if isinstance(profile, Profile) else load_profile(str(profile))
        table = self.profile.table
        self.catalogue: Catalogue = catalogue_of(self.profile.game)
        self.backers = dict(backers or {})
        self.bet = bet
        self.main_wager = round_class_of(self.profile.game).main_wager or next(iter(table.wagers))
        """The wager each agent's bet goes on (baccarat, which has none: its first, until
        the agent chooses)."""
        self._verify_seating(players)
        self.agents = [f"player_{index}" for index in range(players)]
        owners = [index for index in range(players) if index not in self.backers]
        self.seat_of = {self.agents[index]: seat for seat, index in enumerate(owners, start=1)}
        """Each playing agent's box."""
        self.backed = {
            self.agents[index]: self.seat_of[self.agents[box]]
            for index, box in self.backers.items()
        }
        """Each backer's box (the box of the agent it backs)."""
        self.betting = betting
        self._source: RandomSource | None = None
        self._shoe: Shoe | None = None
        self.game: GameRound | None = None
        self.stakes: dict[str, int] = {}
        """Each agent's initial bet in units (its reward's unit)."""
        self.wagers: dict[str, str] = {}
        self._to_bet: list[tuple[str, Kind]] = []
        """The betting step still to come: each agent's choice of wager or stake, in order."""

    def _verify_seating(self, players: int) -> None:
        table = self.profile.table
        owners = players - len(self.backers)
        if owners < max(table.min_players, 1):
            raise ProfileError(
                f"{self.profile.name}: a round needs at least {max(table.min_players, 1)} "
                f"player{'s' if table.min_players > 1 else ''} at boxes, not {owners} "
                f"({self.profile.sources.get('min_players', 'the table record')})"
            )
        if owners > table.seats:
            raise ProfileError(f"{self.profile.name} has {table.seats} boxes, not {owners}")
        if self.backers and not table.back_betting:
            raise ProfileError(f"{self.profile.name} does not allow back bets")
        for backer, box in self.backers.items():
            if not (0 <= backer < players and 0 <= box < players) or box in self.backers:
                raise ProfileError(
                    f"backers: agent {backer} cannot back agent {box}: both are agents 0 to "
                    f"{players - 1}, and the backed one plays a box"
                )
        maximum = table.wagers[self.main_wager].maximum
        for box in set(self.backers.values()):
            on_box = 1 + sum(1 for backed in self.backers.values() if backed == box)
            if on_box * self.bet > maximum:
                raise ProfileError(
                    f"box of agent {box}: {on_box} bets of {self.bet} exceed the box maximum "
                    f"{maximum} (docs/rules.md#D-BJ-28: the owner's and the back bets together)"
                )

    # --- a round -----------------------------------------------------------------------------
    def reset(self, seed: int | None, shoe: Shoe | None = None) -> None:
        """Open the next round; a ``seed`` starts a new shoe from it (reproducible); ``shoe``
        deals this round and the next from a given shoe (a stacked one: tests, replays), dealt
        on from where it stands (no new-shoe burns)."""
        if shoe is not None:
            self._shoe = shoe
        if seed is not None:
            self._source = SeededRandomSource(seed)
            self._shoe = shoe
        elif self._source is None:
            self._source = SeededRandomSource(new_seed())
        table = self.profile.table
        # A new shoe after the cut card (the regulation's), and before a round the shoe
        # might not finish: a one-deck profile's cut card can leave fewer cards than a round
        # at seven boxes draws.
        fresh = shoe is None and (
            self._shoe is None
            or table.is_one_round_per_shoe
            or self._shoe.is_cut_card_out
            or self._shoe.remaining < 52
        )
        if fresh:
            self._shoe = Shoe.shuffled(
                table.decks, self._source, cut_card_from_bottom=table.cut_card_from_bottom
            )
        assert self._shoe is not None
        self.game = round_class_of(self.profile.game).opened(
            self.profile, self._shoe, new_shoe=fresh
        )
        self.stakes = dict.fromkeys(self.agents, self.bet)
        self.wagers = dict.fromkeys(self.agents, self.main_wager)
        # A game without a main wager (baccarat, Art. 8) asks each agent for its wager.
        kinds = [Kind.WAGER] if round_class_of(self.profile.game).main_wager is None else []
        kinds += [Kind.BET] if self.betting else []
        # Box owners first, then their backers, whose stakes the box maximum bounds with
        # the owner's (docs/rules.md#D-BJ-28).
        order = sorted(self.agents, key=lambda agent: agent in self.backed)
        self._to_bet = [(agent, kind) for agent in order for kind in kinds]
        self._deal_when_bets_are_in()

    def _deal_when_bets_are_in(self) -> None:
        if self._to_bet:
            return
        game = self.current()
        for agent, seat in self.seat_of.items():
            game.place_bet(seat, self.wagers[agent], self.stakes[agent])
        game.deal()

    def current(self) -> GameRound:
        if self.game is None:
            raise IllegalActionError("no round: reset the environment first")
        return self.game

    def actor(self) -> str | None:
        """The agent whose action the table waits for (``None``: the round is over)."""
        if self._to_bet:
            return self._to_bet[0][0]
        decision = self.current().pending()
        if decision is None:
            return None
        return next(agent for agent, seat in self.seat_of.items() if seat == decision.seat)

    def mask(self, agent: str) -> npt.NDArray[np.int8]:
        if agent != self.actor():
            return np.zeros(len(self.catalogue), dtype=np.int8)
        if self._to_bet:
            return self._betting_mask()
        return legal_mask(self.catalogue, self.current().legal_actions())

    def _betting_mask(self) -> npt.NDArray[np.int8]:
        agent, kind = self._to_bet[0]
        wagers = self.profile.table.wagers
        if kind is Kind.WAGER:
            return wager_mask(self.catalogue, list(wagers))
        mask = bet_mask(self.catalogue, self.bet, wagers[self.wagers[agent]])
        room = self._box_room(agent)
        for index, entry in enumerate(self.catalogue.entries):
            if entry.kind is Kind.BET and entry.multiple * self.bet > room:
                mask[index] = 0
        return mask

    def _box_room(self, agent: str) -> int:
        """What the box's maximum leaves for ``agent``'s stake: the owner's stake and every
        back bet on a box stay within its maximum together (docs/rules.md#D-BJ-28); the
        stakes already chosen count, and one base bet for each still to choose."""
        box = self.seat_of.get(agent, self.backed.get(agent))
        sharing = [
            other
            for other in self.agents
            if other != agent and box in (self.seat_of.get(other), self.backed.get(other))
        ]
        if not sharing:
            return self.profile.table.wagers[self.wagers[agent]].maximum
        waiting = {other for other, _kind in self._to_bet}
        held = sum(self.bet if other in waiting else self.stakes[other] for other in sharing)
        return self.profile.table.wagers[self.main_wager].maximum - held

    def act(self, agent: str, index: int) -> None:
        """Apply ``agent``'s action ``index``, or raise ``IllegalActionError`` (nothing changes)."""
        if agent != self.actor():
            raise IllegalActionError(f"{agent}: the table waits for {self.actor()}, not {agent}")
        if self._to_bet:
            entry = entry_at(self.catalogue, index, self.mask(agent))
            if entry.kind is Kind.WAGER:
                self.wagers[agent] = entry.action
            else:
                self.stakes[agent] = entry.multiple * self.bet
            self._to_bet.pop(0)
            self._deal_when_bets_are_in()
            return
        game = self.current()
        action = to_action(self.catalogue, index, game.legal_actions())
        decision = game.pending()
        assert decision is not None
        game.act(decision.seat, action)

    def reward(self, agent: str) -> float:
        """``agent``'s net for the round in units of its initial bet (0 until the end)."""
        game = self.current()
        if not game.is_done:
            return 0.0
        result = game.results()
        stake = self.stakes[agent]
        if agent in self.backed:
            minor = to_minor(stake)
            payout = Fraction(result.back_bet_payout(self.backed[agent], minor), MINOR_PER_UNIT)
            return float((payout - stake) / stake)
        return float(result.net(self.seat_of[agent]) / stake)

    # --- what each agent sees ------------------------------------------------------------------
    def observation(self, agent: str) -> npt.NDArray[np.int8]:
        seat = self.seat_of.get(agent, self.backed.get(agent))
        assert seat is not None
        view = self.current().view(seat)
        seen = np.zeros((len(PLACES), 52), dtype=np.int8)
        pending = view["pending"]
        for entry in view["seats"]:
            for hand in entry["hands"]:
                place = PLACES.index("own" if entry["seat"] == seat else "others")
                _count(seen[place], hand["cards"])
                in_turn = (
                    pending is not None
                    and entry["seat"] == seat == pending["seat"]
                    and pending["hand"] in (None, hand["hand"])
                    and agent in self.seat_of
                )
                if in_turn:
                    _count(seen[PLACES.index("in_turn")], hand["cards"])
        house = view.get("dealer") or view.get("player") or {"cards": []}
        _count(seen[PLACES.index("house")], house["cards"])
        board = view["board"] if "board" in view else view.get("banker", {}).get("cards", [])
        _count(seen[PLACES.index("board")], board)
        return seen

    def observation_space(self) -> spaces.Dict:
        high = max(self.profile.table.decks, 1)
        return spaces.Dict(
            {
                "observation": spaces.Box(0, high, shape=(len(PLACES), 52), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, shape=(len(self.catalogue),), dtype=np.int8),
            }
        )

    def render(self) -> str:
        """The table as the public sees it, as text."""
        view = self.current().view(None)
        lines = [f"{self.profile.name}: {view['phase']}"]
        for key in ("dealer", "player", "banker"):
            if key in view:
                lines.append(f"{key}: {' '.join(view[key]['cards'])}")
        if view.get("board"):
            lines.append(f"board: {' '.join(view['board'])}")
        for entry in view["seats"]:
            hands = " | ".join(" ".join(hand["cards"]) for hand in entry["hands"])
            lines.append(f"box {entry['seat']} {entry['bets']}: {hands}")
        return "\n".join(lines) + "\n"


def _count(row: npt.NDArray[np.int8], cards: list[str]) -> None:
    for text in cards:
        if text != "??":
            row[CARD_INDEX[Card.parse(text)]] += 1


class TableEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """The AEC form: agents act in turn (``env`` wraps it in PettingZoo's order checks)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "croupier_table_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        profile: str | Path | Profile = "peru-2016",
        players: int = 2,
        *,
        backers: Mapping[int, int] | None = None,
        bet: int = 8,
        betting: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = Table(profile, players, backers=backers, bet=bet, betting=betting)
        self.possible_agents = list(self.table.agents)
        self.agents = list(self.possible_agents)
        self.render_mode = render_mode
        self._observation_space = self.table.observation_space()
        self._action_space = spaces.Discrete(len(self.table.catalogue))

    @functools.cache  # noqa: B019 - one space object per agent, as the API asks
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self.table.observation(agent), "action_mask": self.table.mask(agent)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed, (options or {}).get("shoe"))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_action()

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.act(agent, action)
        self._after_action()

    def _after_action(self) -> None:
        self._clear_rewards()
        actor = self.table.actor()
        if actor is None:
            for agent in self.agents:
                self.rewards[agent] = self.table.reward(agent)
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = actor

    def render(self) -> str | None:
        return self.table.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release: the table lives in memory."""


class ParallelTable(ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """The parallel form: every live agent gives an action each step; the one the round
    waits on counts (its mask), the others' are ignored (their masks are all zeros)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "croupier_table_v0"}

    def __init__(
        self,
        profile: str | Path | Profile = "peru-2016",
        players: int = 2,
        *,
        backers: Mapping[int, int] | None = None,
        bet: int = 8,
        betting: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.table = Table(profile, players, backers=backers, bet=bet, betting=betting)
        self.possible_agents = list(self.table.agents)
        self.agents = list(self.possible_agents)
        self.render_mode = render_mode
        self._observation_space = self.table.observation_space()
        self._action_space = spaces.Discrete(len(self.table.catalogue))

    @functools.cache  # noqa: B019 - one space object per agent, as the API asks
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def _observations(self) -> dict[str, dict[str, Any]]:
        return {
            agent: {
                "observation": self.table.observation(agent),
                "action_mask": self.table.mask(agent),
            }
            for agent in self.agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        self.table.reset(seed, (options or {}).get("shoe"))
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, Any]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        actor = self.table.actor()
        if actor is not None:
            if actor not in actions:
                raise IllegalActionError(f"the table waits for {actor}'s action")
            self.table.act(actor, int(actions[actor]))
        observations = self._observations()
        done = self.table.actor() is None
        rewards = {agent: self.table.reward(agent) for agent in self.agents}
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.table.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release: the table lives in memory."""


def raw_env(
    profile: str | Path | Profile = "peru-2016",
    players: int = 2,
    *,
    backers: Mapping[int, int] | None = None,
    bet: int = 8,
    betting: bool = False,
    render_mode: str | None = None,
) -> TableEnv:
    """The AEC table without PettingZoo's wrappers (arguments: the module docstring)."""
    return TableEnv(
        profile, players, backers=backers, bet=bet, betting=betting, render_mode=render_mode
    )


def env(
    profile: str | Path | Profile = "peru-2016",
    players: int = 2,
    *,
    backers: Mapping[int, int] | None = None,
    bet: int = 8,
    betting: bool = False,
    render_mode: str | None = None,
) -> AECEnv[str, dict[str, Any], int]:
    """The AEC table (``raw_env``) in PettingZoo's order-enforcing wrapper, as ``classic`` has
    it; an illegal action raises (``IllegalActionError``) rather than ending the round."""
    table = raw_env(
        profile, players, backers=backers, bet=bet, betting=betting, render_mode=render_mode
    )
    return wrappers.OrderEnforcingWrapper(table)


def parallel_env(
    profile: str | Path | Profile = "peru-2016",
    players: int = 2,
    *,
    backers: Mapping[int, int] | None = None,
    bet: int = 8,
    betting: bool = False,
    render_mode: str | None = None,
) -> ParallelTable:
    """The parallel table (arguments: the module docstring)."""
    return ParallelTable(
        profile, players, backers=backers, bet=bet, betting=betting, render_mode=render_mode
    )
