"""Chi-square checks that a shuffle is uniform (RELIABILITY R3, GLI-19 3.2.2).

``position_card_p_value`` tabulates which card identity lands in which position over many
shuffles; ``permutation_p_value`` tabulates whole orders of a small deck. A uniform shuffle
gives p-values spread evenly over (0, 1); a biased one drives them to 0 as trials grow.
``naive_shuffle`` is the classic biased shuffle, kept here as the known-bad reference that
the checks must catch.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
from scipy.stats import chi2

from croupier.randomness import RandomSource, uniform_below

Shuffler = Callable[[list[int], RandomSource], None]


def naive_shuffle(items: list[int], source: RandomSource) -> None:
    """The classic mistake: every position swaps with any position (n^n paths onto n! orders)."""
    for i in range(len(items)):
        j = uniform_below(source, len(items))
        items[i], items[j] = items[j], items[i]


def position_card_p_value(
    shuffle: Shuffler, source: RandomSource, cards: int, copies: int, trials: int
) -> float:
    """p-value of the position x card-identity table (a card's identity is its index mod
    ``cards``, so a shoe of ``copies`` decks has ``copies`` cards of each identity)."""
    counts = np.zeros((cards * copies, cards), dtype=np.int64)
    positions = np.arange(cards * copies)
    for _ in range(trials):
        deck = list(range(cards * copies))
        shuffle(deck, source)
        np.add.at(counts, (positions, np.asarray(deck) % cards), 1)
    expected = trials / cards
    statistic = float(((counts - expected) ** 2).sum() / expected)
    # Each row sums to `trials`: (rows) x (cards - 1) degrees of freedom.
    freedom = cards * copies * (cards - 1)
    return float(chi2.sf(statistic, freedom))


def permutation_p_value(shuffle: Shuffler, source: RandomSource, n: int, trials: int) -> float:
    """p-value of the table of all n! orders of an n-card deck."""
    index = {perm: i for i, perm in enumerate(itertools.permutations(range(n)))}
    counts = np.zeros(len(index), dtype=np.int64)
    for _ in range(trials):
        deck = list(range(n))
        shuffle(deck, source)
        counts[index[tuple(deck)]] += 1
    expected = trials / math.factorial(n)
    statistic = float(((counts - expected) ** 2).sum() / expected)
    return float(chi2.sf(statistic, len(index) - 1))
