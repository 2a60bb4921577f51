"""The view says when a hand's total is soft (an Ace counted 11), so that the table can show a
soft 17 as "7/17" without counting cards itself (issue 13, item 4)."""

from __future__ import annotations

from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.rules import load_profile
from croupier.rules.blackjack import BlackjackRules
from croupier.shoe import Shoe


def _dealt(shoe: str) -> BlackjackRound:
    profile = load_profile("peru-2016")
    assert isinstance(profile, BlackjackRules)
    game = BlackjackRound(profile, Shoe.parse(shoe, decks=profile.decks))
    game.place_bet(1, "main", 10)
    game.deal()
    return game


def test_an_ace_and_a_six_are_a_soft_17_until_a_hit_makes_them_hard() -> None:
    # The deal goes box, dealer, box, dealer (hole card): Ah 6d to seat 1, 9c Qs to the dealer.
    game = _dealt("Ah 9c 6d Qs 5h 4h")
    hand = game.view(1)["seats"][0]["hands"][0]
    assert (hand["total"], hand["soft"]) == (17, True)
    game.act(1, Action("hit"))  # A 6 5: the Ace can only count 1 now
    hand = game.view(1)["seats"][0]["hands"][0]
    assert (hand["cards"], hand["total"], hand["soft"]) == (["Ah", "6d", "5h"], 12, False)


def test_a_hand_without_an_ace_is_never_soft() -> None:
    game = _dealt("Th 9c 7d Qs 5h 4h")
    hand = game.view(1)["seats"][0]["hands"][0]
    assert (hand["total"], hand["soft"]) == (17, False)
