"""Arts. 10-11 (El Peruano, 7 Mar 2007): the hand classes and how equal classes are broken.

Art. 10: "haciendo uso de cinco de las siete cartas recibidas y de acuerdo con las
combinaciones que, ordenadas en su valor de mayor a menor, a continuación se describen".
"""

from __future__ import annotations

import pytest

from croupier.cards import parse_cards
from croupier.hands.poker import compare, evaluate
from croupier.rules.casino_holdem import PokerCategory as P

# One seven-card hand per class, best class first, in the order of Art. 10 a-j.
ART10_EXAMPLES = [
    ("Ah Kh Qh Jh Th 2c 2d", P.ROYAL_FLUSH, "Ah Kh Qh Jh Th"),
    ("9s 8s 7s 6s 5s Ad Ac", P.STRAIGHT_FLUSH, "9s 8s 7s 6s 5s"),
    ("7s 7h 7d 7c Kd Ks 2c", P.FOUR_OF_A_KIND, "7s 7h 7d 7c Ks"),
    ("Js Jh Jd 4s 4c Ad 2c", P.FULL_HOUSE, "Js Jh Jd 4s 4c"),
    ("Ad 9d 7d 4d 2d Ks Kc", P.FLUSH, "Ad 9d 7d 4d 2d"),
    ("Ts 9h 8d 7c 6s 6h 2c", P.STRAIGHT, "Ts 9h 8d 7c 6s"),
    ("5s 5h 5d Kc 9s 3h 2c", P.THREE_OF_A_KIND, "5s 5h 5d Kc 9s"),
    ("Qs Qh 3d 3c Ks 8h 2c", P.TWO_PAIR, "Qs Qh 3d 3c Ks"),
    ("4s 4h Ad Jc 9s 7h 2c", P.PAIR, "4s 4h Ad Jc 9s"),
    ("As Qh 9d 7c 5s 3h 2c", P.HIGH_CARD, "As Qh 9d 7c 5s"),
]


@pytest.mark.parametrize(("hand", "category", "best_five"), ART10_EXAMPLES)
def test_art10_each_class_is_recognised_with_its_best_five(
    hand: str, category: P, best_five: str
) -> None:
    """Art. 10 a-j: each class, formed by five of the seven cards."""
    value = evaluate(parse_cards(hand))
    assert value.category is category
    assert value.best_five == parse_cards(best_five)


def test_art10_classes_rank_from_highest_to_lowest() -> None:
    """Art. 10: "ordenadas en su valor de mayor a menor": each class beats every one after it."""
    strengths = [evaluate(parse_cards(hand)).strength for hand, _, _ in ART10_EXAMPLES]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)


def test_art10a_royal_flush_is_ace_king_queen_jack_ten_of_one_suit() -> None:
    """Art. 10a: "As, K, Q, J y 10 de un mismo palo"; mixed suits are only a straight."""
    assert evaluate(parse_cards("As Ks Qs Js Ts")).category is P.ROYAL_FLUSH
    assert evaluate(parse_cards("As Ks Qs Js Th")).category is P.STRAIGHT


def test_art10b_straight_flush_that_is_not_royal() -> None:
    """Art. 10b: "en orden correlativo que no constituye una escalera real de color"."""
    assert evaluate(parse_cards("Ks Qs Js Ts 9s")).category is P.STRAIGHT_FLUSH
    assert compare(parse_cards("Ks Qs Js Ts 9s"), parse_cards("As Ks Qs Js Ts")) == -1


def test_decision_wheel_is_the_lowest_straight_and_straight_flush() -> None:
    """docs/rules.md §5 decision: "A-2-3-4-5 is the lowest straight"."""
    wheel = parse_cards("As 2d 3c 4h 5s")
    six_high = parse_cards("2s 3d 4c 5h 6s")
    assert evaluate(wheel).category is P.STRAIGHT
    assert compare(wheel, six_high) == -1
    assert compare(wheel, parse_cards("As Ad Kc Kh Qs")) == 1  # still a straight
    steel_wheel = parse_cards("Ah 2h 3h 4h 5h")
    assert evaluate(steel_wheel).category is P.STRAIGHT_FLUSH
    assert compare(steel_wheel, parse_cards("2h 3h 4h 5h 6h")) == -1
    # No wrap-around: Q-K-A-2-3 is not a straight.
    assert evaluate(parse_cards("Qs Kd Ac 2h 3s")).category is P.HIGH_CARD


def test_art10e_flush_and_art10f_straight() -> None:
    """Art. 10e: "cinco cartas no correlativas del mismo palo"; 10f: "en orden correlativo y
    de distinto palo"."""
    assert evaluate(parse_cards("Kd 9d 7d 4d 2d")).category is P.FLUSH
    assert evaluate(parse_cards("Kd Qs Jc Th 9d")).category is P.STRAIGHT


def test_art10j_high_cards_ace_highest_then_each_card_in_turn() -> None:
    """Art. 10j: "atendiendo en primer lugar a la carta de mayor valor, si fueran iguales, al
    del siguiente valor y así sucesivamente ... El As tendrá el mayor valor"."""
    assert compare(parse_cards("As 5d 4c 3h 7s"), parse_cards("Ks Qd Jc 9h 8s")) == 1
    assert compare(parse_cards("As Kd 9c 5h 3s"), parse_cards("Ah Kc 9d 5s 2h")) == 1
    assert compare(parse_cards("As Kd 9c 5h 3s 2c"), parse_cards("Ah Kc 9d 5s 3h")) == 0


