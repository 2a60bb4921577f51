"""One Markdown page per profile (``croupier analyze PROFILE --report DIR``).

The page lists every wager's figures, cites the article each paytable comes from
(``profile.source_of(rule)``), embeds the charts (strategy and outcome distribution, PNG),
puts any figure printed in the regulation beside croupier's, and says how each figure was
computed and what is approximated.
"""

from __future__ import annotations

from pathlib import Path

from croupier.analysis.blackjack import BLACKJACK_METHOD_NOTES
from croupier.analysis.charts import distribution_png, strategy_markdown, strategy_png
from croupier.analysis.profile_analysis import ProfileAnalysis
from croupier.analysis.rule_effects import RuleEffect
from croupier.rules import BaccaratRules, BlackjackRules, CasinoHoldemRules, Profile

PAYTABLE_RULES = {
    "baccarat": ("paytable", "player_and_banker_push_on_tie", "pair_by", "decks"),
    "blackjack": (
        "blackjack_pays",
        "twenty_one_plus_three",
        "veintiuno_real",
        "insurance_pays",
        "decks",
        "hole_card",
        "dealer_blackjack_takes",
        "dealer_hits_soft_17",
        "double_on",
        "double_for_less",
        "double_after_split",
        "max_hands",
        "resplit_aces",
        "split_ace_ten_is_blackjack",
        "even_money",
    ),
    "casino-holdem": (
        "ante_paytable",
        "call_pays",
        "call_multiple",
        "dealer_qualifier",
        "ante_when_dealer_does_not_qualify",
        "progressive",
        "decks",
    ),
}


def _percent(value: float) -> str:
    return f"{value:.4%}"


def _cited_rules(profile: Profile) -> list[str]:
    values = profile.model_dump(mode="json")
    lines = ["| rule | value | source |", "|---|---|---|"]
    for rule in PAYTABLE_RULES.get(profile.game, ()):
        if rule in values:
            value = values[rule]
            text = "not offered" if value is None else str(value).replace("|", "/")
            lines.append(f"| `{rule}` | {text} | {profile.source_of(rule)} |")
    return lines


def write_report(
    analysis: ProfileAnalysis,
    directory: Path,
    rule_effects: tuple[float, list[RuleEffect]] | None = None,
) -> Path:
    """Write ``DIR/<profile>.md`` and its PNGs; return the page's path."""
    profile = analysis.profile
    directory.mkdir(parents=True, exist_ok=True)
    name = profile.name
    lines = [
        f"# {profile.title}: the math",
        "",
        f"Profile `{name}` ({profile.game}), regulation `{profile.regulation}`, "
        f"{analysis.decks} deck{'s' if analysis.decks > 1 else ''}. Figures per unit "
        "initially wagered, off the top of a full shoe. House edge: expected loss; hit "
        "frequency: probability the wager returns more than its stake.",
        "",
        "| wager | house edge | hit frequency | push | std. dev. | element of risk | method |",
        "|---|---|---|---|---|---|---|",
    ]
    for wager, figures in analysis.bets.items():
        risk = _percent(figures.element_of_risk) if figures.element_of_risk is not None else "-"
        edge = _percent(figures.house_edge)
        if figures.standard_error is not None:
            edge = f"~{edge} ± {figures.standard_error:.2%} (Monte Carlo, not exact)"
        lines.append(
            f"| {wager} | {edge} | {_percent(figures.hit_frequency)} | "
            f"{_percent(figures.push)} | {figures.std_dev:.4f} | {risk} | {figures.method} |"
        )
    for wager, reason in analysis.not_computed.items():
        lines.append(f"| {wager} | not computed | | | | | {reason} |")
    lines += ["", "## Rules behind these figures", "", *_cited_rules(profile), ""]
    if analysis.published:
        lines += ["## Figures printed in the regulation", ""]
        lines += [f"- {item.sentence()}" for item in analysis.published]
        lines.append("")
    if analysis.notes:
        lines += ["## Notes", "", *(f"- {note}" for note in analysis.notes), ""]
    if isinstance(profile, BlackjackRules) and analysis.blackjack is not None:
        blackjack = analysis.blackjack
        chart = strategy_png(blackjack.strategy, name, directory / f"strategy-{name}.png")
        insurance = blackjack.insurance
        lines += [
            "## Basic strategy",
            "",
            f"![basic strategy for {name}]({chart.name})",
            "",
            strategy_markdown(blackjack.strategy),
            "",
            f"Insurance: {blackjack.strategy.insurance} (off the top, dealer Ace up, house edge "
            f"{_percent(insurance.house_edge)}). Even money: {blackjack.strategy.even_money}. "
            f"A round is split {blackjack.split_probability:.3%} of the time.",
            "",
            "## Method",
            "",
            *BLACKJACK_METHOD_NOTES,
            "",
        ]
        if rule_effects is not None:
            base_edge, rows = rule_effects
            lines += [
                "## Rule effects (each rule alone against a common base)",
                "",
                f"Base: 6 decks, S17, dealer peeks, 3:2, double any two and after a split, "
                f"split to 4 hands, no re-split Aces: house edge {_percent(base_edge)}.",
                "",
                "| rule | house edge | effect | shipped in |",
                "|---|---|---|---|",
            ]
            lines += [
                f"| {row.rule} | {_percent(row.house_edge)} | {row.effect:+.3%} | {row.profiles} |"
                for row in rows
            ]
            lines.append("")
    if isinstance(profile, CasinoHoldemRules):
        lines += [
            "## Progressive",
            "",
            f"The progressive's return depends on the meter: figures above are at the profile's "
            f"seed of {profile.progressive.meter_seed} units; the bet breaks even when the meter "
            f"reaches {analysis.extra.get('progressive_break_even_meter', 0):,.0f} units.",
            "",
            "| meter (units) | house edge |",
            "|---|---|",
            *(
                f"| {meter:,} | {_percent(edge)} |"
                for meter, edge in analysis.extra.get("progressive_by_meter", {}).items()
            ),
            "",
        ]
    if isinstance(profile, BaccaratRules):
        lines += [
            "## Method",
            "",
            "Exact enumeration of the finite shoe: the first four cards by rank, without "
            "replacement; third cards by value class (Art. 11 tableau). Every figure is an "
            "exact fraction (JSON `house_edge_exact`).",
            "",
        ]
    outcomes = distribution_png(analysis.bets, name, directory / f"outcomes-{name}.png")
    lines += ["## Distribution of outcomes", "", f"![outcomes of {name}]({outcomes.name})", ""]
    for wager, figures in analysis.bets.items():
        lines += [f"**{wager}**", "", "| net per unit | probability |", "|---|---|"]
        lines += [
            f"| {float(net):g} | {p:.8f} |" for net, p in sorted(figures.distribution.items())
        ]
        lines.append("")
    page = directory / f"{name}.md"
    page.write_text("\n".join(lines), encoding="utf-8")
    return page
