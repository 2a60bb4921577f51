"""One box at a regulated table, as a Gymnasium environment: ``CroupierEnv``.

The round is croupier's own engine (``croupier.games``, the code the live table deals with),
dealt from the profile's shoe, which lives from episode to episode until its cut card comes
out; the reward is the engine's settlement. The rules docstring is ``CroupierEnv``'s.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from croupier.cards import Card, Rank
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
from croupier.randomness import RandomSource, SeededRandomSource, new_seed
from croupier.rules.base import Profile
from croupier.rules.registry import load_profile
from croupier.shoe import Shoe

__all__ = ["AGENT_SEAT", "DEFAULT_BET", "CroupierEnv", "Stage", "table_env"]

AGENT_SEAT = 1
"""The agent's box: the first from the dealer's left (it decides first)."""

DEFAULT_BET = 8
"""The base bet in table units: every quarter of it is whole (``actions``'s fractions)."""

MAX_HAND_CARDS = 22
"""A blackjack hand's most cards: 21 Aces are a hard 21, and one more card busts it."""
MAX_DEALER_CARDS = 22
MAX_HANDS = 8
RANKS = tuple(Rank)


class Stage:
    """Where an episode stands (the observation's ``phase``)."""

    BET = 0
    """The betting step: the stake (``bet-Nx``), or baccarat's wager."""
    DECIDE = 1
    """The round waits on the agent (blackjack's insurance or a hand; Casino Hold'em's call)."""
    DONE = 2


def _code(text: str) -> int:
    """A card of the view as an observation: ``Card.index + 1`` (1-52); 0 for none or hidden."""
    return 0 if text == "??" else Card.parse(text).index + 1


def _codes(cards: list[str], size: int) -> npt.NDArray[np.int64]:
    row = np.zeros(size, dtype=np.int64)
    for place, text in enumerate(cards[:size]):
        row[place] = _code(text)
    return row


def _visible(view: Mapping[str, Any]) -> list[Card]:
    """Every card ``view`` shows face up: every seat's hands and the house's cards."""
    shown: list[str] = []
    for seat in view["seats"]:
        for hand in seat["hands"]:
            shown.extend(hand["cards"])
    for key in ("dealer", "player", "banker"):
        if isinstance(view.get(key), Mapping):
            shown.extend(view[key]["cards"])
    shown.extend(view.get("board") or [])
    return [Card.parse(text) for text in shown if text != "??"]


class LegalActions(spaces.Discrete):
    """The catalogue's ``Discrete`` space, whose ``sample()`` without a mask draws a legal
    action of its environment's state (``CroupierEnv.sampling_mask``): a random agent, and
    Gymnasium's ``check_env``, step without tripping over an illegal action."""

    def __init__(self, n: int, env: weakref.ref[CroupierEnv]) -> None:
        super().__init__(n)
        self._env = env

    def sample(
        self,
        mask: npt.NDArray[np.int8] | None = None,
        probability: npt.NDArray[np.int8] | None = None,
    ) -> np.int64:
        env = self._env()
        if mask is None and probability is None and env is not None:
            mask = env.sampling_mask()
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self) -> tuple[type[spaces.Discrete], tuple[int]]:
        """Sent to another process (``AsyncVectorEnv``), it is the plain ``Discrete`` it
        equals: the environment it samples for stays behind."""
        return spaces.Discrete, (int(self.n),)


