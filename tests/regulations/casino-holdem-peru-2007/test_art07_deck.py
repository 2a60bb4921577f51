"""Art. 7 (El Peruano, 7 Mar 2007) and the docs/rules.md §5 decision on the deck.

"Decision: one 52-card deck, shuffled before every game and cut (Art. 7)." Art. 7 a:
"Mezclar completa y aleatoriamente las cartas"; 7 b: "Cortar las cartas".
"""

from __future__ import annotations

import pytest

from croupier.cards import FULL_DECK
from croupier.errors import ShoeError
from croupier.games.casino_holdem import CasinoHoldemRound, new_shoe
from croupier.randomness import SeededRandomSource, SystemRandomSource
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe

PROFILE = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
assert isinstance(PROFILE, CasinoHoldemRules)


def test_decision_one_full_deck_for_every_game() -> None:
    deck = new_shoe(SystemRandomSource())
    assert deck.decks == PROFILE.decks == 1
    assert sorted(deck.peek_order(), key=lambda card: card.index) == list(FULL_DECK)


def test_art7_a_seeded_shuffle_is_reproducible_and_seeds_differ() -> None:
    """Seeds are for tests, simulation and replay only (docs/rules.md §6)."""
    first = new_shoe(SeededRandomSource(b"game-1")).peek_order()
    assert new_shoe(SeededRandomSource(b"game-1")).peek_order() == first
    assert new_shoe(SeededRandomSource(b"game-2")).peek_order() != first


def test_decision_a_shoe_of_two_decks_is_refused() -> None:
    with pytest.raises(ShoeError, match="holds 1 deck, not 2"):
        CasinoHoldemRound(PROFILE, Shoe.stacked(FULL_DECK, decks=2))


def test_rules6_a_stacked_deck_holding_a_card_twice_is_refused() -> None:
    """docs/rules.md §6: "a stacked shoe that does is refused"."""
    with pytest.raises(ShoeError, match="2 copies of As"):
        Shoe.parse("As Kd As", decks=PROFILE.decks)


def test_a_deck_too_short_for_the_game_is_refused_before_any_card_is_drawn() -> None:
    game = CasinoHoldemRound(PROFILE, Shoe.parse("As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h", decks=1))
    game.place_bet(1, "ante", 5)
    game.place_bet(2, "ante", 5)
    with pytest.raises(ShoeError, match="holds 12 cards; this game deals 13"):
        game.deal()
    assert game.shoe.position == 0
