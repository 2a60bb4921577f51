"""Value by count (``croupier.analysis.by_count``): exact effects of removal against counts
made by hand, the burn-card identity (removing an unseen random card changes no wager's
value), and the published correlations of the counting systems."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.analysis.baccarat import analyse_baccarat, analyse_baccarat_composition
from croupier.analysis.by_count import (
    RANKS,
    RemovalEffects,
    removal_effects,
    sample_by_true_count,
)
from croupier.analysis.profile_analysis import analyse_profile
from croupier.analysis.three_card import category_probabilities_of
from croupier.cli.main import app
from croupier.counting import load_counting_system
from croupier.errors import ProfileError
from croupier.rules import BaccaratRules, load_profile
from croupier.rules.blackjack import ThreeCardHand


@pytest.fixture(scope="module")
def peru() -> dict[str, RemovalEffects]:
    return dict(removal_effects(analyse_profile(load_profile("peru-2016"))))


def test_insurance_effects_by_hand(peru: dict[str, RemovalEffects]) -> None:
    """6 decks, the dealer's Ace up, insurance 2:1: off the top 96 tens among 311 unseen
    cards (EV 3 x 96/311 - 1 = -23/311); a ten removed, 95 of 310 (-25/310); any other card
    removed, 96 of 310 (-22/310)."""
    insurance = peru["insurance"]
    assert insurance.base == float(Fraction(-23, 311))
    assert insurance.effect("K") == pytest.approx(float(Fraction(-25, 310) + Fraction(23, 311)))
    assert insurance.effect("5") == pytest.approx(float(Fraction(-22, 310) + Fraction(23, 311)))


def test_burn_card_identity(peru: dict[str, RemovalEffects]) -> None:
    """Removing one unseen card at random leaves a fixed strategy's value unchanged, so the
    effects of removal average to zero over the 13 equally common ranks: exactly for the
    exact wagers, and to the split approximation's precision for the main wager."""
    assert abs(sum(peru["21+3"].effects)) < 1e-15
    assert abs(sum(peru["main"].effects)) < 1e-6
    rules = load_profile("dragon-six-peru-2016")
    assert isinstance(rules, BaccaratRules)
    shoe = np.full(13, 32, dtype=np.int64)
    total = {name: Fraction(0) for name in ("player", "banker", "tie")}
    for rank in range(13):
        depleted = shoe.copy()
        depleted[rank] -= 1
        figures = analyse_baccarat_composition(rules, depleted)
        for name in total:
            total[name] += figures[name].exact_house_edge or 0
    base = analyse_baccarat(rules)
    for name, value in total.items():
        assert value / 13 == base[name].exact_house_edge, name


def test_pair_bets_do_not_move_when_a_card_leaves() -> None:
    """P(pair by rank) = (n - 1)/(N - 1) both off the top and with any one card removed
    (12 n (n - 1) + (n - 1)(n - 2) = (n - 1)(N - 2) with N = 13 n): no count helps the pairs."""
    effects = removal_effects(analyse_profile(load_profile("dragon-six-peru-2016")))
    assert effects["player_pair"].effects == (0.0,) * 13
    assert effects["banker_pair"].effects == (0.0,) * 13


def test_twenty_one_plus_three_on_a_depleted_deck_by_brute_force() -> None:
    """One deck less the ace of clubs: every ordered triple of the 51 cards listed."""
    copies = np.ones(52, dtype=np.int64)
    copies[12 * 4] = 0  # the kernel's card index: rank 12 (Ace) x 4 + suit 0
    cards = [card for card in range(52) if copies[card]]
    straight_flushes = 0
    runs = [{r, r + 1, r + 2} for r in range(11)] + [{12, 0, 1}]
    for triple in itertools.permutations(cards, 3):
        if len({c % 4 for c in triple}) == 1 and {c // 4 for c in triple} in runs:
            straight_flushes += 1
    probabilities = category_probabilities_of(copies, ace_low=True)
    assert probabilities[ThreeCardHand.STRAIGHT_FLUSH] == Fraction(straight_flushes, 51 * 50 * 49)
    assert straight_flushes == (4 * 12 - 2) * 6  # the two runs holding the ace of clubs gone


def test_published_correlations_of_the_counting_systems(peru: dict[str, RemovalEffects]) -> None:
    """Betting correlation (tags against the main wager's effects) and insurance correlation,
    to the two decimals published (Wizard of Odds, "Card Counting", the comparison of
    systems; figures after Griffin and Snyder): Hi-Lo .97/.76, Hi-Opt II .91/.91, Omega II
    .92/.85, Zen .96/.85, Wong Halves .99/.72; KO insurance .78."""
    main, insurance = peru["main"], peru["insurance"]
    published = {
        "hi-lo": (0.97, 0.76),
        "hi-opt-ii": (0.91, 0.91),
        "omega-ii": (0.92, 0.85),
        "zen": (0.96, 0.85),
        "wong-halves": (0.99, 0.72),
    }
    for name, (betting, insuring) in published.items():
        system = load_counting_system(name)
        assert round(main.correlation(system), 2) == betting, name
        assert round(insurance.correlation(system), 2) == insuring, name
    assert round(insurance.correlation(load_counting_system("ko")), 2) == 0.78
    # About half a point per Hi-Lo true count, the rule of thumb counters use.
    assert 0.0045 < main.slope(load_counting_system("hi-lo")) < 0.0055


def test_count_option_adds_by_count_and_keeps_the_contract() -> None:
    runner = CliRunner()
    plain = json.loads(runner.invoke(app, ["analyze", "dragon-six-peru-2016", "--json"]).stdout)
    result = runner.invoke(app, ["analyze", "dragon-six-peru-2016", "--count", "hi-lo", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    by_count = document.pop("by_count")
    assert document == plain
    tie = by_count["wagers"]["tie"]
    assert list(tie["effects_of_removal"]) == list(RANKS)
    hi_lo = tie["by_system"]["hi-lo"]
    assert hi_lo["by_true_count"]["0"] == tie["expected_value"]
    assert hi_lo["by_true_count"]["2"] == pytest.approx(
        tie["expected_value"] + 2 * hi_lo["ev_per_true_count"]
    )


def test_sampled_compositions_are_valued_exactly_and_the_count_sorts_them() -> None:
    """Seeded shoes dealt half a deck at a time to 75% (6 decks: 9 depths each); each
    composition's insurance is valued exactly, so the sampled means rise with the Hi-Lo count
    from a loss to a gain (the insurance index near +3), as the linear figures say."""
    analysis = analyse_profile(load_profile("peru-2016"))
    hi_lo = load_counting_system("hi-lo")
    sampled = sample_by_true_count(analysis, [hi_lo], shoes=40)
    cells = sampled.values["insurance"]["hi-lo"]
    assert sum(size for _, size in cells.values()) == 40 * 9
    assert cells[-3][0] < cells[0][0] < 0 < cells[5][0]
    linear = removal_effects(analysis)["insurance"].by_true_count(hi_lo)
    assert abs(cells[0][0] - linear[0]) < 0.01
    assert sample_by_true_count(analysis, [hi_lo], shoes=40) == sampled  # seeded: reproducible


def test_an_unknown_counting_system_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["analyze", "dragon-six-peru-2016", "--count", "red-seven", "--par", str(tmp_path)]
    )
    assert result.exit_code != 0
    assert isinstance(result.exception, ProfileError)
    assert list(tmp_path.iterdir()) == []
