"""21+3: the player's two cards and the dealer's up card as a three-card poker hand
(docs/rules.md §1, Peru Arts. 18-20), exactly, for any number of decks.

The three cards are the first three of a full shoe (the player's two and the dealer's up card
are dealt before anything else is seen), so the figures are those of an ordered draw of three
cards without replacement. Each of the 52 card kinds has ``decks`` copies; the kernel counts
ordered triples of card kinds, weighted by the ways to draw them, by category.

Decisions (docs/rules.md §1): the Ace plays high or low (A-2-3 and Q-K-A; never K-A-2); suited trips
pay as three of a kind (only the single best category pays).

>>> from croupier.rules import load_profile
>>> figures = analyse_twenty_one_plus_three(load_profile("peru-2016"))
>>> round(figures.house_edge, 4), round(figures.hit_frequency, 4)
(0.1339, 0.0968)
"""

from __future__ import annotations

from fractions import Fraction

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.figures import Outcome, WagerFigures
from croupier.rules.blackjack import BlackjackRules, ThreeCardHand, TwentyOnePlusThree

CATEGORIES: tuple[ThreeCardHand, ...] = (
    ThreeCardHand.STRAIGHT_FLUSH,
    ThreeCardHand.THREE_OF_A_KIND,
    ThreeCardHand.STRAIGHT,
    ThreeCardHand.FLUSH,
)
"""Best first (Art. 20); index 4 of the kernel's counts is "none of these"."""


@numba.njit(cache=True)
def _is_straight(a: int, b: int, c: int, ace_low: bool) -> bool:
    # Ranks 0..12 are 2..A. Sort three values.
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    if a == b or b == c:  # noqa: PLR1714 - numba compiles plain comparisons
        return False
    if c - a == 2:
        return True
    # A-2-3: ranks 0 (2), 1 (3) and 12 (A).
    return ace_low and a == 0 and b == 1 and c == 12


@numba.njit(cache=True)
def category_counts(decks: int, ace_low: bool) -> npt.NDArray[np.int64]:
    """Ordered draws of three cards from ``decks`` decks, by category (see ``CATEGORIES``)."""
    return category_counts_of(np.full(52, decks, dtype=np.int64), ace_low)


@numba.njit(cache=True)
def category_counts_of(copies: npt.NDArray[np.int64], ace_low: bool) -> npt.NDArray[np.int64]:
    """Ordered draws of three cards from a shoe holding ``copies[card]`` of each card
    (``card // 4``: 0 = 2 ... 12 = Ace; ``card % 4``: the suit), by category."""
    counts = np.zeros(5, dtype=np.int64)
    copies = copies.copy()
    for first in range(52):
        w1 = copies[first]
        if w1 == 0:
            continue
        copies[first] -= 1
        for second in range(52):
            w2 = w1 * copies[second]
            if w2 == 0:
                continue
            copies[second] -= 1
            for third in range(52):
                w3 = w2 * copies[third]
                if w3 == 0:
                    continue
                r1, r2, r3 = first // 4, second // 4, third // 4
                suited = first % 4 == second % 4 == third % 4
                straight = _is_straight(r1, r2, r3, ace_low)
                if straight and suited:
                    counts[0] += w3
                elif r1 == r2 == r3:
                    counts[1] += w3
                elif straight:
                    counts[2] += w3
                elif suited:
                    counts[3] += w3
                else:
                    counts[4] += w3
            copies[second] += 1
        copies[first] += 1
    return counts


def category_probabilities(decks: int, ace_low: bool) -> dict[ThreeCardHand | None, Fraction]:
    """Exact probability of each category (``None``: none of them)."""
    return category_probabilities_of(np.full(52, decks, dtype=np.int64), ace_low)


def category_probabilities_of(
    copies: npt.NDArray[np.int64], ace_low: bool
) -> dict[ThreeCardHand | None, Fraction]:
    """As ``category_probabilities``, from a shoe of any composition (``category_counts_of``)."""
    counts = category_counts_of(copies, ace_low)
    n = int(copies.sum())
    total = n * (n - 1) * (n - 2)
    result: dict[ThreeCardHand | None, Fraction] = {
        category: Fraction(int(counts[index]), total) for index, category in enumerate(CATEGORIES)
    }
    result[None] = Fraction(int(counts[4]), total)
    return result


def figures_for_paytable(side_bet: TwentyOnePlusThree, decks: int) -> WagerFigures:
    return figures_for_probabilities(
        side_bet,
        category_probabilities(decks, side_bet.ace_low_straight),
        f"exact combinatorics of the first three cards of a {decks}-deck shoe",
    )


def figures_for_probabilities(
    side_bet: TwentyOnePlusThree,
    probabilities: dict[ThreeCardHand | None, Fraction],
    method: str,
) -> WagerFigures:
    distribution: dict[Fraction, Fraction] = {}
    outcomes: list[Outcome] = []
    for category, probability in probabilities.items():
        ratio = side_bet.paytable.get(category) if category is not None else None
        net = ratio.multiplier if ratio is not None else Fraction(-1)
        distribution[net] = distribution.get(net, Fraction(0)) + probability
        label = category.value.replace("_", " ") if category is not None else "none of these"
        outcomes.append(Outcome(label, net, probability))
    return WagerFigures.exact(
        "21+3",
        distribution,
        method=method,
        outcomes=tuple(outcomes),
    )


def analyse_twenty_one_plus_three(rules: BlackjackRules, decks: int | None = None) -> WagerFigures:
    if rules.twenty_one_plus_three is None:
        raise ValueError(f"profile {rules.name} offers no 21+3")
    return figures_for_paytable(
        rules.twenty_one_plus_three, rules.decks if decks is None else decks
    )
