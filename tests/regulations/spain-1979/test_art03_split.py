"""Spain 1979, Art. 03 V: pairs of the same value split; 'si formase un nuevo par, podrá de
nuevo separarlo' (re-split without limit), Aces included (docs/rules.md §2 decision); split Aces
get one card each; a split Ace or ten making 21 is not a blackjack (paid 1:1)."""

from __future__ import annotations

from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.rules import load_profile
from croupier.shoe import Shoe

RULES = "spain-1979"


def test_art03_resplit_without_limit_five_hands(settle):
    """More than the four hands other profiles allow: four splits make five hands."""
    out = settle(
        RULES,
        "8s 7c 8h 8d 8c 8s 3h Tc Td Th Ts Kc",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split"] * 4 + ["stand"] * 5}],
    )
    # Each re-split hand is played right after the hand it came from: 0, 4, 3, 2, 1.
    assert [hand["hand"] for hand in settle.seat(out, 1)["hands"]] == [0, 4, 3, 2, 1]
    assert settle.hands(out) == [
        ("8s 3h", 10, "lose", 0),
        ("8s Tc", 10, "win", 20),
        ("8c Td", 10, "win", 20),
        ("8d Th", 10, "win", 20),
        ("8h Ts", 10, "win", 20),
    ]
    assert out["dealer"]["cards"] == ["7c", "Kc"]  # 17 stands
    assert settle.money(out) == (50, 80, 30)


def test_decision_aces_resplit_and_draw_one_card_each(settle):
    """A split Ace that draws another Ace may split again (only stand or split is offered);
    each split Ace hand then gets exactly one card; A+T is 21, not a blackjack (1:1)."""
    profile = load_profile(RULES)
    game = BlackjackRound(profile, Shoe.parse("As 9c Ad Ah Kd 5c 9h 8c", decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    game.act(1, Action("split"))
    assert [str(action) for action in game.legal_actions()] == ["stand", "split"]
    game.act(1, Action("split"))
    assert game.is_done
    out = settle(
        RULES,
        "As 9c Ad Ah Kd 5c 9h 8c",
        [{"seat": 1, "bets": {"main": 10}, "actions": ["split", "split"]}],
    )
    # Hand 1 As Kd; the re-split Ace (Ah) 5c; the first split Ace (Ad) 9h; dealer 9c 8c = 17.
    assert settle.hands(out) == [
        ("As Kd", 10, "win", 20),
        ("Ah 5c", 10, "lose", 0),
        ("Ad 9h", 10, "win", 20),
    ]
    assert out["dealer"]["cards"] == ["9c", "8c"]
