"""Strategy charts (text and PNG, coloured as printed strategy cards are) and outcome charts.

PNGs are drawn with matplotlib's Agg backend and written without a timestamp or software
version, so the same figures give the same bytes run after run.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.patches import Patch, Rectangle

from croupier.analysis.blackjack import UP_LABELS, Strategy
from croupier.analysis.figures import WagerFigures

ACTION_COLOURS = {
    "H": "#f6f6f6",
    "S": "#e0403a",
    "D": "#4caf50",
    "Ds": "#a5d6a7",
    "P": "#42a5f5",
}
SURRENDER_COLOURS = {"Rh": "#b39ddb", "Rs": "#7e57c2", "Rp": "#9575cd"}
"""Late surrender's cells (docs/rules.md#D-BJ-33), drawn and named only in a chart that has
one, so that a chart without surrender looks as it always has."""
ACTION_NAMES = {
    "H": "H: hit",
    "S": "S: stand",
    "D": "D: double, else hit",
    "Ds": "Ds: double, else stand",
    "P": "P: split",
}
SURRENDER_NAMES = {
    "Rh": "Rh: surrender, else hit",
    "Rs": "Rs: surrender, else stand",
    "Rp": "Rp: surrender, else split",
}
RICH_STYLES = {
    "H": "black on grey93",
    "S": "bold white on red3",
    "D": "bold white on green4",
    "Ds": "black on dark_sea_green2",
    "P": "bold white on dodger_blue2",
    "Rh": "black on medium_purple1",
    "Rs": "bold white on purple4",
    "Rp": "bold white on medium_purple3",
}


def action_names(strategy: Strategy) -> dict[str, str]:
    """The legend's letters: the surrender letters too where the chart has any."""
    return ACTION_NAMES | SURRENDER_NAMES if strategy.surrenders else dict(ACTION_NAMES)


def _colours(strategy: Strategy) -> dict[str, str]:
    return ACTION_COLOURS | SURRENDER_COLOURS if strategy.surrenders else dict(ACTION_COLOURS)


PNG_METADATA = {"Software": None}


def strategy_sections(strategy: Strategy) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """The chart as (section title, [(row label, cells in ``UP_LABELS`` order)])."""
    hard = [(str(t), [strategy.hard[t][u] for u in UP_LABELS]) for t in strategy.hard]
    soft = [
        ("A,A" if t == 12 else f"A,{t - 11}", [strategy.soft[t][u] for u in UP_LABELS])
        for t in strategy.soft
        if t < 21
    ]
    pairs = [(f"{p},{p}", [strategy.pairs[p][u] for u in UP_LABELS]) for p in strategy.pairs]
    return [("Hard totals", hard), ("Soft totals", soft), ("Pairs", pairs)]


def strategy_text(strategy: Strategy) -> str:
    """A plain-text chart: one block per section, dealer's up card across."""
    lines: list[str] = []
    for title, rows in strategy_sections(strategy):
        lines.append(f"{title:<8}" + "".join(f"{u:>4}" for u in UP_LABELS))
        for label, cells in rows:
            lines.append(f"{label:<8}" + "".join(f"{cell:>4}" for cell in cells))
        lines.append("")
    lines.append(", ".join(action_names(strategy).values()))
    return "\n".join(lines)


def strategy_markdown(strategy: Strategy) -> str:
    parts: list[str] = []
    for title, rows in strategy_sections(strategy):
        parts.append(f"**{title}**\n")
        parts.append("| player | " + " | ".join(UP_LABELS) + " |")
        parts.append("|---|" + "---|" * len(UP_LABELS))
        for label, cells in rows:
            parts.append(f"| {label} | " + " | ".join(cells) + " |")
        parts.append("")
    parts.append("Legend: " + "; ".join(action_names(strategy).values()) + ".")
    return "\n".join(parts)


def strategy_png(strategy: Strategy, title: str, path: Path) -> Path:
    sections = strategy_sections(strategy)
    colours, names = _colours(strategy), action_names(strategy)
    fig, axes = plt.subplots(
        1, 3, figsize=(15, 7.5), gridspec_kw={"width_ratios": [1, 1, 1]}, dpi=100
    )
    for ax, (section, rows) in zip(axes, sections, strict=True):
        ax.set_title(section, fontsize=13, fontweight="bold")
        ax.set_xlim(0, len(UP_LABELS))
        ax.set_ylim(0, len(rows))
        ax.invert_yaxis()
        for y, (_, cells) in enumerate(rows):
            for x, cell in enumerate(cells):
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colours[cell], edgecolor="#555555"))
                colour = "white" if cell in ("S", "D", "P") else "black"
                ax.text(x + 0.5, y + 0.5, cell, ha="center", va="center", fontsize=10, color=colour)
        ax.set_xticks([i + 0.5 for i in range(len(UP_LABELS))])
        ax.set_xticklabels(UP_LABELS)
        ax.xaxis.tick_top()
        ax.set_yticks([i + 0.5 for i in range(len(rows))])
        ax.set_yticklabels([label for label, _ in rows])
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
    fig.suptitle(f"{title}: basic strategy (dealer's up card across)", fontsize=14)
    fig.legend(
        handles=[Patch(facecolor=colours[a], edgecolor="#555555", label=names[a]) for a in colours],
        loc="lower center",
        ncol=5,
        frameon=False,
    )
    fig.tight_layout(rect=(0, 0.06, 1, 0.95))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", metadata=PNG_METADATA)
    plt.close(fig)
    return path


def distribution_png(bets: dict[str, WagerFigures], title: str, path: Path) -> Path:
    fig, axes = plt.subplots(1, len(bets), figsize=(4.2 * len(bets), 3.6), dpi=100, squeeze=False)
    for ax, (name, figures) in zip(axes[0], bets.items(), strict=True):
        nets = sorted(figures.distribution)
        labels = [f"{float(n):g}" for n in nets]
        ax.bar(labels, [figures.distribution[n] for n in nets], color="#42a5f5")
        ax.set_yscale("log")
        ax.set_title(f"{name}: edge {figures.house_edge:.3%}", fontsize=10)
        ax.set_xlabel("net result per unit")
        ax.tick_params(axis="x", labelrotation=90, labelsize=7)
    axes[0][0].set_ylabel("probability")
    fig.suptitle(f"{title}: distribution of outcomes", fontsize=12)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", metadata=PNG_METADATA)
    plt.close(fig)
    return path
