"""The compiled Casino Hold'em kernel against the reference engine, game for game.

The same decks, the same players and the same strategy: every zone's net must be exactly the
engine's (the kernel's integers are the engine's Fractions times the paytable denominator).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.cards import Card, Rank
from croupier.games.base import Action
from croupier.games.casino_holdem import CALL, FOLD, CasinoHoldemRound, new_shoe, stacked_deck
from croupier.hands.poker import evaluate
from croupier.randomness import SeededRandomSource
from croupier.rules.casino_holdem import CasinoHoldemRules, PokerCategory
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe
from croupier.simulation.casino_holdem import (
    ALWAYS_CALL,
    COMPUTER,
    RULE,
    CallRule,
    Paytable,
    play_decks,
)

PROFILES = {
    name: load_profile_of("casino-holdem", name)
    for name in ("casino-holdem-peru-2007", "casino-holdem-standard")
}


USER_RULE = CallRule(
    "two pair, a Queen in hand or a flush draw", PokerCategory.TWO_PAIR, Rank.QUEEN, True
)
"""A user's call rule (``CallRule``), played by the engine's player below as written here."""


def _user_rule_calls(hole: tuple[Card, ...], flop: tuple[Card, ...]) -> bool:
    five = [*hole, *flop]
    order = list(PokerCategory)  # best first
    made = order.index(evaluate(five).category) <= order.index(PokerCategory.TWO_PAIR)
    suited = max(sum(card.suit is suit for card in five) for suit in {c.suit for c in five})
    return made or any(card.rank >= Rank.QUEEN for card in hole) or suited >= 4


def engine_nets(
    profile: CasinoHoldemRules, deck: tuple[Card, ...], players: int, strategy: int
) -> list[Fraction]:
    game = CasinoHoldemRound(profile, Shoe.stacked(deck, decks=1))
    for zone in range(1, players + 1):
        game.place_bet(zone, "ante", 1)
    game.deal()
    while (decision := game.pending()) is not None:
        action: Action = CALL
        if strategy == COMPUTER:
            hole = game.hole_cards[decision.seat]
            made = evaluate([*hole, *game.board]).category is not PokerCategory.HIGH_CARD
            high = any(card.rank >= Rank.KING for card in hole)
            action = CALL if made or high else FOLD
        elif strategy == RULE:
            hole = tuple(game.hole_cards[decision.seat])
            action = CALL if _user_rule_calls(hole, tuple(game.board)) else FOLD
        game.act(decision.seat, action)
    result = game.results()
    return [result.net(zone) for zone in range(1, players + 1)]


def check(
    profile: CasinoHoldemRules, decks: list[tuple[Card, ...]], players: int, strategy: int
) -> None:
    table = Paytable.of(profile)
    array = np.array([[card.index for card in deck] for deck in decks], dtype=np.int64)
    kernel = play_decks(array, players, strategy, table, rule=USER_RULE)
    for row, deck in enumerate(decks):
        expected = [
            net * table.denominator for net in engine_nets(profile, deck, players, strategy)
        ]
        assert kernel[row].tolist() == expected, " ".join(str(card) for card in deck)


@pytest.mark.parametrize("name", sorted(PROFILES))
@pytest.mark.parametrize("strategy", [ALWAYS_CALL, COMPUTER, RULE])
@pytest.mark.parametrize("players", [2, 4, 7])
def test_kernel_matches_the_engine_on_seeded_decks(name: str, strategy: int, players: int) -> None:
    profile = PROFILES[name]
    assert isinstance(profile, CasinoHoldemRules)
    source = SeededRandomSource(f"kernel-{name}-{strategy}-{players}")
    decks = [new_shoe(source).peek_order() for _ in range(150)]
    check(profile, decks, players, strategy)


# Zone 1's hand runs through every paytable line, against dealers that do and do not qualify.
STACKED = [
    ({1: "Ah Kh", 2: "Tc 8c"}, "2s 7c", "Qh Jh Th 4c 4d"),
    ({1: "9h 8h", 2: "Tc 8c"}, "2s Kc", "7h 6h 5h 4c 4d"),
    ({1: "4s 4h", 2: "Tc 8c"}, "Qs Jd", "4c 4d Ks 7h 2c"),
    ({1: "Ks Kh", 2: "Tc 8c"}, "Qs Jd", "Kd 4c 4d 7h 2c"),
    ({1: "As 9s", 2: "Tc 8c"}, "Qh Jd", "Ks 7s 2s 4c 4d"),
    ({1: "Ah Kh", 2: "Tc 8c"}, "3s 3d", "Qh Jh Th 5c 8d"),
    ({1: "9h 8h", 2: "Tc 8c"}, "3s 3d", "7h 6h 5h Kc Qd"),
    ({1: "3c 3h", 2: "Tc 8c"}, "2s 5d", "3d 3s 7h 9c Kd"),
    ({1: "2c 2h", 2: "Tc 8c"}, "5s 7d", "2d 3s 3d 9c Kd"),
    ({1: "As 9s", 2: "Tc 8c"}, "3h 3d", "Ks 7s 2s 5c Jd"),
    ({1: "2c 3c", 2: "Tc 8c"}, "2d 3h", "As Ks Qd Jc Th"),
]


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_kernel_matches_the_engine_on_every_paytable_line(name: str) -> None:
    profile = PROFILES[name]
    assert isinstance(profile, CasinoHoldemRules)
    decks = [stacked_deck(holes, dealer, board).peek_order() for holes, dealer, board in STACKED]
    check(profile, decks, 2, ALWAYS_CALL)


def test_kernel_refuses_impossible_tables() -> None:
    profile = PROFILES["casino-holdem-peru-2007"]
    assert isinstance(profile, CasinoHoldemRules)
    with pytest.raises(ValueError, match="cannot deal"):
        play_decks(np.zeros((1, 10), dtype=np.int64), 2, ALWAYS_CALL, Paytable.of(profile))
