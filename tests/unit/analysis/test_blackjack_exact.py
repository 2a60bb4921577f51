"""Blackjack's exact values (``analysis.blackjack_exact``): split hands exact, and the three
figures that were wrong before them (issue 12, item 3)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from croupier.analysis import blackjack_exact as exact
from croupier.analysis.blackjack import UP_LABELS, Game, Play, analyse_blackjack, derive_strategy
from croupier.analysis.dealer import ACE, TEN
from croupier.analysis.rule_effects import base_rules
from croupier.rules.blackjack import BlackjackRules

ONE_DECK = {"decks": 1, "shoe": {"cut_card_from_bottom": 13, "burn_on_new_shoe": 1}}


def _one_deck(rules: BlackjackRules) -> BlackjackRules:
    return BlackjackRules.model_validate(rules.model_dump() | ONE_DECK)


def test_split_ace_ten_as_blackjack_never_meets_a_dealer_blackjack_in_a_peek_game() -> None:
    """docs/rules.md §3 (an Ace split that draws a ten is paid as a blackjack) in the peek base game
    of the rule table: the dealer who peeks has no blackjack when a split is played, so the
    rule is worth 1:2 more on every split Ace + ten, never a push. Its effect, against the
    base game, is -0.1943 points (it was -0.2026 when the split hand was counted as pushing
    against a dealer blackjack it cannot meet)."""
    base = base_rules()
    changed = base.model_copy(update={"split_ace_ten_is_blackjack": True})
    edge = analyse_blackjack(changed, joint=False).main.house_edge  # the edges only
    effect = edge - analyse_blackjack(base, joint=False).main.house_edge
    assert effect * 100 == pytest.approx(-0.19431, abs=5e-5)


# --- Split hands against a brute-force enumeration of every deal --------------------------

SMALL_SHOE = np.array([1, 1, 0, 0, 1, 1, 0, 5, 0, 9], dtype=np.int64)
"""A, 2, 5, 6, 8 x5, T x9 (the up card included): few enough cards to deal every round, and
enough that no round runs out of cards (the enumeration checks it)."""


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


def _brute_force_split(rules: exact.Rules, up: int, pair: int, action: np.ndarray) -> float:
    """Every deal of a split pair of ``pair`` against ``up``, in the order of the table: the
    hole card with the deal (checked at once if ``rules.peek``, else under OBO), each split
    hand's second card (another ``pair`` splits again while the box may hold more hands),
    the hand played out, the next hand, the dealer last."""
    table = exact.compositions()
    shoe = [int(c) for c in SMALL_SHOE]
    shoe[up] -= 1
    shoe[pair] -= 2

    def draws(counts: list[int]):  # type: ignore[no-untyped-def]
        left = sum(counts)
        assert left > 0, "the shoe ran out"
        for rank in range(10):
            if counts[rank]:
                p = counts[rank] / left
                counts[rank] -= 1
                yield rank, p
                counts[rank] += 1

    def dealer(cards: list[int], counts: list[int]):  # type: ignore[no-untyped-def]
        total = _total(cards)
        if total >= 17:
            yield total, 1.0
            return
        for rank, p in draws(counts):
            for final, q in dealer([*cards, rank], counts):
                yield final, p * q

    def settle(hands: list[tuple[list[int], int]], hole: int, counts: list[int]) -> float:
        dealer_blackjack = {up, hole} == {ACE, TEN}
        if dealer_blackjack:  # OBO (Peru Art. 13): busts lost, else the first stake only
            return math.fsum(
                (float(-bet) if _total(cards) > 21 else (-1.0 if i == 0 else 0.0))
                for i, (cards, bet) in enumerate(hands)
            )
        value = 0.0
        for final, p in dealer([up, hole], counts):
            for cards, bet in hands:
                mine = _total(cards)
                if mine > 21 or (final <= 21 and mine < final):
                    value -= p * bet
                elif final > 21 or mine > final:
                    value += p * bet
        return value

    def play(
        hands: list[tuple[list[int], int]], current: int, hole: int, counts: list[int]
    ) -> float:
        if current == len(hands):
            return settle(hands, hole, counts)
        cards, bet = hands[current]
        if len(cards) == 1:
            value = 0.0
            for rank, p in draws(counts):
                if rank == pair and len(hands) < rules.max_hands:
                    value += p * play([*hands, ([pair], 1)], current, hole, counts)
                else:
                    changed = [*hands]
                    changed[current] = ([*cards, rank], 1)
                    value += p * play(changed, current, hole, counts)
            return value
        what = action[table.of(*cards)] if _total(cards) < 21 else exact.STAND
        if what == exact.STAND:
            return play(hands, current + 1, hole, counts)
        value = 0.0
        for rank, p in draws(counts):
            changed = [*hands]
            changed[current] = ([*cards, rank], 2 if what == exact.DOUBLE else bet)
            if what == exact.DOUBLE or _total([*cards, rank]) > 21:
                value += p * play(changed, current + 1, hole, counts)
            else:
                value += p * play(changed, current, hole, counts)
        return value

    value = 0.0
    for hole, p in draws(shoe):
        if rules.peek and {up, hole} == {ACE, TEN}:
            value -= p
        else:
            value += p * play([([pair], 1), ([pair], 1)], 0, hole, shoe)
    return value


@pytest.mark.parametrize(
    ("peek", "max_hands", "up"),
    [(True, 2, TEN), (True, 4, TEN), (True, 3, 4), (False, 4, ACE), (False, 3, TEN)],
)
def test_split_value_is_every_deal_enumerated(peek: bool, max_hands: int, up: int) -> None:
    """The recursion over shoes less more pair cards (``blackjack_exact`` docstring) against
    dealing every card of a small shoe, a pair of 8s split up to ``max_hands`` hands."""
    rules = _rules(peek=peek, max_hands=max_hands)
    action = _simple_play()
    value, _ = exact.UpCard(rules, up, SMALL_SHOE).split_value(7, action)
    assert value == pytest.approx(_brute_force_split(rules, up, 7, action), abs=1e-12)


@pytest.mark.parametrize(("double_any_two", "double_after_split"), [(True, True), (False, False)])
def test_split_hands_play_the_chart_as_the_engines_players_do(
    double_any_two: bool, double_after_split: bool
) -> None:
    """Two implementations of "a split hand plays the chart" (STYLE: a second implementation
    gets a consistency test): ``chart_split_play`` by composition against ``chart_action``,
    the decision the simulator's and the table's chart players take card by card, for every
    hand of two or more cards and every up card."""
    from croupier.analysis.blackjack import _kernel_chart, chart_action

    rules = base_rules().model_copy(
        update={"double_on": "any-two" if double_any_two else "hard-9-11"}
        | {"double_after_split": double_after_split}
    )
    game = Game.of(rules)
    strategy = derive_strategy(game)
    table = exact.compositions()
    codes = {"hit": exact.HIT, "stand": exact.STAND, "double": exact.DOUBLE}
    for up_label in UP_LABELS:
        up = 1 if up_label == "A" else 10 if up_label == "T" else int(up_label)
        hard, soft, _ = _kernel_chart(strategy, up_label)
        play = exact.chart_split_play(game.exact_rules(), hard, soft)
        for i in np.flatnonzero(table.cards >= 2):
            ranks = [rank + 1 for rank in range(10) for _ in range(table.counts[i, rank])]
            soft_hand = bool(table.counts[i, ACE] > 0 and table.hard[i] + 10 <= 21)
            legal = {"hit", "stand"}
            if len(ranks) == 2 and game.can_double(int(table.hard[i]), soft_hand, split=True):
                legal.add("double")
            decision = chart_action(strategy, ranks, up, legal, from_split=True)
            assert play[i] == codes[decision], (up_label, table.counts[i])


def test_composition_round_two_ways() -> None:
    """CDZ-'s expected value summed straight from the best values (``composition_round``)
    and from the round's distribution and split values (``evaluate_round``) agree."""
    from croupier.analysis.blackjack import evaluate_round

    game = Game.of(_one_deck(base_rules()))
    direct = exact.composition_round(game.exact_rules())
    evaluated = evaluate_round(game, derive_strategy(game), play=Play.COMPOSITION)
    assert evaluated.expected_value == pytest.approx(direct.expected_value, abs=1e-13)
    assert evaluated.exact_wagered == pytest.approx(direct.expected_wagered, abs=1e-13)
    assert evaluated.split_probability == pytest.approx(direct.split_probability, abs=1e-15)


