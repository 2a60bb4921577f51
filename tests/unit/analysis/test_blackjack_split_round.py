"""A split round's outcome distribution (``analysis.blackjack_split_round``): exact for the
rounds that end in two hands, so the main bet's distribution has the exact house edge as its
mean wherever no re-split is possible (issue 12: exact variance for split rounds).

The oracle is every deal of a small shoe enumerated card by card (docs/rules.md §1-3: the
hole card dealt with the up card, checked at once in a peek game, else OBO with a bust
final; each split hand's second card, the hand played out, the next hand, the dealer last).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator

import numpy as np
import pytest

from croupier.analysis import blackjack_exact as exact
from croupier.analysis import blackjack_split_round as split_round
from croupier.analysis.blackjack import Play, analyse_blackjack
from croupier.analysis.dealer import ACE, TEN
from croupier.rules import load_profile
from croupier.rules.blackjack import BlackjackRules

SMALL_SHOE = np.array([1, 1, 0, 0, 1, 1, 0, 5, 0, 9], dtype=np.int64)
"""A, 2, 5, 6, 8 x5, T x9 (the up card included): few enough cards to deal every round, and
enough that no round runs out of cards (the enumeration checks it)."""
EIGHT = 7
SCALE, OFFSET = 2, 32


def _rules(*, peek: bool, max_hands: int) -> exact.Rules:
    return exact.Rules(
        decks=1, hits_soft_17=False, peek=peek, all_bets_lost=False, blackjack_pays=1.5,
        double_any_two=True, double_after_split=True, max_hands=max_hands,
        resplit_aces=False, ace_ten_is_blackjack=False, sevens_pays=0.0,
    )  # fmt: skip


def _simple_play() -> np.ndarray:
    """Double a two-card hard 10 or 11, hit below 17, stand on 17 or more."""
    table = exact.compositions()
    action = np.full(len(table.cards), exact.STAND, dtype=np.int64)
    for i, (hard, cards) in enumerate(zip(table.hard, table.cards, strict=True)):
        soft = table.counts[i, ACE] > 0 and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if cards == 2 and not soft and hard in (10, 11):
            action[i] = exact.DOUBLE
        elif total < 17:
            action[i] = exact.HIT
    return action


def _total(cards: list[int]) -> int:
    hard = sum(card + 1 for card in cards)
    return hard + 10 if ACE in cards and hard + 10 <= 21 else hard


def _every_deal(
    rules: exact.Rules, up: int, action: np.ndarray
) -> tuple[dict[float, float], dict[float, float]]:
    """Every deal of a split pair of 8s against ``up``: the round's net -> probability, for
    the rounds that end in two hands and for those that re-split (in a peek game, by the
    hands that the cards would have made had the dealer not had blackjack)."""
    table = exact.compositions()
    shoe = [int(c) for c in SMALL_SHOE]
    shoe[up] -= 1
    shoe[EIGHT] -= 2
    two: dict[float, float] = defaultdict(float)
    more: dict[float, float] = defaultdict(float)

    def draws(counts: list[int]) -> Iterator[tuple[int, float]]:
        left = sum(counts)
        assert left > 0, "the shoe ran out"
        for rank in range(10):
            if counts[rank]:
                p = counts[rank] / left
                counts[rank] -= 1
                yield rank, p
                counts[rank] += 1

    def dealer(cards: list[int], counts: list[int]) -> Iterator[tuple[int, float]]:
        total = _total(cards)
        if total >= 17:
            yield total, 1.0
            return
        for rank, p in draws(counts):
            for final, q in dealer([*cards, rank], counts):
                yield final, p * q

    def settle(hands: list[tuple[list[int], int]], hole: int, counts: list[int], p: float) -> None:
        found = two if len(hands) == 2 else more
        if rules.peek and {up, hole} == {ACE, TEN}:
            found[-1.0] += p  # the round ended before the split: the original stake
            return
        if {up, hole} == {ACE, TEN}:  # OBO (Peru Art. 13): busts lost, else the first stake
            net = math.fsum(
                (float(-bet) if _total(cards) > 21 else (-1.0 if i == 0 else 0.0))
                for i, (cards, bet) in enumerate(hands)
            )
            found[net] += p
            return
        for final, q in dealer([up, hole], counts):
            net = 0.0
            for cards, bet in hands:
                mine = _total(cards)
                if mine > 21 or (final <= 21 and mine < final):
                    net -= bet
                elif final > 21 or mine > final:
                    net += bet
            found[net] += p * q

    def play(
        hands: list[tuple[list[int], int]], current: int, hole: int, counts: list[int], p: float
    ) -> None:
        if current == len(hands):
            settle(hands, hole, counts, p)
            return
        cards, bet = hands[current]
        if len(cards) == 1:
            for rank, q in draws(counts):
                if rank == EIGHT and len(hands) < rules.max_hands:
                    play([*hands, ([EIGHT], 1)], current, hole, counts, p * q)
                else:
                    changed = [*hands]
                    changed[current] = ([*cards, rank], 1)
                    play(changed, current, hole, counts, p * q)
            return
        what = action[table.of(*cards)] if _total(cards) < 21 else exact.STAND
        if what == exact.STAND:
            play(hands, current + 1, hole, counts, p)
            return
        for rank, q in draws(counts):
            changed = [*hands]
            changed[current] = ([*cards, rank], 2 if what == exact.DOUBLE else bet)
            finished = what == exact.DOUBLE or _total([*cards, rank]) > 21
            play(changed, current + 1 if finished else current, hole, counts, p * q)

    # A peek game's dealer blackjack ends the round before the split; its hands are still
    # dealt here, so that its share falls where the hole card's exchangeability puts it.
    for hole, p in draws(shoe):
        play([([EIGHT], 1), ([EIGHT], 1)], 0, hole, shoe, p)
    return dict(two), dict(more)


def _joint(rules: exact.Rules, up: int, action: np.ndarray) -> tuple[dict[float, float], float]:
    """``split_round_matrix``'s two-hand rounds (net -> probability) and re-split mass."""
    card = exact.UpCard(rules, up, SMALL_SHOE)
    resplits = rules.max_hands > 2
    matrix, _, tails, _ = split_round.split_round_matrix(
        card, EIGHT, action, resplits, resplits, SCALE, OFFSET
    )
    row = matrix.sum(axis=0)
    found = {(index - OFFSET) / SCALE: float(p) for index, p in enumerate(row) if p > 0}
    return found, float(tails.sum())


