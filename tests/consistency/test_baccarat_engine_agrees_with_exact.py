"""Baccarat: the exact enumeration agrees with the reference engine (``croupier settle``'s).

- The third-card tableau the compiled kernel reads (taken from ``croupier.hands.baccarat``,
  the engine's rule data) is Art. 11's printed table, cell by cell.
- The engine, dealing seeded shoes to their cut card, lands within the 99% confidence interval
  of every wager's exact figure.
The engine run skips (with the reason) only if the baccarat engine module is absent.
"""

from __future__ import annotations

import importlib.util
import math
from collections import defaultdict

import pytest

from croupier.analysis.baccarat import analyse_baccarat, banker_tableau
from croupier.randomness import SeededRandomSource
from croupier.rules import BaccaratRules, load_profile
from croupier.shoe import Shoe

HAS_ENGINE = importlib.util.find_spec("croupier.games.baccarat") is not None
Z99 = 2.5758293035489004


def test_art_11_kernel_tableau_is_the_printed_table() -> None:
    """Art. 11's table, as printed (Banker total down, Player's third card across; D draws),
    is the one the kernel reads and the engine deals by; Player draws on 0-5."""
    printed = {
        0: "DDDDDDDDDD",
        1: "DDDDDDDDDD",
        2: "DDDDDDDDDD",
        3: "DDDDDDDD-D",
        4: "--DDDDDD--",
        5: "----DDDD--",
        6: "------DD--",
        7: "----------",
    }
    tableau = banker_tableau()
    assert {b: "".join("D" if tableau[b, t] else "-" for t in range(10)) for b in printed} == (
        printed
    )
    from croupier.hands import baccarat as hands

    for banker in range(8):
        for player in range(8):
            assert hands.player_draws(player, banker) == (player <= 5)
            if player >= 6:
                assert hands.banker_draws(banker, player, None) == (banker <= 5)
            else:
                for third in range(10):
                    assert hands.banker_draws(banker, player, third) == bool(
                        tableau[banker, third]
                    ), (banker, player, third)


def _simulate(rules: BaccaratRules, rounds: int, seed: str) -> dict[str, list[float]]:
    from croupier.games.baccarat import BaccaratRound

    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    source = SeededRandomSource(seed)
    cut = rules.shoe.cut_card_from_bottom

    def fresh() -> Shoe:
        return Shoe.shuffled(rules.decks, source, cut_card_from_bottom=cut)

    shoe = fresh()
    for _ in range(rounds):
        if shoe.is_cut_card_out or shoe.remaining < 12:
            shoe = fresh()
        coup = BaccaratRound(rules, shoe)
        for wager in ("player", "tie", "player_pair", "banker_pair"):
            coup.place_bet(1, wager, 1)
        coup.place_bet(2, "banker", 1)
        coup.deal()
        for result in coup.results().wagers:
            tally = totals[result.wager]
            tally[0] += 1
            tally[1] += float(result.payout - result.stake)
    return totals


def _check(rounds: int) -> None:
    rules = load_profile("dragon-six-peru-2016")
    assert isinstance(rules, BaccaratRules)
    exact = analyse_baccarat(rules)
    totals = _simulate(rules, rounds, "consistency-baccarat")
    for wager, figures in exact.items():
        count, net = totals[wager]
        assert count == rounds
        half_width = Z99 * figures.std_dev / math.sqrt(count)
        assert abs(net / count - figures.expected_value) <= half_width, wager


@pytest.mark.skipif(not HAS_ENGINE, reason="croupier.games.baccarat has not landed")
def test_engine_lands_in_the_exact_figures_99_percent_interval_short() -> None:
    _check(30_000)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_ENGINE, reason="croupier.games.baccarat has not landed")
def test_engine_lands_in_the_exact_figures_99_percent_interval_million() -> None:
    _check(1_000_000)
