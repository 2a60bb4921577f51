"""Dealing whole live shoes for R1's run half and R5, for any game with a shoe and a cut card.

Shoes are shuffled by ``SystemRandomSource`` (the live source); the players' bets and
decisions come from a seeded source, since they are not the deal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from croupier.cards import FULL_DECK
from croupier.games.events import CardDrawn
from croupier.randomness import RandomSource, SeededRandomSource, SystemRandomSource
from croupier.shoe import Shoe

RoundFactory = Callable[..., Any]
"""A game's ``random_round(profile, shoe, source, *, new_shoe)``."""


def deal_live_shoes(
    profile: Any,
    random_round: RoundFactory,
    rounds: int,
    check_opening: Callable[[list[CardDrawn]], None],
) -> tuple[int, int]:
    """Deal ``rounds`` rounds shoe after shoe and check R5 on each shoe: every card drawn is
    the shoe's next card (none skipped, none returned), no card more often than the decks
    hold, no round begun after the cut card came out; ``check_opening`` checks the game's
    new-shoe burns. Returns (rounds dealt, shoes used)."""
    live = SystemRandomSource()
    players: RandomSource = SeededRandomSource(b"r5 players")
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
            game = random_round(profile, shoe, players, new_shoe=new_shoe)
            new_shoe = False
            dealt_rounds += 1
            drawn.extend(event for event in game.events if isinstance(event, CardDrawn))
            if game.is_last_round_of_shoe or dealt_rounds >= rounds:
                break
        assert [event.card for event in drawn] == list(shoe.peek_order()[: shoe.position])
        copies = Counter(event.card for event in drawn)
        assert max(copies.values()) <= profile.decks
        assert set(copies) <= set(FULL_DECK)
        check_opening(drawn)
    return dealt_rounds, shoes
