"""The dealer's outcomes for many compositions at once (``dealer_outcomes_many``, summed by
the dealer's finished hands) against the exact fractions and the one-composition recursion
(``dealer_outcomes``, summed by draw sequence), including on shoes short of some rank, where
most of the dealer's hands cannot be dealt (docs/rules.md §1: the dealer's outcomes by
composition)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.dealer import (
    BLACKJACK,
    BUST,
    dealer_hands,
    dealer_outcomes,
    dealer_outcomes_many,
    full_shoe,
)


def _compositions(decks: int, up: int, seed: int, most_removed: int, rows: int = 120) -> np.ndarray:
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(rows):
        counts = full_shoe(decks)
        counts[up] -= 1
        for _ in range(int(rng.integers(0, most_removed + 1))):
            rank = int(rng.integers(0, 10))
            if counts[rank] > 0:
                counts[rank] -= 1
        found.append(counts)
    return np.array(found, dtype=np.int64)


def _exact(counts: list[int], up: int, hits_soft_17: bool) -> list[Fraction]:
    """The dealer's outcomes as exact fractions, every draw sequence walked (the rules of
    ``dealer.py``'s docstring: a natural on the first card drawn after an Ace or ten up)."""
    out = [Fraction(0)] * 7

    def draw(remaining: int, hard: int, ace: bool, chance: Fraction, first: bool) -> None:
        for rank in range(10):
            if counts[rank] == 0:
                continue
            here = chance * Fraction(counts[rank], remaining)
            if first and {up, rank} == {0, 9}:
                out[BLACKJACK] += here
                continue
            new_hard = hard + rank + 1
            has_ace = ace or rank == 0
            soft = has_ace and new_hard + 10 <= 21
            total = new_hard + 10 if soft else new_hard
            if total > 21:
                out[BUST] += here
            elif total >= 17 and not (total == 17 and soft and hits_soft_17):
                out[total - 17] += here
            else:
                counts[rank] -= 1
                draw(remaining - 1, new_hard, has_ace, here, first=False)
                counts[rank] += 1

    draw(sum(counts), up + 1, up == 0, Fraction(1), first=True)
    return out


@pytest.mark.parametrize(("up", "hits_soft_17"), [(1, False), (0, True), (5, False)])
def test_many_compositions_are_the_exact_fractions_to_1e_15(up: int, hits_soft_17: bool) -> None:
    """Six decks less a few cards, as the analysis asks: each figure within 1e-15 of the
    exact fraction. The walk by draw sequence it replaced multiplied 16 rounded ratios along
    each path and was off by up to 4.5e-15 there (the dealer's bust under a 2)."""
    rows = _compositions(6, up, seed=up, most_removed=12, rows=6)
    many = dealer_outcomes_many(rows, up, hits_soft_17)
    for row, outcomes in zip(rows, many, strict=True):
        exact = _exact([int(c) for c in row], up, hits_soft_17)
        assert (
            max(abs(Fraction(float(x)) - y) for x, y in zip(outcomes, exact, strict=True)) < 1e-15
        )


@pytest.mark.parametrize("hits_soft_17", [False, True])
@pytest.mark.parametrize(("decks", "most_removed"), [(1, 40), (2, 20), (6, 12)])
def test_many_compositions_are_each_the_one_row_recursion(
    decks: int, most_removed: int, hits_soft_17: bool
) -> None:
    """The same figures as ``dealer_outcomes`` (the same exact sum, grouped otherwise), and
    each row's figures the same bits whatever other rows share its call (the dealer table
    merges its batches in any order)."""
    for up in range(10):
        rows = _compositions(decks, up, seed=decks * 10 + up, most_removed=most_removed)
        many = dealer_outcomes_many(rows, up, hits_soft_17)
        for index, (row, outcomes) in enumerate(zip(rows, many, strict=True)):
            one = dealer_outcomes(row, up, hits_soft_17)
            assert np.max(np.abs(outcomes - one)) < 1e-14
            if index % 17 == 0:
                alone = dealer_outcomes_many(row[None, :], up, hits_soft_17)[0]
                assert alone.tobytes() == outcomes.tobytes()


