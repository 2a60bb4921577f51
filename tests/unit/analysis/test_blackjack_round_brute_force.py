"""The round's unsplit hands by composition (``blackjack._evaluate_up``, built on
``blackjack_exact.hand_matrices``) against a brute force written apart from it, on tiny shoes.

For every initial two-card hand a 15-card shoe can deal against an up card, the brute force
plays the chart card by card (hit, stand, double by the chart's letters and the profile's
doubling rule), then deals the dealer's hole card and draws (S17 or H17), enumerating every
sequence of cards with exact fractions, and settles by docs/rules.md: a natural pays the
profile's blackjack ratio and pushes a dealer blackjack (§1, §3); against a dealer blackjack
a peek game loses the original stake only (the round ends before the player draws), an OBO
game (Peru Art. 13, docs/rules.md §1 decision) the original stake unless the hand has busted
(which matters only to a doubled hand that busts: this chart doubles no hard total above
11), and an all-bets game (Spain, docs/rules.md §2 decision) everything on the hand. Each hand's
distribution must sum to one and its expected net agree to 1e-12. Splits are left out (one
hand a box): split values have their own brute force (``test_blackjack_exact``).
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.blackjack import (
    UNLIMITED_HANDS,
    UP_LABELS,
    UP_ORDER,
    Game,
    Strategy,
    _evaluate_up,
    _grid_denominator,
    derive_strategy,
)
from croupier.rules import load_profile
from croupier.rules.blackjack import BlackjackRules, HoleCard

LEFT = (2, 1, 2, 1, 1, 1, 1, 1, 1, 4)
"""The shoe after the up card: A A 2 3 3 4 5 6 7 8 9 T T T T (by rank, Ace first)."""


def _total(cards: list[int]) -> tuple[int, bool]:
    hard = sum(rank + 1 for rank in cards)
    if 0 in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _dealer_finals(counts: list[int], up: int, hits_soft_17: bool) -> dict[int | str, Fraction]:
    return _dealer_finals_of(tuple(counts), up, hits_soft_17)


@functools.cache
def _dealer_finals_of(
    shoe: tuple[int, ...], up: int, hits_soft_17: bool
) -> dict[int | str, Fraction]:
    """The dealer's final result (a total, ``"bust"`` or ``"blackjack"``) and its chance."""
    counts = list(shoe)
    finals: dict[int | str, Fraction] = {}

    def draw(cards: list[int], probability: Fraction) -> None:
        total, soft = _total(cards)
        if len(cards) == 2 and total == 21:
            finals["blackjack"] = finals.get("blackjack", Fraction(0)) + probability
            return
        if total > 21:
            finals["bust"] = finals.get("bust", Fraction(0)) + probability
            return
        if total >= 17 and not (total == 17 and soft and hits_soft_17):
            finals[total] = finals.get(total, Fraction(0)) + probability
            return
        left = sum(counts)
        for rank in range(10):
            if counts[rank]:
                chance = Fraction(counts[rank], left)
                counts[rank] -= 1
                draw([*cards, rank], probability * chance)
                counts[rank] += 1

    draw([up], Fraction(1))
    return finals


def _settle(game: Game, finals: dict[int | str, Fraction], total: int, bet: int) -> Fraction:
    value = Fraction(0)
    for final, probability in finals.items():
        if final == "blackjack":
            if game.hole_card is HoleCard.PEEK:
                net = -1
            elif game.all_bets_lost:
                net = -bet
            else:
                net = -bet if total > 21 else -1
        elif total > 21:
            net = -bet
        elif final == "bust" or total > int(final):
            net = bet
        elif total < int(final):
            net = -bet
        else:
            net = 0
        value += probability * net
    return value


def _play(game: Game, chart: Strategy, up: int, counts: list[int], cards: list[int]) -> Fraction:
    """The hand's expected net, played by the chart from ``cards`` on ``counts``."""
    total, soft = _total(cards)
    up_label = UP_LABELS[UP_ORDER.index(up)]
    if total > 21:
        return _settle(game, _dealer_finals(counts, up, game.hits_soft_17), total, 1)
    letter = "S"
    if total < 21:
        letter = chart.soft[total][up_label] if soft else chart.hard[max(total, 5)][up_label]
    if letter in ("D", "Ds"):
        hard_sum = sum(rank + 1 for rank in cards)
        if len(cards) == 2 and game.can_double(hard_sum, soft, split=False):
            letter = "double"
        else:
            letter = "H" if letter == "D" else "S"
    if letter == "S":
        return _settle(game, _dealer_finals(counts, up, game.hits_soft_17), total, 1)
    value = Fraction(0)
    left = sum(counts)
    for rank in range(10):
        if not counts[rank]:
            continue
        chance = Fraction(counts[rank], left)
        counts[rank] -= 1
        if letter == "double":
            final_total, _ = _total([*cards, rank])
            finals = _dealer_finals(counts, up, game.hits_soft_17)
            value += chance * _settle(game, finals, final_total, 2)
        else:
            value += chance * _play(game, chart, up, counts, [*cards, rank])
        counts[rank] += 1
    return value


def _brute_force(game: Game, chart: Strategy, up: int, first: int, second: int) -> Fraction:
    counts = list(LEFT)
    counts[first] -= 1
    counts[second] -= 1
    if {first, second} == {0, 9}:
        finals = _dealer_finals(counts, up, game.hits_soft_17)
        blackjack = finals.get("blackjack", Fraction(0))
        return (1 - blackjack) * game.blackjack_pays
    return _play(game, chart, up, counts, [first, second])


@pytest.fixture(scope="module")
def chart() -> Strategy:
    rules = load_profile("peru-2016")
    assert isinstance(rules, BlackjackRules)
    return derive_strategy(Game.of(rules))


@pytest.mark.parametrize(
    ("profile", "hole_card", "hits_soft_17"),
    [
        ("peru-2016", HoleCard.DEALT, False),  # OBO
        ("spain-1979", HoleCard.NONE, True),  # all bets lost
        ("peru-2016", HoleCard.PEEK, True),
    ],
)
@pytest.mark.parametrize("up", [0, 5, 9])
def test_each_initial_hand_matches_the_brute_force(
    chart: Strategy, profile: str, hole_card: HoleCard, hits_soft_17: bool, up: int
) -> None:
    rules = load_profile(profile)
    assert isinstance(rules, BlackjackRules)
    shoe = list(LEFT)
    shoe[up] += 1  # the shoe the round is dealt from, the up card included
    game = dataclasses.replace(
        Game.of(rules),
        hole_card=hole_card,
        hits_soft_17=hits_soft_17,
        max_hands=1,
        shoe=tuple(shoe),
    )
    scale = _grid_denominator(game)
    rows = _evaluate_up(game, chart, up, scale).hands.rows
    offset = 2 * UNLIMITED_HANDS * scale
    nets = (np.arange(rows.shape[2]) - offset) / scale
    checked = 0
    for first in range(10):
        for second in range(first, 10):
            if LEFT[first] < 1 or LEFT[second] - (first == second) < 1:
                continue
            expected = _brute_force(game, chart, up, first, second)
            assert float(rows[first, second] @ nets) == pytest.approx(float(expected), abs=1e-12)
            assert rows[first, second].sum() == pytest.approx(1.0, abs=1e-12)
            checked += 1
    assert checked == 48  # 45 mixed hands and the pairs the shoe holds twice: A-A, 3-3, T-T
