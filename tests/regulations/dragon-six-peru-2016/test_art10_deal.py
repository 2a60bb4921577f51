"""Art. 10, "De la distribución de cartas en la partida": "inicialmente se repartirán cuatro
cartas, siendo la primera y tercera para el Punto; y la segunda y cuarta para la Banca"."""

from __future__ import annotations

from croupier.games.events import BetsClosed, CardDrawn


def test_art10_first_and_third_cards_to_player_second_and_fourth_to_banker(play) -> None:
    coup = play("2s 3h 4d 5c 9s 9h", {"tie": 1})  # P 6, B 8: a natural, nobody draws
    drawn = [event for event in coup.events if isinstance(event, CardDrawn)]
    assert [(str(event.card), event.purpose) for event in drawn] == [
        ("2s", "player"),
        ("3h", "banker"),
        ("4d", "player"),
        ("5c", "banker"),
    ]
    assert [str(card) for card in coup.player_cards] == ["2s", "4d"]
    assert [str(card) for card in coup.banker_cards] == ["3h", "5c"]


def test_art10_third_cards_come_after_the_four_player_first(play) -> None:
    """Art. 10: "Adicionalmente, se podrá repartir una tercera carta tanto para el Punto como
    para la Banca" according to Art. 11: Player's third card is the fifth, Banker's the sixth."""
    coup = play("Ks Kh 2d 2c 5s 7h")  # P 2 draws 5; B 2 always draws
    drawn = [(str(e.card), e.purpose) for e in coup.events if isinstance(e, CardDrawn)]
    assert drawn[4:] == [("5s", "player"), ("7h", "banker")]
    assert (coup.player_total, coup.banker_total) == (7, 9)


def test_art10_bets_close_just_before_the_first_card(play) -> None:
    """Art. 7 d): bets "hasta que se extrae la primera carta del zapato"."""
    coup = play("9s 7h Ts Kh", {"banker": 3})
    kinds = [event.kind for event in coup.events]
    closed = kinds.index("BetsClosed")
    assert kinds[closed - 1] == "BetPlaced"
    assert kinds[closed + 1] == "CardDrawn"
    assert sum(isinstance(event, BetsClosed) for event in coup.events) == 1
