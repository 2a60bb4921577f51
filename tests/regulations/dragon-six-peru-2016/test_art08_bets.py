"""Art. 8, "De las modalidades de apuesta": every wager's payout on a stacked shoe, and which
wagers one zone may hold together (docs/rules.md §4 decisions: pairs by rank, Player and Banker
push on a tie, Player with Banker refused)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.errors import AmountError, BetError
from croupier.games.baccarat import BaccaratRound
from croupier.shoe import Shoe


def payouts(coup: BaccaratRound) -> dict[str, tuple[Fraction, str]]:
    return {wager.wager: (wager.payout, wager.result) for wager in coup.results().wagers}


def test_art08_a_player_wins_1_to_1(play) -> None:
    """Art. 8 a): "Apuesta al Punto ... la proporción de pago es de 1 a 1"."""
    coup = play("9s 7h Ts Kh", {"player": 10, "tie": 1})  # P 9 v B 7
    assert coup.winner.value == "player"
    assert payouts(coup) == {"player": (Fraction(20), "win"), "tie": (Fraction(0), "lose")}


def test_art08_a_player_win_with_6_still_pays_1_to_1(play) -> None:
    """Art. 8 b)'s half payment is the Banker's alone: a Player win with 6 pays 1:1."""
    coup = play("6s 5h Ts Kh Tc", {"player": 10})  # P 6 stands; B 5 draws a ten
    assert (coup.player_total, coup.banker_total) == (6, 5)
    assert payouts(coup) == {"player": (Fraction(20), "win")}


def test_art08_a_player_loses_when_banker_wins(play) -> None:
    coup = play("2s 8h 3s Kh", {"player": 10, "banker": 0})  # B natural 8 v P 5
    assert payouts(coup) == {"player": (Fraction(0), "lose")}


def test_art08_b_banker_wins_1_to_1(play) -> None:
    """Art. 8 b): "Apuesta a la Banca ... la proporción de pago es de 1 a 1"."""
    coup = play("2s 8h 3s Kh", {"banker": 10})  # B natural 8 v P 5
    assert payouts(coup) == {"banker": (Fraction(20), "win")}


def test_art08_b_banker_win_with_six_pays_half(play) -> None:
    """Art. 8 b): "cuando la Banca gana con el puntaje de seis '6', el pago de las apuestas
    ganadoras será de la mitad (50%)"."""
    coup = play("Ks 4h 2d 2c 3c", {"banker": 10})  # P 2+3 = 5; B 6 stands on a 3
    assert (coup.player_total, coup.banker_total, coup.winner.value) == (5, 6, "banker")
    assert payouts(coup) == {"banker": (Fraction(15), "win")}


def test_art08_b_banker_six_on_an_odd_stake_pays_an_exact_half(play) -> None:
    coup = play("Ks 4h 2d 2c 3c", {"banker": 5})
    assert payouts(coup) == {"banker": (Fraction(15, 2), "win")}


def test_art08_b_banker_six_made_with_a_third_card_also_pays_half(play) -> None:
    """The total of 6 counts however it was made: Banker 3 draws a 3 and wins 6 to 4."""
    coup = play("Ks 2h 2d Ah 2c 3d", {"banker": 4})  # P 2 draws 2 -> 4; B 3 draws 3 -> 6
    assert [str(card) for card in coup.banker_cards] == ["2h", "Ah", "3d"]
    assert (coup.player_total, coup.banker_total) == (4, 6)
    assert payouts(coup) == {"banker": (Fraction(6), "win")}


def test_art08_c_tie_pays_8_to_1_and_player_and_banker_push(play, profile) -> None:
    """Art. 8 c): "Apuesta al Empate ... la proporción de pago es de 8 a 1"; docs/rules.md §4
    decision: Player and Banker bets push on a tie."""
    assert profile.player_and_banker_push_on_tie
    coup = play(
        "9s 9h Ts Kh",
        zones={1: {"player": 10, "tie": 5}, 2: {"banker": 7, "tie": 1}},
    )
    assert coup.winner.value == "tie"
    results = {(w.seat, w.wager): (w.payout, w.result) for w in coup.results().wagers}
    assert results == {
        (1, "player"): (Fraction(10), "push"),
        (1, "tie"): (Fraction(45), "win"),
        (2, "banker"): (Fraction(7), "push"),
        (2, "tie"): (Fraction(9), "win"),
    }


def test_art08_c_a_six_six_tie_pushes_banker_in_full(play) -> None:
    """A tie at 6 is no Banker win: the half payment of Art. 8 b) does not touch it."""
    coup = play("6s 6h Ts Kh", {"banker": 5})
    assert payouts(coup) == {"banker": (Fraction(5), "push")}


def test_art08_c_tie_loses_when_a_side_wins(play) -> None:
    coup = play("9s 7h Ts Kh", {"tie": 5, "banker": 5})
    assert payouts(coup) == {"banker": (Fraction(0), "lose"), "tie": (Fraction(0), "lose")}


