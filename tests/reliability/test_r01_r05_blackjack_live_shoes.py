"""R1 (run half) and R5 for blackjack: whole live shoes dealt from the OS source.

R1 (GLI-19 3.3.1-3.3.2): 10,000 rounds of each blackjack profile are dealt from shoes shuffled
by ``SystemRandomSource`` while ``random`` and ``numpy.random`` are patched to raise.
R5 (GLI-19 4.4.4): a finite shoe of the declared decks, every card dealt at most once per shoe
(burns included), never returned, and a new shoe only once the cut card has come out.
CI deals 10,000 rounds per profile; the slow form deals 10^5.
"""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.cards import FULL_DECK
from croupier.games.blackjack import random_round
from croupier.games.events import CardDrawn
from croupier.randomness import SeededRandomSource, SystemRandomSource
from croupier.rules import BlackjackRules, load_profile_of
from croupier.shoe import Shoe

PROFILES = ["peru-2016", "spain-1979", "veintiuno-real"]


def deal_live_shoes(profile: BlackjackRules, rounds: int) -> tuple[int, int]:
    """Deal ``rounds`` rounds shoe after shoe; check R5 on each shoe. Returns (rounds, shoes)."""
    live = SystemRandomSource()
    decisions = SeededRandomSource(b"r5 decisions")  # the players' choices, not the deal
    dealt_rounds = shoes = 0
    while dealt_rounds < rounds:
        shoe = Shoe.shuffled(
            profile.decks, live, cut_card_from_bottom=profile.shoe.cut_card_from_bottom
        )
        shoes += 1
        drawn: list[CardDrawn] = []
        new_shoe = True
        while True:
            assert not shoe.is_cut_card_out, "a round began after the cut card came out"
            game = random_round(profile, shoe, decisions, new_shoe=new_shoe)
            new_shoe = False
            dealt_rounds += 1
            drawn.extend(event for event in game.events if isinstance(event, CardDrawn))
            if game.is_last_round_of_shoe or dealt_rounds >= rounds:
                break
        # Every card drawn is the next card of the shoe: none skipped, none returned.
        assert [event.card for event in drawn] == list(shoe.peek_order()[: shoe.position])
        copies = Counter(event.card for event in drawn)
        assert max(copies.values()) <= profile.decks
        assert set(copies) <= set(FULL_DECK)
        burns = drawn[: profile.shoe.burn_on_new_shoe]
        assert [event.purpose for event in burns] == ["burn"] * profile.shoe.burn_on_new_shoe
    return dealt_rounds, shoes


@pytest.mark.parametrize("name", PROFILES)
def test_r1_r5_ten_thousand_live_rounds(name: str, insecure_random_refused: None) -> None:
    profile = load_profile_of("blackjack", name)
    assert isinstance(profile, BlackjackRules)
    rounds, shoes = deal_live_shoes(profile, 10_000)
    assert rounds == 10_000
    assert shoes >= 10_000 // 60  # a 6-deck shoe to its cut card holds well under 60 rounds


@pytest.mark.slow
@pytest.mark.parametrize("name", PROFILES)
def test_r5_a_hundred_thousand_live_rounds(name: str, insecure_random_refused: None) -> None:
    profile = load_profile_of("blackjack", name)
    assert isinstance(profile, BlackjackRules)
    assert deal_live_shoes(profile, 100_000)[0] == 100_000
