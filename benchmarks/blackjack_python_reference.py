"""The pure-Python blackjack analysis that ``croupier.analysis.blackjack`` replaced: the
reference ``benchmarks/analyze.py`` times the compiled version against.

This is the code of ``src/croupier/analysis/blackjack.py`` as it stood before the player's
recursion moved to numba (commit 3d97caf), unchanged but for its imports: the basic
strategy's values by total and the round's recursion over every composition in Python,
the dealer's probabilities from the compiled ``dealer_outcomes`` one composition at a time.
Its figures must be the compiled version's, bit for bit; the benchmark checks that.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.blackjack import (
    HARD_ROWS,
    PAIR_ROWS,
    SOFT_ROWS,
    UNLIMITED_HANDS,
    UP_LABELS,
    UP_ORDER,
    Game,
    RoundResult,
    Strategy,
)
from croupier.analysis.dealer import (
    ACE,
    BLACKJACK,
    BUST,
    OUTCOMES,
    TEN,
    dealer_outcomes,
    full_shoe,
)


def _total(hard_sum: int, has_ace: bool) -> tuple[int, bool]:
    if has_ace and hard_sum + 10 <= 21:
        return hard_sum + 10, True
    return hard_sum, False


def _stand_value(
    total: int, bet: float, original: float, dealer: npt.NDArray[np.float64], game: Game
) -> float:
    if total > 21:
        blackjack = float(dealer[BLACKJACK])
        return (1 - blackjack) * -bet + blackjack * game.blackjack_world_bust(bet, original)
    value = dealer[BUST] * bet + dealer[BLACKJACK] * game.blackjack_world_stand(bet, original)
    for index in range(5):
        final = 17 + index
        if total > final:
            value += dealer[index] * bet
        elif total < final:
            value -= dealer[index] * bet
    return float(value)


# --------------------------------------------------------------------------------------------
# 2. Basic strategy from the full shoe minus the up card.
# --------------------------------------------------------------------------------------------


@dataclass
class _TotalValues:
    """Hit/stand/double values by total for one up card and one ``original`` share."""

    stand: dict[tuple[int, bool], float] = field(default_factory=dict)
    best: dict[tuple[int, bool], float] = field(default_factory=dict)
    hit: dict[tuple[int, bool], float] = field(default_factory=dict)
    double: dict[tuple[int, bool], float] = field(default_factory=dict)


def _after(total: int, soft: bool, rank: int) -> tuple[int, bool]:
    """The total after drawing ``rank`` (0 = Ace) onto a hand of ``total`` (soft or hard)."""
    value = rank + 1
    if soft:
        new = total + value
        return (new, True) if new <= 21 else (new - 10, False)
    if rank == ACE and total + 11 <= 21:
        return total + 11, True
    return total + value, False


_AFTER = {
    (total, soft): [_after(total, soft, rank) for rank in range(10)]
    for total in range(4, 22)
    for soft in (False, True)
}
"""Each total's successor for each rank drawn, tabulated once."""


def _total_values(
    draw: npt.NDArray[np.float64], dealer: npt.NDArray[np.float64], game: Game, original: float
) -> _TotalValues:
    values = _TotalValues()
    draws = [float(p) for p in draw]
    # Standing values by total (4..31) for a single and a doubled bet, computed once.
    single = {t: _stand_value(t, 1.0, original, dealer, game) for t in range(4, 32)}
    doubled = {t: _stand_value(t, 2.0, original, dealer, game) for t in range(4, 32)}
    after = _AFTER
    states = [(t, False) for t in range(21, 10, -1)]
    states += [(t, True) for t in range(21, 11, -1)]
    states += [(t, False) for t in range(10, 3, -1)]
    for total, soft in states:
        values.stand[(total, soft)] = single[total]
        hit = 0.0
        double = 0.0
        for p, (new_total, new_soft) in zip(draws, after[(total, soft)], strict=True):
            if new_total > 21:
                hit += p * single[new_total]
            else:
                hit += p * values.best[(new_total, new_soft)]
            double += p * doubled[new_total]
        values.hit[(total, soft)] = hit
        values.double[(total, soft)] = double
        values.best[(total, soft)] = max(hit, values.stand[(total, soft)])
    return values


