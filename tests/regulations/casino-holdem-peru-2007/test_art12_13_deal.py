"""Arts. 12-13 (El Peruano, 7 Mar 2007): the deal, the flop, the decision, turn and river.

Art. 12: "La distribución de las cartas la hace el dealer de su izquierda a su derecha en dos
rondas. En cada ronda cada jugador y el dealer reciben una carta. La última carta que se
reparte en cada ronda corresponde al dealer."
"""

from __future__ import annotations

import pytest

from croupier.cards import parse_cards
from croupier.errors import IllegalActionError
from croupier.games.base import Action
from croupier.games.casino_holdem import CasinoHoldemRound, Phase, stacked_deck
from croupier.games.events import CardDrawn, Folded, Settled
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe

PROFILE = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
assert isinstance(PROFILE, CasinoHoldemRules)

# 15 cards for three zones, in the order they leave the deck.
DECK = "Ah 2c 9s Qs Kh 7d 9d Jd 6h 3h 4c 8s 6c Tc 5d"


def dealt(zones: tuple[int, ...] = (2, 5, 7)) -> CasinoHoldemRound:
    game = CasinoHoldemRound(PROFILE, Shoe.parse(DECK, decks=1), meter=1000)
    for zone in zones:
        game.place_bet(zone, "ante", 10)
    game.deal()
    return game


def draws(game: CasinoHoldemRound) -> list[tuple[str, str, int | None]]:
    return [
        (str(item.card), item.purpose, item.seat)
        for item in game.events
        if isinstance(item, CardDrawn)
    ]


def test_art12_two_rounds_left_to_right_dealer_last_then_burn_and_flop() -> None:
    """Arts. 12, 13 a: two rounds, zone order from the dealer's left, the dealer last in each;
    Art. 13 c: "el Dealer quemará en la mesa una carta y colocará tres cartas comunitarias"."""
    game = dealt()
    assert draws(game) == [
        ("Ah", "player", 2),
        ("2c", "player", 5),
        ("9s", "player", 7),
        ("Qs", "dealer", None),
        ("Kh", "player", 2),
        ("7d", "player", 5),
        ("9d", "player", 7),
        ("Jd", "dealer", None),
        ("6h", "burn", None),
        ("3h", "board", None),
        ("4c", "board", None),
        ("8s", "board", None),
    ]
    assert game.hole_cards == {
        2: parse_cards("Ah Kh"),
        5: parse_cards("2c 7d"),
        7: parse_cards("9s 9d"),
    }
    assert game.dealer_cards == parse_cards("Qs Jd")


def test_art13d_each_player_decides_in_zone_order_before_turn_and_river() -> None:
    """Art. 13 d-e: the decision comes after the flop; the turn and river wait for it."""
    game = dealt()
    assert game.phase is Phase.DECISIONS
    asked = []
    for action in ("call", "fold", "call"):
        decision = game.pending()
        assert decision is not None
        asked.append(decision.seat)
        assert len(game.board) == 3
        game.act(decision.seat, Action(action))
    assert asked == [2, 5, 7]


def test_art13e_burn_then_turn_and_river_then_the_reveal() -> None:
    """Art. 13 e: "el Dealer quemará otra carta y colocará las dos cartas comunitarias
    restantes"; Art. 13 f: then the dealer turns up both cards."""
    game = dealt()
    for zone in (2, 5, 7):
        game.act(zone, Action("call"))
    assert draws(game)[12:] == [("6c", "burn", None), ("Tc", "board", None), ("5d", "board", None)]
    assert [str(card) for card in game.board] == ["3h", "4c", "8s", "Tc", "5d"]
    assert game.is_done and game.shoe.remaining == 0
    kinds = [item.kind for item in game.events]
    assert kinds.index("DealerRevealed") > max(i for i, k in enumerate(kinds) if k == "CardDrawn")


