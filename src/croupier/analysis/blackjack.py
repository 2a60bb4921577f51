"""Blackjack: basic strategy and the exact value of the main bet, for each profile's rules.

Method (docs/rules.md §1-3; every rule read from the profile):

1. **Dealer outcomes** come from ``croupier.analysis.dealer``: exact probabilities over the
   finite shoe by rank composition, with every known card removed.
2. **Basic strategy** (a total-dependent chart: hard totals, soft totals, pairs, against each
   up card). Each two-card decision is weighed over the two-card hands that make it, each with
   its own two cards and the up card removed from the shoe (a hard row averages its
   compositions by probability; a soft row or a pair has one); each composition is valued
   exactly, every card drawn leaving the shoe (``blackjack_exact.optimal_values``; values
   by total over a fixed composition had put two one-deck cells off the published chart).
   A pair is split when its exact split value, hands played by the chart, is larger. Rows
   no two-card hand reaches use the shoe minus the up card.
   D means double, else hit; Ds double, else stand; P split.
3. **The expected return of a round** off the top of a full shoe under that chart is then
   computed by a recursion over every player hand **by composition**, removing each card the
   player draws and recomputing the dealer's probabilities for the cards actually left, for
   every initial two-card hand and up card (weighted by their exact probabilities).

   The dealer's hole card (dealt but not checked, or drawn after the players, or peeked) is
   handled exactly by exchangeability: at each of the player's final hands the chance that the
   dealer has blackjack is that of the cards left, and the hand's value in that case follows
   the profile: *peek* (the player loses only the original stake, as the round ends at once),
   *OBO* (the original stake only, but a busted hand is already lost, doubles included: Peru
   Art. 13 and the docs/rules.md §1 decision), *all bets* (doubles and splits lost too, Spain).

   **Split hands are exact** (``croupier.analysis.blackjack_exact``): re-splits up to
   ``max_hands`` (``unlimited`` counts to 8 hands), every card of the other split hands
   accounted for, by a recursion over the shoes less more pair cards; it reproduces Eric
   Farmer's analyzer to the 9 decimals it prints (``tests/oracles/test_blackjack_farmer_cdz``)
   under the composition-dependent strategy (``Play.COMPOSITION``, CDZ-), and the same
   recursion values the chart's split hands and CDP1's (``Play.CDP1``: a split hand plays
   best for the split's first hand). The house edge and element of risk are those
   exact values. The round's **distribution** (hit frequency, push, standard deviation)
   takes each split round's hands jointly (``croupier.analysis.blackjack_split_round``):
   every split that ends in two hands is exact, each hand's final cards leaving the shoe
   the next hand and the dealer draw from. A round that may re-split (a third hand or
   more: ``max_hands`` above 2, Aces only with ``resplit_aces``) is exact too, every hand
   jointly, where it has at most ``blackjack_split_round.STATE_BUDGET`` states (small
   shoes; at six decks only a few pairs); past that, the hands finished before a re-split
   are still exact and the dealer's outcomes are those of the cards out at that moment,
   but the hands still to play are taken as independent given the dealer's result, each
   from the pre-split composition (exact would take hours at six decks: the unions of
   three or four hands' cards are millions of compositions, each needing the dealer's
   outcomes).
   So the distribution's mean is the exact house edge to rounding (1e-15) where no
   re-split is possible, and off by what the re-split rounds' approximation moves it
   (``BlackjackAnalysis.distribution_mean_offset``, ``"distribution_mean_offset"`` in
   ``analyze --json``: -3.8e-6 of a unit for peru-2016, which re-splits to four hands;
   -7.9e-6 when every split round was approximated); ``"approximation"`` in the JSON then
   says so, and is absent where the distribution is exact. How far the standard deviation
   and hit frequency can be off is measured against the simulator, which deals split
   hands card by card (``tests/consistency/test_simulator_blackjack_agrees_with_exact.py``,
   10^7 rounds in the slow form).

   **Computation.** Every hand is valued by composition, compiled
   (``croupier.analysis.blackjack_exact``: ``optimal_values``, ``fixed_values``,
   ``hand_matrices``), one up card per thread; the dealer's probabilities for all the
   compositions one up card needs are computed together (``dealer_outcomes_many``,
   vectorised). The distribution agrees with the pure-Python recursion over card sequences
   it replaced (``benchmarks/blackjack_python_reference.py``) to 1e-12, term sums taken in
   another order; the split rounds are assembled here, in Python, with ``np.convolve``.

Doubling for less (Peru Art. 12) is never better than doubling in full or not at all: a
double's value is linear in the amount added (each outcome pays or loses the increment, or
returns it), so its best is at an end of the range; the zero end (take one card and stand) is
never better than hitting. The chart therefore doubles in full.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis import blackjack_exact as exact
from croupier.analysis import blackjack_kernel as kernel
from croupier.analysis import blackjack_split_round as split_round
from croupier.analysis.dealer import (
    ACE,
    OUTCOMES,
    TEN,
    full_shoe,
)
from croupier.analysis.figures import WagerFigures
from croupier.errors import ProfileError
from croupier.rules.blackjack import (
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    Surrender,
)

BLACKJACK_METHOD_NOTES = (
    "- Dealer outcomes: exact probabilities over the finite shoe by rank composition, every "
    "known card removed (hole card by exchangeability: peek, OBO with a bust final, or all "
    "bets lost, as the profile says).",
    "- Basic strategy: each two-card decision weighed over the two-card hands that make it, "
    "each valued exactly by composition (every drawn card removed); a pair split when its "
    "exact split value, hands played by the chart, is larger.",
    "- Expected return: every player hand by composition under that chart, removing each card "
    "drawn and recomputing the dealer's probabilities (exact for unsplit rounds).",
    "- Split hands: exact expected values with re-splits (a recursion over the shoes less more "
    "pair cards; unlimited re-splits count to 8 hands); the outcome distribution of a split "
    "round (hit frequency, push, standard deviation) takes the hands jointly, exact for a "
    "split that ends in two hands and, re-splits included, for a round of at most 20,000 "
    "states (small shoes); past that, after a re-split the hands still to play are "
    "approximated (each from the pre-split composition, independent given the dealer's "
    "result).",
    "- Doubling for less never beats a full double or no double: a double's value is linear "
    "in the amount added, so the chart doubles in full.",
)

RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
UP_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
"""Chart column order, as printed strategy cards show the dealer's card."""
UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
LONGEST_FIRST = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
"""The order the up cards are handed to the threads: the longest computations first (the
dealer's outcomes from an Ace, then a 2, 3, ..., draw the most cards and are asked for the
most compositions; an Ace handed out last, as in chart order, left one core idle while the
other finished it: a quarter of a warm spain-1979 analysis). The figures are assembled in
chart order whatever the threads' order."""
HARD_ROWS = tuple(range(5, 22))
SOFT_ROWS = tuple(range(12, 22))
PAIR_ROWS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
UNLIMITED_HANDS = 8


