"""PAR sheets (``croupier analyze PROFILE --par DIR``; ``par_pdf.write_par`` writes them): what a
gaming lab certifies per wager.

Every figure is read off the exact analysis that ``croupier analyze --json`` reports
(``ProfileAnalysis``: each wager's ``WagerFigures``, and blackjack's insurance); nothing is
computed a second way. Per wager, one unit staked per round:

- each outcome of the paytable (``WagerFigures.outcomes``; where the analysis does not name
  them, each net result of ``distribution``), its probability, "1 in", and its contribution
  to the expected net (``p * net``) and to the return (``p * (1 + net)``: the money returned
  per unit staked, stake included);
- return (RTP, ``1 + E[net]``) and hold (the theoretical hold, ``-E[net]``: the house edge per
  unit initially staked), hit frequency ``P(net > 0)``, push, standard deviation ``sd``;
- the volatility index ``VI = z * sd`` at 90, 95 and 99% (``z`` = 1.645, 1.960, 2.576);
- the player's result after ``n`` = 1,000 ... 1,000,000 rounds, by the normal approximation
  ``E[net] n +- z sd sqrt(n)`` (central limit theorem; said so on the sheet);
- the cycle: the smallest number of rounds in which every outcome occurs a whole number of
  times at its exact probability (the lowest common denominator of the exact probabilities;
  only where the figures are exact fractions), and the rarest outcome's "1 in";
- the largest win, per unit staked.

>>> from croupier.analysis.profile_analysis import analyse_profile
>>> from croupier.rules import load_profile
>>> sheet = profile_par(analyse_profile(load_profile("dragon-six-peru-2016")))
>>> tie = sheet.wager("tie")
>>> tie.largest_win, round(tie.hold, 6)
(Fraction(8, 1), 0.143596)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from croupier.analysis.figures import WagerFigures
from croupier.analysis.profile_analysis import ProfileAnalysis

CONFIDENCE = ((0.90, 1.6448536269514722), (0.95, 1.959963984540054), (0.99, 2.5758293035489004))
"""Confidence level and its two-sided normal quantile ``z``."""
ROUNDS = (1_000, 10_000, 100_000, 1_000_000)

WAGER_TITLES = {
    "main": "Blackjack: main wager (basic strategy)",
    "insurance": "Insurance (dealer shows an Ace)",
    "21+3": "21+3",
    "player": "Player",
    "banker": "Banker",
    "tie": "Tie",
    "player_pair": "Player pair",
    "banker_pair": "Banker pair",
    "ante": "Ante + Bet (optimal call/fold, per initial Ante)",
    "progressive": "Progressive (meter at its seed)",
}


@dataclass(frozen=True)
class ParLine:
    """One outcome of a wager: its net result per unit staked and its probability."""

    label: str
    net: Fraction
    probability: float
    exact_probability: Fraction | None

    @property
    def one_in(self) -> float:
        return 1 / self.probability if self.probability > 0 else math.inf

    @property
    def to_net(self) -> float:
        """Contribution to the expected net: ``p * net``."""
        return self.probability * float(self.net)

    @property
    def to_return(self) -> float:
        """Contribution to the return: ``p * (1 + net)``, the money returned per unit staked."""
        return self.probability * float(1 + self.net)


@dataclass(frozen=True)
class ResultRange:
    """The player's total result after ``rounds`` rounds of one unit (normal approximation)."""

    rounds: int
    expected: float
    low_high: tuple[tuple[float, float, float], ...]
    """(confidence, low, high) per ``CONFIDENCE`` level."""


@dataclass(frozen=True)
class WagerPar:
    wager: str
    title: str
    lines: tuple[ParLine, ...]
    expected_value: float
    exact_expected_value: Fraction | None
    hit_frequency: float
    push: float
    std_dev: float
    volatility: tuple[tuple[float, float], ...]
    """(confidence, volatility index ``z * sd``)."""
    ranges: tuple[ResultRange, ...]
    cycle: int | None
    rarest: ParLine
    largest_win: Fraction
    method: str
    notes: tuple[str, ...]

    @property
    def return_to_player(self) -> float:
        return 1 + self.expected_value

    @property
    def hold(self) -> float:
        return -self.expected_value

    @property
    def exact_hold(self) -> Fraction | None:
        return None if self.exact_expected_value is None else -self.exact_expected_value


@dataclass(frozen=True)
class ProfilePar:
    profile_name: str
    title: str
    game: str
    regulation: str
    decks: int
    wagers: tuple[WagerPar, ...]
    notes: tuple[str, ...]

    def wager(self, name: str) -> WagerPar:
        for wager in self.wagers:
            if wager.wager == name:
                return wager
        raise KeyError(name)


