"""Casino Hold'em's Ante and Bet, compiled: many games per call, checked against the engine.

``play_decks`` deals each row of an array of 52-card decks exactly as ``CasinoHoldemRound``
does (Arts. 12-13: two rounds, the dealer last, burn, flop, burn, turn, river) for
``players`` zones staking one unit of Ante each, decides call or fold by a fixed strategy,
and settles by the profile's paytable, all inside numba with the evaluator's
``strength_of``. Nets come back as exact integers in units of ``1 / denominator`` of the
Ante (the least common multiple of the paytable's ratio stakes), so that the consistency
test compares them with the engine's ``Fraction``s exactly, game for game.

The progressive is not simulated here: its return is exact (``croupier.analysis``).

Strategies: ``ALWAYS_CALL``; ``COMPUTER`` (the ``croupier play`` computer player: call with a
pair or better on hole cards and flop, or an Ace or a King in hand).

>>> from croupier.rules.registry import load_profile_of
>>> profile = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
>>> table = Paytable.of(profile)
>>> from croupier.cards import FULL_DECK
>>> decks = np.array([[c.index for c in FULL_DECK]], dtype=np.int64)  # 2s 2h 2d 2c 3s ...
>>> # Board 3c 4s 4h 4c 5s; the dealer's 2d 3h make 4s full of 3s: zone 1 (2s 2c, 4s full
>>> # of 2s) loses Ante and Bet, zone 2 (2h 3s, 4s full of 3s too) pushes.
>>> play_decks(decks, 2, ALWAYS_CALL, table).tolist()
[[-3, 0]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.cards import Rank
from croupier.hands.poker import (
    CATEGORY_OF_CODE,
    CATEGORY_SHIFT,
    CODE_OF_CATEGORY,
    PAIR,
    strength_of,
)
from croupier.rules.casino_holdem import AnteWhenDealerDoesNotQualify, CasinoHoldemRules

ALWAYS_CALL = 0
COMPUTER = 1
KING = 11
"""Rank indices (``Card.index >> 2``): 11 is the King, 12 the Ace."""


@dataclass(frozen=True)
class Paytable:
    """A profile's Ante and Bet settlement as integers for the kernel."""

    denominator: int
    ante_wins: npt.NDArray[np.int64]
    """Per category code (``croupier.hands.poker``): the Ante's winnings x denominator."""
    call_wins: int
    """The Bet's winnings per unit of Bet, x denominator."""
    call_multiple: int
    qualifying_strength: int
    even_money_when_not_qualified: bool

    @classmethod
    def of(cls, profile: CasinoHoldemRules) -> Paytable:
        ratios = [*profile.ante_paytable.values(), profile.call_pays]
        denominator = math.lcm(*(ratio.stake for ratio in ratios))
        high_card = profile.ante_paytable[CATEGORY_OF_CODE[0]]
        ante_wins = np.array(
            [
                profile.ante_paytable.get(category, high_card).multiplier * denominator
                for category in CATEGORY_OF_CODE
            ],
            dtype=np.int64,
        )
        rule = profile.dealer_qualifier
        rank = Rank.parse(rule.pair_rank_at_least).value - 2
        return cls(
            denominator=denominator,
            ante_wins=ante_wins,
            call_wins=int(profile.call_pays.multiplier * denominator),
            call_multiple=profile.call_multiple,
            qualifying_strength=(CODE_OF_CATEGORY[rule.category] << CATEGORY_SHIFT) | (rank << 16),
            even_money_when_not_qualified=profile.ante_when_dealer_does_not_qualify
            is AnteWhenDealerDoesNotQualify.EVEN_MONEY,
        )


def play_decks(
    decks: npt.NDArray[np.int64], players: int, strategy: int, table: Paytable
) -> npt.NDArray[np.int64]:
    """Each zone's net (x ``table.denominator``, per unit of Ante) for each deck."""
    if decks.ndim != 2 or decks.shape[1] < 2 * (players + 1) + 7:
        raise ValueError(f"decks of shape {decks.shape} cannot deal {players} players")
    if not 1 <= players <= 7:
        raise ValueError(f"1 to 7 players, not {players}")
    result: npt.NDArray[np.int64] = _play_decks(
        np.ascontiguousarray(decks, dtype=np.int64),
        players,
        strategy,
        table.denominator,
        table.ante_wins,
        table.call_wins,
        table.call_multiple,
        table.qualifying_strength,
        table.even_money_when_not_qualified,
    )
    return result


@njit(cache=True, nogil=True)
def _play_decks(  # noqa: PLR0917 - numba takes positional arguments  # pragma: no cover
    decks: npt.NDArray[np.int64],
    players: int,
    strategy: int,
    denominator: int,
    ante_wins: npt.NDArray[np.int64],
    call_wins: int,
    call_multiple: int,
    qualifying_strength: int,
    even_money: bool,
) -> npt.NDArray[np.int64]:
    nets = np.zeros((decks.shape[0], players), dtype=np.int64)
    holes = np.empty((players, 2), dtype=np.int64)
    five = np.empty(5, dtype=np.int64)
    seven = np.empty(7, dtype=np.int64)
    dealer = np.empty(7, dtype=np.int64)
    for row in range(decks.shape[0]):
        deck = decks[row]
        position = 0
        for round_ in range(2):  # Arts. 12, 13 a: two rounds, the dealer last
            for player in range(players):
                holes[player, round_] = deck[position]
                position += 1
            dealer[round_] = deck[position]
            position += 1
        position += 1  # the burn, Art. 13 c
        for card in range(5):
            if card == 3:
                position += 1  # the burn, Art. 13 e
            dealer[2 + card] = deck[position]
            position += 1
        dealer_strength = strength_of(dealer)
        qualifies = dealer_strength >= qualifying_strength
        for player in range(players):
            seven[0] = holes[player, 0]
            seven[1] = holes[player, 1]
            for card in range(5):
                seven[2 + card] = dealer[2 + card]
            calls = True
            if strategy == COMPUTER:
                for card in range(5):
                    five[card] = seven[card]
                high_in_hand = (holes[player, 0] >> 2) >= KING or (holes[player, 1] >> 2) >= KING
                calls = high_in_hand or (strength_of(five) >> CATEGORY_SHIFT) >= PAIR
            if not calls:
                nets[row, player] = -denominator  # Art. 13 d: the Ante is lost
                continue
            player_strength = strength_of(seven)
            if not qualifies:  # Art. 13 g: the Ante wins, the Bet is returned
                if even_money:
                    nets[row, player] = denominator
                else:
                    nets[row, player] = ante_wins[player_strength >> CATEGORY_SHIFT]
            elif player_strength > dealer_strength:
                nets[row, player] = (
                    ante_wins[player_strength >> CATEGORY_SHIFT] + call_multiple * call_wins
                )
            elif player_strength < dealer_strength:
                nets[row, player] = -(1 + call_multiple) * denominator
    return nets
