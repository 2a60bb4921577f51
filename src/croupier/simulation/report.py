"""``croupier simulate --report DIR``: a Markdown page and its charts (matplotlib, Agg).

Charts: the convergence of the estimate (the total's EV per round after each block, with its
95% band); with a count, the EV by true count beside each count's frequency, a few bankroll
trajectories (sessions of ``--horizon`` rounds), and the risk of ruin by bankroll, simulated
and by the formula. PNGs carry no timestamp or software version: the same run gives the same
bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np

from croupier.simulation.advantage import ruin_by_bankroll
from croupier.simulation.blackjack_sim import BlackjackTally
from croupier.simulation.runner import SimulationResult
from croupier.simulation.tally import Z95

PNG_METADATA = {"Software": None}


def _save(figure: Any, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=110, metadata=PNG_METADATA)
    plt.close(figure)


def convergence_chart(result: SimulationResult, path: Path) -> None:
    unit = result.tally.denominator
    rounds = np.cumsum([r for r, _, _ in result.history], dtype=np.float64)
    net = np.cumsum([float(n) for _, n, _ in result.history]) / unit
    squares = np.cumsum([float(s) for _, _, s in result.history]) / (unit * unit)
    mean = net / rounds
    sd = np.sqrt(np.maximum(squares / rounds - mean**2, 0.0))
    half = Z95 * sd / np.sqrt(rounds)
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.fill_between(rounds, mean - half, mean + half, alpha=0.3, label="95% band")
    axes.plot(rounds, mean, marker="o" if rounds.size < 40 else None, label="EV per round")
    axes.axhline(mean[-1], color="grey", linewidth=0.8, linestyle="--")
    axes.set_xscale("log" if rounds[-1] > 100 * rounds[0] else "linear")
    axes.set_xlabel("box-rounds simulated")
    axes.set_ylabel("EV per round, every wager at one unit")
    axes.set_title(f"{result.profile.name}: convergence of the estimate")
    axes.legend()
    _save(figure, path)


def true_count_chart(document: dict[str, Any], path: Path) -> None:
    rows = [row for row in document["counting"]["by_true_count"] if row["frequency"] > 1e-4]
    counts = [row["true_count"] for row in rows]
    figure, frequency_axes = plt.subplots(figsize=(7, 4))
    frequency_axes.bar(counts, [row["frequency"] for row in rows], color="#cfd8dc")
    frequency_axes.set_ylabel("frequency of the true count at the bet")
    frequency_axes.set_xlabel(f"true count ({document['counting']['title']})")
    ev_axes = frequency_axes.twinx()
    ev = [100 * row["ev_per_round"] for row in rows]
    low = [100 * (row["ev_per_round"] - row["ci95"][0]) for row in rows]
    high = [100 * (row["ci95"][1] - row["ev_per_round"]) for row in rows]
    ev_axes.errorbar(counts, ev, yerr=[low, high], color="#c62828", marker="o", capsize=3)
    ev_axes.axhline(0.0, color="grey", linewidth=0.8)
    ev_axes.set_ylabel("EV per round at one unit (%)", color="#c62828")
    frequency_axes.set_title(f"{document['profile']}: EV by true count, with its frequency")
    _save(figure, path)


def trajectories_chart(result: SimulationResult, path: Path) -> None:
    tally = result.tally
    assert isinstance(tally, BlackjackTally) and tally.counting is not None
    counting = result.options.counting
    assert counting is not None
    paths = tally.counting.paths / tally.denominator
    points = paths.shape[1]
    x = np.arange(1, points + 1) * max(counting.horizon // points, 1)
    figure, axes = plt.subplots(figsize=(7, 4))
    for row in paths:
        axes.plot(x, row, linewidth=0.9)
    if result.options.bankroll is not None:
        axes.axhline(-result.options.bankroll, color="#c62828", linestyle="--", label="ruin")
        axes.legend()
    axes.axhline(0.0, color="grey", linewidth=0.8)
    axes.set_xlabel("rounds into the session")
    axes.set_ylabel("bankroll change (units)")
    axes.set_title(f"{result.profile.name}: {paths.shape[0]} bankroll trajectories")
    _save(figure, path)


def ruin_chart(result: SimulationResult, path: Path) -> list[dict[str, Any]]:
    tally = result.tally
    assert isinstance(tally, BlackjackTally)
    counting = result.options.counting
    assert counting is not None
    sums = tally.counting
    assert sums is not None
    deepest = max(-float(sums.segment_low.min()) / tally.denominator, 10.0)
    bankrolls = [float(b) for b in np.geomspace(10, max(deepest * 1.2, 20), 24).round(1)]
    rows = ruin_by_bankroll(tally, counting.horizon, bankrolls)
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(bankrolls, [r["simulated"] for r in rows], marker="o", label="simulated sessions")
    axes.plot(
        bankrolls, [r["formula"] for r in rows], label=f"formula, {counting.horizon:,} rounds"
    )
    axes.plot(
        bankrolls, [r["formula_without_end"] for r in rows], linestyle="--", label="formula, no end"
    )
    axes.set_xscale("log")
    axes.set_xlabel("bankroll (units)")
    axes.set_ylabel("risk of ruin")
    axes.set_ylim(0, 1.02)
    axes.set_title(f"{result.profile.name}: risk of ruin by bankroll")
    axes.legend()
    _save(figure, path)
    return rows


def _n0(n0: float | None) -> str:
    return "inf" if n0 is None else f"{n0:,.0f}"


def write_simulation_report(
    result: SimulationResult, document: dict[str, Any], directory: Path
) -> Path:
    """Write ``DIR/<profile>-simulation.md`` and its PNGs; return the page's path."""
    directory.mkdir(parents=True, exist_ok=True)
    name = result.profile.name
    lines = [
        f"# Simulation: {name}",
        "",
        f"{document['rounds']:,} rounds, {document['players']} box(es), {document['hands']:,} "
        f"hands, seed `{document['seed']}`, strategy `{document['strategy']}`, "
        f"{document['blocks']} blocks. Figures per box and round, one unit on each wager.",
        "",
        "| wager | EV per round | 95% interval | SD | hit frequency |",
        "|---|---:|---:|---:|---:|",
    ]
    for wager, figures in document["bets"].items():
        low, high = figures["ci95"]
        lines.append(
            f"| {wager} | {figures['ev_per_round']:+.5f} | [{low:+.5f}, {high:+.5f}] | "
            f"{figures['sd']:.4f} | {figures['hit_frequency']:.4f} |"
        )
    total = document["total"]
    lines += [
        f"| total | {total['ev_per_round']:+.5f} | [{total['ci95'][0]:+.5f}, "
        f"{total['ci95'][1]:+.5f}] | {total['sd']:.4f} | |",
        "",
    ]
    if document["hands_per_second"]:
        lines += [
            f"Simulation time {document['seconds']:.2f} core-seconds (shuffling included), "
            f"{document['hands_per_second'] / 1e6:.2f} M hands/s per core.",
            "",
        ]
    convergence = directory / f"{name}-convergence.png"
    convergence_chart(result, convergence)
    lines += [f"![convergence]({convergence.name})", ""]
    counting = document.get("counting")
    if counting is not None and "by_pair_probability" in counting:  # baccarat's own count
        from croupier.simulation.baccarat_report import baccarat_counting_section

        lines += baccarat_counting_section(document, directory)
    elif counting is not None:
        lines += [
            f"## Counting: {counting['title']}",
            "",
            f"Ramp {counting['ramp']}, deck estimation {counting['deck_estimation']}, index "
            f"plays {counting['indices']}, wong in {counting['wong_in']} / out "
            f"{counting['wong_out']}.",
            "",
            "| win rate / 100 rounds | SD / 100 | average bet | DI | SCORE | N0 |",
            "|---:|---:|---:|---:|---:|---:|",
            f"| {counting['win_rate_per_100']:+.3f} | {counting['sd_per_100']:.2f} | "
            f"{counting['average_bet']:.3f} | {counting['di'] or 0:.2f} | "
            f"{counting['score']:.2f} | "
            f"{_n0(counting['n0'])} |",
            "",
        ]
        by_count = directory / f"{name}-ev-by-true-count.png"
        true_count_chart(document, by_count)
        trajectories = directory / f"{name}-trajectories.png"
        lines += [f"![EV by true count]({by_count.name})", ""]
        sums = result.tally.counting if isinstance(result.tally, BlackjackTally) else None
        if sums is not None and sums.segment_low.size:
            trajectories_chart(result, trajectories)
            ruin = directory / f"{name}-risk-of-ruin.png"
            rows = ruin_chart(result, ruin)
            lines += [f"![bankroll trajectories]({trajectories.name})", ""]
            lines += [
                f"![risk of ruin]({ruin.name})",
                "",
                "| bankroll | simulated | formula (same horizon) | formula (no end) |",
                "|---:|---:|---:|---:|",
            ]
            for row in rows[:: max(len(rows) // 8, 1)]:
                lines.append(
                    f"| {row['bankroll']:g} | {row['simulated']:.4f} | {row['formula']:.4f} | "
                    f"{row['formula_without_end']:.4f} |"
                )
            lines.append("")
    risk = document.get("risk")
    if risk is not None and risk["risk_of_ruin_simulated"] is not None:
        lines += [
            f"Risk of ruin of {risk['bankroll']:g} units over {risk['horizon_rounds']:,} rounds: "
            f"simulated {risk['risk_of_ruin_simulated']:.4f} ({risk['sessions']} sessions), "
            f"formula {risk['risk_of_ruin_formula']:.4f}, without end "
            f"{risk['risk_of_ruin_formula_without_end']:.4f}.",
            "",
        ]
    page = directory / f"{name}-simulation.md"
    page.write_text("\n".join(lines), encoding="utf-8")
    return page
