"""Peru 2016, Arts. 15-17: wins pay 1:1, the higher total wins, equal totals push, a bust
player loses even if the dealer then busts."""

from __future__ import annotations

RULES = "peru-2016"


def test_art15_higher_total_wins_one_to_one_art16_lower_loses_art17_equal_pushes(settle):
    """Art. 15: 'cuando sea mayor al puntaje obtenido por el dealer'; Art. 16: 'Cuando el
    puntaje del dealer sea mayor ... perderán'; Art. 17: 'no perderá su apuesta ni ganará'."""
    out = settle(
        RULES,
        "Th 9h 8h Tc 9d 8d 7c 9c",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": ["stand"]},
            {"seat": 2, "bets": {"main": 10}, "actions": ["stand"]},
            {"seat": 3, "bets": {"main": 10}, "actions": ["stand"]},
        ],
    )
    assert out["dealer"] == {"cards": ["Tc", "9c"], "total": 19, "blackjack": False}
    assert settle.hands(out, 1) == [("Th 9d", 10, "push", 10)]
    assert settle.hands(out, 2) == [("9h 8d", 10, "lose", 0)]
    assert settle.hands(out, 3) == [("8h 7c", 10, "lose", 0)]
    assert [settle.money(out, seat)[2] for seat in (1, 2, 3)] == [0, -10, -10]


def test_art15_stood_hands_win_when_the_dealer_busts(settle):
    """Art. 15: 'se plantaron con un valor ... de 21 o menos puntos, cuando el dealer ha volado'."""
    out = settle(RULES, "Th 6c 2d Tc Ks", [{"seat": 1, "bets": {"main": 7}, "actions": ["stand"]}])
    assert out["dealer"]["total"] == 26
    assert settle.hands(out) == [("Th 2d", 7, "win", 14)]


def test_art15_a_bust_player_loses_even_if_the_dealer_busts(settle):
    """Arts. 11, 14: a bust loses at once, whatever the dealer does."""
    out = settle(
        RULES,
        "Th 9h 6c 6d 2d Tc Ks Qh",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": ["hit"]},
            {"seat": 2, "bets": {"main": 10}, "actions": ["stand"]},
        ],
    )
    assert out["dealer"] == {"cards": ["6c", "Tc", "Qh"], "total": 26, "blackjack": False}
    assert settle.hands(out, 1) == [("Th 6d Ks", 10, "bust", 0)]
    assert settle.hands(out, 2) == [("9h 2d", 10, "win", 20)]


def test_art15_21_of_three_cards_beats_a_dealer_20_and_pushes_a_dealer_21(settle):
    out = settle(
        RULES,
        "7h 5h Tc 4d 6d Qc Th Ks 6s",
        [
            {"seat": 1, "bets": {"main": 10}, "actions": ["hit"]},
            {"seat": 2, "bets": {"main": 10}, "actions": ["hit"]},
        ],
    )
    assert out["dealer"] == {"cards": ["Tc", "Qc"], "total": 20, "blackjack": False}
    assert settle.hands(out, 1) == [("7h 4d Th", 10, "win", 20)]
    assert settle.hands(out, 2) == [("5h 6d Ks", 10, "win", 20)]
