"""Each wager's value as cards leave the shoe: effects of removal and expected value by count.

**Effect of removal** (EoR) of a rank: the wager's expected value per unit from the full shoe
less one card of that rank, minus its value off the top, each computed exactly by the same
analysis that ``croupier analyze`` reports (the composition is the only change):

- blackjack main: ``evaluate_round`` over the depleted shoe under the full shoe's basic
  strategy (the chart is not re-derived: the effect of the cards, not of a new chart);
- insurance: the dealer's Ace up, the removed card and the Ace gone, ``pays * P(ten) - P(no
  ten)``, exactly;
- 21+3: ``three_card.category_probabilities_of`` over the depleted shoe, exactly;
- baccarat: ``baccarat.analyse_baccarat_composition`` over the depleted shoe, exactly.

**Expected value by true count**, for each counting system (``croupier.counting``): by the
linear approximation from the effects of removal (as Griffin's *The Theory of Blackjack*, ch.
4, does). A depleted shoe's value moves by ``D * sum_r e_r x_r`` per card of deviation ``x_r``
from the proportional composition, scaled by the shoe's size ``D`` (decks in the full shoe)
per deck left; regressing that on the count gives a change per true count of::

    slope = D * sum_r p_r e_r (t_r - t_mean) / sum_r p_r (t_r - t_mean)^2

(``p_r``: rank ``r``'s share of the shoe, ``t_r`` its tag, ``t_mean`` the mean tag), so
``EV(TC) ~ EV_0 + slope * TC``. The correlation of the tags with the effects (the "betting
correlation" for the main wager, the "insurance correlation" for insurance) says how much of
the wager's variation the count sees. The approximation is linear: it is good for the main
wager and the even-money bets within a few counts and poorer far out (the tie's value is not
linear in the composition); the figures say they are approximate.

**Exact by composition sampling** (``sample_by_true_count``, ``croupier analyze --count
SYSTEM --count-shoes N``): ``N`` seeded shuffled shoes are dealt down half a deck at a time to
the cut (75% of the shoe); at each depth the count is taken and every exact wager (baccarat's
bets, insurance, 21+3; not the main wager, whose 0.2 s per composition is too slow) is valued
exactly on the cards left; the values are averaged per true count (rounded to the nearest
integer, clipped to -6..+6). This is exact per composition and a sample over compositions:
it shows what the linear approximation misses (the tie's curve), with its sample sizes.

Casino Hold'em is dealt from one deck shuffled before every game (Art. 7): nothing to count.

>>> from croupier.analysis.profile_analysis import analyse_profile
>>> from croupier.counting import load_counting_system
>>> from croupier.rules import load_profile
>>> effects = removal_effects(analyse_profile(load_profile("dragon-six-peru-2016")))
>>> tie = effects["tie"]
>>> round(tie.effect("6") * 100, 4), round(tie.slope(load_counting_system("hi-lo")) * 100, 4)
(-0.116, -0.348)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.baccarat import analyse_baccarat_composition
from croupier.analysis.blackjack import evaluate_round
from croupier.analysis.dealer import full_shoe
from croupier.analysis.profile_analysis import ProfileAnalysis
from croupier.analysis.three_card import category_probabilities_of, figures_for_probabilities
from croupier.counting import CountingSystem
from croupier.randomness import SeededRandomSource, shuffle_in_place
from croupier.rules import BaccaratRules, BlackjackRules

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
"""The thirteen ranks, each 1/13 of a full shoe."""
TRUE_COUNTS = tuple(range(-6, 7))
LINEAR = (
    "expected value by true count: linear approximation from the exact effects of removal "
    "(EV_0 + slope * TC; Griffin, The Theory of Blackjack, ch. 4)"
)


@dataclass(frozen=True)
class RemovalEffects:
    """One wager's value off the top and the exact effect of removing one card of each rank."""

    wager: str
    base: float
    effects: tuple[float, ...]
    """Per rank of ``RANKS``: EV with one card of that rank removed, minus ``base``."""
    decks: int
    exact: bool
    how: str

    def effect(self, rank: str) -> float:
        return self.effects[RANKS.index(rank)]

    def _centred(self, system: CountingSystem) -> tuple[list[float], list[float]]:
        tags = [float(_tag(system, rank)) for rank in RANKS]
        mean_tag = math.fsum(tags) / len(tags)
        mean_effect = math.fsum(self.effects) / len(self.effects)
        return [t - mean_tag for t in tags], [e - mean_effect for e in self.effects]

    def slope(self, system: CountingSystem) -> float:
        """The change of expected value per unit of true count (linear approximation)."""
        tags, effects = self._centred(system)
        return (
            self.decks
            * math.fsum(t * e for t, e in zip(tags, effects, strict=True))
            / math.fsum(t * t for t in tags)
        )

    def correlation(self, system: CountingSystem) -> float:
        """Correlation of the system's tags with this wager's effects of removal."""
        tags, effects = self._centred(system)
        spread = math.sqrt(math.fsum(t * t for t in tags) * math.fsum(e * e for e in effects))
        if spread == 0:
            return 0.0
        return math.fsum(t * e for t, e in zip(tags, effects, strict=True)) / spread

    def by_true_count(self, system: CountingSystem) -> dict[int, float]:
        slope = self.slope(system)
        return {count: self.base + slope * count for count in TRUE_COUNTS}

    def break_even_true_count(self, system: CountingSystem) -> float | None:
        slope = self.slope(system)
        return None if slope == 0 else -self.base / slope

    def as_json(self, systems: list[CountingSystem]) -> dict[str, Any]:
        return {
            "expected_value": self.base,
            "effects_of_removal": dict(zip(RANKS, self.effects, strict=True)),
            "exact_effects": self.exact,
            "how": self.how,
            "by_system": {
                system.name: {
                    "ev_per_true_count": self.slope(system),
                    "correlation": self.correlation(system),
                    "break_even_true_count": self.break_even_true_count(system),
                    "by_true_count": {
                        str(count): value for count, value in self.by_true_count(system).items()
                    },
                }
                for system in systems
            },
        }