def test_art11a_four_of_a_kind_higher_quads_then_kicker() -> None:
    """Art. 11a: "Cuando obtengan Póker, el que tenga de superior valor, de las siete (7)
    cartas"; equal quads (on the board) go to the best fifth card."""
    assert compare(parse_cards("8s 8h 8d 8c 2s"), parse_cards("7s 7h 7d 7c As")) == 1
    board = "9s 9h 9d 9c 3s"
    assert compare(parse_cards(board + " Kd 2c"), parse_cards(board + " Qd Jc")) == 1
    assert compare(parse_cards(board + " Kd 2c"), parse_cards(board + " Kc 4h")) == 0


def test_art11b_full_house_higher_three_then_higher_pair() -> None:
    """Art. 11b: "el que tenga las tres cartas iguales de mayor valor, de las siete (7)
    cartas"; with the same three, the higher pair."""
    assert compare(parse_cards("Ts Th Td 2s 2c"), parse_cards("9s 9h 9d As Ac")) == 1
    assert compare(parse_cards("Ts Th Td Ks Kc"), parse_cards("Ts Th Td Qs Qc 9h 9c")) == 1
    # Two threes in seven cards: the higher three with a pair from the lower.
    two_trips = evaluate(parse_cards("5s 5h 5d Js Jh Jd 2c"))
    assert two_trips.category is P.FULL_HOUSE
    assert two_trips.best_five == parse_cards("Js Jh Jd 5s 5h")


def test_art11c_flush_highest_card_then_the_next() -> None:
    """Art. 11c: "Cuando obtengan Color, el que tenga la carta de mayor valor, de las siete (7)
    cartas"; the usual kickers follow card by card."""
    assert compare(parse_cards("As 4s 5s 7s 2s"), parse_cards("Kh Qh Jh 9h 8h")) == 1
    assert compare(parse_cards("As Ks 9s 7s 3s"), parse_cards("Ah Kh 9h 7h 2h")) == 1
    # Six of a suit: only the best five count.
    assert compare(parse_cards("As Ks 9s 7s 3s 2s"), parse_cards("Ah Kh 9h 7h 3h")) == 0


def test_art11d_straight_highest_card() -> None:
    """Art. 11d: "Cuando obtengan Escalera, el que tenga la carta de mayor valor"."""
    assert compare(parse_cards("9s 8h 7d 6c 5s"), parse_cards("8d 7h 6s 5c 4h")) == 1
    # Six in a row: the top five make the straight.
    assert compare(parse_cards("9s 8h 7d 6c 5s 4d"), parse_cards("9h 8d 7s 6h 5c")) == 0


def test_art11e_three_of_a_kind_highest_three_then_kickers() -> None:
    """Art. 11e: "Cuando obtengan Trío, el que lo tenga formado por la carta de mayor valor";
    with the same three (a board), the usual kickers."""
    assert compare(parse_cards("Qs Qh Qd 3c 2s"), parse_cards("Js Jh Jd Ac Ks")) == 1
    board = "8s 8h 8d 5c 2s"
    assert compare(parse_cards(board + " Ah 3d"), parse_cards(board + " Kh Qd")) == 1
    assert compare(parse_cards(board + " Ah Td"), parse_cards(board + " Ad 9c")) == 1


def test_art11f_two_pair_higher_pair_then_other_pair_then_remaining_card() -> None:
    """Art. 11f: "el que tenga el par con cartas de mayor valor; si coincidiesen, se estará al
    otro par y, en última instancia, a la carta restante de mayor valor"."""
    assert compare(parse_cards("Ks Kh 2d 2c 3s"), parse_cards("Qs Qh Jd Jc As")) == 1
    assert compare(parse_cards("Ks Kh 5d 5c 3s"), parse_cards("Kd Kc 4d 4c As")) == 1
    assert compare(parse_cards("Ks Kh 5d 5c 9s"), parse_cards("Kd Kc 5s 5h 8s")) == 1
    assert compare(parse_cards("Ks Kh 5d 5c 9s"), parse_cards("Kd Kc 5s 5h 9h")) == 0
    # Three pairs: the best two, and the third pair's rank may be the remaining card.
    three_pairs = evaluate(parse_cards("As Ah 9d 9c 4s 4h 2c"))
    assert three_pairs.category is P.TWO_PAIR
    assert three_pairs.best_five == parse_cards("As Ah 9d 9c 4s")


def test_art11g_pair_higher_pair_then_the_highest_remaining_cards() -> None:
    """Art. 11g: "el que tenga el par de mayor valor y, si coincidiesen, se atenderá a la carta
    de mayor valor de los restantes, de las siete (7) cartas"."""
    assert compare(parse_cards("5s 5h 4d 3c 2s"), parse_cards("4s 4h Ad Kc Qs")) == 1
    assert compare(parse_cards("Js Jh Ad 3c 2s"), parse_cards("Jd Jc Kd Qc Ts")) == 1
    assert compare(parse_cards("Js Jh Ad Kc 3s"), parse_cards("Jd Jc Ah Kd 2s")) == 1
    assert compare(parse_cards("Js Jh Ad Kc 3s 2d"), parse_cards("Jd Jc Ah Kd 3c")) == 0


def test_decision_equal_hands_are_equal_whatever_the_suits() -> None:
    """docs/rules.md §5 decision: "equal hands push": suits never break a tie."""
    assert compare(parse_cards("As Ks Qs Js 9s"), parse_cards("Ad Kd Qd Jd 9d")) == 0
    assert evaluate(parse_cards("Ts 9h 8d 7c 6s")) == evaluate(parse_cards("Td 9c 8h 7s 6h"))
