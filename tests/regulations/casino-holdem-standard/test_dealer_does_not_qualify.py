"""casino-holdem-standard: the common international game (docs/rules.md §5).

"identical, except that when the dealer does not qualify the Ante is paid by the same
paytable (the Bet still pushes)."
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.games.base import Action
from croupier.games.casino_holdem import CasinoHoldemRound, stacked_deck
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.casino_holdem import PokerCategory as P
from croupier.rules.registry import load_profile_of

STANDARD = load_profile_of("casino-holdem", "casino-holdem-standard")
PERU = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
assert isinstance(STANDARD, CasinoHoldemRules) and isinstance(PERU, CasinoHoldemRules)

# Each dealer here holds at best a pair of 3s: none qualifies.
NOT_QUALIFYING = [
    ("Ah Kh", "3s 3d", "Qh Jh Th 5c 8d", P.ROYAL_FLUSH, 100),
    ("9h 8h", "3s 3d", "7h 6h 5h Kc Qd", P.STRAIGHT_FLUSH, 20),
    ("3c 3h", "2s 5d", "3d 3s 7h 9c Kd", P.FOUR_OF_A_KIND, 10),
    ("2c 2h", "5s 7d", "2d 3s 3d 9c Kd", P.FULL_HOUSE, 3),
    ("As 9s", "3h 3d", "Ks 7s 2s 5c Jd", P.FLUSH, 2),
    ("8s 9h", "3h 2d", "Td Jc 7s Kc 5d", P.STRAIGHT, 1),
    ("Qs Jh", "3h 3d", "Kd 9c 2d 7h 5c", P.HIGH_CARD, 1),
]


def play(profile: CasinoHoldemRules, player: str, dealer: str, board: str) -> CasinoHoldemRound:
    game = CasinoHoldemRound(profile, stacked_deck({1: player, 4: "Tc 8c"}, dealer, board))
    game.place_bet(1, "ante", 10)
    game.place_bet(4, "ante", 10)
    game.deal()
    game.act(1, Action("call"))
    game.act(4, Action("fold"))
    return game


@pytest.mark.parametrize(("player", "dealer", "board", "category", "ratio"), NOT_QUALIFYING)
def test_standard_not_qualified_pays_the_ante_by_the_paytable_and_returns_the_bet(
    player: str, dealer: str, board: str, category: P, ratio: int
) -> None:
    game = play(STANDARD, player, dealer, board)
    assert game.dealer_qualifies is False
    assert game.hand_of(1).category is category
    ante, bet = (w for w in game.results().wagers if w.seat == 1)
    assert (ante.wager, ante.payout, ante.result) == ("ante", Fraction(10 * (ratio + 1)), "win")
    assert (bet.wager, bet.payout, bet.result) == ("bet", Fraction(20), "push")


def test_the_two_profiles_differ_only_there() -> None:
    """The same flush against a dealer who does not qualify: 2:1 standard, 1:1 Peru (Art. 13 g)."""
    standard = play(STANDARD, "As 9s", "3h 3d", "Ks 7s 2s 5c Jd")
    peru = play(PERU, "As 9s", "3h 3d", "Ks 7s 2s 5c Jd")
    assert standard.results().net(1) == 20 and peru.results().net(1) == 10
    differing = {
        key
        for key in type(STANDARD).model_fields
        if getattr(STANDARD, key) != getattr(PERU, key) and key not in {"sources"}
    }
    # and who rules on a dispute: Peru's Dirección General may hear an appeal, the standard
    # game's house inspector rules finally (docs/rules.md#D-GEN-10)
    assert differing == {"name", "title", "ante_when_dealer_does_not_qualify", "disputes"}


def test_standard_qualified_dealer_settles_as_peru() -> None:
    standard = play(STANDARD, "As 9s", "4h 4d", "Ks 7s 2s 5c Jd")
    peru = play(PERU, "As 9s", "4h 4d", "Ks 7s 2s 5c Jd")
    assert standard.dealer_qualifies and peru.dealer_qualifies
    assert [(w.payout, w.result) for w in standard.results().wagers] == [
        (w.payout, w.result) for w in peru.results().wagers
    ]
