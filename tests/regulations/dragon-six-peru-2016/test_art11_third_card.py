"""Art. 11, "De las reglas numéricas para el pedido de cartas", and its two tables.

Every cell of the tableau, each on a stacked shoe, checking exactly which cards each side got
and that the cards not needed stay in the shoe. The expected draws are written out here from
the regulation's text, independently of ``croupier.hands.baccarat``.
"""

from __future__ import annotations

import pytest

from croupier.hands import baccarat as hands

# "REGLAS PARA LA BANCA", when the Player took a third card: the Banker's two-card total ->
# the Player third-card values on which the Banker "toma una tercera carta".
BANKER_DRAWS_ON = {
    0: "0123456789",  # Art. 11 d): "0-1-2 siempre toma una carta"
    1: "0123456789",
    2: "0123456789",
    3: "012345679",  # 3: draws on 0-1-2-3-4-5-6-7-9, not on 8
    4: "234567",  # 4: draws on 2-3-4-5-6-7, not on 0-1-8-9
    5: "4567",  # 5: draws on 4-5-6-7, not on 0-1-2-3-8-9
    6: "67",  # 6: draws on 6-7, not on 0-1-2-3-4-5-8-9
    7: "",  # Art. 11 d): with 7 "la Banca no tomará una tercera carta"
}

SYMBOL_OF_VALUE = {0: "T", 1: "A", **{value: str(value) for value in range(2, 10)}}


def two_cards(target: int, first: int, suit: str) -> tuple[str, str]:
    """Two cards totalling ``target`` (mod 10), the first of value ``first``."""
    return SYMBOL_OF_VALUE[first] + suit, SYMBOL_OF_VALUE[(target - first) % 10] + suit


CELLS_PLAYER_DREW = [(banker, third) for banker in range(8) for third in range(10)]


@pytest.mark.parametrize(("banker_total", "player_third"), CELLS_PLAYER_DREW)
def test_art11_banker_draws_by_the_player_third_card(
    play, banker_total: int, player_third: int
) -> None:
    """Art. 11 c)-e): Player with 0-5 "siempre tomará una tercera carta"; then "el valor de la
    tercera carta del Punto determina si la Banca pide o no una tercera carta"."""
    player_total = (banker_total + player_third) % 6  # every Player total 0-5 is met
    player_1, player_2 = two_cards(player_total, 3, "s")
    banker_1, banker_2 = two_cards(banker_total, 5, "h")
    third = SYMBOL_OF_VALUE[player_third] + "c"
    coup = play(f"{player_1} {banker_1} {player_2} {banker_2} {third} 9d")

    banker_draws = str(player_third) in BANKER_DRAWS_ON[banker_total]
    assert [str(card) for card in coup.player_cards] == [player_1, player_2, third]
    expected_banker = [banker_1, banker_2] + (["9d"] if banker_draws else [])
    assert [str(card) for card in coup.banker_cards] == expected_banker
    assert coup.shoe.remaining == (0 if banker_draws else 1)
    assert coup.player_total == (player_total + player_third) % 10
    assert coup.banker_total == ((banker_total + 9) % 10 if banker_draws else banker_total)
    assert hands.banker_draws(banker_total, player_total, player_third) is banker_draws


@pytest.mark.parametrize("player_total", [6, 7])
@pytest.mark.parametrize("banker_total", range(8))
def test_art11_player_stands_on_6_7_and_banker_then_draws_on_0_to_5(
    play, player_total: int, banker_total: int
) -> None:
    """Art. 11 b): "Cuando las dos cartas iniciales del Punto suman 6 o más, no tomará una
    tercera carta"; docs/rules.md §4: if Player stood, Banker draws on 0-5 and stands on 6-7."""
    player_1, player_2 = two_cards(player_total, 4, "s")
    banker_1, banker_2 = two_cards(banker_total, 5, "h")
    coup = play(f"{player_1} {banker_1} {player_2} {banker_2} 9d 8c")

    banker_draws = banker_total <= 5
    assert [str(card) for card in coup.player_cards] == [player_1, player_2]
    expected_banker = [banker_1, banker_2] + (["9d"] if banker_draws else [])
    assert [str(card) for card in coup.banker_cards] == expected_banker
    assert coup.shoe.remaining == (1 if banker_draws else 2)
    assert coup.player_total == player_total


NATURAL_CELLS = sorted(
    {(player, banker) for player in range(10) for banker in (8, 9)}
    | {(player, banker) for player in (8, 9) for banker in range(10)}
)


@pytest.mark.parametrize(("player_total", "banker_total"), NATURAL_CELLS)
def test_art11_a_a_natural_on_either_side_stops_both(
    play, player_total: int, banker_total: int
) -> None:
    """Art. 11 a): "Cuando las dos cartas iniciales del Punto o la Banca suman 8 o 9 puntos,
    no habrá tercera carta para ninguno"."""
    player_1, player_2 = two_cards(player_total, 7, "s")
    banker_1, banker_2 = two_cards(banker_total, 6, "h")
    coup = play(f"{player_1} {banker_1} {player_2} {banker_2} 2c 3d")

    assert [str(card) for card in coup.player_cards] == [player_1, player_2]
    assert [str(card) for card in coup.banker_cards] == [banker_1, banker_2]
    assert coup.shoe.remaining == 2
    expected = (
        "player"
        if player_total > banker_total
        else "banker"
        if banker_total > player_total
        else "tie"
    )
    assert coup.winner.value == expected


@pytest.mark.parametrize("player_total", range(6))
def test_art11_c_player_draws_on_0_to_5_even_against_banker_7(play, player_total: int) -> None:
    """Art. 11 c): "Cuando las dos cartas iniciales del Punto suman 5 o menos, siempre tomará
    una tercera carta"; Art. 11 d): the Banker with 7 then stands."""
    player_1, player_2 = two_cards(player_total, 2, "s")
    coup = play(f"{player_1} 7h {player_2} Kh 6c 5d")
    assert [str(card) for card in coup.player_cards] == [player_1, player_2, "6c"]
    assert [str(card) for card in coup.banker_cards] == ["7h", "Kh"]
    assert coup.shoe.remaining == 1


def test_art11_the_tableau_is_complete_and_matches_the_regulation() -> None:
    """The data table ``BANKER_DRAWS_ON_PLAYER_THIRD`` is the regulation's, cell for cell."""
    table = hands.BANKER_DRAWS_ON_PLAYER_THIRD
    assert sorted(table) == list(range(8))
    for banker_total, draws_on in BANKER_DRAWS_ON.items():
        assert table[banker_total] == {int(value) for value in draws_on}
    assert set(range(6)) == hands.PLAYER_DRAWS_ON
    assert set(range(6)) == hands.BANKER_DRAWS_WHEN_PLAYER_STOOD
    assert {8, 9} == hands.NATURALS