@dataclass(frozen=True)
class Game:
    """The rules the math needs, read from a profile (and a deck count)."""

    decks: int
    hits_soft_17: bool
    hole_card: HoleCard
    all_bets_lost: bool
    blackjack_pays: Fraction
    double_any_two: bool
    double_after_split: bool
    max_hands: int
    resplit_aces: bool
    ace_ten_is_blackjack: bool
    veintiuno_real_pays: Fraction | None
    insurance_pays: Fraction
    even_money: bool
    shoe: tuple[int, ...] | None = None
    """The composition the round is dealt from (count per rank, Ace first, ten-valued last);
    ``None``: a full shoe of ``decks``. The strategy is always derived from the full shoe
    (basic strategy), so a depleted shoe values the round under the full shoe's chart (the
    effects of removal, ``croupier.analysis.by_count``)."""
    late_surrender: bool = False
    """An unsplit hand's first two cards may be given up for half the bet after the peek
    (docs/rules.md#D-BJ-32; the profile allows it only where the dealer peeks)."""

    def shoe_counts(self) -> npt.NDArray[np.int64]:
        if self.shoe is None:
            return full_shoe(self.decks)
        return np.array(self.shoe, dtype=np.int64)

    @classmethod
    def of(cls, rules: BlackjackRules, decks: int | None = None) -> Game:
        hands = rules.max_hands_per_box
        return cls(
            decks=rules.decks if decks is None else decks,
            hits_soft_17=rules.dealer_hits_soft_17,
            hole_card=rules.hole_card,
            all_bets_lost=rules.dealer_blackjack_takes is DealerBlackjackTakes.ALL_BETS,
            blackjack_pays=rules.blackjack_pays.multiplier,
            double_any_two=rules.double_on is DoubleOn.ANY_TWO,
            double_after_split=rules.double_after_split,
            max_hands=UNLIMITED_HANDS if hands is None else min(hands, UNLIMITED_HANDS),
            resplit_aces=rules.resplit_aces,
            ace_ten_is_blackjack=rules.split_ace_ten_is_blackjack,
            veintiuno_real_pays=(
                rules.veintiuno_real.pays.multiplier if rules.veintiuno_real is not None else None
            ),
            insurance_pays=rules.insurance_pays.multiplier,
            even_money=rules.even_money,
            late_surrender=rules.surrender is Surrender.LATE,
        )

    def exact_rules(self) -> exact.Rules:
        """The rules as ``blackjack_exact`` reads them."""
        return exact.Rules(
            decks=self.decks,
            hits_soft_17=self.hits_soft_17,
            peek=self.hole_card is HoleCard.PEEK,
            all_bets_lost=self.all_bets_lost,
            blackjack_pays=float(self.blackjack_pays),
            double_any_two=self.double_any_two,
            double_after_split=self.double_after_split,
            max_hands=self.max_hands,
            resplit_aces=self.resplit_aces,
            ace_ten_is_blackjack=self.ace_ten_is_blackjack,
            sevens_pays=float(self.veintiuno_real_pays or 0),
        )

    def blackjack_world_stand(self, bet: float, original: float) -> float:
        """A standing hand's net when the dealer turns out to have blackjack."""
        if self.hole_card is HoleCard.PEEK:
            return -original
        return -bet if self.all_bets_lost else -original

    def blackjack_world_bust(self, bet: float, original: float) -> float:
        """A busted hand's net when the dealer has blackjack: a bust is final (Arts. 11, 14),
        except in a peek game, where the round ended before the player drew."""
        if self.hole_card is HoleCard.PEEK:
            return -original
        return -bet

    def can_double(self, hard_sum: int, soft: bool, split: bool) -> bool:
        if split and not self.double_after_split:
            return False
        if self.double_any_two:
            return True
        return not soft and 9 <= hard_sum <= 11


@dataclass(frozen=True)
class Strategy:
    """The chart: ``hard[total][up]``, ``soft[total][up]``, ``pairs[card][up]`` with up in
    ``UP_LABELS`` and actions ``H``, ``S``, ``D`` (double, else hit), ``Ds`` (double, else
    stand), ``P`` (split), and where the rules allow late surrender ``Rh``, ``Rs``, ``Rp``
    (surrender, else hit, stand or split: docs/rules.md#D-BJ-33)."""

    hard: dict[int, dict[str, str]]
    soft: dict[int, dict[str, str]]
    pairs: dict[str, dict[str, str]]
    even_money: str = "decline"
    insurance: str = "decline"

    def as_json(self) -> dict[str, Any]:
        legend = {
            "H": "hit",
            "S": "stand",
            "D": "double, else hit",
            "Ds": "double, else stand",
            "P": "split",
        }
        if self.surrenders:  # a chart without surrender keeps its legend as it was
            legend |= SURRENDER_LEGEND
        return {
            "hard": {str(t): row for t, row in self.hard.items()},
            "soft": {str(t): row for t, row in self.soft.items()},
            "pairs": dict(self.pairs),
            "insurance": self.insurance,
            "even_money": self.even_money,
            "legend": legend,
        }

    @classmethod
    def from_json(cls, document: Any, *, surrender: bool) -> Strategy:
        """A chart in the form ``as_json`` writes (``croupier analyze --json``'s
        ``"strategy"``), for ``croupier analyze --strategy-file``: every row and dealer card
        of a chart, each cell a letter of the legend (``P`` in the pairs only; ``Rh``,
        ``Rs``, ``Rp`` only where the rules allow late surrender, ``surrender``). A chart
        that is not one raises ``ProfileError`` naming the first cell at fault."""
        if not isinstance(document, dict):
            raise ProfileError(f"a strategy chart is a JSON object, not {type(document).__name__}")
        letters = {"H", "S", "D", "Ds"} | (set(SURRENDER_LEGEND) if surrender else set())

        def table(part: str, rows: Sequence[str], allowed: set[str]) -> dict[str, dict[str, str]]:
            given = document.get(part)
            if not isinstance(given, dict) or set(given) != set(rows):
                raise ProfileError(f"strategy: {part!r} needs the rows {', '.join(rows)}")
            found: dict[str, dict[str, str]] = {}
            for row in rows:
                cells = given[row]
                if not isinstance(cells, dict) or set(cells) != set(UP_LABELS):
                    raise ProfileError(
                        f"strategy: {part} {row} needs the dealer cards {', '.join(UP_LABELS)}"
                    )
                for up, letter in cells.items():
                    if letter not in allowed:
                        known = ", ".join(sorted(allowed))
                        raise ProfileError(
                            f"strategy: {part} {row} against {up}: {letter!r} is not one of {known}"
                        )
                found[row] = {up: cells[up] for up in UP_LABELS}
            return found

        hard = table("hard", [str(total) for total in HARD_ROWS], letters)
        soft = table("soft", [str(total) for total in SOFT_ROWS], letters)
        pairs = table("pairs", list(PAIR_ROWS), letters | {"P", *(["Rp"] if surrender else [])})
        return cls(
            hard={int(total): row for total, row in hard.items()},
            soft={int(total): row for total, row in soft.items()},
            pairs=pairs,
            insurance=str(document.get("insurance", "decline")),
            even_money=str(document.get("even_money", "decline")),
        )

    @property
    def surrenders(self) -> bool:
        """Whether any cell surrenders (``Rh``, ``Rs``, ``Rp``)."""
        rows = (*self.hard.values(), *self.soft.values(), *self.pairs.values())
        return any(letter in SURRENDER_LEGEND for row in rows for letter in row.values())