def test_many_on_shoes_missing_ranks() -> None:
    """Shoes of one or two ranks only (most of the dealer's hands cannot be dealt), beside a
    full one in the same call: a path that runs out of a rank adds nothing."""
    rows = np.zeros((4, 10), dtype=np.int64)
    rows[0, 9] = 1  # a single ten: up 7 makes 17
    rows[1, 0] = 3  # three Aces
    rows[2, [1, 9]] = (2, 1)  # two 2s and a ten
    rows[3] = full_shoe(1)
    rows[3, 6] -= 1
    many = dealer_outcomes_many(rows, 6, False)
    assert list(many[0]) == [1, 0, 0, 0, 0, 0, 0]
    for row, outcomes in zip(rows, many, strict=True):
        exact = _exact([int(c) for c in row], 6, False)
        assert (
            max(abs(Fraction(float(x)) - y) for x, y in zip(outcomes, exact, strict=True)) < 1e-15
        )
        assert outcomes.sum() == pytest.approx(1.0, abs=1e-12)


def test_the_dealer_hands_count_every_draw_order_the_dealer_makes() -> None:
    """Under a 2 up, standing on soft 17: as many finished hands as the distinct multisets
    the draw sequences end on, and their orders summed over each finished hand are the
    draw sequences themselves (18,721 of them, counted by walking every sequence of an
    unlimited shoe here)."""
    hands = dealer_hands(1, False)
    finished = hands.result >= 0
    sequences = 0

    def walk(hard: int, ace: bool) -> None:
        nonlocal sequences
        for rank in range(10):
            new_hard = hard + rank + 1
            has_ace = ace or rank == 0
            total = new_hard + 10 if has_ace and new_hard + 10 <= 21 else new_hard
            if total >= 17:
                sequences += 1
            else:
                walk(new_hard, has_ace)

    walk(2, False)
    assert sequences == 18_721
    assert int(hands.ways[finished].sum()) == sequences
    assert int(finished.sum()) == 2_037


def _tree_by_sequences(up: int, hits_soft_17: bool) -> list[tuple[int, int, int, int, int]]:
    """The tree of ``dealer_hands`` from every draw sequence of an unlimited shoe, walked
    one by one: each finished multiset's orders are the sequences ending on it; the
    multisets as rising ranks, sorted, each one's nodes from where it leaves the one before
    (rank, repeat, depth, result, ways per node)."""
    finished: dict[tuple[int, ...], list[int]] = {}

    def walk(drawn: tuple[int, ...], hard: int, ace: bool) -> None:
        for rank in range(10):
            new_hard, has_ace = hard + rank + 1, ace or rank == 0
            soft = has_ace and new_hard + 10 <= 21
            total = new_hard + 10 if soft else new_hard
            natural = not drawn and {up, rank} == {0, 9}
            if (
                natural
                or total > 21
                or (total >= 17 and not (total == 17 and soft and hits_soft_17))
            ):
                result = BLACKJACK if natural else (BUST if total > 21 else total - 17)
                finished.setdefault(tuple(sorted((*drawn, rank))), [0, result])[0] += 1
            else:
                walk((*drawn, rank), new_hard, has_ace)

    walk((), up + 1, up == 0)
    nodes: list[tuple[int, int, int, int, int]] = []
    previous: tuple[int, ...] = ()
    for drawn in sorted(finished):
        shared = next(
            (i for i, (a, b) in enumerate(zip(previous, drawn, strict=False)) if a != b),
            min(len(previous), len(drawn)),
        )
        for level in range(shared, len(drawn)):
            nodes.append((drawn[level], drawn[:level].count(drawn[level]), level, -1, 0))
        ways, result = finished[drawn]
        nodes[-1] = (*nodes[-1][:3], result, ways)
        previous = drawn
    return nodes


@pytest.mark.parametrize("hits_soft_17", [False, True])
def test_the_dealer_hands_tree_is_every_draw_sequence_grouped(hits_soft_17: bool) -> None:
    """``dealer_hands`` (built a card at a time over arrays of multisets) is, node for node,
    the tree grouped from every draw sequence the dealer makes under each up card."""
    for up in range(10):
        hands = dealer_hands(up, hits_soft_17)
        built = list(
            zip(
                hands.rank.tolist(),
                hands.repeat.astype(int).tolist(),
                hands.depth.tolist(),
                hands.result.tolist(),
                hands.ways.astype(int).tolist(),
                strict=True,
            )
        )
        assert built == _tree_by_sequences(up, hits_soft_17), up
