"""A round dealt card by card from a physical shoe is the round a stacked shoe deals with the
same cards (STYLE: a second path gets a consistency test the day it is born).

For every shipped profile, random rounds (random boxes, bets and legal decisions) are dealt
from a seeded shoe; the same commands are then given to a round on an empty ``PhysicalShoe``,
a card entered each time the engine stops for one (``CardNeeded``) and the round dealt on by
``GameRound.enter`` (the command that stopped, given again from where it began), which must
equal at every card what ``deal_on`` rebuilds from the whole record: the events must be
identical, and each stop must name the card's purpose, seat and
hand as the recorded ``CardDrawn`` then says, and every viewer's view of the stopped round can
be drawn, with no decision pending.
"""

from __future__ import annotations

import contextlib

import pytest

from croupier.errors import CardNeeded
from croupier.games.base import ROUND_CLASSES, GameRound, random_round
from croupier.games.events import CardDrawn
from croupier.games.record import commands_of
from croupier.games.replay import deal_on
from croupier.randomness import SeededRandomSource
from croupier.rules.registry import load_profile, shipped_profile_names
from croupier.service import engines
from croupier.shoe import PhysicalShoe

ROUNDS_PER_PROFILE = 12


def _where(game: GameRound) -> dict[str, object] | None:
    return None if game.card_needed is None else game.card_needed.to_json()


def _card_by_card(stacked: GameRound) -> GameRound:
    profile = stacked.profile
    drawn = [item for item in stacked.events if isinstance(item, CardDrawn)]
    shoe = PhysicalShoe(decks=profile.table.decks)
    game: GameRound = ROUND_CLASSES[profile.game](profile, shoe)
    for command in commands_of(stacked.events):
        with contextlib.suppress(CardNeeded):  # the round waits for a card: entered below
            game.apply(command)
        while game.card_needed is not None:
            for viewer in (None, *game.bets):  # every view of a stopped round can be drawn
                assert game.view(viewer)["pending"] is None
            assert game.view(None, everything=True)["card_needed"] is not None
            needed, card = game.card_needed, drawn[len(shoe.entered)]
            assert (needed.purpose, needed.seat, needed.hand) == (
                str(card.purpose),
                card.seat,
                card.hand,
            )
            rebuilt_shoe = shoe.at(0)
            rebuilt_shoe.enter(card.card)
            rebuilt = deal_on(game.events, rebuilt_shoe, profile)
            game = game.enter(card.card)
            assert game.events == rebuilt.events
            assert _where(game) == _where(rebuilt)
            assert game.view(None, everything=True) == rebuilt.view(None, everything=True)
            shoe = game.shoe  # type: ignore[assignment]
    return game


@pytest.mark.parametrize("name", shipped_profile_names())
def test_a_physical_shoe_round_is_the_stacked_shoes_round(name: str) -> None:
    profile = load_profile(name)
    for index in range(ROUNDS_PER_PROFILE):
        seed = f"physical {name} {index}".encode()
        shoe = engines.open_shoe(profile, seed)
        stacked = random_round(profile, shoe, SeededRandomSource(seed))
        assert stacked.is_done
        physical = _card_by_card(stacked)
        assert physical.events == stacked.events
        assert physical.results() == stacked.results()