SURRENDER_LEGEND = {
    "Rh": "surrender, else hit",
    "Rs": "surrender, else stand",
    "Rp": "surrender, else split",
}
"""docs/rules.md#D-BJ-33: a surrender cell and what it does where surrender is not allowed
(three or more cards, a hand made by a split)."""
_SURRENDER_OF = {"H": "Rh", "D": "Rh", "S": "Rs", "Ds": "Rs", "P": "Rp"}
"""The surrender letter of a cell whose best play without surrender is the key."""
SURRENDER_FALLBACK = {"Rh": "H", "Rs": "S", "Rp": "P"}


class Play(StrEnum):
    """How the player plays (``croupier analyze --strategy``)."""

    BASIC = "basic"
    """The total-dependent basic strategy chart (``derive_strategy``), split hands too."""
    COMPOSITION = "composition"
    """CDZ-: each hand's best play for its cards as an unsplit hand, reused after a split
    (``blackjack_exact``)."""
    CDP1 = "cdp1"
    """CDP1: unsplit hands as CDZ-; after a split, each hand's best play for its cards as the
    first hand of that split (the pair's other card out of the shoe), the same play for
    every hand of the split (``blackjack_exact.UpCard.first_hand_play``)."""


def _total(hard_sum: int, has_ace: bool) -> tuple[int, bool]:
    if has_ace and hard_sum + 10 <= 21:
        return hard_sum + 10, True
    return hard_sum, False


def _stand_value(
    total: int, bet: float, original: float, dealer: npt.NDArray[np.float64], game: Game
) -> float:
    """A hand of ``total`` standing (busted above 21) with ``bet`` on it: its expected net."""
    return float(
        kernel.stand_value(
            total,
            float(bet),
            float(original),
            dealer,
            game.hole_card is HoleCard.PEEK,
            game.all_bets_lost,
        )
    )


# --------------------------------------------------------------------------------------------
# 2. Basic strategy from the full shoe minus the up card.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _ByTotal:
    """Values read as ``values[(total, soft)]``."""

    table: npt.NDArray[np.float64]

    def __getitem__(self, key: tuple[int, bool]) -> float:
        total, soft = key
        return float(self.table[total, int(soft)])


@dataclass(frozen=True)
class _TotalValues:
    """Hit/stand/double values by total for one up card and one ``original`` share."""

    stand: _ByTotal
    hit: _ByTotal
    double: _ByTotal
    best: _ByTotal


def _after(total: int, soft: bool, rank: int) -> tuple[int, bool]:
    """The total after drawing ``rank`` (0 = Ace) onto a hand of ``total`` (soft or hard)."""
    new_total, new_soft = kernel.after(total, soft, rank)
    return int(new_total), bool(new_soft)


def _total_values(
    draw: npt.NDArray[np.float64], dealer: npt.NDArray[np.float64], game: Game, original: float
) -> _TotalValues:
    """Each total's stand, hit and double values, hitting on by the best of hit and stand
    (``blackjack_kernel.total_values``)."""
    table = kernel.total_values(
        np.ascontiguousarray(draw, dtype=np.float64),
        dealer,
        float(original),
        game.hole_card is HoleCard.PEEK,
        game.all_bets_lost,
    )
    return _TotalValues(*(_ByTotal(table[what]) for what in range(4)))


def _letter(values: _TotalValues, total: int, soft: bool, may_double: bool) -> tuple[str, float]:
    stand, hit = values.stand[(total, soft)], values.hit[(total, soft)]
    if total == 21:
        return "S", stand
    best = max(stand, hit)
    if may_double and values.double[(total, soft)] > best:
        return ("D" if hit >= stand else "Ds"), values.double[(total, soft)]
    return ("H" if hit > stand else "S"), best


def _choice(
    stand: float, hit: float, double: float, total: int, may_double: bool
) -> tuple[str, float]:
    """The chart's letter for one set of values, and its value."""
    if total == 21:
        return "S", stand
    best = max(stand, hit)
    if may_double and double > best:
        return ("D" if hit >= stand else "Ds"), double
    return ("H" if hit > stand else "S"), best


def _dealer_blackjack(shoe: npt.NDArray[np.int64], first: int, second: int, up: int) -> float:
    """The chance of a dealer blackjack under ``up`` once the player holds ``first`` +
    ``second`` (``shoe``: the shoe less the up card)."""
    left = shoe.copy()
    left[first] -= 1
    left[second] -= 1
    return exact._chance(left, up)


def _surrender_value(shoe: npt.NDArray[np.int64], first: int, second: int, up: int) -> float:
    """Late surrender of ``first`` + ``second`` against ``up`` (docs/rules.md#D-BJ-32), as
    every other value here, over both worlds of the peek: a dealer blackjack takes the whole
    bet before anyone decides; otherwise half the bet comes back."""
    blackjack = _dealer_blackjack(shoe, first, second, up)
    return -blackjack - 0.5 * (1.0 - blackjack)


def _with_surrender(letter: str, value: float, surrender: float | None) -> str:
    """The cell's letter once late surrender (``None``: not allowed) is weighed against the
    best play without it (docs/rules.md#D-BJ-33)."""
    if surrender is None or surrender <= value:
        return letter
    return _SURRENDER_OF[letter]


def _cell_letter(strategy: Strategy, first: int, second: int, up_label: str) -> str:
    """The chart's letter for the two-card hand ``first`` + ``second`` (0 the Ace): a pair's
    row where it is a pair, else its soft or hard total's row."""
    if first == second:
        return strategy.pairs[PAIR_ROWS[(first - 1) % 10]][up_label]
    total, is_soft = _total(first + second + 2, ACE in (first, second))
    return (strategy.soft if is_soft else strategy.hard)[total][up_label]


