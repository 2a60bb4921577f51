"""The profile drives the engine: settings other than the shipped ones change the outcome
exactly as their fields say (rules are data, not code)."""

from __future__ import annotations

from fractions import Fraction

from croupier.games.baccarat import BaccaratRound
from croupier.rules.baccarat import BaccaratPaytable, BaccaratRules, PairBy
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe

SHIPPED = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(SHIPPED, BaccaratRules)


def payouts(profile: BaccaratRules, shoe: str, bets: dict[str, int]) -> dict[str, Fraction]:
    coup = BaccaratRound(profile, Shoe.parse(shoe, decks=profile.decks))
    for wager, amount in bets.items():
        coup.place_bet(1, wager, amount)
    coup.deal()
    return {wager.wager: wager.payout for wager in coup.results().wagers}


def test_pairs_by_value_count_a_king_and_a_queen() -> None:
    by_value = SHIPPED.model_copy(update={"pair_by": PairBy.VALUE})
    shoe, bets = "Ks 5h Qs 2h Kc", {"player_pair": 1}
    assert payouts(SHIPPED, shoe, bets) == {"player_pair": 0}
    assert payouts(by_value, shoe, bets) == {"player_pair": 12}


def test_player_and_banker_lose_on_a_tie_when_they_do_not_push() -> None:
    no_push = SHIPPED.model_copy(update={"player_and_banker_push_on_tie": False})
    assert payouts(no_push, "9s 9h Ts Kh", {"banker": 4}) == {"banker": 0}
    assert payouts(SHIPPED, "9s 9h Ts Kh", {"banker": 4}) == {"banker": 4}


def test_a_standard_banker_paytable_pays_a_six_in_full() -> None:
    paytable = SHIPPED.paytable.model_dump()
    paytable["banker_win_with_six"] = "1:1"
    standard = SHIPPED.model_copy(update={"paytable": BaccaratPaytable.model_validate(paytable)})
    assert payouts(standard, "Ks 4h 2d 2c 3c", {"banker": 10}) == {"banker": 20}
    assert payouts(SHIPPED, "Ks 4h 2d 2c 3c", {"banker": 10}) == {"banker": 15}


def test_no_forbidden_combination_lets_a_zone_bet_both_sides() -> None:
    open_table = SHIPPED.model_copy(update={"forbidden_combinations": []})
    assert payouts(open_table, "9s 7h Ts Kh", {"player": 5, "banker": 5}) == {
        "player": 10,
        "banker": 0,
    }
