"""The baccarat kernel's tables are the engine's rules, read from the profile."""

from __future__ import annotations

from fractions import Fraction

from croupier.cards import Card
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of
from croupier.simulation.baccarat_sim import STOOD, WAGERS, BaccaratTables, outcome_index

_LOADED = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(_LOADED, BaccaratRules)
PROFILE: BaccaratRules = _LOADED
TABLES = BaccaratTables.of(PROFILE)


def net(outcome: int, wager: str) -> Fraction:
    return Fraction(int(TABLES.nets[outcome, WAGERS.index(wager)]), TABLES.denominator)


def test_art_8_banker_win_with_six_pays_half() -> None:
    """Art. 8 b): a Banker win with six pays 1:2; with seven, 1:1."""
    assert net(outcome_index(5, 6, False, False), "banker") == Fraction(1, 2)
    assert net(outcome_index(5, 7, False, False), "banker") == 1
    assert net(outcome_index(5, 6, False, False), "player") == -1


def test_art_8_tie_pays_8_to_1_and_player_banker_push() -> None:
    tie = outcome_index(4, 4, False, False)
    assert (net(tie, "tie"), net(tie, "player"), net(tie, "banker")) == (
        Fraction(8),
        Fraction(0),
        Fraction(0),
    )


def test_art_8_pairs_pay_11_to_1() -> None:
    outcome = outcome_index(2, 3, True, False)
    assert (net(outcome, "player_pair"), net(outcome, "banker_pair")) == (
        Fraction(11),
        Fraction(-1),
    )


def test_art_6_burn_counts_and_cut_card() -> None:
    """Art. 6 d): the first card burns its value, tens and faces 10; the cut card 16 from the
    bottom of 416 cards (the profile's decision)."""
    assert TABLES.burn_counts[Card.parse("Qh").index] == 10
    assert TABLES.burn_counts[Card.parse("Ac").index] == 1
    assert TABLES.burn_counts[Card.parse("7d").index] == 7
    assert TABLES.cut_card_at == 400 and TABLES.burns


def test_art_11_tableau() -> None:
    """Art. 11 e): Banker 3 draws unless Player's third card is an 8; 6 draws on 6-7 only;
    Player stood: Banker draws on 0-5 (docs/rules.md §4)."""
    assert [bool(TABLES.banker_draws[3, 0, t]) for t in range(10)] == [True] * 8 + [False, True]
    assert [t for t in range(10) if TABLES.banker_draws[6, 2, t]] == [6, 7]
    assert [b for b in range(10) if TABLES.banker_draws[b, 6, STOOD]] == [0, 1, 2, 3, 4, 5]
    assert not TABLES.player_draws[5, 8] and TABLES.player_draws[5, 7]


def test_pairs_by_rank() -> None:
    """docs/rules.md §4: a pair is two cards of the same rank (a ten and a king are not)."""
    ten, king, other_ten = (Card.parse(text).index for text in ("Ts", "Ks", "Td"))
    assert TABLES.pairs[ten, other_ten] and not TABLES.pairs[ten, king]