def test_art08_d_pairs_pay_11_to_1_on_the_first_two_cards_of_the_same_rank(play) -> None:
    """Art. 8 d): "Plus Par ... la proporción de pago es simple de 11 a 1" (docs/rules.md §4
    decision: the first two cards of the same rank)."""
    coup = play("7s Qh 7d Qc 5c 9d", {"player_pair": 2, "banker_pair": 3})  # P 4 -> 9, B 0 -> 9
    assert payouts(coup) == {
        "player_pair": (Fraction(24), "win"),
        "banker_pair": (Fraction(36), "win"),
    }


def test_art08_d_ten_valued_cards_of_different_ranks_are_no_pair(play, profile) -> None:
    """By rank, K and Q (both worth 0) are not a pair; neither is a pair made with the
    third card."""
    assert profile.pair_by.value == "rank"
    coup = play("Ks 5h Qs 2h Kc", {"player_pair": 1, "banker_pair": 1})  # B 7 stands
    assert [str(card) for card in coup.player_cards] == ["Ks", "Qs", "Kc"]
    assert payouts(coup) == {
        "player_pair": (Fraction(0), "lose"),
        "banker_pair": (Fraction(0), "lose"),
    }


@pytest.mark.parametrize(
    "order", [("player", "banker"), ("banker", "player")], ids=["P then B", "B then P"]
)
def test_art08_player_and_banker_together_are_refused(profile, order) -> None:
    """Art. 8 allows "a la Banca, y al Empate o al Punto, y al Empate": never Player with
    Banker (docs/rules.md §4: reject it). The refusal names both and changes nothing."""
    coup = BaccaratRound(profile, Shoe.parse("9s 7h Ts Kh"))
    coup.place_bet(1, order[0], 10)
    before = list(coup.events)
    with pytest.raises(BetError, match="player and banker may not be bet together"):
        coup.place_bet(1, order[1], 10)
    assert coup.events == before
    assert coup.bets == {1: {order[0]: 10}}
    assert not coup.can_bet(1, order[1], 10)


def test_art08_withdrawing_player_then_betting_banker_is_allowed(profile) -> None:
    coup = BaccaratRound(profile, Shoe.parse("9s 7h Ts Kh"))
    coup.place_bet(1, "player", 10)
    coup.place_bet(1, "player", 0)
    coup.place_bet(1, "banker", 10)
    assert coup.bets == {1: {"banker": 10}}


def test_art08_player_and_banker_in_different_zones_are_allowed(play) -> None:
    coup = play("9s 7h Ts Kh", zones={1: {"player": 10}, 2: {"banker": 10}})
    assert {w.seat: w.payout for w in coup.results().wagers} == {1: 20, 2: 0}


def test_art08_banker_with_tie_and_pairs_is_allowed(play) -> None:
    """Art. 8: "podrán apostar a la Banca, y al Empate ... Asimismo podrán apostar al Plus Par"."""
    coup = play(
        "2s 8h 2d 8c 3c", {"banker": 10, "tie": 2, "player_pair": 1, "banker_pair": 1}
    )  # P 4 draws a 3 -> 7; B 6 stands on a Player third card of 3
    assert (coup.player_total, coup.banker_total) == (7, 6)
    assert payouts(coup) == {
        "banker": (Fraction(0), "lose"),
        "tie": (Fraction(0), "lose"),
        "player_pair": (Fraction(12), "win"),
        "banker_pair": (Fraction(12), "win"),
    }


def test_art08_player_with_tie_and_pairs_is_allowed(play) -> None:
    coup = play(
        "9s 9h 9d Kh", {"player": 10, "tie": 2, "player_pair": 1, "banker_pair": 1}
    )  # P 9+9 = 8 natural, B 9: Banker wins
    assert payouts(coup) == {
        "player": (Fraction(0), "lose"),
        "tie": (Fraction(0), "lose"),
        "player_pair": (Fraction(12), "win"),
        "banker_pair": (Fraction(0), "lose"),
    }


@pytest.mark.parametrize("amount", [10001, 20000])
def test_art08_a_bet_above_the_table_limit_is_refused(profile, amount: int) -> None:
    """docs/rules.md §6 decision: 1 to 10,000 units on every wager."""
    coup = BaccaratRound(profile, Shoe.parse("9s 7h Ts Kh"))
    with pytest.raises(BetError, match=f"zone 1 tie: {amount} is outside the table limits"):
        coup.place_bet(1, "tie", amount)
    assert coup.bets == {}


@pytest.mark.parametrize("amount", [-1, 2.5, "10", None, True, float("nan")])
def test_art08_negative_fractional_or_non_numeric_amounts_are_refused(
    profile, amount: object
) -> None:
    """docs/rules.md §6: a negative or fractional-unit amount is refused."""
    coup = BaccaratRound(profile, Shoe.parse("9s 7h Ts Kh"))
    with pytest.raises(AmountError, match="zone 1 banker: amount"):
        coup.place_bet(1, "banker", amount)  # type: ignore[arg-type]
    assert coup.events[1:] == []


def test_art08_an_unknown_wager_is_refused(profile) -> None:
    coup = BaccaratRound(profile, Shoe.parse("9s 7h Ts Kh"))
    with pytest.raises(BetError, match="unknown wager 'dragon'"):
        coup.place_bet(1, "dragon", 5)
