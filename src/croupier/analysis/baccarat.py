"""Baccarat: exact enumeration of the finite shoe (docs/rules.md §4, Arts. 8, 10, 11).

The first four cards are enumerated by **rank** without replacement (the pair bets need the
rank of each side's first two cards); the third cards only need their **value class** (A=1,
2-9, ten and faces = 0). Every path is weighted by the number of ordered ways to deal it,
scaled to six cards so that all paths share the denominator ``N (N-1) ... (N-5)``: the counts
are exact integers (int64 holds 416**6 comfortably), so the figures are exact fractions.

The kernel returns ``counts[player_total, banker_total, player_pair, banker_pair]``; the
paytable is applied afterwards in Python, so a user's profile with another paytable costs
nothing more.

>>> from croupier.rules import load_profile
>>> figures = analyse_baccarat(load_profile("dragon-six-peru-2016"))
>>> round(figures["banker"].house_edge, 6)
0.014581
"""

from __future__ import annotations

from fractions import Fraction

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.figures import Outcome, WagerFigures
from croupier.hands.baccarat import banker_draws
from croupier.money import Ratio
from croupier.rules.baccarat import BaccaratRules, BaccaratWager, PairBy

RANKS = 13
"""A, 2-9, T, J, Q, K."""
RANK_VALUE = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0], dtype=np.int64)
"""Art. 10: A=1, 2-9 face value, T/J/Q/K = 0."""


def banker_tableau() -> npt.NDArray[np.bool_]:
    """``[banker two-card total 0-7, player's third card value 0-9]``: whether Banker draws
    when Player drew (Art. 11's table), read from the engine's rule data
    (``croupier.hands.baccarat``) so that the analysis and the table deal by one tableau.
    Player drew, so Player's two-card total is 0-5 (0 stands for any of them)."""
    return np.array(
        [[banker_draws(banker, 0, third) for third in range(10)] for banker in range(8)],
        dtype=np.bool_,
    )


@numba.njit(cache=True)
def outcome_counts(
    rank_counts: npt.NDArray[np.int64],
    pair_by_value: bool,
    banker_table: npt.NDArray[np.bool_],
) -> npt.NDArray[np.int64]:
    """Ordered six-card-equivalent deal counts by (player total, banker total, pairs)."""
    counts = rank_counts.copy()
    n = counts.sum()
    result = np.zeros((10, 10, 2, 2), dtype=np.int64)
    values = np.zeros(10, dtype=np.int64)
    for p1 in range(RANKS):
        w1 = counts[p1]
        if w1 == 0:
            continue
        counts[p1] -= 1
        for b1 in range(RANKS):
            w2 = w1 * counts[b1]
            if w2 == 0:
                continue
            counts[b1] -= 1
            for p2 in range(RANKS):
                w3 = w2 * counts[p2]
                if w3 == 0:
                    continue
                counts[p2] -= 1
                for b2 in range(RANKS):
                    w4 = w3 * counts[b2]
                    if w4 == 0:
                        continue
                    counts[b2] -= 1
                    player = (RANK_VALUE[p1] + RANK_VALUE[p2]) % 10
                    banker = (RANK_VALUE[b1] + RANK_VALUE[b2]) % 10
                    if pair_by_value:
                        player_pair = 1 if RANK_VALUE[p1] == RANK_VALUE[p2] else 0
                        banker_pair = 1 if RANK_VALUE[b1] == RANK_VALUE[b2] else 0
                    else:
                        player_pair = 1 if p1 == p2 else 0
                        banker_pair = 1 if b1 == b2 else 0
                    left = n - 4
                    if player >= 8 or banker >= 8:
                        # Art. 11: a natural on either side, both stand.
                        result[player, banker, player_pair, banker_pair] += w4 * left * (left - 1)
                    else:
                        values[:] = 0
                        for rank in range(RANKS):
                            values[RANK_VALUE[rank]] += counts[rank]
                        if player >= 6:
                            # Player stands on 6-7; Banker draws on 0-5.
                            if banker <= 5:
                                for v in range(10):
                                    w5 = w4 * values[v]
                                    if w5 > 0:
                                        result[
                                            player, (banker + v) % 10, player_pair, banker_pair
                                        ] += w5 * (left - 1)
                            else:
                                result[player, banker, player_pair, banker_pair] += (
                                    w4 * left * (left - 1)
                                )
                        else:
                            for v in range(10):
                                w5 = w4 * values[v]
                                if w5 == 0:
                                    continue
                                values[v] -= 1
                                final_player = (player + v) % 10
                                if banker_table[banker, v]:
                                    for u in range(10):
                                        w6 = w5 * values[u]
                                        if w6 > 0:
                                            result[
                                                final_player,
                                                (banker + u) % 10,
                                                player_pair,
                                                banker_pair,
                                            ] += w6
                                else:
                                    result[final_player, banker, player_pair, banker_pair] += w5 * (
                                        left - 1
                                    )
                                values[v] += 1
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return result


