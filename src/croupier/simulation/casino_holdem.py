"""Casino Hold'em's Ante and Bet, compiled: many games per call, checked against the engine.

``play_decks`` deals each row of an array of 52-card decks exactly as ``CasinoHoldemRound``
does (Arts. 12-13: two rounds, the dealer last, burn, flop, burn, turn, river) for
``players`` zones staking one unit of Ante each, decides call or fold by a fixed strategy,
and settles by the profile's paytable, all inside numba with the evaluator's
``strength_of``. Nets come back as exact integers in units of ``1 / denominator`` of the
Ante (the least common multiple of the paytable's ratio stakes), so that the consistency
test compares them with the engine's ``Fraction``s exactly, game for game.

The progressive is not played here: ``croupier.simulation.casino_holdem_sim`` plays it with its
meter (its return at a given meter is exact in ``croupier.analysis``).

Strategies: ``ALWAYS_CALL``; ``COMPUTER`` (the ``croupier play`` computer player: call with a
pair or better on hole cards and flop, or an Ace or a King in hand); ``OPTIMAL`` (the exact
optimal decision of ``croupier analyze``, looked up in ``casino_holdem_strategy``).
``play_game`` deals and settles one game; ``croupier.simulation.casino_holdem_sim`` calls it
on decks it shuffles itself.

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
from croupier.simulation.casino_holdem_strategy import OptimalCalls, optimal_call

ALWAYS_CALL = 0
COMPUTER = 1
OPTIMAL = 2
"""The exact optimal call/fold of ``croupier analyze`` (``casino_holdem_strategy``)."""
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
    decks: npt.NDArray[np.int64],
    players: int,
    strategy: int,
    table: Paytable,
    optimal: OptimalCalls | None = None,
) -> npt.NDArray[np.int64]:
    """Each zone's net (x ``table.denominator``, per unit of Ante) for each deck.

    ``OPTIMAL`` needs ``optimal``, the exact decisions (``casino_holdem_strategy``)."""
    if decks.ndim != 2 or decks.shape[1] < 2 * (players + 1) + 7:
        raise ValueError(f"decks of shape {decks.shape} cannot deal {players} players")
    if not 1 <= players <= 7:
        raise ValueError(f"1 to 7 players, not {players}")
    lookup = _lookup(strategy, optimal)
    nets = np.zeros((decks.shape[0], players), dtype=np.int64)
    _play_decks(
        np.ascontiguousarray(decks, dtype=np.int64),
        players,
        strategy,
        table.denominator,
        table.ante_wins,
        table.call_wins,
        table.call_multiple,
        table.qualifying_strength,
        table.even_money_when_not_qualified,
        lookup.calls,
        lookup.symmetries.flop_class,
        lookup.symmetries.permutation,
        lookup.symmetries.canonical,
        nets,
    )
    return nets


def _lookup(strategy: int, optimal: OptimalCalls | None) -> OptimalCalls:
    if strategy not in (ALWAYS_CALL, COMPUTER, OPTIMAL):
        raise ValueError(f"unknown strategy code {strategy}")
    if strategy == OPTIMAL:
        if optimal is None:
            raise ValueError("the optimal strategy needs its decisions (optimal_calls)")
        return optimal
    return OptimalCalls.unused()


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
    calls: npt.NDArray[np.bool_],
    flop_class: npt.NDArray[np.int64],
    permutation: npt.NDArray[np.int64],
    canonical: npt.NDArray[np.int64],
    nets: npt.NDArray[np.int64],
) -> None:
    holes = np.empty((players, 2), dtype=np.int64)
    five = np.empty(5, dtype=np.int64)
    seven = np.empty(7, dtype=np.int64)
    dealer = np.empty(7, dtype=np.int64)
    for row in range(decks.shape[0]):
        play_game(
            decks[row], players, players, strategy, denominator, ante_wins, call_wins,
            call_multiple, qualifying_strength, even_money, calls, flop_class, permutation,
            canonical, holes, dealer, five, seven, nets[row],
        )  # fmt: skip


@njit(cache=True, nogil=True)
def play_game(  # noqa: PLR0917 - numba takes positional arguments  # pragma: no cover
    deck: npt.NDArray[np.int64],
    players: int,
    settled: int,
    strategy: int,
    denominator: int,
    ante_wins: npt.NDArray[np.int64],
    call_wins: int,
    call_multiple: int,
    qualifying_strength: int,
    even_money: bool,
    calls: npt.NDArray[np.bool_],
    flop_class: npt.NDArray[np.int64],
    permutation: npt.NDArray[np.int64],
    canonical: npt.NDArray[np.int64],
    holes: npt.NDArray[np.int64],
    dealer: npt.NDArray[np.int64],
    five: npt.NDArray[np.int64],
    seven: npt.NDArray[np.int64],
    nets: npt.NDArray[np.int64],
) -> None:
    """Deal one game from ``deck`` to ``players`` zones and the dealer (``holes[zone]``,
    ``dealer[0:2]`` the dealer's cards, ``dealer[2:7]`` the board) and write the Ante + Bet
    net of the first ``settled`` zones into ``nets`` (a folded zone: minus the Ante).
    ``nets[zone]`` is left as it was for zones past ``settled``."""
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
    if settled == 0:
        return
    dealer_strength = strength_of(dealer)
    qualifies = dealer_strength >= qualifying_strength
    for player in range(settled):
        seven[0] = holes[player, 0]
        seven[1] = holes[player, 1]
        for card in range(5):
            seven[2 + card] = dealer[2 + card]
        calls_here = True
        if strategy == COMPUTER:
            for card in range(5):
                five[card] = seven[card]
            high_in_hand = (holes[player, 0] >> 2) >= KING or (holes[player, 1] >> 2) >= KING
            calls_here = high_in_hand or (strength_of(five) >> CATEGORY_SHIFT) >= PAIR
        elif strategy == OPTIMAL:
            calls_here = optimal_call(
                calls, flop_class, permutation, canonical, seven[0], seven[1], seven[2],
                seven[3], seven[4],
            )  # fmt: skip
        if not calls_here:
            nets[player] = -denominator  # Art. 13 d: the Ante is lost
            continue
        player_strength = strength_of(seven)
        if not qualifies:  # Art. 13 g: the Ante wins, the Bet is returned
            if even_money:
                nets[player] = denominator
            else:
                nets[player] = ante_wins[player_strength >> CATEGORY_SHIFT]
        elif player_strength > dealer_strength:
            nets[player] = ante_wins[player_strength >> CATEGORY_SHIFT] + call_multiple * call_wins
        elif player_strength < dealer_strength:
            nets[player] = -(1 + call_multiple) * denominator
        else:
            nets[player] = 0
