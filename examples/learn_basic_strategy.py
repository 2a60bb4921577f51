"""A tabular agent learns peru-2016's basic strategy in the Gymnasium environment, and its
chart's true house edge is computed exactly (issue 30, item 7).

The agent keeps, for each cell of a strategy chart (hard total, soft total or pair, against
the dealer's up card), the mean value of each action it has been shown there, and plays
epsilon-greedily by it. What it learns from is the environment's own exact answer
(``oracle=True``: ``info["action_values"]``, the exact value of every legal action for the
shoe as the box knows it): each decision teaches it the values of all its actions at once,
with no sampling noise from the cards still to come, so a few thousand rounds give a chart,
where learning from the rewards alone would need millions. The shoe moves through its
compositions as a real shoe does, so the agent averages each cell over them, as a basic
strategy (one chart for the whole shoe) must.

At checkpoints the learned chart is evaluated exactly, by ``croupier analyze``'s code
(``--strategy-file``'s), against the optimal basic strategy's edge; the curve is drawn to a
PNG, the final chart written as JSON for ``croupier analyze peru-2016 --strategy-file``.

Run: ``uv run python examples/learn_basic_strategy.py [--rounds 6000] [--out examples/out]``
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import croupier.envs  # noqa: F401 - registers the environments
from croupier.analysis.blackjack import HARD_ROWS, PAIR_ROWS, SOFT_ROWS, UP_LABELS, Strategy
from croupier.analysis.profile_analysis import analyse_profile
from croupier.cards import Card, Rank
from croupier.rules import load_profile

PROFILE = "peru-2016"
PLAYS = ("stand", "hit", "double", "split")


def _label(rank: Rank) -> str:
    if rank is Rank.ACE:
        return "A"
    return "T" if rank.is_ten_valued else str(rank.value)


def cell_of(observation: dict[str, Any]) -> tuple[str, str, str] | None:
    """The chart's cell of the hand in play: (``hard``/``soft``/``pairs``, row, up card)."""
    cards = [Card.from_index(int(code) - 1) for code in observation["hand"] if code]
    up = int(observation["dealer"][0])
    if len(cards) < 2 or not up:
        return None
    up_label = _label(Card.from_index(up - 1).rank)
    labels = [_label(card.rank) for card in cards]
    if len(cards) == 2 and labels[0] == labels[1] and observation["hands"] == 1:
        return "pairs", labels[0], up_label
    total = int(observation["total"])
    if total > 21:
        return None
    if observation["soft"]:
        return "soft", str(total), up_label
    return "hard", str(max(total, 5)), up_label


class TabularAgent:
    """Mean value of each action in each cell, from the values the environment shows."""

    def __init__(self, epsilon: float, seed: int) -> None:
        self.sums: dict[tuple[str, str, str], dict[str, float]] = defaultdict(
            lambda: defaultdict(float)
        )
        self.counts: dict[tuple[str, str, str], dict[str, int]] = defaultdict(
            lambda: defaultdict(int)
        )
        self.epsilon = epsilon
        self.random = np.random.default_rng(seed)

    def learn(self, cell: tuple[str, str, str], values: dict[str, float]) -> None:
        for name, value in values.items():
            self.sums[cell][name] += value
            self.counts[cell][name] += 1

    def means(self, cell: tuple[str, str, str]) -> dict[str, float]:
        return {name: self.sums[cell][name] / n for name, n in self.counts[cell].items() if n}

    def act(self, cell: tuple[str, str, str] | None, legal: list[str]) -> str:
        if cell is None or self.random.random() < self.epsilon:
            return str(self.random.choice(legal))
        means = self.means(cell)
        known = [name for name in legal if name in means]
        if not known:
            return str(self.random.choice(legal))
        return max(known, key=lambda name: means[name])

    def letter(self, cell: tuple[str, str, str]) -> str:
        """The cell's letter: the best of its actions as a chart writes it."""
        means = self.means(cell)
        if not means:  # never met: the usual safe default
            row = cell[1]
            return "H" if cell[0] == "pairs" or not row.isdigit() or int(row) < 17 else "S"
        if means.get("split", -np.inf) >= max(means.get(p, -np.inf) for p in PLAYS[:3]):
            return "P"
        stand, hit = means.get("stand", -np.inf), means.get("hit", -np.inf)
        if means.get("double", -np.inf) > max(stand, hit):
            return "D" if hit >= stand else "Ds"
        return "H" if hit > stand else "S"

    def chart(self) -> Strategy:
        def rows(kind: str, names: list[str]) -> dict[str, dict[str, str]]:
            return {row: {up: self.letter((kind, row, up)) for up in UP_LABELS} for row in names}

        hard = rows("hard", [str(t) for t in HARD_ROWS])
        soft = rows("soft", [str(t) for t in SOFT_ROWS])
        pairs = rows("pairs", list(PAIR_ROWS))
        return Strategy(
            hard={int(t): row for t, row in hard.items()},
            soft={int(t): row for t, row in soft.items()},
            pairs=pairs,
        )