@pytest.mark.parametrize(
    ("peek", "max_hands", "up"),
    [(True, 2, TEN), (False, 2, ACE), (False, 2, TEN), (True, 2, 4), (True, 3, TEN), (False, 4, 4)],
)
def test_split_round_distribution_is_every_deal_enumerated(
    peek: bool, max_hands: int, up: int
) -> None:
    """Each net's probability, the variance and the hit frequency of the split round's two-
    hand rounds against dealing every card of a small shoe, to 1e-12; where the box may hold
    more hands, the re-split rounds' probability too (those are approximated downstream)."""
    rules = _rules(peek=peek, max_hands=max_hands)
    action = _simple_play()
    found, tail = _joint(rules, up, action)
    two, more = _every_deal(rules, up, action)
    assert set(found) == {net for net, p in two.items() if p > 0}
    for net, p in two.items():
        assert found[net] == pytest.approx(p, abs=1e-12), net
    assert tail == pytest.approx(math.fsum(more.values()), abs=1e-12)
    if max_hands == 2:
        assert not more
        mean = math.fsum(net * p for net, p in two.items())
        variance = math.fsum((net - mean) ** 2 * p for net, p in two.items())
        found_mean = math.fsum(net * p for net, p in found.items())
        found_variance = math.fsum((net - found_mean) ** 2 * p for net, p in found.items())
        assert found_variance == pytest.approx(variance, abs=1e-12)
        hit = math.fsum(p for net, p in found.items() if net > 0)
        assert hit == pytest.approx(math.fsum(p for n, p in two.items() if n > 0), abs=1e-12)
        # ... and its mean is the exact split value (blackjack_exact's recursion).
        value, _ = exact.UpCard(rules, up, SMALL_SHOE).split_value(EIGHT, action)
        assert found_mean == pytest.approx(value, abs=1e-12)


def _peru(**update: object) -> BlackjackRules:
    rules = load_profile("peru-2016")
    assert isinstance(rules, BlackjackRules)
    return rules.model_copy(update=update)


def test_one_deck_two_hands_distribution_mean_is_the_exact_house_edge() -> None:
    """peru-2016 at one deck, a split to two hands at most (docs/rules.md §3, D-BJ-7 set to
    2): every split round is exact, so the distribution's mean is the exact expected value
    to 1e-12 (it was 5.9e-6 off with the split rounds approximated) and the JSON names no
    approximation."""
    analysis = analyse_blackjack(_peru(max_hands=2), 1)
    assert abs(analysis.distribution_mean_offset) < 1e-12
    assert analysis.main.approximation is None
    assert analysis.main.as_json()["exact"] is True


@pytest.mark.slow
def test_six_deck_two_hands_distribution_mean_is_the_exact_house_edge() -> None:
    """As above at peru-2016's six decks (8.6e-6 off before)."""
    analysis = analyse_blackjack(_peru(max_hands=2))
    assert abs(analysis.distribution_mean_offset) < 1e-12
    assert analysis.main.approximation is None


@pytest.mark.slow
def test_re_split_rounds_are_what_is_left_approximated() -> None:
    """peru-2016 re-splits to four hands (D-BJ-7): its two-hand split rounds are exact, the
    few re-split rounds small enough are taken whole (``whole_round_matrix``), and only the
    other re-split rounds' hands still to play are approximated: the distribution's offset
    from the exact house edge is -4.4e-6 (-7.9e-6 with every split approximated, six decks)
    and the JSON keeps its ``approximation``. ``croupier analyze`` takes this joint for
    ``--par`` only: by default only the pairs that cannot be re-split are taken jointly."""
    analysis = analyse_blackjack(_peru(), joint=True)
    assert 1e-7 < abs(analysis.distribution_mean_offset) < 5e-6
    assert analysis.main.approximation is not None


@pytest.mark.slow
@pytest.mark.parametrize("play", [Play.BASIC, Play.COMPOSITION, Play.CDP1])
@pytest.mark.parametrize("name", ["peru-2016", "spain-1979", "veintiuno-real", "peek"])
def test_every_rule_branch_has_an_exact_two_hand_distribution(name: str, play: Play) -> None:
    """The split rounds' nets under each profile's dealer-blackjack rule (docs/rules.md §1:
    OBO with a bust final; every bet lost with no hole card; the peek base game of the rule
    table) and Veintiuno Real's split Ace + ten paid as a blackjack (§3), under the chart,
    CDZ- and CDP1, at one deck and two hands at most: the distribution's mean is the exact
    expected value to 1e-12."""
    from croupier.analysis.rule_effects import base_rules

    rules = base_rules() if name == "peek" else load_profile(name)
    assert isinstance(rules, BlackjackRules)
    analysis = analyse_blackjack(rules.model_copy(update={"max_hands": 2}), 1, play=play)
    assert abs(analysis.distribution_mean_offset) < 1e-12
