"""Peru 2016, Art. 13: blackjack, its payment, even money, and the dealer's blackjack (OBO).

docs/rules.md §1 decision on OBO and busts: a bust is final (Arts. 11, 14). On a dealer blackjack,
of the bets still in play the player loses only the original stake (on the first hand, if it
is still in play); every doubling increment and every split hand's bet still in play is
returned; a hand that is a blackjack pushes.
"""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError
from round_support import is_decision

RULES = "peru-2016"


def _settled_index(out, seat, wager="main"):
    return next(
        i
        for i, e in enumerate(out["events"])
        if e["kind"] == "Settled" and e["seat"] == seat and e["wager"] == wager
    )


# --- paid 3:2, at once unless the up card is an Ace or ten-valued --------------------------


def test_art13_blackjack_pays_three_to_two_at_once(settle):
    """Art. 13: 'el dealer debe inmediatamente pagar al jugador el premio en proporción de 3 a
    2': settled before seat 2 plays and before the hole card is revealed."""
    out = settle(
        RULES,
        "As 9h 9c Kd 8d 7h Ts",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": []},
            {"seat": 2, "bets": {"main": 10}, "actions": ["stand"]},
        ],
    )
    assert settle.hands(out, 1) == [("As Kd", 10, "blackjack", 25)]
    first_decision = next(i for i, e in enumerate(out["events"]) if is_decision(e))
    assert _settled_index(out, 1) < first_decision
    # Seat 2's hand is still in play, so the dealer draws: 9+7+T = 26.
    assert out["dealer"]["cards"] == ["9c", "7h", "Ts"]
    assert settle.hands(out, 2) == [("9h 8d", 10, "win", 20)]


def test_art13_blackjack_paid_at_once_with_no_hand_left_the_dealer_draws_nothing(settle):
    """Profile decision ``dealer_draws_when_no_hand_remains = false``: the dealer reveals the
    hole card and draws no more when every hand is settled."""
    out = settle(RULES, "As 9c Kd 7h 5s", [{"seat": 1, "bets": {"main": 10}, "actions": []}])
    assert settle.hands(out) == [("As Kd", 10, "blackjack", 25)]
    assert out["dealer"] == {"cards": ["9c", "7h"], "total": 16, "blackjack": False}
    assert _settled_index(out, 1) < settle.kinds(out).index("HoleCardRevealed")


def test_art13_blackjack_of_an_odd_bet_pays_half_units(settle):
    out = settle(RULES, "As 9c Kd 7h", [{"seat": 1, "bets": {"main": 5}, "actions": []}])
    assert settle.hands(out) == [("As Kd", 5, "blackjack", 12.5)]
    assert settle.money(out) == (5, 12.5, 7.5)


def test_art13_blackjack_waits_for_the_hole_card_under_a_ten(settle):
    """Art. 13: '...a menos que el dealer obtenga en su primera carta repartida un "As", una
    figura o un "10"; en cuyo caso deberá esperar'."""
    out = settle(RULES, "As Kc Qd 7h", [{"seat": 1, "bets": {"main": 10}, "actions": []}])
    assert settle.hands(out) == [("As Qd", 10, "blackjack", 25)]
    assert _settled_index(out, 1) > settle.kinds(out).index("HoleCardRevealed")


def test_art13_blackjack_waits_under_an_ace(settle):
    out = settle(
        RULES, "As Ac Kd 9h", [{"seat": 1, "bets": {"main": 10}, "actions": ["no-insurance"]}]
    )
    assert settle.hands(out) == [("As Kd", 10, "blackjack", 25)]
    assert _settled_index(out, 1) > settle.kinds(out).index("HoleCardRevealed")


def test_art13_player_blackjack_beats_a_three_card_21(settle):
    out = settle(RULES, "As Tc Kd 5s 6h", [{"seat": 1, "bets": {"main": 10}, "actions": []}])
    assert out["dealer"] == {"cards": ["Tc", "5s", "6h"], "total": 21, "blackjack": False}
    assert settle.hands(out) == [("As Kd", 10, "blackjack", 25)]


# --- even money ------------------------------------------------------------------------------


def test_art13_even_money_pays_one_to_one_at_once(settle):
    """Art. 13: 'el jugador podrá optar por el pago simple ... hasta antes de iniciarse la
    etapa de entrega voluntaria': 1:1 at once, even against the dealer's blackjack."""
    out = settle(
        RULES, "As Ac Kd Kh", [{"seat": 1, "bets": {"main": 10}, "actions": ["even-money"]}]
    )
    assert settle.hands(out) == [("As Kd", 10, "even-money", 20)]
    assert out["dealer"]["blackjack"] is True
    assert _settled_index(out, 1) < settle.kinds(out).index("HoleCardRevealed")
    assert settle.money(out) == (10, 20, 10)


