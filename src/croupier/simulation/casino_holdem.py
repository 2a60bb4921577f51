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
optimal decision of ``croupier analyze``, looked up in ``casino_holdem_strategy``); ``RULE``
(a user's call rule, ``CallRule``, read from a TOML file by ``load_call_rule``: the computer
player's rule is the one with a pair and a King).
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
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.cards import Rank
from croupier.errors import CroupierError, NotationError
from croupier.hands.poker import (
    CATEGORY_OF_CODE,
    CATEGORY_SHIFT,
    CODE_OF_CATEGORY,
    strength_of,
)
from croupier.rules.casino_holdem import (
    AnteWhenDealerDoesNotQualify,
    CasinoHoldemRules,
    PokerCategory,
)
from croupier.simulation.casino_holdem_strategy import OptimalCalls, optimal_call

ALWAYS_CALL = 0
COMPUTER = 1
OPTIMAL = 2
"""The exact optimal call/fold of ``croupier analyze`` (``casino_holdem_strategy``)."""
RULE = 3
"""A user's call rule (``CallRule``)."""
N_CATEGORIES = len(CATEGORY_OF_CODE)
NO_RANK = 13
"""A hole-card rank index (``Card.index >> 2``: 0 the Two .. 12 the Ace) no card reaches: the
rule never calls on its hole cards alone."""


class CallRuleError(CroupierError, ValueError):
    """A Casino Hold'em call rule file that cannot be read as one."""


@dataclass(frozen=True)
class CallRule:
    """Call when any of these holds on the hole cards and the flop, else fold (Art. 13 d).

    A user writes it as TOML (``croupier simulate casino-holdem-standard --strategy
    rule.toml``); every key is optional, and a rule with none of them folds every game::

        title = "pairs or better, an Ace or a King in hand, four to a flush"
        call_with_at_least = "pair"        # the five cards make this category or better
        call_with_hole_card_at_least = "K" # or a hole card of this rank or higher
        call_with_four_to_a_flush = true   # or four of the five cards are of one suit

    Categories are named as ``settle`` names them (``high card`` .. ``royal flush``: with
    ``high card`` the rule calls every game); ranks as cards are written (2..9, T, J, Q, K,
    A).

    >>> CallRule.computer().as_kernel().tolist()  # pair (code 1), King (rank index 11)
    [1, 11, 0]
    """

    title: str
    at_least: PokerCategory | None = None
    hole_card_at_least: Rank | None = None
    four_to_a_flush: bool = False

    @classmethod
    def computer(cls) -> CallRule:
        """The ``croupier play`` computer player's rule."""
        return cls("computer", PokerCategory.PAIR, Rank.KING)

    def as_kernel(self) -> npt.NDArray[np.int64]:
        """``[least category code (past the best: never), least hole rank index, flush draw]``."""
        return np.array(
            [
                N_CATEGORIES if self.at_least is None else CODE_OF_CATEGORY[self.at_least],
                NO_RANK if self.hole_card_at_least is None else self.hole_card_at_least.value - 2,
                int(self.four_to_a_flush),
            ],
            dtype=np.int64,
        )


RULE_KEYS = frozenset(
    {"title", "call_with_at_least", "call_with_hole_card_at_least", "call_with_four_to_a_flush"}
)


def load_call_rule(path: Path) -> CallRule:
    """A ``CallRule`` from a TOML file; a clear ``CallRuleError`` for anything else."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise CallRuleError(f"call rule {path}: {error}") from None
    unknown = sorted(set(document) - RULE_KEYS)
    if unknown:
        raise CallRuleError(
            f"call rule {path}: unknown keys {unknown} (known: {sorted(RULE_KEYS)})"
        )
    category = document.get("call_with_at_least")
    rank = document.get("call_with_hole_card_at_least")
    flush = document.get("call_with_four_to_a_flush", False)
    names = ", ".join(c.value for c in PokerCategory)
    try:
        at_least = None if category is None else PokerCategory(str(category).lower())
    except ValueError:
        raise CallRuleError(f"call rule {path}: category {category!r}, one of {names}") from None
    try:
        hole = None if rank is None else Rank.parse(str(rank).upper())
    except (ValueError, NotationError):
        raise CallRuleError(f"call rule {path}: rank {rank!r}, one of 2..9 T J Q K A") from None
    if not isinstance(flush, bool):
        raise CallRuleError(f"call rule {path}: call_with_four_to_a_flush is true or false")
    return CallRule(str(document.get("title", path.stem)), at_least, hole, flush)


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
    *,
    rule: CallRule | None = None,
) -> npt.NDArray[np.int64]:
    """Each zone's net (x ``table.denominator``, per unit of Ante) for each deck.

    ``OPTIMAL`` needs ``optimal``, the exact decisions (``casino_holdem_strategy``); ``RULE``
    needs ``rule``."""
    if decks.ndim != 2 or decks.shape[1] < 2 * (players + 1) + 7:
        raise ValueError(f"decks of shape {decks.shape} cannot deal {players} players")
    if not 1 <= players <= 7:
        raise ValueError(f"1 to 7 players, not {players}")
    lookup = _lookup(strategy, optimal)
    nets = np.zeros((decks.shape[0], players), dtype=np.int64)
    rule_array = kernel_rule(strategy, rule)
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
        rule_array,
        nets,
    )
    return nets


def kernel_rule(strategy: int, rule: CallRule | None) -> npt.NDArray[np.int64]:
    """The call rule as the kernel reads it: the computer player's for ``COMPUTER``."""
    if strategy == RULE:
        if rule is None:
            raise ValueError("a call rule strategy needs its rule (CallRule)")
        return rule.as_kernel()
    return CallRule.computer().as_kernel()


def _lookup(strategy: int, optimal: OptimalCalls | None) -> OptimalCalls:
    if strategy not in (ALWAYS_CALL, COMPUTER, OPTIMAL, RULE):
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
    rule: npt.NDArray[np.int64],
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
            canonical, rule, holes, dealer, five, seven, nets[row],
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
    rule: npt.NDArray[np.int64],
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
        if strategy == COMPUTER or strategy == RULE:  # noqa: PLR1714, SIM109 - numba
            calls_here = call_by_rule(rule, seven, five)
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


@njit(cache=True, nogil=True, inline="always")
def call_by_rule(  # pragma: no cover - compiled
    rule: npt.NDArray[np.int64], seven: npt.NDArray[np.int64], five: npt.NDArray[np.int64]
) -> bool:
    """``CallRule`` on the hole cards ``seven[0:2]`` and the flop ``seven[2:5]``."""
    if (seven[0] >> 2) >= rule[1] or (seven[1] >> 2) >= rule[1]:
        return True
    if rule[2] != 0:
        for suit in range(4):
            held = 0
            for card in range(5):
                held += (seven[card] & 3) == suit
            if held >= 4:
                return True
    if rule[0] >= N_CATEGORIES:
        return False
    for card in range(5):
        five[card] = seven[card]
    return bool((strength_of(five) >> CATEGORY_SHIFT) >= rule[0])