def _without(counts: npt.NDArray[np.int64], index: int) -> npt.NDArray[np.int64]:
    depleted = counts.copy()
    depleted[index] -= 1
    return depleted


TEN_VALUED = ("T", "J", "Q", "K")


def _tag(system: CountingSystem, rank: str) -> Fraction:
    """The system's tag of a rank (``"A"``, ``"2"``-``"9"``, ten-valued)."""
    return system.tag(_blackjack_index(rank) + 1)


def _true_count(system: CountingSystem, seen: list[str], unseen: int) -> Fraction:
    """Running count per deck unseen, less an unbalanced system's drift over the cards seen
    (so that every system's true count is centred on 0 off the top, as the linear figures
    assume)."""
    deck_sum = sum(system.tags[:9], Fraction(0)) + 4 * system.tags[9]
    running = sum((_tag(system, rank) for rank in seen), Fraction(0))
    return (running - deck_sum * len(seen) / 52) * 52 / unseen


def _blackjack_index(rank: str) -> int:
    """The blackjack analysis's rank index: 0 = Ace, 1-8 = 2-9, 9 = ten-valued."""
    return 9 if rank in TEN_VALUED else (0 if rank == "A" else int(rank) - 1)


def _three_card_card(rank: str) -> int:
    """A card index of ``three_card``: ``rank * 4 + suit``, ranks 0 = 2 ... 12 = Ace."""
    order = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
    return order.index(rank) * 4


def _per_rank(values: dict[str, float], base: float) -> tuple[float, ...]:
    return tuple(values[rank] - base for rank in RANKS)


def insurance_value(counts: npt.NDArray[np.int64], pays: Fraction) -> Fraction:
    """Insurance's expected value per unit with the dealer's Ace up, the rest of the shoe
    ``counts`` (blackjack rank order, the up Ace still in it)."""
    unseen = int(counts.sum()) - 1
    tens = Fraction(int(counts[9]), unseen)
    return pays * tens - (1 - tens)