def test_art13d_acting_out_of_turn_or_illegally_changes_nothing() -> None:
    """R12: zone 5 cannot act before zone 2; 'raise' is no Casino Hold'em action."""
    game = dealt()
    before = list(game.events)
    with pytest.raises(IllegalActionError, match="zone 2's turn, not zone 5's"):
        game.act(5, Action("call"))
    with pytest.raises(IllegalActionError, match="'raise' is not allowed"):
        game.act(2, Action("raise"))
    with pytest.raises(IllegalActionError, match="not allowed"):
        game.act(2, Action("call", 40))
    assert game.events == before
    assert not game.can_act(5, Action("call")) and game.can_act(2, Action("fold"))
    assert game.legal_actions() == (Action("call"), Action("fold"))


def test_art13d_a_fold_loses_the_ante_at_once() -> None:
    """Art. 13 d: "o se retiran perdiendo su Ante ... será recogido por el Dealer"."""
    game = dealt()
    events = game.act(2, Action("fold"))
    assert events[0] == Folded(seat=2)
    assert events[1] == Settled(seat=2, wager="ante", stake=10, payout=0, result="fold")


def test_art13d_the_bet_is_twice_the_ante() -> None:
    """Art. 13 d: "realizando un Bet, que es el doble del Ante"."""
    game = dealt()
    events = game.act(2, Action("call"))
    assert [(e.kind, getattr(e, "amount", None)) for e in events] == [
        ("Called", 20),
    ]


def test_a_seat_whose_time_runs_out_folds() -> None:
    """Decision (docs/rules.md §5 by the brief): the default at a deadline is fold."""
    game = dealt()
    decision = game.pending()
    assert decision is not None and decision.default == Action("fold")


def test_r6_a_seat_sees_its_own_cards_only_and_the_dealers_after_the_reveal() -> None:
    """R6: never another zone's cards, never the dealer's before the reveal, never the shoe."""
    game = dealt()
    view = game.view(5)
    shown = {zone["seat"]: zone["hands"][0]["cards"] for zone in view["seats"]}
    assert shown == {2: ["??", "??"], 5: ["2c", "7d"], 7: ["??", "??"]}
    assert view["dealer"]["cards"] == ["??", "??"]
    assert view["board"] == ["3h", "4c", "8s"]
    hands = {zone["seat"]: zone["hands"][0]["total"] for zone in view["seats"]}
    assert hands == {2: None, 5: "high card", 7: None}  # its own best five, nobody else's
    text = str(view)
    for secret in ("Ah", "Kh", "9s", "9d", "Qs", "Jd", "6h", "6c", "Tc", "5d"):
        assert secret not in text
    assert "??" in str(game.view(None)) and "2c" not in str(game.view(None))
    for zone in (2, 5, 7):
        game.act(zone, Action("call"))
    done = game.view(5)
    assert done["dealer"]["cards"] == ["Qs", "Jd"]
    assert {z["seat"]: z["hands"][0]["cards"] for z in done["seats"]}[2] == ["??", "??"]
    assert "6h" not in str(done) and "6c" not in str(done)  # burns stay face down


def test_art8_every_player_ends_with_two_cards() -> None:
    """Art. 8: the dealer checks each player holds two cards before discarding them."""
    game = dealt()
    for zone in (2, 5, 7):
        game.act(zone, Action("fold"))
    assert all(len(cards) == 2 for cards in game.hole_cards.values())


def test_the_draw_order_helper_matches_the_deal() -> None:
    deck = stacked_deck({2: "Ah Kh", 5: "2c 7d", 7: "9s 9d"}, "Qs Jd", "3h 4c 8s Tc 5d", "6h 6c")
    assert str(deck) == DECK


def test_decision_when_every_player_folds_the_board_is_completed_and_the_dealer_reveals() -> None:
    """Decision (croupier; Art. 13 e-f are silent on it): the dealer completes the board and
    reveals even when nobody called, so every game's record has the same shape."""
    game = dealt()
    for zone in (2, 5, 7):
        game.act(zone, Action("fold"))
    assert game.is_done and len(game.board) == 5
    assert game.view(2)["dealer"]["cards"] == ["Qs", "Jd"]
    assert [w.result for w in game.results().wagers] == ["fold", "fold", "fold"]
