"""Every wager of one profile: the figures ``croupier analyze`` prints, writes as JSON and
puts in the report.

JSON (the fixed contract for tools)::

    {"profile": "dragon-six-peru-2016", "game": "baccarat", "decks": 8,
     "bets": {"banker": {"house_edge": 0.0145810, "hit_frequency": ..., "push": ...,
                         "std_dev": ..., "distribution": {"-1": ..., "0.5": ...}, ...}, ...}}

House edges, frequencies and probabilities are fractions of one (never percent). Blackjack
adds ``"strategy"`` (``Strategy.as_json``: ``{"hard": {"16": {"T": "H", ...}}, "soft": ...,
"pairs": ...}``, dealer cards ``2``-``9``, ``T``, ``A``), ``"insurance"``,
``"even_money"``, ``"split_probability"``, ``"distribution_mean_offset"`` (the main bet's
distribution's mean less the exact expected value: what the re-split rounds' approximation
of the distribution moves it by; zero to rounding where no split round can reach a third
hand, the main bet then naming no ``"approximation"`` and saying ``"exact": true``) and
``"play"`` (``"basic"``: the chart;
``"composition"``: CDZ-, ``croupier analyze --strategy composition``; ``"cdp1"``: CDP1,
``--strategy cdp1``: the house edge is then that strategy's, the chart and distribution the basic strategy's); 21+3 adds ``"published"`` (the regulation's printed figures beside ours).
Casino Hold'em reports ``"progressive"`` exactly at the profile's meter seed, plus the
break-even meter, and ``"ante"`` (the Ante + Bet game per initial Ante, under the optimal
call/fold decision) exactly (``croupier.analysis.casino_holdem_exact``), with its
``"element_of_risk"`` and ``"fold_frequency"`` (with ``"fold_frequency_exact"``), and
``"short_strategy"``: a few rules a person can follow, with their exact house edge and cost
against the optimal decision (``croupier.analysis.casino_holdem_strategy``).
The first exact run enumerates every deal (about 35 s on two cores) and caches
a paytable-independent table on disk; later runs, and other paytables with the same dealer
qualifier, take seconds. ``ante_method="monte-carlo"`` (``croupier analyze
--ante-monte-carlo``) gives the earlier Monte Carlo estimate instead: ``"exact": false``,
``"monte_carlo": true`` and its ``"standard_error"``. Every other figure has ``"exact": true``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from croupier.analysis.blackjack import BlackjackAnalysis, Play, Strategy, analyse_blackjack
from croupier.analysis.figures import WagerFigures
from croupier.analysis.three_card import analyse_twenty_one_plus_three
from croupier.errors import ProfileError
from croupier.rules import BaccaratRules, BlackjackRules, CasinoHoldemRules, Profile


@dataclass(frozen=True)
class PublishedComparison:
    """A figure printed in a regulation beside the one croupier computes."""

    wager: str
    what: str
    published: Fraction
    computed: float
    decks: int

    @property
    def agrees(self) -> bool:
        # Printed to two decimals of a percent: agreement is equality after that rounding.
        return round(self.computed * 100, 2) == round(float(self.published) * 100, 2)

    def sentence(self) -> str:
        verdict = "agrees" if self.agrees else "does NOT agree"
        return (
            f"{self.wager} {self.what}: the regulation prints {float(self.published):.2%}, "
            f"croupier computes {self.computed:.4%} with {self.decks} decks: it {verdict}."
        )


@dataclass(frozen=True)
class ProfileAnalysis:
    profile: Profile
    decks: int
    bets: dict[str, WagerFigures]
    blackjack: BlackjackAnalysis | None = None
    published: tuple[PublishedComparison, ...] = ()
    notes: tuple[str, ...] = ()
    not_computed: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self, *, with_distribution: bool = True) -> dict[str, Any]:
        result: dict[str, Any] = {
            "profile": self.profile.name,
            "game": self.profile.game,
            "decks": self.decks,
            "bets": {
                name: figures.as_json(with_distribution=with_distribution)
                for name, figures in self.bets.items()
            },
        }
        if self.blackjack is not None:
            result["strategy"] = self.blackjack.strategy.as_json()
            result["insurance"] = self.blackjack.insurance.as_json()
            result["split_probability"] = self.blackjack.split_probability
            result["play"] = self.blackjack.play.value
            result["distribution_mean_offset"] = self.blackjack.distribution_mean_offset
        if self.published:
            result["published"] = [
                {
                    "wager": item.wager,
                    "figure": item.what,
                    "published": float(item.published),
                    "computed": item.computed,
                    "decks": item.decks,
                    "agrees": item.agrees,
                }
                for item in self.published
            ]
        if self.not_computed:
            result["not_computed"] = dict(self.not_computed)
        if self.notes:
            result["notes"] = list(self.notes)
        result.update(self.extra)
        return result


def _published_agree(
    profile: BlackjackRules, decks: int, published: list[PublishedComparison]
) -> bool:
    figures = analyse_twenty_one_plus_three(profile, decks)
    computed = {"house edge": figures.house_edge, "payout frequency": figures.hit_frequency}
    return all(
        PublishedComparison(
            item.wager, item.what, item.published, computed[item.what], decks
        ).agrees
        for item in published
    )


def analyse_profile(
    profile: Profile,
    decks: int | None = None,
    progress: Callable[[], None] | None = None,
    *,
    ante_method: str = "exact",
    enumeration_progress: Callable[[int, int], None] | None = None,
    play: Play = Play.BASIC,
    joint: bool | None = None,
    chart: Strategy | None = None,
) -> ProfileAnalysis:
    """All wagers of ``profile`` (``decks`` overrides the profile's deck count).

    Casino Hold'em: ``ante_method`` is ``"exact"`` (the default) or ``"monte-carlo"``;
    ``enumeration_progress(done, total)`` follows the first exact enumeration (flop classes).
    Blackjack: ``play`` is the player's strategy (``Play.BASIC``, ``COMPOSITION`` or ``CDP1``);
    ``joint`` chooses which split rounds' distributions are taken jointly (``evaluate_round``);
    ``chart``: the chart to evaluate instead of the basic strategy (``--strategy-file``).
    """
    if chart is not None and not isinstance(profile, BlackjackRules):
        raise ProfileError(f"--strategy-file: {profile.name} is {profile.game}, which has no chart")
    if ante_method not in ("exact", "monte-carlo"):
        raise ProfileError(f"ante method: 'exact' or 'monte-carlo', not {ante_method!r}")
    if decks is not None and not 1 <= decks <= 8:
        raise ProfileError(f"--decks: 1 to 8 allowed, not {decks}")
    # Each game's analysis is imported when it is analysed: ``croupier analyze`` of a
    # blackjack profile need not load Casino Hold'em's enumeration (benchmarks/analyze.py).
    if isinstance(profile, BaccaratRules):
        from croupier.analysis.baccarat import analyse_baccarat

        shoe = profile.decks if decks is None else decks
        return ProfileAnalysis(profile, shoe, analyse_baccarat(profile, shoe))
    if isinstance(profile, BlackjackRules):
        shoe = profile.decks if decks is None else decks
        blackjack = analyse_blackjack(profile, shoe, progress, play, joint=joint, chart=chart)
        bets = {"main": blackjack.main}
        published: list[PublishedComparison] = []
        side_bet = profile.twenty_one_plus_three
        if side_bet is not None:
            figures = analyse_twenty_one_plus_three(profile, shoe)
            bets["21+3"] = figures
            if side_bet.published_house_edge is not None:
                published.append(
                    PublishedComparison(
                        "21+3",
                        "house edge",
                        side_bet.published_house_edge,
                        figures.house_edge,
                        shoe,
                    )
                )
            if side_bet.published_payout_frequency is not None:
                published.append(
                    PublishedComparison(
                        "21+3",
                        "payout frequency",
                        side_bet.published_payout_frequency,
                        figures.hit_frequency,
                        shoe,
                    )
                )
        notes: list[str] = []
        if published and not all(item.agrees for item in published):
            matching = [
                count for count in range(1, 9) if _published_agree(profile, count, published)
            ]
            notes.append(
                "21+3: the printed figures match croupier's with "
                + (f"{matching} decks" if matching else "no deck count from 1 to 8")
                + " under this paytable."
            )
        return ProfileAnalysis(
            profile,
            shoe,
            bets,
            blackjack=blackjack,
            published=tuple(published),
            notes=tuple(notes),
        )
    if isinstance(profile, CasinoHoldemRules):
        if decks not in (None, 1):
            raise ProfileError(f"--decks: Casino Hold'em is dealt from one deck, not {decks}")
        from croupier.analysis.casino_holdem import (
            analyse_progressive,
            estimate_ante_game,
            progressive_break_even_meter,
        )
        from croupier.analysis.casino_holdem_game import analyse_ante_game

        progressive = analyse_progressive(profile)
        extra: dict[str, Any] = {}
        if ante_method == "exact":
            game = analyse_ante_game(profile, enumeration_progress)
            ante = game.figures
            if game.short_strategy is not None:
                extra["short_strategy"] = game.short_strategy.as_json()
            note = (
                "ante: exact, per initial Ante, under the optimal call/fold decision (call "
                "when calling loses less than the folded Ante); fold frequency "
                f"{float(game.fold_frequency):.4%}, element of risk "
                f"{ante.element_of_risk or 0:.4%}"
            )
        else:
            ante = estimate_ante_game(profile)
            note = (
                "ante: a MONTE CARLO ESTIMATE (not exact, --ante-monte-carlo) of the Ante + Bet "
                "game per initial Ante with a near-optimal call/fold strategy"
            )
        break_even = progressive_break_even_meter(profile)
        extra |= {
            "progressive_meter": profile.progressive.meter_seed,
            "progressive_break_even_meter": float(break_even) if break_even is not None else None,
            "progressive_by_meter": {
                meter: analyse_progressive(profile, meter).house_edge
                for meter in sorted(
                    {profile.progressive.meter_seed, 10_000, 50_000, 100_000, 200_000, 500_000}
                )
            },
        }
        return ProfileAnalysis(
            profile,
            1,
            {"ante": ante, "progressive": progressive},
            notes=(note,),
            extra=extra,
        )
    raise ProfileError(f"no analysis for game {profile.game!r}")