def _blackjack_effects(
    analysis: ProfileAnalysis, rules: BlackjackRules
) -> dict[str, RemovalEffects]:
    blackjack = analysis.blackjack
    assert blackjack is not None
    game = blackjack.game
    shoe = full_shoe(game.decks)
    main: dict[str, float] = {}
    insurance: dict[str, float] = {}
    for index in range(10):
        depleted = _without(shoe, index)
        # Only the exact expected value is read: the split rounds' joint distribution is
        # skipped (``evaluate_round``'s ``joint``).
        round_result = evaluate_round(
            replace(game, shoe=tuple(int(c) for c in depleted)), blackjack.strategy, joint=False
        )
        # The exact expected value (split rounds exact), as the full shoe's base figure is.
        main_value = round_result.expected_value
        insurance_ev = float(insurance_value(depleted, game.insurance_pays))
        for rank in RANKS:
            if _blackjack_index(rank) == index:
                main[rank] = main_value
                insurance[rank] = insurance_ev
    base_insurance = float(insurance_value(shoe, game.insurance_pays))
    effects = {
        "main": RemovalEffects(
            "main",
            analysis.bets["main"].expected_value,
            _per_rank(main, analysis.bets["main"].expected_value),
            game.decks,
            exact=False,
            how="basic strategy of the full shoe over the depleted shoe (split rounds exact)",
        ),
        "insurance": RemovalEffects(
            "insurance",
            base_insurance,
            _per_rank(insurance, base_insurance),
            game.decks,
            exact=True,
            how="exact: dealer Ace up, P(ten) of the depleted shoe",
        ),
    }
    side_bet = rules.twenty_one_plus_three
    if side_bet is not None:
        copies = np.full(52, game.decks, dtype=np.int64)
        method = "exact combinatorics of the depleted shoe"

        def value(shoe_copies: npt.NDArray[np.int64]) -> float:
            probabilities = category_probabilities_of(shoe_copies, side_bet.ace_low_straight)
            return figures_for_probabilities(side_bet, probabilities, method).expected_value

        base = value(copies)
        values = {rank: value(_without(copies, _three_card_card(rank))) for rank in RANKS}
        effects["21+3"] = RemovalEffects(
            "21+3", base, _per_rank(values, base), game.decks, exact=True, how=method
        )
    return effects


def _baccarat_effects(analysis: ProfileAnalysis, rules: BaccaratRules) -> dict[str, RemovalEffects]:
    shoe = np.full(13, 4 * analysis.decks, dtype=np.int64)
    base = {name: figures.expected_value for name, figures in analysis.bets.items()}
    depleted = [analyse_baccarat_composition(rules, _without(shoe, index)) for index in range(13)]
    return {
        name: RemovalEffects(
            name,
            base[name],
            tuple(figures[name].expected_value - base[name] for figures in depleted),
            analysis.decks,
            exact=True,
            how="exact enumeration of the depleted shoe",
        )
        for name in analysis.bets
    }


def removal_effects(analysis: ProfileAnalysis) -> dict[str, RemovalEffects]:
    """Every countable wager of an analysed profile (empty for Casino Hold'em)."""
    profile = analysis.profile
    if isinstance(profile, BlackjackRules):
        return _blackjack_effects(analysis, profile)
    if isinstance(profile, BaccaratRules):
        return _baccarat_effects(analysis, profile)
    return {}


THREE_CARD_RANKS = "23456789TJQKA"
"""Rank of a ``three_card`` card index ``rank * 4 + suit``."""
PENETRATION = Fraction(3, 4)


@dataclass(frozen=True)
class SampledValues:
    """Per wager, per system, per true count: (mean exact expected value, compositions)."""

    shoes: int
    values: dict[str, dict[str, dict[int, tuple[float, int]]]]


def _exact_values(analysis: ProfileAnalysis, cards: list[int]) -> dict[str, float]:
    """Every exact wager's expected value on the shoe ``cards`` (``three_card`` indices)."""
    profile = analysis.profile
    if isinstance(profile, BaccaratRules):
        counts = np.zeros(13, dtype=np.int64)
        for card in cards:
            counts[RANKS.index(THREE_CARD_RANKS[card >> 2])] += 1
        figures = analyse_baccarat_composition(profile, counts)
        return {name: item.expected_value for name, item in figures.items()}
    assert isinstance(profile, BlackjackRules) and analysis.blackjack is not None
    by_rank = np.zeros(10, dtype=np.int64)
    for card in cards:
        by_rank[_blackjack_index(THREE_CARD_RANKS[card >> 2])] += 1
    values = {"insurance": float(insurance_value(by_rank, analysis.blackjack.game.insurance_pays))}
    side_bet = profile.twenty_one_plus_three
    if side_bet is not None:
        copies = np.bincount(np.array(cards, dtype=np.int64), minlength=52).astype(np.int64)
        probabilities = category_probabilities_of(copies, side_bet.ace_low_straight)
        values["21+3"] = figures_for_probabilities(side_bet, probabilities, "").expected_value
    return values