def test_a_blackjack_json_run_before_prints_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``analysis.result_cache``: the same command again prints the same document without
    analysing; another deck count is another key, so it is analysed."""
    from typer.testing import CliRunner

    from croupier.analysis import profile_analysis
    from croupier.cli.main import app

    monkeypatch.setenv("CROUPIER_CACHE_DIR", str(tmp_path))
    runner = CliRunner()
    first = runner.invoke(app, ["analyze", "spain-1979", "--decks", "2", "--json"])
    assert first.exit_code == 0, first.output
    assert len(list(tmp_path.glob("analyze-*.json"))) == 1

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("analysed again")

    monkeypatch.setattr(profile_analysis, "analyse_profile", refuse)
    again = runner.invoke(app, ["analyze", "spain-1979", "--decks", "2", "--json"])
    assert again.exit_code == 0, again.output
    assert again.stdout == first.stdout
    other = runner.invoke(app, ["analyze", "spain-1979", "--decks", "3", "--json"])
    assert isinstance(other.exception, AssertionError)


def test_an_unknown_strategy_is_a_profile_error() -> None:
    from typer.testing import CliRunner

    from croupier.cli.main import app
    from croupier.errors import ProfileError

    result = CliRunner().invoke(app, ["analyze", "peru-2016", "--strategy", "optimal"])
    assert isinstance(result.exception, ProfileError)
    assert "optimal" in str(result.exception)


# --- CDP1 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("pair", range(1, 10))  # a split Ace takes one card: no play to choose
def test_cdp1_split_of_two_hands_is_twice_the_first_hands_best_value(pair: int) -> None:
    """CDP1 with one split only (two hands), every bet lost to a dealer blackjack (so each
    hand's value is its own, doubles included): both hands play the first hand's best play,
    and under one fixed play the second hand is worth what the first is (the cards are
    exchangeable), so the split is worth twice the first hand's best value: each second
    card's chance from the shoe less the up card and both pair cards, times the best of the
    hand's stand, hit and double values drawing from the shoe less the up card and the other
    pair card. It is worth at least CDZ-'s split, which plays the unsplit hand's play."""
    rules = exact.Rules(
        decks=1, hits_soft_17=False, peek=False, all_bets_lost=True, blackjack_pays=1.5,
        double_any_two=True, double_after_split=True, max_hands=2, resplit_aces=False,
        ace_ten_is_blackjack=False, sevens_pays=0.0,
    )  # fmt: skip
    table = exact.compositions()
    for up in (0, 5, 9):
        card = exact.UpCard(rules, up)
        base = card.shoe.copy()
        base[pair] -= 1
        values = card.optimal(base, sevens_pays=0.0)
        left = base.copy()
        left[pair] -= 1
        first = 0.0
        for rank in range(10):
            hand = table.of(pair, rank)
            total = int(table.hard[hand]) + (10 if ACE in (pair, rank) else 0)
            best = values[3, hand] if total == 21 else max(values[3, hand], values[2, hand])
            first += left[rank] / left.sum() * best
        value, _ = card.split_value(pair, card.first_hand_play(pair))
        assert value == pytest.approx(2 * first, abs=1e-12), (up, pair)
        _, composition_split = exact.composition_play(rules, card.optimal())
        assert value >= card.split_value(pair, composition_split)[0] - 1e-15


@pytest.mark.parametrize("pair", [0, 4, 9])
def test_the_hands_holding_a_card_are_valued_alone_to_the_same_bits(pair: int) -> None:
    """CDP1's first-hand play values only the hands that hold the pair's card
    (``UpCard.optimal(holding=...)``, fewer dealer compositions): every such hand's stand,
    hit, double and best values, and its amounts wagered, are bit for bit those of valuing
    every hand, since a hand reads only hands one card larger, which hold the card too;
    the hands without it are left at 0."""
    rules = exact.Rules(
        decks=2, hits_soft_17=True, peek=True, all_bets_lost=False, blackjack_pays=1.5,
        double_any_two=True, double_after_split=True, max_hands=4, resplit_aces=False,
        ace_ten_is_blackjack=False, sevens_pays=0.0,
    )  # fmt: skip
    holds = exact.compositions().counts[:, pair] > 0
    for up in (0, 3, 9):
        card = exact.UpCard(rules, up)
        base = card.shoe.copy()
        base[pair] -= 1
        alone = card.optimal(base, sevens_pays=0.0, holding=pair)
        every = exact.UpCard(rules, up).optimal(base, sevens_pays=0.0)
        assert np.array_equal(alone[:, holds], every[:, holds]), up
        assert not alone[:, ~holds].any()
        assert every[:, ~holds].any()  # the others were values, left out


def test_cdp1_is_a_strategy_of_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``croupier analyze --strategy cdp1``: the house edge of CDP1, named in ``play``; a
    one-deck game, where playing the split hands for their own shoe gains most over CDZ-."""
    import json

    from typer.testing import CliRunner

    from croupier.cli.main import app

    monkeypatch.setenv("CROUPIER_CACHE_DIR", str(tmp_path))
    arguments = ["analyze", "peru-2016", "--decks", "1", "--json", "--strategy"]
    result = CliRunner().invoke(app, [*arguments, "cdp1"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["play"] == "cdp1"
    assert abs(document["distribution_mean_offset"]) < 1e-3  # a key added, none changed
    rules = load_profile_rules("peru-2016")
    expected = analyse_blackjack(rules, 1, play=Play.CDP1, joint=False).main.house_edge
    assert document["bets"]["main"]["house_edge"] == pytest.approx(expected, abs=1e-15)
    assert (
        expected < analyse_blackjack(rules, 1, play=Play.COMPOSITION, joint=False).main.house_edge
    )


def load_profile_rules(name: str) -> BlackjackRules:
    from croupier.rules import load_profile

    rules = load_profile(name)
    assert isinstance(rules, BlackjackRules)
    return rules


def test_the_distribution_mean_is_the_exact_value_but_for_split_rounds() -> None:
    """``distribution_mean_offset``: the split rounds' approximation is all that moves the
    distribution's mean off the exact expected value, so with no split allowed it is zero
    (to rounding), and with splits it is small but not zero (one deck, where it is
    largest)."""
    one_deck = _one_deck(base_rules())
    no_split = one_deck.model_copy(update={"max_hands": 1})
    assert abs(analyse_blackjack(no_split).distribution_mean_offset) < 1e-13
    offset = analyse_blackjack(one_deck).distribution_mean_offset
    assert 1e-7 < abs(offset) < 1e-3


def test_the_dealer_table_answers_each_composition_as_computed_alone() -> None:
    """``DealerTable`` merges new compositions into its sorted keys batch by batch (issue 12,
    the command's speed): whatever the order the batches come in, repeats and known rows
    mixed with new ones, each row it gives back is that composition's outcomes computed
    alone, bit for bit (docs/rules.md §1, the dealer's outcomes by composition)."""
    from croupier.analysis.dealer import dealer_outcomes_many, full_shoe

    up = 5
    shoe = full_shoe(1)
    shoe[up] -= 1
    table = exact.DealerTable(shoe, up, hits_soft_17=True)
    generator = np.random.default_rng(12)
    batches = [generator.integers(0, 3, size=(size, 10)) for size in (40, 1, 25, 60, 40)]
    batches.append(batches[0][::-1])  # every row known, asked in another order
    for removed in batches:
        found = table.outcomes(removed)
        for row, cards in zip(found, removed, strict=True):
            alone = dealer_outcomes_many((shoe - cards)[None, :], up, True)[0]
            assert np.array_equal(row, alone)
    assert len(table.table) == len(np.unique(np.concatenate(batches), axis=0))


def test_rule_sets_with_the_same_dealer_share_its_table() -> None:
    """Veintiuno Real's chart is derived without the three 7s' bonus and valued with it
    (``blackjack.derive_strategy``): both rule sets, and any other with the same shoe and
    soft-17 rule, read one dealer table per up card, so that no dealer outcome is computed
    twice (issue 12); a different soft-17 rule or deck count has its own. They share it while
    the dealer's rules' own entry is in ``up_card``'s cache (64 entries): from an empty one
    here, since an earlier test of the same process can have pushed that entry out."""
    exact.up_card.cache_clear()
    rules = Game.of(load_profile_rules("veintiuno-real")).exact_rules()
    assert rules.sevens_pays > 0
    plain = dataclasses.replace(rules, sevens_pays=0.0)
    for up in (ACE, 4, TEN):
        shared = exact.up_card(rules, up).dealer
        assert exact.up_card(plain, up).dealer is shared
        assert exact.up_card(dataclasses.replace(rules, peek=True), up).dealer is shared
        other = dataclasses.replace(rules, hits_soft_17=not rules.hits_soft_17)
        assert exact.up_card(other, up).dealer is not shared
        assert exact.up_card(dataclasses.replace(rules, decks=1), up).dealer is not shared


def test_the_table_of_hands_holds_every_hand_to_21_and_its_children() -> None:
    """``compositions``: every multiset of 1 or more cards of a hard total of at most 21
    once, larger totals first (each hand's children before it), hands of one total in the
    order of a walk by rising ranks; ``child[i, rank]`` the hand one card of ``rank``
    larger, -1 exactly where that card busts the hand."""
    table = exact.compositions()
    walked: list[tuple[int, ...]] = []

    def walk(counts: tuple[int, ...], lowest: int, hard: int) -> None:
        for rank in range(lowest, 10):
            if hard + rank + 1 <= 21:
                more = (*counts[:rank], counts[rank] + 1, *counts[rank + 1 :])
                walked.append(more)
                walk(more, rank, hard + rank + 1)

    walk((0,) * 10, 0, 0)
    values = np.arange(1, 11)
    expected = sorted(walked, key=lambda c: -sum(n * v for n, v in zip(c, values, strict=True)))
    assert [tuple(row) for row in table.counts.tolist()] == expected
    assert len(expected) == len(set(expected)) == 3_082
    assert table.hard.tolist() == (table.counts @ values).tolist()
    for i, hand in enumerate(expected):
        for rank in range(10):
            more = (*hand[:rank], hand[rank] + 1, *hand[rank + 1 :])
            found = table.child[i, rank]
            assert (found == -1) == (table.hard[i] + rank + 1 > 21)
            if found >= 0:
                assert expected[found] == more and found < i


def test_distinct_keys_are_numpys_unique() -> None:
    """``distinct`` (the dealer table's new compositions, by a sort) answers as
    ``np.unique``: sorted, each key once, flattened; empty stays empty."""
    rng = np.random.default_rng(12)
    for keys in (
        rng.integers(0, 64**10, 5_000),
        rng.integers(0, 40, (300, 7)),
        np.zeros(0, dtype=np.int64),
        np.array([5, 5, 5]),
    ):
        found = exact.distinct(keys)
        assert found.tolist() == np.unique(keys).tolist()