def derive_strategy(game: Game) -> Strategy:
    """The total-dependent basic strategy (see the module docstring, step 2).

    Each two-card decision is weighed over the two-card hands that make it, each valued
    exactly by composition (``blackjack_exact.optimal_values``: every card drawn leaves the
    shoe, later decisions the best for the cards held): hard rows average their compositions'
    values, weighted by their probabilities; a soft row or a pair has one composition. A pair
    is split when splitting it, its hands played by the chart's hard and soft rows, is worth
    more (exactly, ``blackjack_exact``). Rows no two-card hand reaches use values by totals
    over the shoe minus the up card. Where the rules allow late surrender, a cell whose
    two-card hands are worth less than surrendering them (weighed as the other plays are)
    surrenders (``Rh``, ``Rs``, ``Rp``: docs/rules.md#D-BJ-33).
    """
    rules = game.exact_rules()
    plain = dataclasses.replace(rules, sevens_pays=0.0)
    table = exact.compositions()
    shoe = full_shoe(game.decks)
    hard: dict[int, dict[str, str]] = {t: {} for t in HARD_ROWS}
    soft: dict[int, dict[str, str]] = {t: {} for t in SOFT_ROWS}
    pairs: dict[str, dict[str, str]] = {label: {} for label in PAIR_ROWS}

    def column(up: int, up_label: str) -> None:
        """The chart's column for one up card (each thread writes its own cells)."""
        counts = shoe.copy()
        counts[up] -= 1
        card = exact.up_card(plain, up)
        values = card.optimal()
        with_bonus = exact.up_card(rules, up).optimal() if rules.sevens_pays else values
        top_dealer = card.dealer.outcomes(np.zeros((1, 10), dtype=np.int64))[0]
        top_values = _total_values(counts / counts.sum(), top_dealer, game, 1.0)
        # hard total -> summed (weight, stand, hit, double) over its two-card hands
        sums: dict[int, npt.NDArray[np.float64]] = {}
        pair_hands: list[int] = []
        for first in range(10):
            for second in range(first, 10):
                weight = float(counts[first]) * float(counts[second] - (first == second))
                if weight <= 0 or (first == ACE and second == TEN):
                    continue  # not dealt, or a natural: no decision
                if first != second:
                    weight *= 2
                hand = table.of(first, second)
                hard_sum = first + second + 2
                total, is_soft = _total(hard_sum, first == ACE)
                stand, hit, double = values[0, hand], values[1, hand], values[2, hand]
                surrender = _surrender_value(counts, first, second, up)
                if is_soft and first != second:
                    may_double = game.can_double(hard_sum, True, split=False)
                    letter, value = _choice(stand, hit, double, total, may_double)
                    soft[total][up_label] = _with_surrender(
                        letter, value, surrender if game.late_surrender else None
                    )
                elif not is_soft:
                    row = sums.setdefault(total, np.zeros(5))
                    row += weight * np.array([1.0, stand, hit, double, surrender])
                if first == second:
                    pair_hands.append(first)
        for total in HARD_ROWS:
            may_double = game.can_double(total, False, split=False)
            if total in sums and total < 21:
                _, stand, hit, double, surrender = sums[total]
                letter, value = _choice(stand, hit, double, total, may_double)
                letter = _with_surrender(letter, value, surrender if game.late_surrender else None)
            else:
                letter = _letter(top_values, total, False, may_double)[0]
            hard[total][up_label] = letter
        for total in SOFT_ROWS:
            if up_label not in soft[total]:
                soft[total][up_label] = _letter(top_values, total, True, False)[0]
        chart = Strategy(hard=hard, soft=soft, pairs=pairs)
        hard_codes, soft_codes, _ = _kernel_chart(chart, up_label, with_pairs=False)
        split_play = exact.chart_split_play(rules, hard_codes, soft_codes)
        if game.max_hands >= 2:
            exact.up_card(rules, up).prepare(pair_hands, split_play)
        for pair in pair_hands:
            hand = table.of(pair, pair)
            total, is_soft = _total(2 * (pair + 1), pair == ACE)
            may_double = game.can_double(2 * (pair + 1), is_soft, split=False)
            letter, value = _choice(
                with_bonus[0, hand], with_bonus[1, hand], with_bonus[2, hand], total, may_double
            )
            if game.max_hands >= 2:
                split_value, _ = exact.up_card(rules, up).split_value(pair, split_play)
                if split_value > value:
                    letter, value = "P", split_value
            if game.late_surrender:
                letter = _with_surrender(letter, value, _surrender_value(counts, pair, pair, up))
            pairs[PAIR_ROWS[(pair - 1) % 10]][up_label] = letter

    # The up cards on threads, as in ``evaluate_round`` (the kernels release the GIL).
    workers = min(len(UP_ORDER), os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        labels = [UP_LABELS[UP_ORDER.index(up)] for up in LONGEST_FIRST]
        list(pool.map(column, LONGEST_FIRST, labels))
    # Each row's cells in chart order, whichever thread finished first (the JSON's order).
    hard = {total: {up: row[up] for up in UP_LABELS} for total, row in hard.items()}
    soft = {total: {up: row[up] for up in UP_LABELS} for total, row in soft.items()}
    pairs = {label: {up: row[up] for up in UP_LABELS} for label, row in pairs.items()}
    tens, cards = 16 * game.decks, 52 * game.decks
    insured = Fraction(tens, cards - 1)  # dealer Ace up, nothing else seen
    insurance = "take" if game.insurance_pays * insured > 1 - insured else "decline"
    even_money = "not offered"
    if game.even_money:
        # The player holds Ace + ten, the dealer an Ace: 1:1 now, or the blackjack's pay
        # unless the dealer has blackjack too (a push).
        dealer_blackjack = Fraction(tens - 1, cards - 3)
        declined = (1 - dealer_blackjack) * game.blackjack_pays
        even_money = "take" if declined < 1 else "decline"
    return Strategy(hard=hard, soft=soft, pairs=pairs, insurance=insurance, even_money=even_money)


# --------------------------------------------------------------------------------------------
# 3. The exact value of a round under the chart (composition-dependent recursion).
# --------------------------------------------------------------------------------------------


@dataclass
class RoundResult:
    """Distribution of a round's net per initial unit, plus the expected total wagered."""

    distribution: dict[Fraction, float]
    expected_wagered: float
    split_probability: float
    expected_value: float = math.nan
    """The exact expected net per initial unit (split rounds exact, ``blackjack_exact``); the
    distribution's split rounds are the approximation of the module docstring."""
    exact_wagered: float = math.nan
    """The exact expected amount wagered."""
    distribution_exact: bool = False
    """Whether every split round's distribution is exact (no re-split possible)."""


_LETTER_CODES = {
    "H": kernel.HIT,
    "S": kernel.STAND,
    "D": kernel.DOUBLE,
    "Ds": kernel.DOUBLE_ELSE_STAND,
    "P": kernel.SPLIT,
    # Late surrender's cells as what they do where surrender is not allowed (a split hand,
    # three cards): the unsplit two-card hands that surrender are valued apart.
    "Rh": kernel.HIT,
    "Rs": kernel.STAND,
    "Rp": kernel.SPLIT,
}


def _grid_index(net: Fraction | float, scale: int, offset: int) -> int:
    return round(float(net) * scale) + offset


def _kernel_chart(
    strategy: Strategy, up_label: str, *, with_pairs: bool = True
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The chart's column for one up card as action codes: by hard total, soft total, pair
    (the pair rows left as STAND without ``with_pairs``: a chart still being derived)."""
    hard = np.full(22, kernel.STAND, dtype=np.int64)
    soft = np.full(22, kernel.STAND, dtype=np.int64)
    pairs = np.full(10, kernel.STAND, dtype=np.int64)
    for total, row in strategy.hard.items():
        hard[total] = _LETTER_CODES[row[up_label]]
    for total, row in strategy.soft.items():
        soft[total] = _LETTER_CODES[row[up_label]]
    for rank in range(10 if with_pairs else 0):
        pairs[rank] = _LETTER_CODES[strategy.pairs[PAIR_ROWS[(rank - 1) % 10]][up_label]]
    return hard, soft, pairs


@dataclass(frozen=True)
class _UpCardHands:
    """One up card's hands: each initial hand's distribution (``rows[first, second]``) and
    amount wagered, and the split hands' matrices ``_split_round`` assembles."""

    rows: npt.NDArray[np.float64]
    hand_wagered: npt.NDArray[np.float64]
    split_dealer: npt.NDArray[np.float64]
    split_hands: npt.NDArray[np.float64]
    split_wagered: npt.NDArray[np.float64]


def _split_round(
    game: Game,
    up: int,
    card: int,
    hands: _UpCardHands,
    scale: int,
) -> tuple[npt.NDArray[np.float64], float]:
    """A split pair's round, approximated (module docstring): outcome distribution (summed
    over the dealer) and expected amount wagered, from the split hands' matrices."""
    conditional, expected_wagered = _split_conditional(game, up, card, hands, scale)
    dealer = hands.split_dealer[card]
    return dealer @ conditional, expected_wagered


def _split_conditional(  # noqa: PLR0917
    game: Game,
    up: int,
    card: int,
    hands: _UpCardHands,
    scale: int,
    start: tuple[int, int] = (2, 2),
    *,
    first: bool = True,
) -> tuple[npt.NDArray[np.float64], float]:
    """The approximated split hands' total net given each dealer result (``[result, net]``,
    each row summing to one where the result is possible) and their expected amount wagered:
    ``start`` = (hands in the box, hands still to play), each played from the pre-split
    composition, independent given the dealer's result; ``first``: one of them carries the
    original stake."""
    offset = 2 * UNLIMITED_HANDS * scale
    size = 2 * offset + 1
    counts = game.shoe_counts()
    counts[up] -= 1
    counts[card] -= 2
    remaining = counts.sum()
    pair_probability = counts[card] / remaining
    may_resplit = card != ACE or game.resplit_aces
    counts_by_kind = _resplit_distribution(
        float(pair_probability), game.max_hands, may_resplit, start
    )
    which_first = 1 if first else 0
    # conditional[index][original][kind]: a split hand's net given the dealer's result.
    conditional = [
        [[_row(hands.split_hands[card, which, kind], index) for kind in (0, 1)] for which in (0, 1)]
        for index in range(OUTCOMES)
    ]

    # chains[(first kind, others, stucks)][index]: the first hand's row convolved with the
    # rows of ``others`` more hands of kind 0, then ``stucks`` of kind 1 (as many rounds
    # share their beginnings, each is convolved once, in the order the sum takes it), given
    # the dealer's result ``index``: every result's row of a chain made in one step (a step
    # per result had been three quarters of the Python here).
    chains: dict[tuple[int, int, int], list[npt.NDArray[np.float64]]] = {}

    def chain(first_kind: int, others: int, stucks: int) -> list[npt.NDArray[np.float64]]:
        key = (first_kind, others, stucks)
        found = chains.get(key)
        if found is None:
            if stucks == 0 and others == 0:
                found = [conditional[index][which_first][first_kind] for index in range(OUTCOMES)]
            else:
                kind, before = (
                    (1, chain(first_kind, others, stucks - 1))
                    if stucks > 0
                    else (0, chain(first_kind, others - 1, 0))
                )
                found = [
                    np.convolve(row, conditional[index][0][kind])[offset : offset + size]
                    for index, row in enumerate(before)
                ]
            chains[key] = found
        return found

    result = np.zeros((OUTCOMES, size))
    expected_wagered = 0.0
    for (n_other, n_stuck), probability in counts_by_kind:
        first_is_other = n_other > 0
        totals = chain(
            0 if first_is_other else 1,
            n_other - (1 if first_is_other else 0),
            n_stuck - (0 if first_is_other else 1),
        )
        for index, total in enumerate(totals):
            result[index] += probability * total
        expected_wagered += probability * (
            n_other * hands.split_wagered[card, 0, 0] + n_stuck * hands.split_wagered[card, 0, 1]
        )
    return result, expected_wagered


def _split_round_joint(  # noqa: PLR0917
    game: Game,
    up: int,
    card: exact.UpCard,
    pair: int,
    split_play: npt.NDArray[np.int64],
    hands: _UpCardHands,
    scale: int,
) -> tuple[npt.NDArray[np.float64], bool]:
    """A split pair's round: the outcome distribution, and whether it is exact. Every hand
    is taken jointly, re-splits included (``blackjack_split_round.whole_round_matrix``),
    where the round has at most ``STATE_BUDGET`` states; past that, its two-hand rounds are
    exact (``split_round_matrix``) and a re-split's hands still to play approximated
    (``_split_conditional``) from the dealer's outcomes for the cards out at that moment."""
    offset = 2 * UNLIMITED_HANDS * scale
    rules = card.rules
    may_resplit = (pair != ACE or rules.resplit_aces) and rules.max_hands > 2
    action = card.split_action(pair, split_play)
    if may_resplit:
        whole = split_round.whole_round_matrix(
            card, pair, action, may_resplit, scale, offset, split_round.STATE_BUDGET
        )
        if whole is not None:
            return whole.sum(axis=0), True
    matrix, nets, probabilities, dealers = split_round.split_round_matrix(
        card, pair, action, may_resplit, may_resplit, scale, offset
    )
    row: npt.NDArray[np.float64] = matrix.sum(axis=0)
    if not probabilities.size:
        return row, True
    left = card.shoe.copy()
    left[pair] -= 2
    first_resplits = may_resplit and left[pair] > 0
    size = 2 * offset + 1
    # The first hand's re-split is the first row where it can happen (``two_hands``).
    others = slice(1, None) if first_resplits else slice(0, None)
    for first, chosen in ((True, slice(0, 1)), (False, others)):
        if first and not first_resplits:
            continue
        if probabilities[chosen].size == 0:
            continue
        start = (3, 3) if first else (3, 2)
        conditional, _ = _split_conditional(game, up, pair, hands, scale, start, first=first)
        for outcome in range(OUTCOMES):
            weights = np.zeros(size)
            np.add.at(
                weights,
                offset + nets[chosen, outcome],
                probabilities[chosen] * dealers[chosen, outcome],
            )
            row += np.convolve(weights, conditional[outcome])[offset : offset + size]
    return row, False


def _row(matrix: npt.NDArray[np.float64], index: int) -> npt.NDArray[np.float64]:
    row: npt.NDArray[np.float64] = matrix[index]
    total = float(row.sum())
    return row / total if total > 0 else row


@functools.lru_cache(maxsize=4096)
def _resplit_distribution(
    pair_probability: float,
    max_hands: int,
    may_resplit: bool,
    start: tuple[int, int] = (2, 2),
) -> tuple[tuple[tuple[int, int], float], ...]:
    """Probability of each (hands not re-paired, hands re-paired but stuck) at the end, in
    the order the states finish (the order the split round's sum takes them), from
    ``start`` = (hands in the box, hands still to play)."""
    finished: dict[tuple[int, int], float] = {}
    states: dict[tuple[int, int, int, int], float] = {(*start, 0, 0): 1.0}
    while states:
        next_states: dict[tuple[int, int, int, int], float] = {}
        for (hands, pending, other, stuck), probability in states.items():
            outcomes = [((hands, pending - 1, other + 1, stuck), 1 - pair_probability)]
            if may_resplit and hands < max_hands:
                outcomes.append(((hands + 1, pending + 1, other, stuck), pair_probability))
            else:
                outcomes.append(((hands, pending - 1, other, stuck + 1), pair_probability))
            for state, p in outcomes:
                if p <= 0:
                    continue
                if state[1] == 0:
                    key = (state[2], state[3])
                    finished[key] = finished.get(key, 0.0) + probability * p
                else:
                    next_states[state] = next_states.get(state, 0.0) + probability * p
        states = next_states
    return tuple(finished.items())


def _grid_denominator(game: Game) -> int:
    denominator = 2
    for value in (game.blackjack_pays, game.veintiuno_real_pays):
        if value is not None:
            denominator = math.lcm(denominator, value.denominator)
    return denominator


@dataclass(frozen=True)
class _UpCardPlay:
    """One up card's hands under a play (``_evaluate_up``): the arrays ``_split_round`` reads,
    the pairs split, and each split's exact value and amount wagered."""

    hands: _UpCardHands
    splits: frozenset[int]
    split_values: dict[int, tuple[float, float]]
    card: exact.UpCard
    plays: dict[int, npt.NDArray[np.int64]]
    """Each pair's split play (``_split_round_joint`` takes the split hands jointly)."""


def _chart_unsplit_play(
    game: Game, strategy: Strategy, up_label: str
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The chart as actions by composition: (unsplit hands, split hands). An unsplit pair
    plays its pair row; doubling as the rules allow on two cards (after a split only with
    double after split)."""
    rules = game.exact_rules()
    table = exact.compositions()
    hard, soft, pairs = _kernel_chart(strategy, up_label)
    unsplit = exact.chart_split_play(
        dataclasses.replace(rules, double_after_split=True), hard, soft
    )
    for rank in range(10):
        letter = int(pairs[rank])
        if letter == kernel.SPLIT:
            continue
        hand = table.of(rank, rank)
        _, is_soft = _total(2 * (rank + 1), rank == ACE)
        may_double = game.can_double(2 * (rank + 1), is_soft, split=False)
        if letter in (kernel.DOUBLE, kernel.DOUBLE_ELSE_STAND) and may_double:
            unsplit[hand] = exact.DOUBLE
        else:
            unsplit[hand] = exact.HIT if letter in (kernel.HIT, kernel.DOUBLE) else exact.STAND
    return unsplit, exact.chart_split_play(rules, hard, soft)


def _evaluate_up(
    game: Game, strategy: Strategy, up: int, scale: int, play: Play = Play.BASIC
) -> _UpCardPlay:
    """Every initial hand against ``up`` under ``play``, by composition
    (``blackjack_exact``): unsplit hands' distributions exact, split hands' matrices for the
    approximate split round (``_split_round``), split values exact."""
    rules = game.exact_rules()
    # A depleted shoe (the effects of removal, ``by_count``) is valued afresh; the full one's
    # computations are kept while the same rules are analysed.
    card = (
        exact.up_card(rules, up)
        if game.shoe is None
        else exact.UpCard(rules, up, game.shoe_counts())
    )
    table = card.table
    size = len(table.cards)
    offset = 2 * UNLIMITED_HANDS * scale
    grid = np.array([scale, offset, 2 * offset + 1], dtype=np.int64)
    up_label = UP_LABELS[UP_ORDER.index(up)]
    dealt = [(first, second) for first, second, _ in exact.initial_hands(game.shoe_counts(), up)]
    paid = np.zeros(2 * size)
    if play is Play.BASIC:
        unsplit, split_play = _chart_unsplit_play(game, strategy, up_label)
        chosen = [
            pair
            for pair in range(10)
            if game.max_hands >= 2 and strategy.pairs[PAIR_ROWS[(pair - 1) % 10]][up_label] == "P"
        ]
    else:
        values = card.optimal()
        unsplit, split_play = exact.composition_play(rules, values)
        chosen = list(range(10)) if game.max_hands >= 2 else []
    if rules.sevens_pays:
        sevens = table.of(6, 6, 6)
        unsplit[sevens] = exact.PAID  # Veintiuno Real: the unsplit 7-7's third 7
        paid[sevens], paid[size + sevens] = rules.sevens_pays, -1.0
    pairs = [pair for first, pair in dealt if first == pair and pair in chosen]
    plays = dict.fromkeys(pairs, split_play)
    if play is Play.CDP1:
        plays = {pair: card.first_hand_play(pair) for pair in pairs}
    card.prepare_plays(plays)
    split_values = {pair: card.split_value(pair, plays[pair]) for pair in pairs}
    seeds = np.array([table.of(a, b) for a, b in dealt if (a, b) != (ACE, TEN)], dtype=np.int64)
    [(rows_of, matrices, wagered)] = card.matrices(card.shoe, unsplit, seeds, (1.0,), (paid,), grid)
    rows = np.zeros((10, 10, grid[2]))
    hand_wagered = np.zeros((10, 10))
    nets = (np.arange(grid[2]) - offset) / scale
    for first, second in dealt:
        if (first, second) == (ACE, TEN):
            left = card.shoe.copy()
            left[ACE] -= 1
            left[TEN] -= 1
            blackjack = exact._chance(left, up)
            rows[first, second, _grid_index(game.blackjack_pays, scale, offset)] = 1 - blackjack
            rows[first, second, offset] += blackjack
            hand_wagered[first, second] = 1.0
            continue
        hand = table.of(first, second)
        rows[first, second] = matrices[rows_of[hand]].sum(axis=0)
        hand_wagered[first, second] = wagered[hand]
        # CDZ- and CDP1 split only when splitting is worth more; the chart as it says.
        worth_less = first in split_values and split_values[first][0] <= rows[first, second] @ nets
        if first == second and play is not Play.BASIC and worth_less:
            del split_values[first]
        if game.late_surrender and _surrenders(
            game, strategy, play, card, first, second, up_label, rows[first, second] @ nets,
            split_values,
        ):  # fmt: skip
            rows[first, second] = 0.0
            blackjack = _dealer_blackjack(card.shoe, first, second, up)
            rows[first, second, _grid_index(-1, scale, offset)] = blackjack
            rows[first, second, _grid_index(Fraction(-1, 2), scale, offset)] = 1.0 - blackjack
            hand_wagered[first, second] = 1.0
            if first == second:
                split_values.pop(first, None)
    split_dealer = np.zeros((10, OUTCOMES))
    split_hands = np.zeros((10, 2, 2, OUTCOMES, grid[2]))
    split_wagered = np.zeros((10, 2, 2))
    for pair in split_values:
        _split_hands(card, pair, plays[pair], grid, split_dealer, split_hands, split_wagered)
    hands = _UpCardHands(rows, hand_wagered, split_dealer, split_hands, split_wagered)
    return _UpCardPlay(hands, frozenset(split_values), split_values, card, plays)


def _surrenders(  # noqa: PLR0917
    game: Game,
    strategy: Strategy,
    play: Play,
    card: exact.UpCard,
    first: int,
    second: int,
    up_label: str,
    unsplit_value: float,
    split_values: dict[int, tuple[float, float]],
) -> bool:
    """Whether the two-card hand surrenders (docs/rules.md#D-BJ-32): by the chart's letter
    under basic strategy; for CDZ- and CDP1, where surrendering is worth more than playing it
    on and than splitting it."""
    if play is Play.BASIC:
        return _cell_letter(strategy, first, second, up_label) in SURRENDER_LEGEND
    best = unsplit_value
    if first == second and first in split_values:
        best = max(best, split_values[first][0])
    return _surrender_value(card.shoe, first, second, card.up) > best


def _split_hands(  # noqa: PLR0917
    card: exact.UpCard,
    pair: int,
    split_play: npt.NDArray[np.int64],
    grid: npt.NDArray[np.int64],
    split_dealer: npt.NDArray[np.float64],
    split_hands: npt.NDArray[np.float64],
    split_wagered: npt.NDArray[np.float64],
) -> None:
    """One split hand's matrices for ``_split_round`` (the approximation of the module
    docstring): drawn from the shoe less the up card and both pair cards; kind 0 its second
    card not the pair card (normalised), kind 1 the pair card; by original-stake share."""
    table = card.table
    size = len(table.cards)
    rules = card.rules
    base = card.shoe.copy()
    base[pair] -= 1
    left = base.copy()
    left[pair] -= 1
    removed = np.zeros((1, 10), dtype=np.int64)
    removed[0, pair] = 2
    split_dealer[pair] = card.dealer.outcomes(removed)[0]
    remaining = left.sum()
    pair_probability = left[pair] / remaining
    action = card.split_action(pair, split_play)
    seeds = np.array([table.of(pair, rank) for rank in range(10) if left[rank] > 0])
    paids = []
    for which in range(2):
        paid = np.zeros(2 * size)
        if pair == ACE and rules.ace_ten_is_blackjack:
            ace_ten = table.of(ACE, TEN)
            # It pushes against a dealer blackjack it meets; in a peek game it never meets one.
            paid[ace_ten] = rules.blackjack_pays
            paid[size + ace_ten] = -float(which) if rules.peek else 0.0
        paids.append(paid)
    found = card.matrices(base, action, seeds, (0.0, 1.0), paids, grid)
    for which, (rows_of, matrices, wagered) in enumerate(found):
        other = split_hands[pair, which, 0]
        other_wagered = 0.0
        for rank in range(10):
            if rank == pair or left[rank] == 0:
                continue
            hand = table.of(pair, rank)
            other += (left[rank] / remaining) * matrices[rows_of[hand]]
            other_wagered += (left[rank] / remaining) * wagered[hand]
        other /= 1 - pair_probability
        split_wagered[pair, which, 0] = other_wagered / (1 - pair_probability)
        if pair_probability > 0:
            hand = table.of(pair, pair)
            split_hands[pair, which, 1] = matrices[rows_of[hand]]
            split_wagered[pair, which, 1] = wagered[hand]
        else:
            split_hands[pair, which, 1] = other


def evaluate_round(
    game: Game,
    strategy: Strategy,
    progress: Callable[[], None] | None = None,
    play: Play = Play.BASIC,
    *,
    joint: bool | None = None,
) -> RoundResult:
    """The distribution of a round's net result off the top of a full shoe under ``play``
    (the chart ``strategy``, or CDZ-), with its exact expected value and amount wagered.
    ``joint``: the split rounds' hands jointly (``_split_round_joint``); ``False``, the
    faster approximation of the module docstring (for a caller that reads only the exact
    expected value, ``by_count``); ``None`` (the default), jointly only the pairs that cannot
    be re-split, where the joint is exact and cheap: a re-split round is exact only within
    ``blackjack_split_round.STATE_BUDGET`` (at six decks a few pairs), and else stays
    approximate after the re-split while costing most of the analysis (peru-2016: 4.6 CPU-s
    against 0.3, most of it 2-2 and 3-3 against a 7), so ``croupier analyze`` keeps its speed
    and takes it only for ``--par``.

    The ten up cards are evaluated on threads (the kernels release the GIL); their figures
    are then summed in a fixed order, so the result does not depend on the threads.
    """
    shoe = game.shoe_counts()
    scale = _grid_denominator(game)
    offset = 2 * UNLIMITED_HANDS * scale
    distribution = np.zeros(2 * offset + 1)
    wagered = 0.0
    split_probability = 0.0
    exact_value = exact_wagered = 0.0
    exact_distribution = True
    nets = (np.arange(2 * offset + 1) - offset) / scale
    workers = min(len(UP_ORDER), os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        evaluated_up = dict(
            zip(
                LONGEST_FIRST,
                pool.map(lambda up: _evaluate_up(game, strategy, up, scale, play), LONGEST_FIRST),
                strict=True,
            )
        )
        by_up = [evaluated_up[up] for up in UP_ORDER]
        # The split rounds taken jointly, one task per pair and up card, so that the few
        # long ones (small pairs against a 7, whose hands draw most) share the threads;
        # the smallest pairs, the longest, go first.
        tasks = sorted(
            (pair, up, evaluated)
            for up, evaluated in zip(UP_ORDER, by_up, strict=True)
            for pair in evaluated.splits
            if _takes_joint(game, pair, joint)
        )
        joints = {
            (up, pair): pool.submit(
                _split_round_joint,
                game,
                up,
                evaluated.card,
                pair,
                evaluated.plays[pair],
                evaluated.hands,
                scale,
            )
            for pair, up, evaluated in tasks
        }
        for up, evaluated in zip(UP_ORDER, by_up, strict=True):
            hands = evaluated.hands
            for first, second, probability in exact.initial_hands(shoe, up):
                if first == second and first in evaluated.splits:
                    value, exact_hand_wagered = evaluated.split_values[first]
                    if (up, first) in joints:
                        row, exact_row = joints[up, first].result()
                        hand_wagered = exact_hand_wagered
                        exact_distribution &= exact_row
                    else:
                        row, hand_wagered = _split_round(game, up, first, hands, scale)
                        exact_distribution = False
                    split_probability += probability
                else:
                    row = hands.rows[first, second]
                    hand_wagered = float(hands.hand_wagered[first, second])
                    value = float(row @ nets)
                    exact_hand_wagered = hand_wagered
                distribution += probability * row
                wagered += probability * hand_wagered
                exact_value += probability * value
                exact_wagered += probability * exact_hand_wagered
            if progress is not None:
                progress()
    result = {
        Fraction(index - offset, scale): float(p)
        for index, p in enumerate(distribution)
        if p > 1e-15
    }
    return RoundResult(
        result, wagered, split_probability, exact_value, exact_wagered, exact_distribution
    )


def chart_action(
    strategy: Strategy,
    ranks: Sequence[int],
    up: int,
    legal: Collection[str],
    *,
    from_split: bool,
) -> str:
    """The chart's decision as an engine action name (``hit``, ``stand``, ``double``,
    ``split``), for a hand of blackjack ``ranks`` (1 = Ace, 10 = ten-valued) against the up
    card ``up``, given the action names the engine allows now."""
    hard_sum = sum(ranks)
    total, soft = _total(hard_sum, 1 in ranks)
    up_label = "A" if up == 1 else ("T" if up == 10 else str(up))
    if total >= 21:
        return "stand"
    letter: str | None = None
    if len(ranks) == 2 and ranks[0] == ranks[1]:
        pair_label = "A" if ranks[0] == 1 else ("T" if ranks[0] == 10 else str(ranks[0]))
        pair_letter = strategy.pairs[pair_label][up_label]
        if pair_letter in SURRENDER_LEGEND and "surrender" in legal:
            return "surrender"
        pair_letter = SURRENDER_FALLBACK.get(pair_letter, pair_letter)
        if pair_letter == "P" and "split" in legal:
            return "split"
        if pair_letter != "P" and not from_split:
            letter = pair_letter
    if letter is None:
        letter = strategy.soft[total][up_label] if soft else strategy.hard[max(total, 5)][up_label]
    if letter in SURRENDER_LEGEND:  # docs/rules.md#D-BJ-33: else hit, stand or split
        if "surrender" in legal:
            return "surrender"
        letter = SURRENDER_FALLBACK[letter]
    if letter in ("D", "Ds"):
        if "double" in legal:
            return "double"
        letter = "H" if letter == "D" else "S"
    if letter == "H" and "hit" in legal:
        return "hit"
    return "stand"


def insurance_figures(game: Game) -> WagerFigures:
    """Insurance off the top: the dealer shows an Ace and nothing else is known."""
    tens = 16 * game.decks
    unseen = 52 * game.decks - 1
    probability = Fraction(tens, unseen)
    return WagerFigures.exact(
        "insurance",
        {game.insurance_pays: probability, Fraction(-1): 1 - probability},
        method=f"exact, {game.decks} decks, dealer Ace up, no other card known",
    )


@dataclass(frozen=True)
class BlackjackAnalysis:
    game: Game
    strategy: Strategy
    main: WagerFigures
    insurance: WagerFigures
    split_probability: float
    play: Play = Play.BASIC

    @property
    def distribution_mean_offset(self) -> float:
        """The main bet's distribution's mean less its exact expected value: what the
        re-split rounds' approximation (module docstring) moves the distribution by; zero
        (to rounding, 1e-15) where no split round can reach a third hand."""
        mean = math.fsum(float(net) * p for net, p in self.main.distribution.items())
        return mean - self.main.expected_value


def _takes_joint(game: Game, pair: int, joint: bool | None) -> bool:
    """Whether the split rounds of ``pair`` are taken jointly (``evaluate_round``)."""
    if joint is not None:
        return joint
    return not ((pair != ACE or game.resplit_aces) and game.max_hands > 2)


def analyse_blackjack(
    rules: BlackjackRules,
    decks: int | None = None,
    progress: Callable[[], None] | None = None,
    play: Play = Play.BASIC,
    *,
    joint: bool | None = None,
    chart: Strategy | None = None,
) -> BlackjackAnalysis:
    """The main bet's figures under ``play``. The house edge and element of risk are exact;
    so is the distribution (hit frequency, push, standard deviation) where no split round
    can reach a third hand, and after a re-split it approximates the hands still to play
    (module docstring). ``joint=False`` approximates every split round's distribution
    instead (faster; the house edge and element of risk stay exact): for a caller that
    reads only those. ``chart``: evaluate this chart instead of the basic strategy
    (``croupier analyze --strategy-file``; with ``Play.BASIC`` only)."""
    game = Game.of(rules, decks)
    if chart is not None and play is not Play.BASIC:
        raise ProfileError(
            f"a strategy file is a chart: it is played as one, not as {play.value!r}"
        )
    strategy = derive_strategy(game) if chart is None else chart
    evaluation = evaluate_round(game, strategy, progress, play, joint=joint)
    expected_value, expected_wagered = evaluation.expected_value, evaluation.exact_wagered
    method = (
        f"basic strategy from exact dealer probabilities; round value by composition over a "
        f"{game.decks}-deck shoe, off the top; split hands exact, re-splits to the profile's "
        "limit (see module docs)"
    )
    if play is Play.COMPOSITION:
        method = (
            "composition-dependent strategy (CDZ-: each hand's best play as an unsplit hand "
            "of its cards, reused after a split); exact dealer probabilities, every hand by "
            f"composition over a {game.decks}-deck shoe, off the top; split hands exact"
        )
    elif play is Play.CDP1:
        method = (
            "composition-dependent strategy (CDP1: each unsplit hand's best play for its "
            "cards; after a split, each hand's best play as the split's first hand, the "
            "pair's other card out of the shoe); exact dealer probabilities, every hand by "
            f"composition over a {game.decks}-deck shoe, off the top; split hands exact"
        )
    distribution_note = (
        None
        if evaluation.distribution_exact
        else (
            "the distribution (hit frequency, push, standard deviation) approximates the "
            "re-split rounds too large to take jointly (more than 20,000 states): a split "
            "ending in two hands is exact, but after a re-split the hands still to play are "
            "taken from the pre-split composition, independent given the dealer's result; "
            "the house edge and element of risk are exact"
        )
        if joint
        else (
            "the distribution (hit frequency, push, standard deviation) approximates the "
            "split rounds of pairs that may be re-split: their hands are taken from the "
            "pre-split composition, independent given the dealer's result (croupier analyze "
            "--par takes them jointly: exact for a split ending in two hands, and re-splits "
            "included for a round of at most 20,000 states); the house edge and element of "
            "risk are exact"
        )
    )
    main = WagerFigures(
        name="main",
        distribution=evaluation.distribution,
        element_of_risk=float(-expected_value / expected_wagered),
        method=method,
        approximation=distribution_note,
        notes=(f"expected amount wagered per round: {expected_wagered:.6f} units",),
        exact_expected_value=float(expected_value),
    )
    return BlackjackAnalysis(
        game=game,
        strategy=strategy,
        main=main,
        insurance=insurance_figures(game),
        split_probability=evaluation.split_probability,
        play=play,
    )