def sample_by_true_count(
    analysis: ProfileAnalysis,
    systems: list[CountingSystem],
    shoes: int,
    seed: str = "croupier-by-count",
) -> SampledValues:
    """Exact values on sampled compositions, averaged per true count (module docstring)."""
    full = [card for card in range(52) for _ in range(analysis.decks)]
    step = 26
    deepest = int(len(full) * PENETRATION)
    sums: dict[str, dict[str, dict[int, list[float]]]] = {}
    for shoe in range(shoes):
        cards = list(full)
        shuffle_in_place(cards, SeededRandomSource(f"{seed}:{analysis.profile.name}:{shoe}"))
        for depth in range(step, deepest + 1, step):
            seen = [THREE_CARD_RANKS[card >> 2] for card in cards[:depth]]
            values = _exact_values(analysis, cards[depth:])
            for system in systems:
                true = _true_count(system, seen, len(full) - depth)
                bucket = max(TRUE_COUNTS[0], min(TRUE_COUNTS[-1], round(true)))
                for wager, value in values.items():
                    cell = sums.setdefault(wager, {}).setdefault(system.name, {})
                    cell.setdefault(bucket, []).append(value)
    return SampledValues(
        shoes,
        {
            wager: {
                name: {
                    bucket: (math.fsum(items) / len(items), len(items))
                    for bucket, items in sorted(cells.items())
                }
                for name, cells in by_system.items()
            }
            for wager, by_system in sums.items()
        },
    )


def by_count_json(
    effects: dict[str, RemovalEffects],
    systems: list[CountingSystem],
    sampled: SampledValues | None = None,
) -> dict[str, Any]:
    """The ``"by_count"`` object ``croupier analyze --count SYSTEM --json`` adds."""
    document: dict[str, Any] = {
        "method": (
            "effects of removal: exact expected value with one card of the rank removed, minus "
            "the value off the top; " + LINEAR
        ),
        "systems": {
            system.name: {
                "title": system.title,
                "tags": {rank: float(_tag(system, rank)) for rank in RANKS[:10]},
                "balanced": system.balanced,
                "source": system.source,
            }
            for system in systems
        },
        "wagers": {name: effect.as_json(systems) for name, effect in effects.items()},
    }
    if sampled is not None:
        for wager, by_system in sampled.values.items():
            for name, cells in by_system.items():
                document["wagers"][wager]["by_system"][name]["sampled"] = {
                    "method": (
                        f"exact on {sampled.shoes} seeded shoes dealt half a deck at a time to "
                        "75%, averaged per rounded true count"
                    ),
                    "by_true_count": {
                        str(bucket): {"expected_value": mean, "compositions": size}
                        for bucket, (mean, size) in cells.items()
                    },
                }
    return document