def _letter(values: _TotalValues, total: int, soft: bool, may_double: bool) -> tuple[str, float]:
    stand, hit = values.stand[(total, soft)], values.hit[(total, soft)]
    if total == 21:
        return "S", stand
    best = max(stand, hit)
    if may_double and values.double[(total, soft)] > best:
        return ("D" if hit >= stand else "Ds"), values.double[(total, soft)]
    return ("H" if hit > stand else "S"), best


def _resplit_counts(
    pair_probability: float, max_hands: int, may_resplit: bool
) -> tuple[float, float]:
    """Expected numbers of final split hands whose second card was not the pair card, and
    that drew the pair card but could not split again (start: two hands of one card each)."""
    expected_other = 0.0
    expected_stuck = 0.0
    # state: (hands so far, hands still to receive their second card) -> probability
    states: dict[tuple[int, int], float] = {(2, 2): 1.0}
    while states:
        next_states: dict[tuple[int, int], float] = {}
        for (hands, pending), probability in states.items():
            expected_other += probability * (1 - pair_probability)
            if pending > 1:
                key = (hands, pending - 1)
                next_states[key] = next_states.get(key, 0.0) + probability * (1 - pair_probability)
            if may_resplit and hands < max_hands:
                key = (hands + 1, pending + 1)
                next_states[key] = next_states.get(key, 0.0) + probability * pair_probability
            else:
                expected_stuck += probability * pair_probability
                if pending > 1:
                    key = (hands, pending - 1)
                    next_states[key] = next_states.get(key, 0.0) + probability * pair_probability
        states = next_states
    return expected_other, expected_stuck


def derive_strategy(game: Game) -> Strategy:
    """The total-dependent basic strategy (see the module docstring, step 2).

    Each two-card decision is weighed over the two-card hands that make it, each with its own
    cards and the up card removed (hard rows average over their compositions, weighted by
    their probabilities; a soft row or a pair has one composition). Values after the first
    decision are by totals over that composition.
    """
    shoe = full_shoe(game.decks)
    hard: dict[int, dict[str, str]] = {t: {} for t in HARD_ROWS}
    soft: dict[int, dict[str, str]] = {t: {} for t in SOFT_ROWS}
    pairs: dict[str, dict[str, str]] = {label: {} for label in PAIR_ROWS}
    for up, up_label in zip(UP_ORDER, UP_LABELS, strict=True):
        counts = shoe.copy()
        counts[up] -= 1
        top_values = _total_values(
            counts / counts.sum(), dealer_outcomes(counts, up, game.hits_soft_17), game, 1.0
        )
        # hard total -> summed (weight, stand, hit, double) over its two-card hands
        sums: dict[int, npt.NDArray[np.float64]] = {}
        for first in range(10):
            for second in range(first, 10):
                hand = counts.copy()
                weight = float(hand[first])
                hand[first] -= 1
                weight *= hand[second]
                hand[second] -= 1
                if weight == 0:
                    continue
                if first != second:
                    weight *= 2
                hard_sum = first + second + 2
                has_ace = first == ACE
                if has_ace and hard_sum == 11:
                    continue  # a natural: no decision
                draw = hand / hand.sum()
                dealer = dealer_outcomes(hand, up, game.hits_soft_17)
                values = _total_values(draw, dealer, game, 1.0)
                total, is_soft = _total(hard_sum, has_ace)
                if is_soft and first != second:
                    soft[total][up_label] = _letter(
                        values, total, True, game.can_double(hard_sum, True, split=False)
                    )[0]
                elif not is_soft:
                    row = sums.setdefault(total, np.zeros(4))
                    row += weight * np.array(
                        [
                            1.0,
                            values.stand[(total, False)],
                            values.hit[(total, False)],
                            values.double[(total, False)],
                        ]
                    )
                if first == second:
                    pairs[PAIR_ROWS[(first - 1) % 10]][up_label] = _pair_letter(
                        first, draw, dealer, values, game
                    )
        for total in HARD_ROWS:
            may_double = game.can_double(total, False, split=False)
            if total in sums and total < 21:
                weight, stand, hit, double = sums[total]
                best = max(stand, hit)
                if may_double and double > best:
                    letter = "D" if hit >= stand else "Ds"
                else:
                    letter = "H" if hit > stand else "S"
            else:
                letter = _letter(top_values, total, False, may_double)[0]
            hard[total][up_label] = letter
        for total in SOFT_ROWS:
            if up_label not in soft[total]:
                soft[total][up_label] = _letter(top_values, total, True, False)[0]
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