def _net_label(wager: str, net: Fraction) -> str:
    """A name for a net result the analysis does not break down further."""
    if wager == "insurance":
        return "dealer has blackjack" if net > 0 else "dealer has no blackjack"
    if net == 0:
        return "push"
    text = f"{float(net):+g}"
    return f"round nets {text} unit{'' if abs(net) == 1 else 's'}"


def _lines(figures: WagerFigures) -> list[ParLine]:
    if figures.outcomes:
        lines = [
            ParLine(outcome.label, outcome.net, float(outcome.probability), outcome.probability)
            for outcome in figures.outcomes
            if outcome.probability != 0
        ]
    elif figures.exact_distribution is not None:
        lines = [
            ParLine(_net_label(figures.name, net), net, float(p), p)
            for net, p in figures.exact_distribution.items()
        ]
    else:
        lines = [
            ParLine(_net_label(figures.name, net), net, p, None)
            for net, p in figures.distribution.items()
            if p > 0
        ]
    # Best first, as paytables are printed; equal nets keep the analysis's order.
    return sorted(lines, key=lambda line: -line.net)


def wager_par(figures: WagerFigures, notes: Sequence[str] = ()) -> WagerPar:
    """The PAR figures of one wager, from its exact figures."""
    lines = _lines(figures)
    expected = figures.expected_value
    sd = figures.std_dev
    exact = [line.exact_probability for line in lines]
    cycle = (
        math.lcm(*(p.denominator for p in exact if p is not None))
        if all(p is not None for p in exact)
        else None
    )
    ranges = tuple(
        ResultRange(
            n,
            expected * n,
            tuple(
                (level, expected * n - z * sd * math.sqrt(n), expected * n + z * sd * math.sqrt(n))
                for level, z in CONFIDENCE
            ),
        )
        for n in ROUNDS
    )
    extra = list(notes)
    if figures.element_of_risk is not None:
        extra.append(
            f"element of risk (loss per unit of all money staked, doubles, splits and calls "
            f"included): {figures.element_of_risk:.4%}"
        )
    if figures.approximation is not None:
        extra.append(f"approximated: {figures.approximation}")
    if figures.standard_error is not None:
        extra.append(f"Monte Carlo estimate, standard error {figures.standard_error:.5f}")
    extra.extend(note for note in figures.notes if not note.startswith("element of risk"))
    return WagerPar(
        wager=figures.name,
        title=WAGER_TITLES.get(figures.name, figures.name),
        lines=tuple(lines),
        expected_value=expected,
        exact_expected_value=(
            -figures.exact_house_edge if figures.exact_house_edge is not None else None
        ),
        hit_frequency=figures.hit_frequency,
        push=figures.push,
        std_dev=sd,
        volatility=tuple((level, z * sd) for level, z in CONFIDENCE),
        ranges=ranges,
        cycle=cycle,
        rarest=min(lines, key=lambda line: line.probability),
        largest_win=max(line.net for line in lines),
        method=figures.method,
        notes=tuple(extra),
    )


def profile_par(analysis: ProfileAnalysis) -> ProfilePar:
    """Every wager of an analysed profile (blackjack adds insurance), in the analysis's order."""
    wagers = [wager_par(figures) for figures in analysis.bets.values()]
    if analysis.blackjack is not None:
        wagers.insert(1, wager_par(analysis.blackjack.insurance))
    profile = analysis.profile
    notes = list(analysis.notes) + [item.sentence() for item in analysis.published]
    short = analysis.extra.get("short_strategy")
    if short is not None:
        rules = " ".join(f"{n}. {rule}" for n, rule in enumerate(short["rules"], start=1))
        notes.append(
            f"ante with the short strategy instead: house edge {short['house_edge']:.4%}, "
            f"{short['cost_against_optimal']:.4%} above the optimal decision (exact, same "
            f"enumeration). Its rules: {rules}"
        )
    return ProfilePar(
        profile_name=profile.name,
        title=profile.title,
        game=profile.game,
        regulation=profile.regulation,
        decks=analysis.decks,
        wagers=tuple(wagers),
        notes=tuple(notes),
    )


# --- Markdown --------------------------------------------------------------------------------


def probability_text(value: float) -> str:
    return f"{value:.10f}" if value >= 1e-4 else f"{value:.4e}"


def signed(value: float, places: int = 6) -> str:
    return f"{value:+,.{places}f}"


def net_text(net: Fraction) -> str:
    return f"{float(net):+g}"


def count_text(value: float) -> str:
    return "never" if math.isinf(value) else f"{value:,.2f}"


