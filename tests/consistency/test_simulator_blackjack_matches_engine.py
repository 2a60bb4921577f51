"""The compiled blackjack kernel deals the same game as the reference engine.

The kernel shuffles and deals its own shoes and records them (``trace_blackjack``); each
shoe's card order is then stacked into a ``croupier.shoe.Shoe`` (with the profile's cut card)
and dealt round after round through ``croupier.games.blackjack.BlackjackRound``, the engine
``croupier settle`` uses, with a player in Python who follows the same chart by the
analysis's own ``chart_action`` and, with counting on, keeps the count from what the engine
shows at the table (``BlackjackRound.view``: never the hole card or a face-down card before
they are turned). Every round must then match: the same cards dealt (the shoe's position
after each round), the same decisions in the same order (insurance and even money
included), the same net on every wager of every box, and with counting the same bet by the
ramp. The engine stakes 2 units so that insurance (up to half the bet, Art. 10) is a whole
unit; the kernel's nets are in ``1 / denominator`` units of one.

CI runs 10**4 rounds per profile and mode: measured here (loaded machine), the engine replays
10**4 rounds in 1.2-2.2 s with basic strategy and 3.9-6.0 s with Hi-Lo (its player reads the
engine's view at every decision), so 10**5 per profile would take about 20 s a profile with
basic strategy and a minute with counting, past the 30 s CI budget; the 10**5 form is
``slow``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from croupier.analysis.blackjack import Strategy, chart_action
from croupier.cards import Card
from croupier.counting import load_counting_system, load_index_set
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.rules import BlackjackRules, load_profile
from croupier.rules.blackjack import Surrender
from croupier.shoe import Shoe
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation.blackjack_sim import (
    BlackjackStrategy,
    Counting,
    denominator_of,
    parse_ramp,
    trace_blackjack,
)

PROFILES = ("peru-2016", "spain-1979", "veintiuno-real")
CODES = {"stand": 0, "hit": 1, "double": 2, "surrender": 3, "split": 4, "insurance": 5}
CODES["even-money"] = 6
CODES["no-insurance"] = 7
ENGINE_STAKE = 2
LATE_SURRENDER = Path(__file__).parents[1] / "oracles/six-deck-s17-das-peek-late-surrender.toml"


def _tag(counting: Counting, card: Card) -> Fraction:
    return counting.system.tag(card.rank.blackjack_value)


def _true_count(counting: Counting, running: Fraction, remaining: int) -> float:
    """The count a player would bet and play by (the same rule, written again here)."""
    if not counting.system.balanced:
        return float(running)
    decks = remaining / 52
    if counting.estimation == "half-deck":
        decks = max(0.5, math.floor(decks * 2 + 0.5) / 2)
    elif counting.estimation == "whole-deck":
        decks = max(1.0, math.floor(decks + 0.5))
    else:
        decks = max(decks, 1 / 52)
    return math.floor(float(running) / decks)


def _visible_count(counting: Counting, game: BlackjackRound) -> Fraction:
    """The tags of every card the table shows now (the engine's own view)."""
    view = game.view(None)
    cards = list(view["dealer"]["cards"])
    for box in view["seats"]:
        for hand in box["hands"]:
            cards.extend(hand["cards"])
    return sum((_tag(counting, Card.parse(c)) for c in cards if c != "??"), Fraction(0))


def _chart_at(
    strategy: Strategy, counting: Counting | None, tc: float, *, surrender: bool
) -> Strategy:
    """Basic strategy with each index play switched by the true count; a surrender play (the
    Fab 4's ``R``) only where the profile allows surrender, as ``R`` and, in lower case, the
    play below its count (docs/rules.md#D-BJ-33); another play on a cell the chart
    surrenders is what the hand does where it may not surrender (``Rs`` for a stand)."""
    if counting is None or counting.indices is None:
        return strategy
    hard = {t: dict(row) for t, row in strategy.hard.items()}
    soft = {t: dict(row) for t, row in strategy.soft.items()}
    pairs = {p: dict(row) for p, row in strategy.pairs.items()}
    for play in counting.indices.plays:
        if "R" in (play.at_or_above, play.below) and not surrender:
            continue
        above = "R" + play.below.lower() if play.at_or_above == "R" else play.at_or_above
        letter = above if tc >= play.count else play.below
        table = {"hard": hard, "soft": soft, "pair": pairs}[play.kind]
        row = play.hand if play.kind == "pair" else int(play.hand)
        charted = table[row][play.up]  # type: ignore[index]
        if surrender and charted.startswith("R") and play.at_or_above != "R":
            letter = "R" + letter.lower()
        table[row][play.up] = letter  # type: ignore[index]
    return replace(strategy, hard=hard, soft=soft, pairs=pairs)


def _replay(
    profile: BlackjackRules,
    rounds: int,
    players: int,
    counting: Counting | None,
    seed: int,
) -> int:
    strategy = BlackjackStrategy.basic(profile)
    trace = trace_blackjack(
        profile, rounds, np.random.SeedSequence(seed), players, strategy, counting
    )
    unit = denominator_of(profile)
    size = 52 * profile.decks
    decisions_by_round: dict[int, list[tuple[int, int]]] = {}
    for rnd, box, code in trace.decisions.tolist():
        decisions_by_round.setdefault(rnd, []).append((box, code))
    shoe: Shoe | None = None
    current = -1
    running = Fraction(0)
    wonged_in = True
    insure_at = (
        float(counting.indices.insurance)
        if counting is not None and counting.indices is not None and counting.indices.insurance
        else None
    )
    chart = strategy.chart
    checked = 0
    for rnd in range(rounds):
        shoe_no, start, end = trace.rounds[rnd].tolist()
        new_shoe = shoe_no != current
        if new_shoe:
            cards = [Card.from_index(int(c)) for c in trace.shoes[shoe_no]]
            assert sorted(c.index for c in cards) == sorted(list(range(52)) * profile.decks)
            shoe = Shoe(cards, profile.decks, cut_card_at=size - profile.shoe.cut_card_from_bottom)
            current = shoe_no
            if counting is not None:
                running = counting.system.initial_running_count(profile.decks)
                wonged_in = counting.wong_in is None
        assert shoe is not None
        game = BlackjackRound(profile, shoe, new_shoe=new_shoe)
        assert shoe.position == start, f"round {rnd}: the kernel started at card {start}"
        if counting is not None:
            tc_bet = _true_count(counting, running, shoe.remaining)
            if counting.wong_in is not None:
                wong_out = counting.wong_out if counting.wong_out is not None else -math.inf
                if wonged_in and tc_bet < wong_out:
                    wonged_in = False
                elif not wonged_in and tc_bet >= counting.wong_in:
                    wonged_in = True
        for seat in range(1, players + 1):
            game.place_bet(seat, "main", ENGINE_STAKE)
            if profile.twenty_one_plus_three is not None:
                game.place_bet(seat, "21+3", ENGINE_STAKE)
        game.deal()
        made: list[tuple[int, int]] = []
        while not game.is_done:
            decision = game.pending()
            assert decision is not None
            legal = {action.name for action in decision.legal}
            tc = 0.0
            if counting is not None:
                tc = _true_count(counting, running + _visible_count(counting, game), shoe.remaining)
            if decision.question == "insurance":
                insure = chart.insurance == "take" or (insure_at is not None and tc >= insure_at)
                even = chart.even_money == "take" or (insure_at is not None and tc >= insure_at)
                if even and "even-money" in legal:
                    action = Action("even-money")
                elif insure and "insurance" in legal:
                    action = Action("insurance", ENGINE_STAKE // 2)
                else:
                    action = Action("no-insurance")
            else:
                turn = game.current()
                assert turn is not None
                _box, hand = turn
                name = chart_action(
                    _chart_at(chart, counting, tc, surrender=profile.surrender is Surrender.LATE),
                    [card.rank.blackjack_value for card in hand.cards],
                    game.up_card.rank.blackjack_value,
                    legal,
                    from_split=hand.from_split,
                )
                action = Action(name)
            made.append((decision.seat - 1, CODES[action.name]))
            game.act(decision.seat, action)
        assert shoe.position == end, f"round {rnd}: engine dealt to {shoe.position}, kernel {end}"
        assert made == decisions_by_round.get(rnd, []), f"round {rnd}: decisions differ"
        result = game.results()
        for seat in range(1, players + 1):
            row = trace.boxes[rnd * players + seat - 1].tolist()
            nets = {"main": Fraction(0), "21+3": Fraction(0), "insurance": Fraction(0)}
            for wager in result.wagers:
                if wager.seat == seat:
                    nets[wager.wager if wager.wager in nets else "main"] += (
                        wager.payout - wager.stake
                    )
            assert nets["main"] * unit / ENGINE_STAKE == row[kernel.B_MAIN], f"round {rnd}"
            assert nets["21+3"] * unit / ENGINE_STAKE == row[kernel.B_SIDE], f"round {rnd}"
            assert nets["insurance"] * unit / (ENGINE_STAKE // 2) == row[kernel.B_INSURANCE]
            if counting is not None:
                expected_bet = counting.ramp[0][1]
                for count, units in counting.ramp:
                    if tc_bet >= count:
                        expected_bet = units
                if not wonged_in:
                    expected_bet = 0
                assert row[kernel.B_BET] == expected_bet, f"round {rnd}: bet"
        if counting is not None:
            for item in game.events:
                card = getattr(item, "card", None)
                if card is not None and getattr(item, "purpose", None) not in ("burn", None):
                    running += _tag(counting, card)
        checked += 1
    return checked


def _hi_lo() -> Counting:
    return Counting(
        system=load_counting_system("hi-lo"),
        ramp=parse_ramp("1:1,2:2,3:4,4:8"),
        indices=load_index_set("illustrious-18"),
        estimation="half-deck",
    )


def _check(name: str, rounds: int, counting: Counting | None, players: int = 1) -> None:
    profile = load_profile(name)
    assert isinstance(profile, BlackjackRules)
    assert _replay(profile, rounds, players, counting, seed=15) == rounds


@pytest.mark.parametrize("name", PROFILES)
def test_kernel_deals_the_engine_game_basic_strategy(name: str) -> None:
    _check(name, 10_000, None)


@pytest.mark.parametrize("name", PROFILES)
def test_kernel_deals_the_engine_game_hi_lo_with_the_illustrious_18(name: str) -> None:
    _check(name, 10_000, _hi_lo())


@pytest.mark.parametrize("name", PROFILES)
def test_kernel_deals_the_engine_game_on_every_box(name: str) -> None:
    """All seven boxes in play: the deal order, each box's turn, insurance asked box by box."""
    profile = load_profile(name)
    assert isinstance(profile, BlackjackRules)
    _check(name, 400, _hi_lo(), players=profile.boxes)


@pytest.mark.parametrize(
    ("system", "estimation"),
    [("wong-halves", "whole-deck"), ("zen", "exact"), ("omega-ii", "half-deck")],
)
def test_kernel_deals_the_engine_game_wonging_with_other_counts(
    system: str, estimation: str
) -> None:
    """Fractional tags (Wong Halves), level-2 counts, every deck estimation, wonging in at
    +1 and out below -1: the same bets (0 while out) and the same rounds."""
    counting = Counting(
        system=load_counting_system(system),
        ramp=parse_ramp("0:1,2:3,4:6"),
        estimation=estimation,
        wong_in=1,
        wong_out=-1,
    )
    _check("spain-1979", 2_000, counting, players=2)


def test_kernel_deals_the_engine_game_with_an_unbalanced_count() -> None:
    counting = Counting(system=load_counting_system("ko"), ramp=parse_ramp("-1:1,1:4"))
    _check("peru-2016", 3_000, counting)


@pytest.mark.slow
@pytest.mark.parametrize("name", PROFILES)
@pytest.mark.parametrize("mode", ["basic", "hi-lo"])
def test_kernel_deals_the_engine_game_100k(name: str, mode: str) -> None:
    _check(name, 100_000, None if mode == "basic" else _hi_lo())


VARIANTS = {
    "peek-h17-even-money": (
        "peru-2016",
        {"hole_card": "peek", "dealer_hits_soft_17": True, "blackjack_paid_at_once": False},
    ),
    "rank-pairs-no-das-one-split": (
        "spain-1979",
        {
            "split_by": "rank",
            "max_hands": 2,
            "resplit_aces": False,
            "double_after_split": False,
            "dealer_draws_when_no_hand_remains": True,
            "double_on": "any-two",
        },
    ),
    "six-to-five-face-down": ("veintiuno-real", {"blackjack_pays": "6:5", "max_hands": 3}),
}


def _variant(variant: str, monkeypatch: pytest.MonkeyPatch) -> BlackjackRules:
    """The variant's rules, its basic strategy taking insurance and even money."""
    name, changes = VARIANTS[variant]
    base = load_profile(name)
    assert isinstance(base, BlackjackRules)
    profile = BlackjackRules.model_validate(
        {**base.model_dump(mode="json"), **changes, "name": f"{name}-{variant}"}
    )
    chart = BlackjackStrategy.basic(profile).chart
    taking = BlackjackStrategy(
        "basic, insuring", replace(chart, insurance="take", even_money="take")
    )
    monkeypatch.setattr(BlackjackStrategy, "basic", classmethod(lambda cls, rules: taking))
    return profile


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_kernel_deals_the_engine_game_on_rule_variants(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rules no shipped profile has (a peek, H17, pairs by rank, one split only, no double
    after a split, 6:5), with insurance and even money always taken, on two boxes."""
    profile = _variant(variant, monkeypatch)
    assert _replay(profile, 3_000, 2, None, seed=23) == 3_000
    assert _replay(profile, 2_000, 1, _hi_lo(), seed=24) == 2_000


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_one_box_kernel_deals_the_engine_game_on_rule_variants(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One box without a count takes the kernel's own path (``play_one_box``: tables of
    decisions, the box's hand in locals, split hands on a stack): the same rounds as the
    engine on the rule variants, insurance and even money always taken."""
    profile = _variant(variant, monkeypatch)
    assert _replay(profile, 4_000, 1, None, seed=25) == 4_000


def _late_surrender() -> BlackjackRules:
    profile = load_profile(LATE_SURRENDER)
    assert isinstance(profile, BlackjackRules)
    return profile


def _hi_lo_fab_4() -> Counting:
    return Counting(
        system=load_counting_system("hi-lo"),
        ramp=parse_ramp("1:1,2:2,3:4,4:8"),
        indices=load_index_set("fab-4"),
        estimation="half-deck",
    )


@pytest.mark.parametrize("players", [1, 3])
def test_kernel_deals_the_engine_game_with_late_surrender(players: int) -> None:
    """docs/rules.md#D-BJ-32: a user's profile with late surrender (peek, S17, DAS), basic
    strategy surrendering 15 v T and 16 v 9, T, A: one box takes ``play_one_box``, three the
    general loop; the same cards, decisions (surrender included) and half-bet nets."""
    profile = _late_surrender()
    assert _replay(profile, 10_000, players, None, seed=31) == 10_000


@pytest.mark.parametrize("players", [1, 2])
def test_kernel_deals_the_engine_game_with_the_fab_4(players: int) -> None:
    """The Fab 4 surrenders by the Hi-Lo count (one box: ``play_one_box_counted``; two: the
    general loop), on the late-surrender profile."""
    profile = _late_surrender()
    assert _replay(profile, 5_000, players, _hi_lo_fab_4(), seed=32) == 5_000


@pytest.mark.parametrize("indices", ["illustrious-18", "illustrious-18-fab-4"])
def test_kernel_deals_the_engine_game_with_the_illustrious_18_and_late_surrender(
    indices: str,
) -> None:
    """The Illustrious 18 on a late-surrender profile, alone and with the Fab 4: 16 v T and
    16 v 9 still surrender, their indices played where surrender is not allowed (a split
    hand, three cards); with the Fab 4, 15 v T surrenders from 0 up."""
    counting = replace(_hi_lo(), indices=load_index_set(indices))
    assert _replay(_late_surrender(), 5_000, 2, counting, seed=33) == 5_000