def _pair_letter(
    card: int,
    draw: npt.NDArray[np.float64],
    dealer: npt.NDArray[np.float64],
    values: _TotalValues,
    game: Game,
) -> str:
    hard_sum = 2 * (card + 1)
    total, is_soft = _total(hard_sum, card == ACE)
    letter, value = _letter(values, total, is_soft, game.can_double(hard_sum, is_soft, split=False))
    if game.veintiuno_real_pays is not None and card == 6:
        # Three 7s on the unsplit hand (Veintiuno Real): hitting 7-7 may make it.
        blackjack = float(dealer[BLACKJACK])
        bonus = (1 - blackjack) * float(game.veintiuno_real_pays) - blackjack
        hit = values.hit[(14, False)] + draw[6] * (bonus - values.best[(21, False)])
        if hit > value:
            letter, value = "H", hit
    if game.max_hands >= 2:
        split_values = {o: _total_values(draw, dealer, game, o) for o in (0.0, 1.0)}
        if _split_value_by_totals(card, draw, dealer, game, split_values) > value:
            letter = "P"
    return letter


def _split_hand_value(  # noqa: PLR0917
    card: int,
    second: int,
    values: _TotalValues,
    dealer: npt.NDArray[np.float64],
    game: Game,
    original: float,
) -> float:
    hard_sum = card + second + 2
    total, is_soft = _total(hard_sum, ACE in (card, second))
    if card == ACE:
        # Split Aces get one card each (Art. 11); Ace + ten may count as blackjack (sheet 10c).
        if second == TEN and game.ace_ten_is_blackjack:
            return float((1 - dealer[BLACKJACK]) * float(game.blackjack_pays))
        return _stand_value(total, 1.0, original, dealer, game)
    best = values.best[(total, is_soft)]
    if game.can_double(hard_sum, is_soft, split=True):
        best = max(best, values.double[(total, is_soft)])
    return best


def _split_value_by_totals(
    card: int,
    draw: npt.NDArray[np.float64],
    dealer: npt.NDArray[np.float64],
    game: Game,
    values_by_original: dict[float, _TotalValues],
) -> float:
    pair_probability = float(draw[card])
    may_resplit = card != ACE or game.resplit_aces
    other, stuck = _resplit_counts(pair_probability, game.max_hands, may_resplit)
    per_original = {}
    for original, values in values_by_original.items():
        other_value = sum(
            draw[r] * _split_hand_value(card, r, values, dealer, game, original)
            for r in range(10)
            if r != card
        ) / max(1 - pair_probability, 1e-300)
        stuck_value = _split_hand_value(card, card, values, dealer, game, original)
        per_original[original] = (other_value, stuck_value)
    (other0, stuck0), (other1, stuck1) = per_original[0.0], per_original[1.0]
    hands = other + stuck
    correction = (other * (other1 - other0) + stuck * (stuck1 - stuck0)) / hands
    return float(other * other0 + stuck * stuck0 + correction)


# --------------------------------------------------------------------------------------------
# 3. The exact value of a round under the chart (composition-dependent recursion).
# --------------------------------------------------------------------------------------------