RANGE_NOTE = (
    "Player's result, in units of one unit staked per round, by the normal approximation "
    "E n +- z sd sqrt(n) (central limit theorem): the range holds the result with the stated "
    "probability, approximately; for rare large prizes the approximation is poor at small n."
)
CYCLE_NOTE = (
    "Cycle: the smallest number of rounds in which every outcome occurs a whole number of "
    "times at its exact probability (lowest common denominator of the exact probabilities)."
)


def summary_rows(sheet: ProfilePar) -> list[list[str]]:
    rows = [["wager", "return", "hold", "hit freq.", "std dev", "VI 95%", "largest win"]]
    for wager in sheet.wagers:
        rows.append(
            [
                wager.wager,
                f"{wager.return_to_player:.4%}",
                f"{wager.hold:.4%}",
                f"{wager.hit_frequency:.4%}",
                f"{wager.std_dev:.4f}",
                f"{wager.volatility[1][1]:.4f}",
                net_text(wager.largest_win),
            ]
        )
    return rows


def outcome_rows(wager: WagerPar) -> list[list[str]]:
    rows = [["outcome", "net", "probability", "1 in", "to net", "to return"]]
    for line in wager.lines:
        rows.append(
            [
                line.label,
                net_text(line.net),
                probability_text(line.probability),
                count_text(line.one_in),
                signed(line.to_net, 8),
                f"{line.to_return:.8f}",
            ]
        )
    rows.append(
        [
            "total",
            "",
            probability_text(math.fsum(line.probability for line in wager.lines)),
            "",
            signed(wager.expected_value, 8),
            f"{wager.return_to_player:.8f}",
        ]
    )
    return rows


def figure_rows(wager: WagerPar) -> list[list[str]]:
    rows = [
        ["return (RTP)", f"{wager.return_to_player:.6%}"],
        ["hold (house edge)", f"{wager.hold:.6%}"],
    ]
    if wager.exact_hold is not None:
        rows.append(["hold, exactly", str(wager.exact_hold)])
    rows += [
        ["hit frequency", f"{wager.hit_frequency:.6%}"],
        ["push", f"{wager.push:.6%}"],
        ["standard deviation", f"{wager.std_dev:.6f}"],
    ]
    rows += [[f"volatility index {level:.0%}", f"{vi:.6f}"] for level, vi in wager.volatility]
    rows += [
        ["cycle", f"{wager.cycle:,}" if wager.cycle is not None else "not exact"],
        ["rarest outcome", f"{wager.rarest.label}: 1 in {count_text(wager.rarest.one_in)}"],
        ["largest win", f"{net_text(wager.largest_win)} per unit staked"],
    ]
    return rows


def range_rows(wager: WagerPar) -> list[list[str]]:
    rows = [["rounds", "expected"] + [f"{level:.0%} range" for level, _ in CONFIDENCE]]
    for item in wager.ranges:
        rows.append(
            [f"{item.rounds:,}", f"{item.expected:+,.1f}"]
            + [f"{low:+,.1f} to {high:+,.1f}" for _, low, high in item.low_high]
        )
    return rows


def _table(rows: list[list[str]], right_from: int = 1) -> list[str]:
    align = ["---" if i < right_from else "---:" for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows[1:]]
    return lines


def markdown(sheet: ProfilePar) -> str:
    lines = [
        f"# PAR sheet: {sheet.title}",
        "",
        f"Profile `{sheet.profile_name}` ({sheet.game}), regulation {sheet.regulation}, "
        f"{sheet.decks} deck{'s' if sheet.decks > 1 else ''}. Generated by `croupier analyze "
        f"{sheet.profile_name} --par DIR` from the exact analysis (`croupier analyze --json`). "
        "Every figure is per unit staked per round; net results exclude the stake.",
        "",
        *_table(summary_rows(sheet)),
        "",
    ]
    lines += [f"- {note}" for note in sheet.notes]
    for wager in sheet.wagers:
        lines += ["", f"## {wager.title}", "", f"How: {wager.method}.", ""]
        lines += _table(outcome_rows(wager))
        if all(line.exact_probability is not None for line in wager.lines):
            lines += ["", "Exact probabilities:", ""]
            lines += _table(
                [["outcome", "probability, exactly"]]
                + [[line.label, str(line.exact_probability)] for line in wager.lines]
            )
        lines += ["", *_table([["figure", "value"], *figure_rows(wager)]), ""]
        lines += [*_table(range_rows(wager)), "", RANGE_NOTE, CYCLE_NOTE]
        if wager.notes:
            lines += [""] + [f"- {note}" for note in wager.notes]
    return "\n".join(lines) + "\n"
