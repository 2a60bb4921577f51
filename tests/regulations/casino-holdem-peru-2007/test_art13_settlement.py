"""Art. 13 f-g (El Peruano, 7 Mar 2007) and the docs/rules.md §5 decisions: settling the callers.

Art. 13 g: "El Dealer deberá tener un par de cuatros "4" o más para calificar, si el Dealer no
calificó sólo el Ante será pagado (1 a 1)" (the text is cut off here). docs/rules.md §5 decision:
on a win the Ante pays by the ante paytable (royal flush 100:1, straight flush 20:1, four of a
kind 10:1, full house 3:1, flush 2:1, anything else 1:1) and the Bet pays 1:1; on a loss both
lose; on a tie both push.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.games.base import Action
from croupier.games.casino_holdem import CasinoHoldemRound, stacked_deck
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.casino_holdem import PokerCategory as P
from croupier.rules.registry import load_profile_of

PROFILE = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
assert isinstance(PROFILE, CasinoHoldemRules)
ANTE = 10
BET = 20

# Zone 2 watches and folds with cards that touch nothing.
BYSTANDER = "Tc 8c"


def play(player: str, dealer: str, board: str, action: str = "call") -> CasinoHoldemRound:
    deck = stacked_deck({1: player, 2: BYSTANDER}, dealer, board)
    game = CasinoHoldemRound(PROFILE, deck, meter=1000)
    game.place_bet(1, "ante", ANTE)
    game.place_bet(2, "ante", 5)
    game.deal()
    game.act(1, Action(action))
    game.act(2, Action("fold"))
    assert game.is_done
    return game


def payouts(game: CasinoHoldemRound, seat: int = 1) -> dict[str, tuple[Fraction, str]]:
    return {w.wager: (w.payout, w.result) for w in game.results().wagers if w.seat == seat}


# (player's hole cards, dealer's, board, player's class, ante paytable ratio); the board's
# pair of 4s (or the dealer's pair of 5s) makes every dealer here qualify and lose.
PAYTABLE_LINES = [
    ("Ah Kh", "2s 7c", "Qh Jh Th 4c 4d", P.ROYAL_FLUSH, 100),
    ("9h 8h", "2s Kc", "7h 6h 5h 4c 4d", P.STRAIGHT_FLUSH, 20),
    ("4s 4h", "Qs Jd", "4c 4d Ks 7h 2c", P.FOUR_OF_A_KIND, 10),
    ("Ks Kh", "Qs Jd", "Kd 4c 4d 7h 2c", P.FULL_HOUSE, 3),
    ("As 9s", "Qh Jd", "Ks 7s 2s 4c 4d", P.FLUSH, 2),
    ("8s 9h", "Qh 2d", "Td Jc 7s 4c 4d", P.STRAIGHT, 1),
    ("Ks Kh", "5s 5h", "Kd 9c 4d 7h 2c", P.THREE_OF_A_KIND, 1),
    ("Ks 9h", "5s 5h", "Kd 9c 4d 7h 2c", P.TWO_PAIR, 1),
    ("As Ah", "5s 5h", "Kd 9c 4d 7h 2c", P.PAIR, 1),
]


@pytest.mark.parametrize(("player", "dealer", "board", "category", "ratio"), PAYTABLE_LINES)
def test_decision_a_winning_ante_pays_by_the_paytable_and_the_bet_pays_even(
    player: str, dealer: str, board: str, category: P, ratio: int
) -> None:
    """docs/rules.md §5: royal 100:1, straight flush 20:1, four 10:1, full house 3:1, flush 2:1,
    anything else (not listed: the "high card" line) 1:1; the Bet 1:1."""
    game = play(player, dealer, board)
    assert game.hand_of(1).category is category
    assert game.dealer_qualifies and game.hand_of(1) > game.dealer_hand  # type: ignore[operator]
    assert payouts(game) == {
        "ante": (Fraction(ANTE * (ratio + 1)), "win"),
        "bet": (Fraction(2 * BET), "win"),
    }
    assert game.results().net(1) == ANTE * ratio + BET
    assert game.seat_result(1) == "win"


def test_art13g_a_pair_of_fours_qualifies() -> None:
    """Art. 13 g: "un par de cuatros '4' o más para calificar": the dealer's 4s beat ace-high."""
    game = play("As Qh", "4s 4h", "Kd 9c 2d 7h 3c")
    assert game.dealer_hand is not None and game.dealer_hand.category is P.PAIR
    assert game.dealer_qualifies is True
    assert payouts(game) == {"ante": (Fraction(0), "lose"), "bet": (Fraction(0), "lose")}
    assert game.results().net(1) == -(ANTE + BET)