class CroupierEnv(gym.Env[dict[str, Any], np.int64]):
    """One round of a regulated casino game at one box, dealt by croupier's engine.

    Description
        One episode is one round at box 1 of a table under ``profile`` (blackjack, Dragon
        Six baccarat or Casino Hold'em), dealt by ``croupier.games``, the engine the live
        table uses, from the profile's shoe. The shoe lives across episodes until its cut
        card comes out: the round in which it comes out is the shoe's last, the next episode
        opens a new shoe with the profile's burns (peru-2016 burns one card,
        docs/rules.md#D-BJ-16; Dragon Six burns by the first card's value, Art. 6 d); Casino
        Hold'em deals every round from a deck shuffled for it (the profile has no cut
        card). Every episode opens with the betting step (the stake, or baccarat's wager),
        so that no episode is empty: a blackjack round may end at the deal (a natural), a
        baccarat round always does. Casino Hold'em needs
        two players (Art. 9): box 2 antes the minimum and folds (its decision comes after
        the agent's and changes no card the agent sees or is dealt).
    Actions
        ``Discrete(n)`` over the game's stable catalogue (``croupier.envs.actions``):
        blackjack stand, hit, double, split, surrender, insurance, no-insurance, even-money,
        a double for less and a partial insurance as quarters of the maximum, then the
        betting ladder ``bet-1x`` ... ``bet-16x`` (with a fixed bet, the first step only
        deals: every index is legal there and deals the fixed bet); baccarat's five wagers
        (Art. 8) and the ladder; Casino Hold'em call and fold (Art. 13 d) and the ladder. ``info
        ["action_mask"]`` (int8) marks the legal ones: exactly the engine's legal actions
        (``GameRound.legal_actions``). An illegal action raises ``IllegalActionError`` (a
        ``ValueError``) naming it and the legal ones, and changes nothing.
    Observations
        A ``Dict``: ``phase`` (0 betting step, 1 a decision, 2 done), ``bets`` (the box's
        wagers as placed, in base bets, in the table's wager order), and the cards as the
        box may see them (``GameRound.view``: a face-down card is 0, a card is
        ``Card.index + 1``). Blackjack: ``hand`` (the hand in play), ``total`` and ``soft``
        of it, ``hand_number`` and ``hands``, ``stake`` (the hand's bet, in base bets),
        ``dealer`` (the up card, then the rest as turned). Baccarat: ``player`` and
        ``banker``. Casino Hold'em: ``hand``, ``board``, ``dealer``. With ``counting=True``,
        ``seen``: how many of each rank (2 ... Ace) the box has seen since the shuffle, the
        current round's visible cards included (burns are face down, not seen).
    Rewards
        At the end of the round: the box's net over every wager it placed (the main wager,
        doubles and splits, insurance, side bets), exactly the engine's settlement
        (``RoundResult.net``, a ``Fraction``), divided by the base bet ``bet`` and given as
        a float; 0 on every other step. ``info["net"]`` holds the exact ``Fraction``.
    Arguments
        ``profile``: a shipped profile's name or a profile file (``croupier/table-v0``);
        ``bet``: the base bet in table units (default 8: every quarter of it is whole);
        ``betting``: the agent chooses its stake at the betting step (``bet-Nx``, within the
        main wager's table limits), else ``bet-1x`` is the only legal stake;
        ``side_bets``: side wagers placed with the main one each round (``{"21+3": 8}``,
        Casino Hold'em's ``{"progressive": 1}``), in table units; ``counting``: add
        ``seen``; ``oracle``: blackjack only, ``info["action_values"]`` (the exact value of
        every legal action, ``croupier.envs.oracle``) at each decision and
        ``info["regret"]`` after it; ``render_mode``: ``"ansi"``. ``reset(options=...)``
        takes ``bet``, ``betting`` and ``side_bets`` for the coming episodes, and ``shoe``
        (a ``Shoe`` or its notation, ``"Th 9c 2d 7s"``) to deal this episode's round from,
        taken up mid-shoe (no burns), as ``croupier settle`` deals a document's shoe.
    References
        The profile's regulation (``profile.regulation``; each rule's article in
        ``profile.sources``): Peru 2016 blackjack Arts. 8-14, Spain 1979 Art. 03,
        Veintiuno Real items 1-14, Dragon Six Baccarat Plus (Peru, 2016) Arts. 6-11, Casino
        Hold'em (Peru, 2007) Arts. 9-13; docs/rules.md for croupier's decisions.
    Version History
        v0: the first version (issue 30).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        profile: str | Path | Profile = "peru-2016",
        *,
        bet: int = DEFAULT_BET,
        betting: bool = False,
        side_bets: Mapping[str, int] | None = None,
        counting: bool = False,
        oracle: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.profile = profile if isinstance(profile, Profile) else load_profile(profile)
        table = self.profile.table
        self.game = self.profile.game
        self.catalogue: Catalogue = catalogue_of(self.game)
        self.round_class: type[GameRound] = round_class_of(self.game)
        self.wagers = tuple(table.wagers)
        self.main_wager = self.round_class.main_wager
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ProfileError(f"render_mode: 'ansi' or None, not {render_mode!r}")
        if oracle and self.game != "blackjack":
            raise ProfileError(f"oracle=True values blackjack's decisions, not {self.game}'s")
        self.render_mode = render_mode
        self.counting = counting
        self.oracle = oracle
        self._configure(bet, betting, side_bets)
        self.action_space = LegalActions(len(self.catalogue), weakref.ref(self))
        self.observation_space = spaces.Dict(self._spaces())
        self._source: RandomSource | None = None
        self._shoe: Shoe | None = None
        self._meter: Fraction | None = None
        self._seen_before: Counter[Rank] = Counter()
        self._round: GameRound | None = None
        self._stage = Stage.DONE
        self._multiple = 1
        self._wager: str | None = None
        self._mask = np.zeros(len(self.catalogue), dtype=np.int8)
        self._values: dict[int, float] | None = None
        self._stacked: Shoe | None = None

    # --- arguments ------------------------------------------------------------------------
    def _configure(self, bet: int, betting: bool, side_bets: Mapping[str, int] | None) -> None:
        limits = self.profile.table.wagers
        if not isinstance(bet, int) or isinstance(bet, bool) or bet < 1:
            raise ProfileError(f"bet: a whole number of table units, 1 or more, not {bet!r}")
        main = limits[self.main_wager or self.wagers[0]]
        if not main.allows(bet):
            raise ProfileError(
                f"bet: {bet} units is outside the table limits {main.minimum}..{main.maximum}"
            )
        extra = dict(side_bets or {})
        for wager, amount in extra.items():
            if wager not in limits or wager == self.main_wager or self.main_wager is None:
                raise ProfileError(
                    f"side_bets: {wager!r} is not a side wager of {self.profile.name} "
                    f"(its wagers: {', '.join(self.wagers)})"
                )
            if not limits[wager].allows(amount):
                raise ProfileError(f"side_bets: {amount} on {wager!r} is outside its limits")
        self.bet, self.betting, self.side_bets = bet, betting, extra

    def _spaces(self) -> dict[str, spaces.Space[Any]]:
        decks = self.profile.table.decks
        card = (0, 52)
        most = float(max(limits.maximum for limits in self.profile.table.wagers.values()))
        found: dict[str, spaces.Space[Any]] = {
            "phase": spaces.Discrete(3),
            "bets": spaces.Box(0.0, most, (len(self.wagers),), np.float64),
        }
        if self.game == "blackjack":
            found |= {
                "hand": spaces.Box(*card, (MAX_HAND_CARDS,), np.int64),
                "total": spaces.Discrete(32),
                "soft": spaces.Discrete(2),
                "hand_number": spaces.Discrete(MAX_HANDS),
                "hands": spaces.Discrete(MAX_HANDS + 1),
                "stake": spaces.Box(0.0, 2 * most, (1,), np.float64),
                "dealer": spaces.Box(*card, (MAX_DEALER_CARDS,), np.int64),
            }
        elif self.game == "baccarat":
            found |= {
                "player": spaces.Box(*card, (3,), np.int64),
                "banker": spaces.Box(*card, (3,), np.int64),
            }
        else:
            found |= {
                "hand": spaces.Box(*card, (2,), np.int64),
                "board": spaces.Box(*card, (5,), np.int64),
                "dealer": spaces.Box(*card, (2,), np.int64),
            }
        if self.counting:
            found["seen"] = spaces.Box(0, 4 * decks, (len(RANKS),), np.int64)
        return found

    # --- the Gymnasium interface --------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new round at the box. ``seed``: a new shoe shuffled from a source seeded with
        it (``SeededRandomSource``; so the episodes that follow are the same for the same
        actions); without one, the shoe goes on (the first one seeded from the OS)."""
        super().reset(seed=seed)
        options = dict(options or {})
        stacked = options.pop("shoe", None)
        unknown = sorted(set(options) - {"bet", "betting", "side_bets"})
        if unknown:
            raise ProfileError(
                f"reset options: {', '.join(unknown)} unknown (bet, betting, side_bets, shoe)"
            )
        if options:
            self._configure(
                options.get("bet", self.bet),
                options.get("betting", self.betting),
                options.get("side_bets", self.side_bets),
            )
        if seed is not None:
            self._source, self._shoe, self._meter = (
                SeededRandomSource(f"croupier-env:{seed}"),
                None,
                None,
            )
        elif self._source is None:
            self._source = SeededRandomSource(new_seed())
        self._stacked = None
        if stacked is not None:
            decks = self.profile.table.decks
            self._stacked = Shoe.parse(stacked, decks) if isinstance(stacked, str) else stacked
        else:
            self._shoe_for_next_round()
        self._round = None
        self._wager = self.main_wager
        self._multiple = 1
        self._stage = Stage.BET
        self._values = None
        self._mask = self._betting_mask()
        return self._observation(), self._info()

    def step(
        self, action: int | np.int64
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self._stage == Stage.DONE:
            raise IllegalActionError("the round is over: call reset() for the next one")
        regret: float | None = None
        if self._stage == Stage.BET:
            entry = entry_at(self.catalogue, action, self._mask)
            if entry.kind is Kind.WAGER:
                self._wager = entry.action
            elif self.betting:
                self._multiple = entry.multiple
            if self._wager is None:  # baccarat's wager is still to choose
                self._mask = wager_mask(self.catalogue, self.wagers)
                return self._observation(), 0.0, False, False, self._info()
            self._deal()
        else:
            game_round = self._round
            assert game_round is not None
            chosen = to_action(self.catalogue, action, game_round.legal_actions())
            if self._values is not None:
                best = max(self._values.values())
                regret = best - self._values[int(action)]
            game_round.act(AGENT_SEAT, chosen)
        self._advance()
        info = self._info()
        if regret is not None:
            info["regret"] = regret
        reward = 0.0
        if self._stage == Stage.DONE:
            assert self._round is not None
            net = self._round.results().net(AGENT_SEAT) / self.bet
            info["net"] = net
            reward = float(net)
        return self._observation(), reward, self._stage == Stage.DONE, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return table_text(self)

    # --- the round ------------------------------------------------------------------------
    def _betting_mask(self) -> npt.NDArray[np.int8]:
        """The first step's mask: the ladder within the main wager's limits (``betting``);
        baccarat's wagers (its stake fixed); else every index, each dealing the fixed bet."""
        if self.betting:
            limits = self.profile.table.wagers[self.main_wager or self.wagers[0]]
            return bet_mask(self.catalogue, self.bet, limits)
        if self.main_wager is None:
            return wager_mask(self.catalogue, self.wagers)
        return np.ones(len(self.catalogue), dtype=np.int8)

    def sampling_mask(self) -> npt.NDArray[np.int8]:
        """What ``action_space.sample()`` draws from: the legal actions now, or after a
        round the next episode's first step (``LegalActions``)."""
        return self._mask if self._mask.any() else self._betting_mask()

    def _shoe_for_next_round(self) -> None:
        """Keep the shoe in play until its cut card came out in the last round (docs/rules.md
        §6), else shuffle a new one from the episode's source, before the betting step (a
        counter sees the new shoe's count, nothing, when it bets)."""
        table = self.profile.table
        shoe = self._shoe
        if shoe is None or shoe.is_cut_card_out or table.is_one_round_per_shoe:
            assert self._source is not None
            self._shoe = Shoe.shuffled(
                table.decks, self._source, cut_card_from_bottom=table.cut_card_from_bottom
            )
            self._seen_before = Counter()

    def _next_shoe(self) -> tuple[Shoe, bool]:
        """The shoe of this round and whether the round opens it (its burns): a stacked
        shoe given to ``reset``, taken up mid-shoe, or the shoe in play."""
        if self._stacked is not None:
            shoe, self._stacked, self._shoe = self._stacked, None, None
            self._seen_before = Counter()
            return shoe, False
        assert self._shoe is not None
        # The first round of a shoe runs the game's new-shoe procedure (its burns), as
        # the live table does (croupier.service.engines.new_round).
        return self._shoe, self._shoe.position == 0

    def _deal(self) -> None:
        shoe, new_shoe = self._next_shoe()
        game_round = self.round_class.opened(
            self.profile, shoe, new_shoe=new_shoe, meter=self._meter
        )
        stake = self.bet * self._multiple
        assert self._wager is not None
        game_round.place_bet(AGENT_SEAT, self._wager, stake)
        for wager, amount in self.side_bets.items():
            game_round.place_bet(AGENT_SEAT, wager, amount)
        for seat in range(AGENT_SEAT + 1, self.profile.table.min_players + 1):
            # Art. 9 (Casino Hold'em): a round needs two players; the others ante the least.
            game_round.place_bet(seat, self._wager, self.profile.table.wagers[self._wager].minimum)
        game_round.deal()
        self._round = game_round

    def _advance(self) -> None:
        """Play the other boxes' decisions (their default) until the agent's or the end."""
        game_round = self._round
        assert game_round is not None
        while (decision := game_round.pending()) is not None and decision.seat != AGENT_SEAT:
            game_round.act(decision.seat, decision.default)
        if game_round.is_done:
            self._stage = Stage.DONE
            self._mask = np.zeros(len(self.catalogue), dtype=np.int8)
            self._values = None
            self._seen_before.update(card.rank for card in _visible(game_round.view(AGENT_SEAT)))
            meter = game_round.results().details.get("meter_after")
            if meter is not None:
                self._meter = Fraction(meter)
            return
        self._stage = Stage.DECIDE
        self._mask = legal_mask(self.catalogue, game_round.legal_actions())
        if self.oracle:
            from croupier.envs.oracle import action_values

            self._values = action_values(
                game_round, self.seen(), self.catalogue, self.mask, self.bet
            )

    # --- what the box sees ----------------------------------------------------------------
    @property
    def game_round(self) -> GameRound | None:
        """The round of this episode (``None`` before its deal)."""
        return self._round

    @property
    def stage(self) -> int:
        """Where the episode stands (``Stage``)."""
        return self._stage

    @property
    def mask(self) -> npt.NDArray[np.int8]:
        """The legal indices now (``info["action_mask"]``)."""
        return self._mask.copy()

    def seen(self) -> Counter[Rank]:
        """The ranks the box has seen since the shuffle, the round in play's included."""
        seen = Counter(self._seen_before)
        if self._round is not None and not self._round.is_done:
            seen.update(card.rank for card in _visible(self._round.view(AGENT_SEAT)))
        return seen

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if self._round is not None and self._stage == Stage.DECIDE:
            info["legal_actions"] = [str(action) for action in self._round.legal_actions()]
        if self._values is not None:
            info["action_values"] = dict(self._values)
        return info

    def _observation(self) -> dict[str, Any]:
        view = None if self._round is None else self._round.view(AGENT_SEAT)
        observation: dict[str, Any] = {"phase": self._stage}
        bets = np.zeros(len(self.wagers), dtype=np.float64)
        if view is not None:
            placed: Mapping[str, int] = next(
                (seat["bets"] for seat in view["seats"] if seat["seat"] == AGENT_SEAT), {}
            )
            for place, wager in enumerate(self.wagers):
                bets[place] = placed.get(wager, 0) / self.bet
        observation["bets"] = bets
        if self.game == "blackjack":
            observation |= self._blackjack_observation(view)
        elif self.game == "baccarat":
            observation["player"] = _codes(view["player"]["cards"] if view else [], 3)
            observation["banker"] = _codes(view["banker"]["cards"] if view else [], 3)
        else:
            hands = self._own_hands(view)
            observation["hand"] = _codes(hands[0]["cards"] if hands else [], 2)
            observation["board"] = _codes(view["board"] if view else [], 5)
            observation["dealer"] = _codes(view["dealer"]["cards"] if view else [], 2)
        if self.counting:
            seen = self.seen()
            observation["seen"] = np.array([seen[rank] for rank in RANKS], dtype=np.int64)
        return observation

    @staticmethod
    def _own_hands(view: Mapping[str, Any] | None) -> list[dict[str, Any]]:
        if view is None:
            return []
        for seat in view["seats"]:
            if seat["seat"] == AGENT_SEAT:
                return list(seat["hands"])
        return []

    def _blackjack_observation(self, view: Mapping[str, Any] | None) -> dict[str, Any]:
        hands = self._own_hands(view)
        pending = None if view is None else view["pending"]
        number = pending["hand"] if pending and pending["hand"] is not None else 0
        hand = next((item for item in hands if item["hand"] == number), None)
        total = (hand["total"] or 0) if hand is not None else 0  # a card face down: no total
        return {
            "hand": _codes(hand["cards"] if hand else [], MAX_HAND_CARDS),
            "total": int(min(total, 31)),
            "soft": int(bool(hand and hand.get("soft"))),
            "hand_number": int(min(number, MAX_HANDS - 1)),
            "hands": min(len(hands), MAX_HANDS),
            "stake": np.array([(hand["bet"] if hand else 0) / self.bet], dtype=np.float64),
            "dealer": _codes(view["dealer"]["cards"] if view else [], MAX_DEALER_CARDS),
        }


def table_env(profile: str | Path, **options: Any) -> CroupierEnv:
    """``croupier/table-v0``: the table of a profile file of one's own (``profile`` is
    required: ``gym.make("croupier/table-v0", profile="house.toml")``)."""
    return CroupierEnv(profile, **options)


# --- the table as text (``render_mode="ansi"``): what the box sees, for a person or an LLM agent
PHASES = ("betting", "your decision", "round over")


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def table_text(env: CroupierEnv) -> str:
    """Lines: the profile, the house's cards, the box's hands and bets, the legal actions
    (index and name) and, at the end, every wager settled."""
    game_round = env.game_round
    lines = [f"{env.profile.title} ({env.profile.name}): {PHASES[env.stage]}"]
    if game_round is not None:
        view: dict[str, Any] = game_round.view(AGENT_SEAT)
        for key in ("dealer", "player", "banker"):
            if isinstance(view.get(key), dict):
                lines.append(f"{key}: {_cards(view[key]['cards'])}")
        if view.get("board") is not None:
            lines.append(f"board: {_cards(view['board'])}")
        for seat in view["seats"]:
            if seat["seat"] != AGENT_SEAT:
                continue
            bets = ", ".join(f"{wager} {amount}" for wager, amount in seat["bets"].items())
            lines.append(f"your bets: {bets}")
            for hand in seat["hands"]:
                total = "" if hand.get("total") is None else f" ({hand['total']})"
                lines.append(f"your hand {hand['hand']}: {_cards(hand['cards'])}{total}")
        if env.stage == Stage.DONE:
            for wager in view["results"]:
                if wager["seat"] == AGENT_SEAT:
                    lines.append(
                        f"{wager['wager']}: {wager['result']}, stake {wager['stake']}, "
                        f"returns {wager['payout']}"
                    )
    if env.stage == Stage.BET:
        lines.append(f"base bet: {env.bet} units")
    legal = [f"{index} {env.catalogue.names[index]}" for index in env.mask.nonzero()[0]]
    if legal:
        lines.append("legal: " + ", ".join(legal))
    return "\n".join(lines) + "\n"