def test_art13_even_money_only_for_a_blackjack(settle):
    with pytest.raises(IllegalActionError, match="even money is for a blackjack"):
        settle(RULES, "9s Ac Kd 7h", [{"seat": 1, "bets": {"main": 10}, "actions": ["even-money"]}])


# --- the dealer's blackjack -------------------------------------------------------------------


def test_art13_dealer_blackjack_beats_every_hand_but_a_blackjack_which_pushes(settle):
    """Art. 13: 'todos los jugadores perderán sus apuestas a excepción de aquellos que también
    hayan obtenido un Black Jack ... no ganan el premio ni pierden la apuesta'."""
    out = settle(
        RULES,
        "As Kc Ah Kd Qc Th",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": ["no-insurance"]},
            {"seat": 2, "bets": {"main": 10}, "actions": ["no-insurance", "stand"]},
        ],
    )
    assert out["dealer"] == {"cards": ["Ah", "Th"], "total": 21, "blackjack": True}
    assert settle.hands(out, 1) == [("As Kd", 10, "push", 10)]
    assert settle.hands(out, 2) == [("Kc Qc", 10, "lose", 0)]


def test_art13_obo_doubled_hand_loses_only_the_original_bet(settle):
    """Art. 13: 'cuando el dealer obtiene un Black Jack y un jugador ... incrementó su apuesta,
    el jugador sólo perderá su apuesta original': the increment of 10 is returned."""
    out = settle(
        RULES, "6h Kc 5d As 9c", [{"seat": 1, "bets": {"main": 10}, "actions": ["double"]}]
    )
    assert settle.hands(out) == [("6h 5d 9c", 20, "lose", 10)]
    assert settle.money(out) == (20, 10, -10)


def test_art13_obo_double_for_less_returns_the_increment(settle):
    out = settle(
        RULES, "6h Kc 5d As 9c", [{"seat": 1, "bets": {"main": 10}, "actions": ["double 4"]}]
    )
    assert settle.hands(out) == [("6h 5d 9c", 14, "lose", 4)]
    assert settle.money(out) == (14, 4, -10)


def test_art13_obo_split_hands_return_all_but_the_original_bet(settle):
    """Art. 13: '...un jugador separó cartas ... sólo perderá su apuesta original'."""
    out = settle(
        RULES,
        "8s Kc 8h As Th 9c",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "stand", "stand"]}],
    )
    assert settle.hands(out) == [("8s Th", 10, "lose", 0), ("8h 9c", 10, "push", 10)]
    assert settle.money(out) == (20, 10, -10)


def test_art13_obo_split_and_doubled(settle):
    out = settle(
        RULES,
        "8s Kc 8h As 3c Th 2c 9d",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "double", "double"]}],
    )
    assert settle.hands(out) == [("8s 3c Th", 20, "lose", 10), ("8h 2c 9d", 20, "push", 20)]
    assert settle.money(out) == (40, 30, -10)


def test_art13_obo_a_busted_first_hand_stays_lost_and_the_other_hand_returns(settle):
    """Decision: the bust is final (the original stake already lost at once); the split hand
    still in play is returned."""
    out = settle(
        RULES,
        "8s Kc 8h As 6c Tc Td",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "hit", "stand"]}],
    )
    assert settle.hands(out) == [("8s 6c Tc", 10, "bust", 0), ("8h Td", 10, "push", 10)]
    assert settle.money(out) == (20, 10, -10)


def test_art13_obo_a_busted_first_hand_and_a_doubled_second_hand(settle):
    out = settle(
        RULES,
        "8s Kc 8h As 6c Tc 3d 7c",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "hit", "double"]}],
    )
    assert settle.hands(out) == [("8s 6c Tc", 10, "bust", 0), ("8h 3d 7c", 20, "push", 20)]
    assert settle.money(out) == (30, 20, -10)


def test_art13_obo_a_busted_split_hand_is_lost_and_the_first_hand_loses_its_original_bet(settle):
    """Decision: a bust is final, so a player who busts a split hand loses it, and the first
    hand still in play loses the original stake: 20 lost in all, not 10."""
    out = settle(
        RULES,
        "8s Kc 8h As Th 6c Tc",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "stand", "hit"]}],
    )
    assert settle.hands(out) == [("8s Th", 10, "lose", 0), ("8h 6c Tc", 10, "bust", 0)]
    assert settle.money(out) == (20, 0, -20)
