"""The progressive bet (Art. 9 e) and the docs/rules.md §5 decision on its jackpot meter.

"a jackpot meter, seeded and fed by a set share of each progressive bet, paid on the player's
best five from hole cards + flop: royal flush 100% of the meter, straight flush 10% of the
meter, four of a kind 500 units, full house 100, flush 50 (profile values). The progressive
stake is always collected (its set share feeds the meter); a prize is paid on top of it,
whether the player then calls or folds. The round's shares feed the meter before any prize;
prizes are paid in seat order, each a share of the meter as it then stands; a meter emptied
restarts at its seed value."
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pytest

from croupier.games.base import Action
from croupier.games.casino_holdem import (
    CasinoHoldemRound,
    MeterFed,
    MeterReseeded,
    ProgressivePrizeWon,
    stacked_deck,
)
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.casino_holdem import PokerCategory as P
from croupier.rules.registry import load_profile_of

PROFILE = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
assert isinstance(PROFILE, CasinoHoldemRules)
HALF = Fraction(1, 2)  # the profile's meter_contribution
METER = Fraction(1000)


def play(
    holes: Mapping[int, str],
    flop: str,
    *,
    turn_river: str = "2c 3d",
    progressive: tuple[int, ...] = (1,),
    actions: Mapping[int, str] | None = None,
    dealer: str = "Jc Jd",
) -> CasinoHoldemRound:
    deck = stacked_deck(holes, dealer, f"{flop} {turn_river}")
    game = CasinoHoldemRound(PROFILE, deck, meter=METER)
    for seat in holes:
        game.place_bet(seat, "ante", 10)
        if seat in progressive:
            game.place_bet(seat, "progressive", 1)
    game.deal()
    while (decision := game.pending()) is not None:
        chosen = (actions or {}).get(decision.seat, "call")
        game.act(decision.seat, Action(chosen))
    return game


def progressive_payouts(game: CasinoHoldemRound) -> dict[int, Fraction]:
    return {w.seat: w.payout for w in game.results().wagers if w.wager == "progressive"}


def test_profile_values_are_the_decision() -> None:
    progressive = PROFILE.progressive
    assert progressive.bet == 1 and progressive.meter_contribution == HALF
    assert {c: (p.meter_share, p.units) for c, p in progressive.paytable.items()} == {
        P.ROYAL_FLUSH: (Fraction(1), None),
        P.STRAIGHT_FLUSH: (Fraction(1, 10), None),
        P.FOUR_OF_A_KIND: (None, 500),
        P.FULL_HOUSE: (None, 100),
        P.FLUSH: (None, 50),
    }


def test_royal_flush_takes_the_whole_meter_which_restarts_at_its_seed() -> None:
    """Royal flush: 100% of the meter (fed first: 1000 + 1/2); emptied, it restarts at 5000."""
    game = play({1: "Ah Kh", 2: "4s 4d"}, "Qh Jh Th")
    assert progressive_payouts(game) == {1: METER + HALF}
    assert game.meter == Fraction(PROFILE.progressive.meter_seed) == 5000
    assert MeterReseeded(seed=Fraction(5000), meter=Fraction(5000)) in game.events


def test_straight_flush_takes_a_tenth_of_the_meter() -> None:
    game = play({1: "9h 8h", 2: "4s 4d"}, "7h 6h 5h")
    prize = (METER + HALF) / 10
    assert progressive_payouts(game) == {1: prize}
    assert game.meter == (METER + HALF) - prize == Fraction(18009, 20)


@pytest.mark.parametrize(
    ("hole", "flop", "category", "units"),
    [
        ("Ks Kh", "Kd Kc 5s", P.FOUR_OF_A_KIND, 500),
        ("Ks Kh", "Kd 5c 5s", P.FULL_HOUSE, 100),
        ("As 9s", "Ks 7s 2s", P.FLUSH, 50),
    ],
)
def test_fixed_prizes_are_paid_by_the_house_and_leave_the_meter(
    hole: str, flop: str, category: P, units: int
) -> None:
    game = play({1: hole, 2: "4h 4d"}, flop)
    assert progressive_payouts(game) == {1: Fraction(units)}
    won = [e for e in game.events if isinstance(e, ProgressivePrizeWon)]
    assert won == [
        ProgressivePrizeWon(
            seat=1,
            category=category.value,
            amount=Fraction(units),
            from_meter=False,
            meter=METER + HALF,
        )
    ]
    assert game.meter == METER + HALF


@pytest.mark.parametrize(
    ("hole", "flop"),
    [("Ts 9h", "8d 7c 6s"), ("Ks Kh", "Kd 7c 5s"), ("Ks 9h", "Kd 9c 5s"), ("As Ah", "Kd 9c 5s")],
)
def test_other_hands_win_nothing_and_the_stake_is_kept(hole: str, flop: str) -> None:
    """Straight, three of a kind, two pair, pair: no line; the stake is collected."""
    game = play({1: hole, 2: "4h 4d"}, flop)
    (wager,) = [w for w in game.results().wagers if w.wager == "progressive"]
    assert (wager.stake, wager.payout, wager.result) == (1, 0, "lose")
    assert game.meter == METER + HALF


def test_the_prize_is_on_hole_cards_and_flop_not_turn_and_river() -> None:
    """A flush made on the river wins no progressive prize."""
    game = play({1: "As 9s", 2: "4h 4d"}, "Ks 7s 2c", turn_river="3s 8d")
    assert game.hand_of(1).category is P.FLUSH
    assert progressive_payouts(game) == {1: 0}


def test_the_stake_is_collected_and_the_prize_paid_on_top() -> None:
    """ "The progressive stake is always collected": the stake does not come back with a prize."""
    game = play({1: "As 9s", 2: "4h 4d"}, "Ks 7s 2s")
    (wager,) = [w for w in game.results().wagers if w.wager == "progressive"]
    assert (wager.stake, wager.payout, wager.result) == (1, 50, "win")


def test_paid_whether_the_player_folds() -> None:
    """ "a prize is paid on top of it, whether the player then calls or folds"."""
    game = play({1: "Ah Kh", 2: "4s 4d"}, "Qh Jh Th", actions={1: "fold"})
    assert progressive_payouts(game) == {1: METER + HALF}
    ante = next(w for w in game.results().wagers if w.seat == 1 and w.wager == "ante")
    assert (ante.payout, ante.result) == (0, "fold")


def test_every_share_feeds_the_meter_before_any_prize() -> None:
    """ "The round's shares feed the meter before any prize": zone 1's royal takes the shares
    of zones 1, 2 and 3."""
    game = play({1: "Ah Kh", 2: "4s 4d", 3: "5s 5d"}, "Qh Jh Th", progressive=(1, 2, 3))
    assert progressive_payouts(game) == {1: METER + 3 * HALF, 2: 0, 3: 0}
    kinds = [e.kind for e in game.events]
    assert kinds.count("MeterFed") == 3
    assert max(i for i, k in enumerate(kinds) if k == "MeterFed") < kinds.index(
        "ProgressivePrizeWon"
    )
    fed = [e for e in game.events if isinstance(e, MeterFed)]
    assert [(e.seat, e.meter) for e in fed] == [
        (1, METER + HALF),
        (2, METER + 1),
        (3, METER + 3 * HALF),
    ]


def test_prizes_in_seat_order_a_royal_first_empties_the_meter_then_the_seed_pays() -> None:
    """Zone 1's royal takes the meter; it restarts at 5000; zone 2's straight flush takes a
    tenth of the meter "as it then stands"."""
    game = play({1: "Ah Kh", 2: "9h 8h"}, "Qh Jh Th", progressive=(1, 2))
    assert progressive_payouts(game) == {1: METER + 1, 2: Fraction(500)}
    assert game.meter == 4500


def test_prizes_in_seat_order_a_straight_flush_first_leaves_nine_tenths_for_the_royal() -> None:
    game = play({1: "9h 8h", 2: "Ah Kh"}, "Qh Jh Th", progressive=(1, 2))
    fed = METER + 1
    assert progressive_payouts(game) == {1: fed / 10, 2: fed * 9 / 10}
    assert game.meter == 5000


def test_house_pays_the_seed_and_the_fixed_prizes() -> None:
    """Money and the meter are conserved: players' nets + house net + meter change = 0."""
    game = play({1: "Ah Kh", 2: "9h 8h", 3: "As 9s"}, "Qh Jh Th", progressive=(1, 2, 3))
    result = game.results()
    players = sum((result.net(seat) for seat in result.seats()), Fraction(0))
    meter_change = result.details["meter_after"] - result.details["meter_before"]
    assert players + result.details["house_net"] + meter_change == 0