def house_edge(chart: Strategy | None) -> float:
    """The chart's exact house edge (``croupier analyze --strategy-file``'s computation);
    ``None``: the optimal basic strategy's."""
    analysis = analyse_profile(load_profile(PROFILE), chart=chart)
    return float(analysis.bets["main"].house_edge)


def train(
    rounds: int, checkpoints: list[int], seed: int
) -> tuple[TabularAgent, list[tuple[int, float, float]]]:
    env = gym.make(f"croupier/{PROFILE}-v0", oracle=True)
    names = env.unwrapped.catalogue.names
    agent = TabularAgent(epsilon=0.2, seed=seed)
    curve: list[tuple[int, float, float]] = []
    observation, info = env.reset(seed=seed)
    regret_sum, decisions = 0.0, 0
    for played in range(1, rounds + 1):
        done = False
        while not done:
            mask = info["action_mask"]
            if observation["phase"] == 0:  # the betting step: deal the fixed bet
                action = names.index("bet-1x")
            else:
                values = {names[i]: v for i, v in info["action_values"].items()}
                cell = cell_of(observation)
                plays = {name: v for name, v in values.items() if name in PLAYS}
                if cell is not None and plays:
                    agent.learn(cell, plays)
                legal = [names[i] for i in np.flatnonzero(mask)]
                if "no-insurance" in legal:  # insurance: the chart declines it
                    choice = "no-insurance"
                else:
                    choice = agent.act(cell, [n for n in legal if n in PLAYS] or legal)
                action = names.index(choice)
            observation, _, done, _, info = env.step(action)
            if "regret" in info:
                regret_sum += info["regret"]
                decisions += 1
        observation, info = env.reset()
        if played in checkpoints:
            edge = house_edge(agent.chart())
            curve.append((played, edge, regret_sum / max(decisions, 1)))
            print(f"{played:7d} rounds: learned chart's house edge {edge:.5%}", flush=True)
    return agent, curve


def draw(curve: list[tuple[int, float, float]], optimal: float, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 4))
    rounds = [point[0] for point in curve]
    axis.plot(
        rounds, [point[1] * 100 for point in curve], marker="o", label="learned chart (exact)"
    )
    axis.axhline(optimal * 100, color="black", linestyle="--", label="optimal basic strategy")
    axis.axhspan(
        optimal * 100, optimal * 100 + 0.05, color="#a5d6a7", alpha=0.4, label="within 0.05 pp"
    )
    axis.set_xscale("log")
    axis.set_xlabel("rounds played (training)")
    axis.set_ylabel("house edge, % of the initial bet")
    axis.set_title(f"{PROFILE}: a tabular agent learns basic strategy")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120, metadata={"Software": None})
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=Path("examples/out"))
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    checkpoints = sorted(
        {n for n in (100, 300, 1000, 3000, 10_000, 30_000, 100_000) if n < arguments.rounds}
        | {arguments.rounds}
    )
    optimal = house_edge(None)
    start = time.perf_counter()
    agent, curve = train(arguments.rounds, checkpoints, arguments.seed)
    chart = agent.chart()
    (arguments.out / "learned-chart.json").write_text(json.dumps(chart.as_json(), indent=2))
    draw(curve, optimal, arguments.out / "learning-curve.png")
    learned = curve[-1][1]
    print(f"trained on {arguments.rounds} rounds in {time.perf_counter() - start:.0f} s")
    print(f"optimal basic strategy: {optimal:.5%}; learned chart: {learned:.5%}")
    print(f"difference: {(learned - optimal) * 100:.4f} percentage points (target: within 0.05)")
    print(
        f"wrote {arguments.out / 'learned-chart.json'} and {arguments.out / 'learning-curve.png'}"
    )


if __name__ == "__main__":
    main()
