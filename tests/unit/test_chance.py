"""Explicit chance (``croupier.games.chance``): a draw's outcomes are the cards the shoe's
composition still holds, each with the exact share of its copies; applying one, or a
command, makes a new round and leaves the one searched from as it was."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from croupier.cards import Card, parse_cards
from croupier.errors import CardRefused, IllegalActionError, ShoeError
from croupier.games.blackjack import BlackjackRound
from croupier.games.chance import (
    ChanceShoe,
    apply_chance,
    apply_command,
    chance_outcomes,
    expectimax,
    is_chance_node,
)
from croupier.games.commands import Act, Action, Deal
from croupier.rules import load_profile
from croupier.shoe import Shoe

PERU = load_profile("peru-2016")


def _dealt(shoe: str) -> BlackjackRound:
    game = BlackjackRound(PERU, ChanceShoe.of(parse_cards(shoe), decks=6))
    game.place_bet(1, "main", 1)
    dealt = apply_command(game, Deal())
    assert isinstance(dealt, BlackjackRound)
    return dealt


def test_outcomes_are_the_shares_of_the_cards_left() -> None:
    game = _dealt("As As Kd 7c 7c 7c")
    assert is_chance_node(game)
    assert dict(chance_outcomes(game)) == {
        Card.parse("7c"): Fraction(3, 6),
        Card.parse("Kd"): Fraction(1, 6),
        Card.parse("As"): Fraction(2, 6),
    }
    after = apply_chance(game, Card.parse("7c"))
    assert dict(chance_outcomes(after)) == {
        Card.parse("7c"): Fraction(2, 5),
        Card.parse("Kd"): Fraction(1, 5),
        Card.parse("As"): Fraction(2, 5),
    }
    assert sum(dict(chance_outcomes(game)).values()) == 1
    assert dict(chance_outcomes(game))[Card.parse("7c")] == Fraction(1, 2)  # unchanged


def test_a_card_the_shoe_does_not_hold_is_refused() -> None:
    game = _dealt("As Kd 7c 7h")
    with pytest.raises(CardRefused, match="holds no 9s"):
        apply_chance(game, Card.parse("9s"))
    with pytest.raises(ShoeError, match="holds at most 1 As, not 2"):
        ChanceShoe(Counter({Card.parse("As"): 2}), decks=1)


def test_a_decision_is_applied_to_a_copy() -> None:
    game = _dealt("7h 7c Kh Kd As 2s 3s Ts Tc")
    for card in parse_cards("7h 7c Kh Kd"):
        game = apply_chance(game, card)
    assert not is_chance_node(game)
    events = list(game.events)
    hit = apply_command(game, Act(1, Action("hit")))
    assert is_chance_node(hit)  # the hit waits for its card
    stood = apply_command(game, Act(1, Action("stand")))
    assert stood.is_done  # 17 against 17: the dealer stands, a push
    assert stood.results().net(1) == 0
    assert game.events == events and game.pending() is not None
    with pytest.raises(IllegalActionError, match="chance deals first"):
        apply_command(hit, Act(1, Action("stand")))


def test_chance_needs_a_chance_shoe() -> None:
    game = BlackjackRound(PERU, Shoe.parse("As Kd 7c 7h", decks=6))
    game.place_bet(1, "main", 1)
    with pytest.raises(IllegalActionError, match="needs a round dealt from a ChanceShoe"):
        apply_command(game, Deal())


def test_expectimax_of_a_small_round_by_hand() -> None:
    """17 (7h Kh) against the dealer's 17 (7c Kd), the shoe left As 2s 3s Ts Tc: standing
    pushes; hitting once wins with the Ace, 2 or 3 (3 in 5) and busts with a ten (2 in 5)."""
    game = _dealt("7h 7c Kh Kd As 2s 3s Ts Tc")
    for card in parse_cards("7h 7c Kh Kd"):
        game = apply_chance(game, card)
    assert expectimax(game, lambda _g, _d: [Action("stand")]) == 0
    assert expectimax(game, lambda _g, _d: [Action("hit"), Action("stand")]) == Fraction(1, 5)
    with pytest.raises(IllegalActionError, match="the shoe is empty"):
        expectimax(_dealt("7h 7c Kh Kd"), lambda _g, _d: [Action("hit")])
