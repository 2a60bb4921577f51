"""docs/rules.md §1 decisions that are profile values, as loaded (each is also dealt in the
article's own test): 6 decks, hole card revealed after the players, 4 hands, no Ace re-split,
S17, OBO, 1 to 10,000 units, 21+3 with A-2-3 straights."""

from __future__ import annotations

from croupier.rules import load_profile
from croupier.rules.blackjack import DealerBlackjackTakes, DoubleOn, HoleCard, ThreeCardHand


def test_decisions_as_loaded():
    profile = load_profile("peru-2016")
    assert profile.decks == 6
    assert profile.hole_card is HoleCard.DEALT
    assert profile.max_hands == 4 and profile.resplit_aces is False
    assert profile.split_ace_ten_is_blackjack is False
    assert profile.dealer_hits_soft_17 is False
    assert profile.dealer_blackjack_takes is DealerBlackjackTakes.ORIGINAL_BET_ONLY
    assert profile.double_on is DoubleOn.ANY_TWO and profile.double_for_less is True
    assert (profile.limits.minimum, profile.limits.maximum) == (1, 10_000)
    assert str(profile.insurance_pays) == "2:1" and profile.insurance_max == 1 / 2
    side = profile.twenty_one_plus_three
    assert side is not None and side.ace_low_straight is True
    assert {category: str(ratio) for category, ratio in side.paytable.items()} == {
        ThreeCardHand.STRAIGHT_FLUSH: "30:1",
        ThreeCardHand.THREE_OF_A_KIND: "20:1",
        ThreeCardHand.STRAIGHT: "10:1",
        ThreeCardHand.FLUSH: "5:1",
    }
