"""R1 (run half) and R5 for blackjack: whole live shoes dealt from the OS source.

R1 (GLI-19 3.3.1-3.3.2): 10,000 rounds of each blackjack profile are dealt from shoes shuffled
by ``SystemRandomSource`` while ``random`` and ``numpy.random`` are patched to raise.
R5 (GLI-19 4.4.4): a finite shoe of the declared decks, every card dealt at most once per shoe
(burns included), never returned, and a new shoe only once the cut card has come out.
CI deals 10,000 rounds per profile; the slow form deals 10^5.
"""

from __future__ import annotations

import live_shoes
import pytest

from croupier.games.base import random_round
from croupier.games.events import CardDrawn
from croupier.rules import BlackjackRules, load_profile_of

PROFILES = ["peru-2016", "spain-1979", "veintiuno-real"]


def deal_live_shoes(profile: BlackjackRules, rounds: int) -> tuple[int, int]:
    def check_opening(drawn: list[CardDrawn]) -> None:
        burns = drawn[: profile.shoe.burn_on_new_shoe]
        assert [event.purpose for event in burns] == ["burn"] * profile.shoe.burn_on_new_shoe

    return live_shoes.deal_live_shoes(profile, random_round, rounds, check_opening)


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
