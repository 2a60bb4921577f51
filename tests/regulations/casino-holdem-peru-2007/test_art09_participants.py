"""Art. 9 (El Peruano, 7 Mar 2007): who may play and what they must stake.

"Para el desarrollo de una partida debe existir cuando menos dos jugadores." (Art. 9)
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.errors import AmountError, BetError, CroupierError, IllegalActionError
from croupier.games.casino_holdem import CasinoHoldemRound, TooFewPlayersError, stacked_deck
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import load_profile_of

PROFILE = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
assert isinstance(PROFILE, CasinoHoldemRules)


def new_round() -> CasinoHoldemRound:
    deck = stacked_deck(
        {1: "Ah Kh", 2: "2c 7d", 3: "9s 9d"}, "Qs Jd", "3h 4c 8s Tc 5d", burns="6h 6c"
    )
    return CasinoHoldemRound(PROFILE, deck, meter=1000)


def test_art9_one_player_is_refused_the_deal() -> None:
    """Art. 9: "debe existir cuando menos dos jugadores": one Ante, no deal, nothing drawn."""
    game = new_round()
    game.place_bet(1, "ante", 10)
    before = list(game.events)
    with pytest.raises(TooFewPlayersError, match="at least 2"):
        game.deal()
    assert isinstance(TooFewPlayersError("x"), CroupierError)
    assert game.events == before and game.shoe.position == 0


def test_art9_two_players_are_enough() -> None:
    game = new_round()
    game.place_bet(1, "ante", 10)
    game.place_bet(3, "ante", 10)
    game.deal()
    assert game.players == [1, 3]


def test_art9_a_withdrawn_ante_does_not_count_as_a_player() -> None:
    """A wager of 0 is no wager (docs/rules.md §6): withdrawing an Ante leaves one player."""
    game = new_round()
    game.place_bet(1, "ante", 10)
    game.place_bet(2, "ante", 10)
    game.place_bet(2, "ante", 0)
    with pytest.raises(TooFewPlayersError):
        game.deal()


def test_art9a_one_player_per_zone_a_second_ante_replaces_the_first() -> None:
    """Art. 9 a: "No puede haber más de un jugador participando en cada zona de apuesta":
    a zone holds one Ante, never two."""
    game = new_round()
    game.place_bet(1, "ante", 10)
    game.place_bet(1, "ante", 25)
    game.place_bet(2, "ante", 5)
    assert game.antes == {1: 25, 2: 5}


@pytest.mark.parametrize("zone", [0, 8, -1])
def test_art9_zones_outside_the_table_are_refused(zone: int) -> None:
    """The profile's 7 zones (numbered from the dealer's left)."""
    game = new_round()
    with pytest.raises(BetError, match=f"zone {zone} does not exist"):
        game.place_bet(zone, "ante", 10)


def test_art9e_the_progressive_needs_an_ante() -> None:
    """Art. 9 e: "Para participar los jugadores deben colocar el Ante. También puede colocar
    ... opcionales al progresivo"."""
    game = new_round()
    game.place_bet(1, "ante", 10)
    game.place_bet(2, "ante", 10)
    game.place_bet(3, "progressive", 1)
    with pytest.raises(BetError, match="zone 3: a progressive bet needs an Ante"):
        game.deal()


@pytest.mark.parametrize("amount", [2, 5])
def test_decision_the_progressive_is_exactly_one_unit(amount: int) -> None:
    """docs/rules.md §6 decision: the Casino Hold'em progressive bet is exactly 1 unit."""
    game = new_round()
    with pytest.raises(BetError, match=f"exactly 1 unit, not {amount}"):
        game.place_bet(1, "progressive", amount)
    assert game.progressive_bets == {}


@pytest.mark.parametrize("amount", [1, 10_000])
def test_art9f_ante_at_the_limits_is_taken(amount: int) -> None:
    """Art. 9 f: bets within the house's limits (docs/rules.md §6: 1 to 10,000 units)."""
    game = new_round()
    game.place_bet(1, "ante", amount)
    assert game.antes == {1: amount}


def test_art9f_ante_above_the_limit_is_refused() -> None:
    game = new_round()
    with pytest.raises(
        BetError, match=r"zone 1 ante: 10001 is outside the table limits 1 to 10000"
    ):
        game.place_bet(1, "ante", 10_001)


@pytest.mark.parametrize(
    ("amount", "message"),
    [(-5, "negative"), (2.5, "not a whole number"), ("10", "not a number"), (True, "number")],
)
def test_decision_negative_fractional_or_non_numeric_amounts_are_refused(
    amount: object, message: str
) -> None:
    """docs/rules.md §6: "a negative or fractional-unit amount is refused"."""
    game = new_round()
    with pytest.raises(AmountError, match=message):
        game.place_bet(1, "ante", amount)  # type: ignore[arg-type]
    assert game.antes == {} and len(game.events) == 2


def test_an_unknown_wager_is_refused() -> None:
    game = new_round()
    with pytest.raises(BetError, match="unknown wager 'trips'"):
        game.place_bet(1, "trips", 5)


def test_art9h_no_bets_once_the_cards_are_dealt() -> None:
    """Art. 9 h: players stake only what was on the table before the game began."""
    game = new_round()
    game.place_bet(1, "ante", 10)
    game.place_bet(2, "ante", 10)
    game.deal()
    with pytest.raises(IllegalActionError, match="no more bets"):
        game.place_bet(3, "ante", 10)
    with pytest.raises(IllegalActionError, match="already dealt"):
        game.deal()
    assert game.antes == {1: 10, 2: 10}
    assert game.meter == Fraction(1000)