def by_count_markdown(
    title: str,
    effects: dict[str, RemovalEffects],
    systems: list[CountingSystem],
    sampled: SampledValues | None = None,
) -> str:
    lines = [
        f"# Value by count: {title}",
        "",
        "Effects of removal: the change of each wager's expected value (per unit, in "
        "percentage points, x 100) when one card of the rank leaves the full shoe, exactly. "
        f"Then the {LINEAR}, per counting system.",
        "",
        "| wager | EV off the top | " + " | ".join(RANKS) + " |",
        "|---|---:|" + "---:|" * len(RANKS),
    ]
    for name, effect in effects.items():
        cells = " | ".join(f"{100 * e:+.4f}" for e in effect.effects)
        lines.append(f"| {name} | {effect.base:+.4%} | {cells} |")
    for system in systems:
        lines += [
            "",
            f"## {system.title}",
            "",
            "Tags: "
            + ", ".join(f"{rank} {float(_tag(system, rank)):+g}" for rank in RANKS[:10])
            + f" ({'balanced' if system.balanced else 'unbalanced'}; {system.source}).",
            "",
            "| wager | EV per true count | correlation | break-even TC | "
            + " | ".join(f"TC {count:+d}" for count in TRUE_COUNTS[::2])
            + " |",
            "|---|---:|---:|---:|" + "---:|" * len(TRUE_COUNTS[::2]),
        ]
        for name, effect in effects.items():
            values = effect.by_true_count(system)
            even = effect.break_even_true_count(system)
            lines.append(
                f"| {name} | {effect.slope(system):+.4%} | {effect.correlation(system):+.3f} | "
                + (f"{even:+.1f}" if even is not None else "-")
                + " | "
                + " | ".join(f"{values[count]:+.3%}" for count in TRUE_COUNTS[::2])
                + " |"
            )
        if sampled is not None:
            lines += [
                "",
                f"Exact on sampled compositions ({sampled.shoes} seeded shoes, half a deck at a "
                "time to 75%): mean expected value per rounded true count (compositions; TC -6 and "
                "+6 gather the counts beyond).",
                "",
                "| wager | " + " | ".join(f"TC {count:+d}" for count in TRUE_COUNTS) + " |",
                "|---|" + "---:|" * len(TRUE_COUNTS),
            ]
            for wager, by_system in sampled.values.items():
                means = by_system[system.name]
                lines.append(
                    f"| {wager} | "
                    + " | ".join(
                        f"{means[count][0]:+.3%} ({means[count][1]})" if count in means else "-"
                        for count in TRUE_COUNTS
                    )
                    + " |"
                )
    return "\n".join(lines) + "\n"


def by_count_png(
    title: str,
    effects: dict[str, RemovalEffects],
    systems: list[CountingSystem],
    path: Path,
    sampled: SampledValues | None = None,
) -> Path:
    """Per wager: its effects of removal (bars) and its expected value by true count per system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from croupier.analysis.charts import PNG_METADATA

    fig, axes = plt.subplots(
        len(effects), 2, figsize=(11, 2.6 * len(effects)), dpi=100, squeeze=False
    )
    for row, (name, effect) in zip(axes, effects.items(), strict=True):
        colours = ["#e0403a" if e < 0 else "#4caf50" for e in effect.effects]
        row[0].bar(RANKS, [100 * e for e in effect.effects], color=colours)
        row[0].axhline(0, color="black", linewidth=0.6)
        if not any(effect.effects):
            row[0].text(
                0.5,
                0.6,
                "no effect: exactly 0 for every rank",
                ha="center",
                transform=row[0].transAxes,
                fontsize=9,
            )
        row[0].set_title(f"{name}: effect of removing one card (points)", fontsize=9)
        row[0].tick_params(labelsize=8)
        for colour, system in enumerate(systems):
            values = effect.by_true_count(system)
            row[1].plot(
                list(values),
                [100 * v for v in values.values()],
                marker=".",
                label=system.title,
                color=f"C{colour}",
            )
            cells = sampled.values.get(name, {}).get(system.name) if sampled else None
            if cells:
                row[1].plot(
                    list(cells),
                    [100 * mean for mean, _ in cells.values()],
                    linestyle="none",
                    marker="x",
                    color=f"C{colour}",
                )
        lowest = min(effect.by_true_count(system)[TRUE_COUNTS[0]] for system in systems)
        highest = max(effect.by_true_count(system)[TRUE_COUNTS[-1]] for system in systems)
        if min(lowest, highest) <= 0 <= max(lowest, highest):
            row[1].axhline(0, color="black", linewidth=0.6)
        row[1].set_title(f"{name}: expected value by true count (%)", fontsize=9)
        row[1].set_xlabel("true count", fontsize=8)
        row[1].tick_params(labelsize=8)
        row[1].grid(alpha=0.3)
    axes[0][1].legend(fontsize=7, ncol=2)
    fig.suptitle(
        f"{title}: value by count (lines: linear from the effects of removal"
        + ("; x: exact on sampled shoes)" if sampled else ")"),
        fontsize=11,
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", metadata=PNG_METADATA)
    plt.close(fig)
    return path