def shoe_rank_counts(decks: int) -> npt.NDArray[np.int64]:
    return np.full(RANKS, 4 * decks, dtype=np.int64)


def deal_counts(decks: int, pair_by: PairBy) -> tuple[npt.NDArray[np.int64], int]:
    """The kernel's counts and their common denominator ``N (N-1) ... (N-5)``."""
    counts = outcome_counts(shoe_rank_counts(decks), pair_by is PairBy.VALUE, banker_tableau())
    n = 52 * decks
    denominator = 1
    for k in range(6):
        denominator *= n - k
    return counts, denominator


def _net(ratio: Ratio) -> Fraction:
    return ratio.multiplier


def analyse_baccarat(rules: BaccaratRules, decks: int | None = None) -> dict[str, WagerFigures]:
    """Every wager of the profile, exactly, off the top of a full shoe of ``decks`` decks."""
    shoe_decks = rules.decks if decks is None else decks
    counts, denominator = deal_counts(shoe_decks, rules.pair_by)
    method = f"exact enumeration of a {shoe_decks}-deck shoe, off the top"
    return _figures(rules, counts, denominator, method)


def analyse_baccarat_composition(
    rules: BaccaratRules, rank_counts: npt.NDArray[np.int64]
) -> dict[str, WagerFigures]:
    """Every wager, exactly, dealt from a shoe of any composition (count per rank, A to K):
    the value of each bet as cards leave the shoe (``croupier.counting``)."""
    counts = outcome_counts(
        np.asarray(rank_counts, dtype=np.int64), rules.pair_by is PairBy.VALUE, banker_tableau()
    )
    n = int(rank_counts.sum())
    denominator = 1
    for k in range(6):
        denominator *= n - k
    method = f"exact enumeration of a shoe of {n} cards of the given composition"
    return _figures(rules, counts, denominator, method)


def _figures(
    rules: BaccaratRules, counts: npt.NDArray[np.int64], denominator: int, method: str
) -> dict[str, WagerFigures]:
    paytable = rules.paytable
    lose_on_tie = Fraction(0) if rules.player_and_banker_push_on_tie else Fraction(-1)
    lines: dict[BaccaratWager, dict[tuple[str, Fraction], int]] = {
        wager: {} for wager in BaccaratWager
    }

    def add(wager: BaccaratWager, label: str, net: Fraction, count: int) -> None:
        lines[wager][label, net] = lines[wager].get((label, net), 0) + count

    for player in range(10):
        for banker in range(10):
            for player_pair in range(2):
                for banker_pair in range(2):
                    count = int(counts[player, banker, player_pair, banker_pair])
                    if count == 0:
                        continue
                    if player > banker:
                        add(BaccaratWager.PLAYER, "Player wins", _net(paytable.player), count)
                        add(BaccaratWager.BANKER, "Player wins", Fraction(-1), count)
                        add(BaccaratWager.TIE, "Player wins", Fraction(-1), count)
                    elif banker > player:
                        add(BaccaratWager.PLAYER, "Banker wins", Fraction(-1), count)
                        # Art. 8 (Dragon Six): a Banker win with 6 pays its own line.
                        if banker == 6:
                            line, label = paytable.banker_win_with_six, "Banker wins with 6"
                        else:
                            line, label = paytable.banker, "Banker wins, not with 6"
                        add(BaccaratWager.BANKER, label, _net(line), count)
                        add(BaccaratWager.TIE, "Banker wins", Fraction(-1), count)
                    else:
                        add(BaccaratWager.PLAYER, "tie", lose_on_tie, count)
                        add(BaccaratWager.BANKER, "tie", lose_on_tie, count)
                        add(BaccaratWager.TIE, "tie", _net(paytable.tie), count)
                    add(
                        BaccaratWager.PLAYER_PAIR,
                        "Player pair" if player_pair else "no Player pair",
                        _net(paytable.player_pair) if player_pair else Fraction(-1),
                        count,
                    )
                    add(
                        BaccaratWager.BANKER_PAIR,
                        "Banker pair" if banker_pair else "no Banker pair",
                        _net(paytable.banker_pair) if banker_pair else Fraction(-1),
                        count,
                    )
    figures = {}
    for wager, table in lines.items():
        outcomes = tuple(
            Outcome(label, net, Fraction(count, denominator))
            for (label, net), count in table.items()
        )
        distribution: dict[Fraction, Fraction] = {}
        for outcome in outcomes:
            distribution[outcome.net] = distribution.get(outcome.net, Fraction(0)) + (
                outcome.probability
            )
        figures[wager.value] = WagerFigures.exact(
            wager.value, distribution, method=method, outcomes=outcomes
        )
    return figures
