"""Blackjack at one box as an OpenSpiel Python game, dealt by croupier's own round engine with
explicit chance (``croupier.games.chance``), so OpenSpiel's algorithms run on the real rules.

Importing this module registers ``python_croupier_blackjack`` with ``pyspiel`` (the optional
``openspiel`` extra: ``pip install "croupier[openspiel]"``). Parameters: ``profile`` (a
blackjack profile, shipped or a ``.toml`` file) and ``shoe`` (the cards the shoe holds, in
notation: one deck's worth at most of each, any composition; the default is one whole deck).
The round opens with one unit on the main wager, dealt; then:

- a **chance node** at each draw: one outcome per card value the shoe still holds (the
  one wager, the main bet, reads values, not suits), its id the index in
  ``croupier.cards.FULL_DECK`` of the first card of that value left, its probability the
  share of that value's cards among those left (``croupier.games.chance.chance_outcomes``);
- a **decision node** where the round asks the box: the actions are the indices of the
  blackjack action catalogue (``croupier.envs.actions``), the same as the environments';
- **terminal** once settled: the return is the round's net in units.

The player's decisions are made with the dealer's hole card unseen only by a policy that
reads the player's view; a search over the whole state (OpenSpiel's ``expectiminimax``) sees
it where the profile deals one, so such a search is the player's value only under rules
without a hole card (spain-1979).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from croupier.cards import FULL_DECK, Card, parse_cards
from croupier.envs.actions import catalogue_of, legal_indices, to_action
from croupier.games.base import GameRound
from croupier.games.blackjack import BlackjackRound
from croupier.games.chance import (
    ChanceShoe,
    apply_chance,
    apply_command,
    chance_outcomes,
    is_chance_node,
)
from croupier.games.commands import Act, Deal
from croupier.rules import BlackjackRules, load_profile

__all__ = ["GAME_TYPE", "BlackjackGame", "BlackjackState"]

CATALOGUE = catalogue_of("blackjack")
CARD_INDEX = {card: index for index, card in enumerate(FULL_DECK)}
ONE_DECK = " ".join(str(card) for card in FULL_DECK)

GAME_TYPE = pyspiel.GameType(
    short_name="python_croupier_blackjack",
    long_name="croupier blackjack at one box (explicit chance)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"profile": "peru-2016", "shoe": ONE_DECK},
)


class BlackjackGame(pyspiel.Game):  # type: ignore[misc]
    """The game: a profile's rules and a shoe's composition."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        rules = load_profile(str(params["profile"]))
        if not isinstance(rules, BlackjackRules):
            raise pyspiel.SpielError(f"{rules.name} is not a blackjack profile")
        # One deck holds the shoe's cards (a composition of at most one of each card), so
        # the table record is the profile's with one deck (validated again, not copied).
        self.rules = BlackjackRules.model_validate(
            {
                **rules.model_dump(),
                "decks": 1,
                "shoe": {**rules.shoe.model_dump(), "cut_card_from_bottom": 0},
            }
        )
        self.composition = Counter(parse_cards(str(params["shoe"])))
        info = pyspiel.GameInfo(
            num_distinct_actions=len(CATALOGUE),
            max_chance_outcomes=len(FULL_DECK),
            num_players=1,
            min_utility=-16.0,
            max_utility=16.0,
            utility_sum=None,
            max_game_length=4 * len(FULL_DECK),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> BlackjackState:
        return BlackjackState(self)


class BlackjackState(pyspiel.State):  # type: ignore[misc]
    """A round at one box, from its deal to its settlement."""

    def __init__(self, game: BlackjackGame) -> None:
        super().__init__(game)
        start = BlackjackRound(game.rules, ChanceShoe(game.composition, decks=1))
        start.place_bet(1, "main", 1)
        self.round: GameRound = apply_command(start, Deal())

    def current_player(self) -> int:
        if self.round.is_done:
            return int(pyspiel.PlayerId.TERMINAL)
        if is_chance_node(self.round):
            return int(pyspiel.PlayerId.CHANCE)
        return 0

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(legal_indices(CATALOGUE, self.round.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """One outcome per card value the shoe still holds (the main bet reads values, not
        suits), its id the first such card's index, its probability the value's share."""
        by_value: dict[int, tuple[Card, Fraction]] = {}
        for card, probability in chance_outcomes(self.round):
            value = card.rank.blackjack_value
            first, total = by_value.get(value, (card, Fraction(0)))
            by_value[value] = (first, total + probability)
        return sorted(
            (CARD_INDEX[card], float(probability)) for card, probability in by_value.values()
        )

    def _apply_action(self, action: int) -> None:
        if is_chance_node(self.round):
            self.round = apply_chance(self.round, FULL_DECK[action])
            return
        decision = self.round.pending()
        assert decision is not None
        chosen = to_action(CATALOGUE, action, decision.legal)
        self.round = apply_command(self.round, Act(decision.seat, chosen))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {FULL_DECK[action]}"
        return CATALOGUE.names[action]

    def is_terminal(self) -> bool:
        return self.round.is_done

    def returns(self) -> list[float]:
        if not self.round.is_done:
            return [0.0]
        return [float(self.round.results().net(1))]

    def __str__(self) -> str:
        return str(self.round.view(1)["seats"])


pyspiel.register_game(GAME_TYPE, BlackjackGame)
