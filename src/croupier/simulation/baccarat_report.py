"""``--report DIR`` for baccarat's count: the tie's and the pair bets' EV by their counts,
each beside how often the count arises (a Markdown section and two charts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

PNG_METADATA = {"Software": None}
SHOWN = 1e-4
"""Counts rarer than this are left off the charts (their EV is noise)."""


def _chart(
    rows: list[dict[str, Any]],
    xs: list[float],
    wagers: tuple[str, ...],
    path: Path,
    *,
    xlabel: str,
    title: str,
    width: float,
) -> None:
    figure, frequency_axes = plt.subplots(figsize=(7, 4))
    frequency_axes.bar(xs, [row["frequency"] for row in rows], width=width, color="#cfd8dc")
    frequency_axes.set_ylabel("frequency")
    frequency_axes.set_xlabel(xlabel)
    ev_axes = frequency_axes.twinx()
    for wager, colour in zip(wagers, ("#c62828", "#1565c0"), strict=False):
        ev_axes.plot(xs, [100 * row["ev_per_round"][wager] for row in rows], marker="o",
                     markersize=3, color=colour, label=wager)  # fmt: skip
    ev_axes.axhline(0.0, color="grey", linewidth=0.8)
    ev_axes.set_ylabel("EV per round at one unit (%)")
    ev_axes.legend(loc="upper left")
    frequency_axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path, dpi=110, metadata=PNG_METADATA)
    plt.close(figure)


def baccarat_counting_section(document: dict[str, Any], directory: Path) -> list[str]:
    """The page's lines for ``document["counting"]``, writing its two charts in ``directory``."""
    counting = document["counting"]
    name = document["profile"]
    tie_rows = [row for row in counting["by_true_count"] if row["frequency"] > SHOWN]
    pair_rows = [row for row in counting["by_pair_probability"] if row["frequency"] > SHOWN]
    tie_chart = directory / f"{name}-tie-by-true-count.png"
    pair_chart = directory / f"{name}-pairs-by-pair-probability.png"
    _chart(
        tie_rows, [row["true_count"] for row in tie_rows], ("tie",), tie_chart,
        xlabel=f"true count ({counting['system']}, clipped at the ends)",
        title=f"{name}: the tie's EV by true count, with its frequency", width=0.8,
    )  # fmt: skip
    _chart(
        pair_rows, [row["pair_probability"][0] for row in pair_rows],
        ("player_pair", "banker_pair"), pair_chart,
        xlabel="pair probability of the unseen cards (bucket's lower edge)",
        title=f"{name}: the pair bets' EV by pair probability", width=0.002,
    )  # fmt: skip
    tags = ", ".join(f"{value}: {tag:+d}" for value, tag in counting["tags"].items())
    lines = [
        f"## Counting: {counting['system']}",
        "",
        f"Tags by point value ({tags}); {counting['true_count']}. Pair bets: "
        f"{counting['pairs']}. Betting a pair only when that probability makes it worth it: "
        + "; ".join(
            f"{wager} in {chosen['frequency']:.2%} of coups, "
            f"{(chosen['ev_per_bet'] or 0):+.2%} a bet"
            for wager, chosen in counting["pairs_when_positive"].items()
        )
        + ".",
        "",
        "| true count | frequency | tie | player pair | banker pair |",
        "|---:|---:|---:|---:|---:|",
    ]
    for row in tie_rows:
        if row["frequency"] >= 0.005:
            ev = row["ev_per_round"]
            lines.append(
                f"| {row['true_count']:+d} | {row['frequency']:.4f} | {ev['tie']:+.4f} | "
                f"{ev['player_pair']:+.4f} | {ev['banker_pair']:+.4f} |"
            )
    lines += ["", f"![tie by true count]({tie_chart.name})", "",
              f"![pairs by pair probability]({pair_chart.name})", ""]  # fmt: skip
    return lines
