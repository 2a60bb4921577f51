"""Art. 7, "De los participantes", as far as one round can check it.

a) one player per betting zone; others may join a zone with its player's consent, and "por el
monto total apostado en una zona de apuesta sólo existe un jugador"; b) one player may not
play two zones (both are the table server's business: it seats people); d) bets only with
chips "y hasta que se extrae la primera carta del zapato".
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.errors import BetError, IllegalActionError
from croupier.games.baccarat import BaccaratRound
from croupier.games.base import Action
from croupier.shoe import Shoe


def test_art07_d_no_bet_once_the_first_card_has_left_the_shoe(play) -> None:
    coup = play("9s 7h Ts Kh", {"banker": 5})
    before = list(coup.events)
    with pytest.raises(IllegalActionError, match="bets are closed"):
        coup.place_bet(2, "tie", 5)
    assert coup.events == before
    assert not coup.can_bet(2, "tie", 5)


@pytest.mark.parametrize("zone", [0, 8, -1, "1", True, None])
def test_art07_a_bets_go_on_a_zone_of_the_table(profile, zone: object) -> None:
    """The profile's zones are numbered 1 to ``zones`` (7)."""
    coup = BaccaratRound(profile, Shoe.parse("9s 7h Ts Kh"))
    with pytest.raises(BetError, match=r"zone .* does not exist: zones are 1 to 7"):
        coup.place_bet(zone, "tie", 5)  # type: ignore[arg-type]


def test_art07_a_a_zone_is_one_player_whatever_it_holds(profile) -> None:
    """Chips added to a zone's wager make one stake of one player: placing a wager again
    sets the zone's stake on it, and the zone is settled as one."""
    coup = BaccaratRound(profile, Shoe.parse("9s 7h Ts Kh"))
    coup.place_bet(3, "player", 10)
    coup.place_bet(3, "player", 25)
    coup.deal()
    [wager] = coup.results().wagers
    assert (wager.seat, wager.stake, wager.payout) == (3, Fraction(25), Fraction(50))
    assert coup.results().net(3) == 25


def test_art07_the_round_waits_on_nobody(play) -> None:
    """Art. 11 draws by rule: no zone decides anything, so no action is ever legal."""
    coup = play("9s 7h Ts Kh", {"player": 1})
    assert coup.pending() is None
    assert coup.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="not a baccarat action"):
        coup.act(1, Action("hit"))