class _Evaluator:
    """Plays the chart over every composition for one up card."""

    def __init__(self, game: Game, strategy: Strategy, up: int, grid_denominator: int) -> None:
        self.game = game
        self.strategy = strategy
        self.up = up
        self.up_label = UP_LABELS[UP_ORDER.index(up)]
        self.shoe = full_shoe(game.decks)
        self.shoe[up] -= 1
        self.scale = grid_denominator
        self.offset = 2 * UNLIMITED_HANDS * grid_denominator
        self.size = 2 * self.offset + 1
        self._dealer: dict[tuple[int, ...], npt.NDArray[np.float64]] = {}
        self._memo: dict[tuple[Any, ...], tuple[npt.NDArray[np.float64], float]] = {}
        self.base_noblackjack = np.zeros(OUTCOMES)

    # -- helpers ------------------------------------------------------------------------
    def index(self, net: Fraction | float) -> int:
        return round(float(net) * self.scale) + self.offset

    def dealer(self, removed: tuple[int, ...]) -> npt.NDArray[np.float64]:
        found = self._dealer.get(removed)
        if found is None:
            counts = self.shoe - np.array(removed, dtype=np.int64)
            found = dealer_outcomes(counts, self.up, self.game.hits_soft_17)
            self._dealer[removed] = found
        return found

    def remaining(self, removed: tuple[int, ...]) -> npt.NDArray[np.int64]:
        return self.shoe - np.array(removed, dtype=np.int64)

    def _matrix(self) -> npt.NDArray[np.float64]:
        return np.zeros((OUTCOMES, self.size))

    def stand_leaf(
        self, removed: tuple[int, ...], total: int, bet: int, original: float
    ) -> npt.NDArray[np.float64]:
        dealer = self.dealer(removed)
        matrix = self._matrix()
        for index in range(5):
            final = 17 + index
            net = bet if total > final else (-bet if total < final else 0)
            matrix[index, self.index(net)] += dealer[index]
        matrix[BUST, self.index(bet)] += dealer[BUST]
        self._blackjack_world(
            matrix, dealer[BLACKJACK], self.game.blackjack_world_stand(bet, original)
        )
        return matrix

    def _blackjack_world(
        self, matrix: npt.NDArray[np.float64], probability: float, net: float
    ) -> None:
        if probability <= 0:
            return
        if net == int(net):
            matrix[BLACKJACK, self.index(net)] += probability
        else:
            # An OBO share of the original stake (split hands): spread over the grid ends.
            low, high = math.floor(net), math.ceil(net)
            matrix[BLACKJACK, self.index(low)] += probability * (high - net)
            matrix[BLACKJACK, self.index(high)] += probability * (net - low)

    def bust_leaf(
        self, removed: tuple[int, ...], bet: int, original: float
    ) -> npt.NDArray[np.float64]:
        # Only the chance of a dealer blackjack matters to a busted hand; it is that of the
        # cards left. The rest is spread as the dealer's outcomes off the initial deal.
        counts = self.remaining(removed)
        blackjack = 0.0
        if self.up == ACE:
            blackjack = counts[TEN] / counts.sum()
        elif self.up == TEN:
            blackjack = counts[ACE] / counts.sum()
        matrix = self._matrix()
        matrix[:BLACKJACK, self.index(-bet)] += (1 - blackjack) * self.base_noblackjack[:BLACKJACK]
        self._blackjack_world(matrix, blackjack, self.game.blackjack_world_bust(bet, original))
        return matrix

    def paid_leaf(
        self, removed: tuple[int, ...], pays: Fraction, loses_to_blackjack: float
    ) -> npt.NDArray[np.float64]:
        """A hand paid at a fixed ratio unless the dealer has blackjack (then ``loses...``)."""
        dealer = self.dealer(removed)
        matrix = self._matrix()
        matrix[:BLACKJACK, self.index(pays)] += dealer[:BLACKJACK]
        self._blackjack_world(matrix, dealer[BLACKJACK], loses_to_blackjack)
        return matrix

    # -- playing a hand by the chart ----------------------------------------------------
    def action(self, hard_sum: int, has_ace: bool, cards: int, split: bool) -> str:
        total, soft = _total(hard_sum, has_ace)
        if total >= 21:
            return "S"
        letter = (
            self.strategy.soft[total][self.up_label]
            if soft
            else self.strategy.hard[max(total, 5)][self.up_label]
        )
        if letter in ("D", "Ds"):
            if cards == 2 and self.game.can_double(hard_sum, soft, split):
                return "D"
            return "H" if letter == "D" else "S"
        return letter

    def play(  # noqa: PLR0917
        self,
        removed: tuple[int, ...],
        hard_sum: int,
        has_ace: bool,
        cards: int,
        split: bool,
        original: float,
        forced: str | None = None,
        sevens: bool = False,
    ) -> tuple[npt.NDArray[np.float64], float]:
        """(outcome matrix, expected amount wagered) of a hand played by the chart."""
        key = (removed, hard_sum, has_ace, cards, split, original, forced, sevens)
        found = self._memo.get(key)
        if found is not None:
            return found
        action = forced or self.action(hard_sum, has_ace, cards, split)
        total, _ = _total(hard_sum, has_ace)
        if action == "S":
            result = (self.stand_leaf(removed, total, 1, original), 1.0)
        else:
            bet = 2 if action == "D" else 1
            counts = self.remaining(removed)
            remaining = counts.sum()
            matrix = self._matrix()
            wagered = 0.0
            for rank in range(10):
                if counts[rank] == 0:
                    continue
                p = counts[rank] / remaining
                after = list(removed)
                after[rank] += 1
                new_removed = tuple(after)
                new_hard = hard_sum + rank + 1
                new_ace = has_ace or rank == ACE
                new_total, _ = _total(new_hard, new_ace)
                if sevens and rank == 6 and self.game.veintiuno_real_pays is not None:
                    # Veintiuno Real: a third 7 on the unsplit 7-7 pays 5:1, losing only to
                    # a dealer blackjack.
                    sub = self.paid_leaf(new_removed, self.game.veintiuno_real_pays, -1.0)
                    sub_wagered = 1.0
                elif new_hard > 21:
                    sub = self.bust_leaf(new_removed, bet, original)
                    sub_wagered = float(bet)
                elif action == "D":
                    sub = self.stand_leaf(new_removed, new_total, 2, original)
                    sub_wagered = 2.0
                else:
                    sub, sub_wagered = self.play(
                        new_removed, new_hard, new_ace, cards + 1, split, original
                    )
                matrix += p * sub
                wagered += p * sub_wagered
            result = (matrix, wagered)
        self._memo[key] = result
        return result

    # -- splitting ----------------------------------------------------------------------
    def split(self, card: int) -> tuple[npt.NDArray[np.float64], float]:
        """The round's outcome distribution (summed over the dealer) for a split pair."""
        removed_list = [0] * 10
        removed_list[card] = 2
        removed = tuple(removed_list)
        counts = self.remaining(removed)
        remaining = counts.sum()
        pair_probability = counts[card] / remaining
        may_resplit = card != ACE or self.game.resplit_aces
        dealer = self.dealer(removed)

        def second_card_hand(rank: int, original: float) -> tuple[npt.NDArray[np.float64], float]:
            after = list(removed)
            after[rank] += 1
            new_removed = tuple(after)
            hard_sum = card + rank + 2
            has_ace = ACE in (card, rank)
            if card == ACE:
                if rank == TEN and self.game.ace_ten_is_blackjack:
                    return self.paid_leaf(new_removed, self.game.blackjack_pays, 0.0), 1.0
                total, _ = _total(hard_sum, has_ace)
                return self.stand_leaf(new_removed, total, 1, original), 1.0
            return self.play(new_removed, hard_sum, has_ace, 2, True, original)

        hands: dict[
            float, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float, float]
        ] = {}
        for original in (0.0, 1.0):
            other = self._matrix()
            other_wagered = 0.0
            for rank in range(10):
                if rank == card or counts[rank] == 0:
                    continue
                sub, sub_wagered = second_card_hand(rank, original)
                other += counts[rank] / remaining * sub
                other_wagered += counts[rank] / remaining * sub_wagered
            other /= 1 - pair_probability
            other_wagered /= 1 - pair_probability
            stuck, stuck_wagered = (
                second_card_hand(card, original) if pair_probability > 0 else (other, 0.0)
            )
            hands[original] = (other, stuck, other_wagered, stuck_wagered)
        counts_by_kind = _resplit_distribution(pair_probability, self.game.max_hands, may_resplit)
        round_matrix = np.zeros(self.size)
        expected_wagered = 0.0
        for (n_other, n_stuck), probability in counts_by_kind.items():
            first_is_other = n_other > 0
            for index in range(OUTCOMES):
                weight = dealer[index]
                if weight <= 0:
                    continue
                conditional = {
                    original: (
                        _row(hands[original][0], index),
                        _row(hands[original][1], index),
                    )
                    for original in (0.0, 1.0)
                }
                first = conditional[1.0][0 if first_is_other else 1]
                total = first
                for _ in range(n_other - (1 if first_is_other else 0)):
                    total = self._convolve(total, conditional[0.0][0])
                for _ in range(n_stuck - (0 if first_is_other else 1)):
                    total = self._convolve(total, conditional[0.0][1])
                round_matrix += probability * weight * total
            expected_wagered += probability * (n_other * hands[0.0][2] + n_stuck * hands[0.0][3])
        return round_matrix, expected_wagered

    def _convolve(
        self, left: npt.NDArray[np.float64], right: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        full = np.convolve(left, right)
        return full[self.offset : self.offset + self.size]


def _row(matrix: npt.NDArray[np.float64], index: int) -> npt.NDArray[np.float64]:
    row: npt.NDArray[np.float64] = matrix[index]
    total = float(row.sum())
    return row / total if total > 0 else row


def _resplit_distribution(
    pair_probability: float, max_hands: int, may_resplit: bool
) -> dict[tuple[int, int], float]:
    """Probability of each (hands not re-paired, hands re-paired but stuck) at the end."""
    finished: dict[tuple[int, int], float] = {}
    states: dict[tuple[int, int, int, int], float] = {(2, 2, 0, 0): 1.0}
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
    return finished


def _grid_denominator(game: Game) -> int:
    denominator = 2
    for value in (game.blackjack_pays, game.veintiuno_real_pays):
        if value is not None:
            denominator = math.lcm(denominator, value.denominator)
    return denominator


def evaluate_round(
    game: Game, strategy: Strategy, progress: Callable[[], None] | None = None
) -> RoundResult:
    """The distribution of a round's net result off the top of a full shoe under ``strategy``."""
    shoe = full_shoe(game.decks)
    total_cards = int(shoe.sum())
    scale = _grid_denominator(game)
    offset = 2 * UNLIMITED_HANDS * scale
    distribution = np.zeros(2 * offset + 1)
    wagered = 0.0
    split_probability = 0.0
    for up in UP_ORDER:
        evaluator = _Evaluator(game, strategy, up, scale)
        base_dealer = evaluator.dealer((0,) * 10)
        noblackjack = 1 - base_dealer[BLACKJACK]
        evaluator.base_noblackjack = base_dealer / noblackjack if noblackjack > 0 else base_dealer
        for first in range(10):
            for second in range(first, 10):
                counts = shoe.copy()
                weight = float(counts[first])
                counts[first] -= 1
                weight *= counts[up]
                counts[up] -= 1
                weight *= counts[second]
                if weight == 0:
                    continue
                probability = weight / (total_cards * (total_cards - 1) * (total_cards - 2))
                if first != second:
                    probability *= 2
                removed_list = [0] * 10
                removed_list[first] += 1
                removed_list[second] += 1
                removed = tuple(removed_list)
                hard_sum = first + second + 2
                has_ace = ACE in (first, second)
                if has_ace and hard_sum == 11:
                    # A natural: paid 3:2 (or as the profile says), pushes a dealer blackjack.
                    row = evaluator.paid_leaf(removed, game.blackjack_pays, 0.0).sum(axis=0)
                    hand_wagered = 1.0
                elif first == second and game.max_hands >= 2:
                    label = PAIR_ROWS[(first - 1) % 10] if first != ACE else "A"
                    letter = strategy.pairs[label][evaluator.up_label]
                    if letter == "P":
                        row, hand_wagered = evaluator.split(first)
                        split_probability += probability
                    else:
                        if letter in ("D", "Ds") and not game.can_double(
                            hard_sum, has_ace and hard_sum + 10 <= 21, False
                        ):
                            letter = "H" if letter == "D" else "S"
                        matrix, hand_wagered = evaluator.play(
                            removed,
                            hard_sum,
                            has_ace,
                            2,
                            False,
                            1.0,
                            forced=letter,
                            sevens=first == 6,
                        )
                        row = matrix.sum(axis=0)
                else:
                    matrix, hand_wagered = evaluator.play(
                        removed, hard_sum, has_ace, 2, False, 1.0, sevens=False
                    )
                    row = matrix.sum(axis=0)
                distribution += probability * row
                wagered += probability * hand_wagered
        if progress is not None:
            progress()
    result = {
        Fraction(index - offset, scale): float(p)
        for index, p in enumerate(distribution)
        if p > 1e-15
    }
    return RoundResult(result, wagered, split_probability)
