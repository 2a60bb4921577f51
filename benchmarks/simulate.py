"""The blackjack simulator's speed per core against the reference engine, in one run.

    uv run python benchmarks/simulate.py [--rounds N] [--engine-rounds N] [--repeats N]
        [--chart PNG] [--hhoppe DIR --hhoppe-python PYTHON]

For every blackjack profile, one box, the derived basic strategy (splits, doubles,
insurance rule and every rule of the profile): the compiled kernel's hands per second with
basic strategy, and with Hi-Lo tracked (the count, the true count by half decks, a 1-8 ramp
and the Illustrious 18 played), against the reference engine (``BlackjackRound``, the engine
of ``croupier settle``) playing the same chart on seeded shoes in the same run. A rate counts
the kernel's own time, the shuffling of every shoe included and compilation and set-up
excluded; ``hands`` counts each box's round once. Times are this process's CPU time (the
machine is shared: the ratio is the figure to compare), wall time beside it. Each rate is
the best of ``--repeats`` runs (the same seed, so the same hands: on a shared machine the
least disturbed run is the closest to the code's own speed), the engine's too. As
``croupier simulate`` plays it, a run of ``runner.FOR_GAME_FROM`` rounds or more (the default
10,000,000) plays one box by a loop compiled for each game (``one_box_loop``), a shorter one
by the loop compiled once for every game; the first line printed says which.

With ``--hhoppe DIR`` (the folder of hhoppe/blackjack's ``blackjack.py``, the open simulator
the issue measures against, kept outside the repository) and ``--hhoppe-python PYTHON`` (a
Python with his requirements), the same run also times his CPU simulator in a subprocess
(``benchmarks/hhoppe_blackjack.py --serve``): one core, his basic strategy, the rules of his
closest to peru-2016, as many hands as ``--rounds``, the CPU time of his
``monte_carlo_house_edge_cpu`` call (his shuffling included, his table building and compiling
excluded). He runs once beside each of a profile's ``--repeats`` (his run, then the
kernel's two), and each row prints the best of his runs beside that profile's and the ratio
of the two: on a shared machine whose speed moves by a fifth from one minute to the next
(his rate 7.7-9.5 M hands/s in one session on a 2-core AMD EPYC), his one rate measured before
every profile set each profile's ratio by when it ran.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from croupier.analysis.blackjack import chart_action
from croupier.counting import load_counting_system, load_index_set
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound
from croupier.randomness import SeededRandomSource
from croupier.rules import BlackjackRules, load_profile
from croupier.shoe import Shoe
from croupier.simulation.blackjack_sim import (
    BlackjackStrategy,
    BlackjackTally,
    Counting,
    parse_ramp,
    simulate_blackjack,
)
from croupier.simulation.runner import FOR_GAME_FROM

PROFILES = ("peru-2016", "spain-1979", "veintiuno-real")


def engine_rate(profile: BlackjackRules, strategy: BlackjackStrategy, rounds: int) -> float:
    """Rounds per CPU second of the reference engine playing the chart, shuffles included."""
    source = SeededRandomSource("benchmark-simulate")
    cut = profile.shoe.cut_card_from_bottom
    start = time.process_time()
    shoe = Shoe.shuffled(profile.decks, source, cut_card_from_bottom=cut)
    new_shoe = True
    for _ in range(rounds):
        game = BlackjackRound(profile, shoe, new_shoe=new_shoe)
        game.place_bet(1, "main", 2)
        if profile.twenty_one_plus_three is not None:
            game.place_bet(1, "21+3", 2)
        game.deal()
        while not game.is_done:
            decision = game.pending()
            assert decision is not None
            if decision.question == "insurance":
                game.act(decision.seat, Action("no-insurance"))
                continue
            turn = game.current()
            assert turn is not None
            name = chart_action(
                strategy.chart,
                [card.rank.blackjack_value for card in turn[1].cards],
                game.up_card.rank.blackjack_value,
                {action.name for action in decision.legal},
                from_split=turn[1].from_split,
            )
            game.act(decision.seat, Action(name))
        new_shoe = shoe.is_cut_card_out
        if new_shoe:
            shoe = Shoe.shuffled(profile.decks, source, cut_card_from_bottom=cut)
    return rounds / (time.process_time() - start)


class Hhoppe:
    """hhoppe's simulator in a process of its own, set up once, a run each time it is asked
    (``hhoppe_blackjack.py --serve``), peru-2016-like rules."""

    def __init__(self, python: Path, folder: Path, hands: int) -> None:
        driver = Path(__file__).with_name("hhoppe_blackjack.py")
        command = [str(python), str(driver), "--hhoppe", str(folder), "--rules", "peru-2016"]
        command += ["--hands", str(hands), "--serve"]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.set_up_cpu_seconds = float(self._record()["set_up_cpu_seconds"])

    def _record(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("{"):
                record: dict[str, Any] = json.loads(line)
                return record
        raise RuntimeError(f"hhoppe_blackjack.py ended ({self.process.wait()})")

    def run(self) -> dict[str, Any]:
        """One run of his: hands, CPU and wall seconds, the house edge and its sd."""
        assert self.process.stdin is not None
        self.process.stdin.write("run\n")
        self.process.stdin.flush()
        return self._record()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def rate(run: dict[str, Any]) -> float:
    """His hands per CPU second in one run."""
    return float(run["hands"] / run["cpu_seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--engine-rounds", type=int, default=3_000)
    parser.add_argument("--chart", type=Path, default=None)
    parser.add_argument("--repeats", type=int, default=3, help="runs per rate, best kept")
    parser.add_argument("--hhoppe", type=Path, default=None, help="hhoppe/blackjack's folder")
    parser.add_argument("--hhoppe-python", type=Path, default=None, help="a Python for it")
    args = parser.parse_args()
    if (args.hhoppe is None) != (args.hhoppe_python is None):
        parser.error("--hhoppe and --hhoppe-python go together")
    if args.hhoppe is not None and not (args.hhoppe / "blackjack.py").is_file():
        parser.error(f"--hhoppe {args.hhoppe}: no blackjack.py there")
    if args.hhoppe_python is not None and not args.hhoppe_python.is_file():
        parser.error(f"--hhoppe-python {args.hhoppe_python}: no such file")
    hhoppe = None
    if args.hhoppe is not None:
        hhoppe = Hhoppe(args.hhoppe_python, args.hhoppe, args.rounds)
        his = hhoppe.run()
        print(
            f"hhoppe/blackjack {his['rules']} EFFORT={his['effort']}: a first run "
            f"{rate(his) / 1e6:.2f} M hands/s per CPU second "
            f"({his['hands'] / his['seconds'] / 1e6:.2f} wall), {his['hands']:,} hands in "
            f"{his['cpu_seconds']:.3f} s CPU, house edge {his['house_edge']:.4%} "
            f"(SE {his['sd'] / his['hands'] ** 0.5:.4%}); tables and compiling "
            f"{hhoppe.set_up_cpu_seconds:.1f} s CPU, excluded; then a run of his beside each "
            "repeat of each profile"
        )
    hi_lo = Counting(
        load_counting_system("hi-lo"),
        ramp=parse_ramp("1:1,2:2,3:4,4:8"),
        indices=load_index_set("illustrious-18"),
        horizon=0,
    )
    rows = []
    # As ``croupier simulate`` plays a run of this length (runner.FOR_GAME_FROM).
    for_game = args.rounds >= FOR_GAME_FROM
    print(
        f"one box by the loop compiled for each game (a run of {FOR_GAME_FROM:,} rounds or more)"
        if for_game
        else f"one box by the loop compiled for every game (a run under {FOR_GAME_FROM:,} rounds)"
    )
    print(
        f"{'profile':16} {'basic M/s':>10} {'(wall)':>8} {'Hi-Lo M/s':>10} {'(wall)':>8} "
        f"{'engine /s':>10} {'basic/engine':>13} {'Hi-Lo/engine':>13}"
        + (f" {'hhoppe M/s':>10} {'basic/hhoppe':>13} {'Hi-Lo/hhoppe':>13}" if hhoppe else "")
    )
    for name in PROFILES:
        profile = load_profile(name)
        assert isinstance(profile, BlackjackRules)
        strategy = BlackjackStrategy.basic(profile)
        for counting in (hi_lo, None):  # compilation (or numba's cache), outside the timing
            simulate_blackjack(
                profile, 1_000, np.random.SeedSequence(0), 1, strategy, counting,
                for_game=for_game,
            )  # fmt: skip
        runs: list[list[BlackjackTally]] = [[], []]  # basic strategy, Hi-Lo
        his_runs: list[dict[str, Any]] = []
        for _ in range(args.repeats):
            if hhoppe is not None:
                his_runs.append(hhoppe.run())
            for tallies, counting in zip(runs, (None, hi_lo), strict=True):
                tallies.append(
                    simulate_blackjack(
                        profile,
                        args.rounds,
                        np.random.SeedSequence(1),
                        1,
                        strategy,
                        counting,
                        for_game=for_game,
                    )
                )
        basic, counted = (min(tallies, key=lambda t: t.cpu_seconds) for tallies in runs)
        hhoppe_rate = max(map(rate, his_runs)) if his_runs else None
        engine = max(
            engine_rate(profile, strategy, args.engine_rounds) for _ in range(args.repeats)
        )
        basic_rate = basic.hands / basic.cpu_seconds
        counted_rate = counted.hands / counted.cpu_seconds
        rows.append((name, basic_rate, counted_rate, engine, hhoppe_rate))
        print(
            f"{name:16} {basic_rate / 1e6:10.2f} {basic.hands / basic.seconds / 1e6:8.2f} "
            f"{counted_rate / 1e6:10.2f} {counted.hands / counted.seconds / 1e6:8.2f} "
            f"{engine:10,.0f} {basic_rate / engine:12,.0f}x {counted_rate / engine:12,.0f}x"
            + (
                f" {hhoppe_rate / 1e6:10.2f} {basic_rate / hhoppe_rate:12.3f}x"
                f" {counted_rate / hhoppe_rate:12.3f}x"
                if hhoppe_rate
                else ""
            )
        )
    if args.chart is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 4.6))
        x = np.arange(len(rows))
        axes.bar(x - 0.27, [r[1] for r in rows], 0.27, label="kernel, basic strategy")
        axes.bar(x, [r[2] for r in rows], 0.27, label="kernel, Hi-Lo + I18 + ramp")
        axes.bar(x + 0.27, [r[3] for r in rows], 0.27, label="reference engine")
        if hhoppe is not None:
            # His rate beside each profile: a line over its group of bars.
            his_rates = np.array([r[4] for r in rows])
            axes.hlines(
                his_rates, x - 0.45, x + 0.45, color="gray", linestyle="--", linewidth=1,
                label="hhoppe/blackjack beside each (his peru-2016-like rules)",
            )  # fmt: skip
            axes.hlines(
                2 * his_rates, x - 0.45, x + 0.45, color="black", linestyle=":", linewidth=1,
                label="2x hhoppe",
            )  # fmt: skip
        axes.set_yscale("log")
        axes.set_xticks(x, [r[0] for r in rows])
        axes.set_ylabel("hands per CPU second, one core")
        axes.set_title("croupier simulate: hands/s per core (one core of a 2-core machine)")
        axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2)
        figure.tight_layout()
        figure.savefig(args.chart, dpi=110, metadata={"Software": None})
        print(f"chart: {args.chart}")
    if hhoppe is not None:
        hhoppe.close()


if __name__ == "__main__":
    main()
