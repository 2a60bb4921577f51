"""R1 (run half) and R5 for baccarat (``dragon-six-peru-2016``): whole live shoes.

R1 (GLI-19 3.3.1-3.3.2): 10,000 rounds are dealt from shoes shuffled by
``SystemRandomSource`` while ``random`` and ``numpy.random`` are patched to raise.
R5 (GLI-19 4.4.4): a finite shoe of 8 decks; every card dealt at most once per shoe, the burn
of Art. 6 d) included, in the shoe's order, never returned; a new shoe only after the round in
which the cut card came out (Art. 6). CI deals 10,000 rounds; the slow form deals 10^5.
"""

from __future__ import annotations

import live_shoes
import pytest

from croupier.games.base import random_round
from croupier.games.events import CardDrawn
from croupier.hands.baccarat import burn_count
from croupier.rules import BaccaratRules, load_profile_of

PROFILE = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(PROFILE, BaccaratRules)


def check_opening(drawn: list[CardDrawn]) -> None:
    # Art. 6 d): the shoe opens with the first card and as many more as its value.
    burnt = 1 + burn_count(drawn[0].card)
    assert [event.purpose for event in drawn[: burnt + 1]] == ["burn"] * burnt + ["player"]
    assert all(event.purpose != "burn" for event in drawn[burnt:])


def deal_live_shoes(rounds: int) -> tuple[int, int]:
    return live_shoes.deal_live_shoes(PROFILE, random_round, rounds, check_opening)


def test_r1_r5_ten_thousand_live_rounds(insecure_random_refused: None) -> None:
    rounds, shoes = deal_live_shoes(10_000)
    assert rounds == 10_000
    assert shoes >= 10_000 // 90  # an 8-deck shoe to its cut card holds about 80 rounds


@pytest.mark.slow
def test_r5_a_hundred_thousand_live_rounds(insecure_random_refused: None) -> None:
    assert deal_live_shoes(100_000)[0] == 100_000