def test_art13g_a_pair_of_threes_does_not_qualify_ante_even_bet_returned() -> None:
    """Art. 13 g: "si el Dealer no calificó sólo el Ante será pagado (1 a 1)"; the Bet is
    returned (docs/rules.md §5)."""
    game = play("As Qh", "3s 3h", "Kd 9c 2d 7h 5c")
    assert game.dealer_qualifies is False
    assert payouts(game) == {
        "ante": (Fraction(2 * ANTE), "win"),
        "bet": (Fraction(BET), "push"),
    }
    assert game.seat_result(1) == "win"


def test_art13g_not_qualified_pays_the_ante_even_money_whatever_the_players_hand() -> None:
    """Art. 13 g (Peru): even a flush is paid 1:1 on the Ante when the dealer does not qualify
    (the standard profile pays it 2:1: tests/regulations/casino-holdem-standard)."""
    game = play("As 9s", "Qh Jd", "Ks 7s 2s 5c 3d")
    assert game.hand_of(1).category is P.FLUSH
    assert game.dealer_qualifies is False
    assert payouts(game)["ante"] == (Fraction(2 * ANTE), "win")
    assert payouts(game)["bet"] == (Fraction(BET), "push")


def test_art13g_dealer_ace_high_does_not_qualify() -> None:
    game = play("7s 6h", "Ah Kd", "Qs 9c 2d 4h 3c")
    assert game.dealer_hand is not None and game.dealer_hand.category is P.HIGH_CARD
    assert game.dealer_qualifies is False


def test_art13g_two_pair_of_any_ranks_qualifies() -> None:
    """Two pair of 3s and 2s is better than a pair of 4s: the dealer qualifies and wins."""
    game = play("As Ad", "3s 2h", "3d 2c 9h Kd 7c")
    assert game.dealer_hand is not None and game.dealer_hand.category is P.TWO_PAIR
    assert game.dealer_qualifies is True
    assert payouts(game) == {"ante": (Fraction(0), "lose"), "bet": (Fraction(0), "lose")}
    assert game.seat_result(1) == "lose"


def test_art13f_the_better_hand_wins_by_the_kickers() -> None:
    """Art. 11 g: the same pair, the higher remaining card wins (here the dealer's)."""
    game = play("9s 2d", "9h Qc", "9d Kh 6c 4s 3h")
    assert game.dealer_qualifies
    assert payouts(game)["ante"] == (Fraction(0), "lose")


def test_decision_equal_hands_push_both_wagers() -> None:
    """docs/rules.md §5: "equal hands push" and "on a tie both push": both play the board."""
    game = play("2c 3c", "2d 3h", "As Ks Qd Jc Th")
    assert game.dealer_qualifies
    assert game.hand_of(1) == game.dealer_hand
    assert payouts(game) == {
        "ante": (Fraction(ANTE), "push"),
        "bet": (Fraction(BET), "push"),
    }
    assert game.results().net(1) == 0
    assert game.seat_result(1) == "push"


def test_art13d_a_fold_loses_the_ante_whatever_the_dealer_holds() -> None:
    """Art. 13 d: a player who folds loses the Ante even if the dealer does not qualify."""
    game = play("As Qh", "3s 3h", "Kd 9c 2d 7h 5c", action="fold")
    assert game.dealer_qualifies is False
    assert payouts(game) == {"ante": (Fraction(0), "fold")}
    assert game.results().net(1) == -ANTE
    assert game.seat_result(1) == "fold"


def test_the_qualifier_is_profile_data() -> None:
    """The qualifier is the profile's ``dealer_qualifier``: raised to 6s, the 4s fail."""
    raised = PROFILE.model_copy(
        update={
            "dealer_qualifier": PROFILE.dealer_qualifier.model_copy(
                update={"pair_rank_at_least": "6"}
            )
        }
    )
    deck = stacked_deck({1: "As Qh", 2: BYSTANDER}, "4s 4h", "Kd 9c 2d 7h 3c")
    game = CasinoHoldemRound(raised, deck)
    game.place_bet(1, "ante", ANTE)
    game.place_bet(2, "ante", 5)
    game.deal()
    game.act(1, Action("call"))
    game.act(2, Action("fold"))
    assert game.dealer_qualifies is False
