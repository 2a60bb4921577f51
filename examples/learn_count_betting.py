"""A card-counting agent learns, on the vector environment, to vary its bet on the true count
(issue 30, item 7).

1,024 peru-2016 boxes are played at once through ``gym.make_vec(...,
vectorization_mode="vector_entry_point")`` with the agent's betting step (``betting=True``:
``bet-1x`` ... ``bet-16x`` of the base bet, within the table's limits) and the cards seen
since the shuffle (``counting=True``: ``observation["seen"]``, thirteen ranks, burns never).
At each betting step the agent reads the Hi-Lo true count from the cards seen (running count
over the decks not yet seen, floored) and bets; its decisions are a chart's (by default
``examples/learned-chart-peru-2016.json``, the chart ``learn_basic_strategy.py`` learned).

What it learns is the value of each bet at each true count. A round's reward is in base bets,
so the reward divided by the multiple bet is the round's return per unit, whatever was bet:
every round teaches the mean return per unit at the count it was dealt at (the value of
``bet-kx`` there is ``k`` times it). It plays epsilon-greedily: the largest legal multiple
where the learned return is above zero by two standard errors, the smallest elsewhere. The
chart of what it learned, the return per unit and the bet by true count, is drawn to a PNG.

Run: ``uv run python examples/learn_count_betting.py [--rounds 4000000] [--out examples/out]``
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

import croupier.envs  # noqa: F401 - registers the environments
from croupier.analysis.blackjack import PAIR_ROWS, UP_LABELS, Strategy
from croupier.envs.actions import BLACKJACK
from croupier.rules import BlackjackRules, load_profile

PROFILE = "peru-2016"
CHART = Path(__file__).with_name("learned-chart-peru-2016.json")
HI_LO = np.array([1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, -1])
"""Hi-Lo's tags by rank, Two ... Ace (the order of ``observation["seen"]``)."""
LOWEST, HIGHEST = -6, 8
"""True counts below and above are counted with these."""
NAMES = BLACKJACK.names
STAND, HIT, DOUBLE, SPLIT, SURRENDER = (
    NAMES.index(name) for name in ("stand", "hit", "double", "split", "surrender")
)
NO_INSURANCE = NAMES.index("no-insurance")
BETS = [NAMES.index(n) for n in NAMES if n.startswith("bet-")]
MULTIPLES = np.array([int(NAMES[k].removeprefix("bet-").removesuffix("x")) for k in BETS])


FIRST = {"H": HIT, "S": STAND, "D": DOUBLE, "Ds": DOUBLE, "P": SPLIT}
"""A chart letter's action (``Rh``, ``Rs``, ``Rp``: surrender, else ``ELSE``'s)."""
FIRST |= dict.fromkeys(("Rh", "Rs", "Rp"), SURRENDER)
ELSE = {"H": HIT, "S": STAND, "D": HIT, "Ds": STAND, "P": HIT, "Rh": HIT, "Rs": STAND, "Rp": SPLIT}
"""Its action where the first is not legal."""


class ChartPolicy:
    """A strategy chart's decisions for a batch of observations, by table lookup: each cell's
    letter as the catalogue's first choice and its fallback (``D``: double, else hit)."""

    def __init__(self, chart: Strategy) -> None:
        # [kind (0 hard, 1 soft, 2 pair), row, up] -> (first, fallback); rows by total or label.
        self.first = np.full((3, 32, 10), HIT, dtype=np.int64)
        self.fallback = np.full((3, 32, 10), HIT, dtype=np.int64)
        self.first[:2, 21], self.fallback[:2, 21] = STAND, STAND
        self.splits = np.zeros((10, 10), dtype=np.bool_)  # the pair's letter is P
        for kind, table in ((0, chart.hard), (1, chart.soft)):
            for total, row in table.items():
                for up, letter in row.items():
                    cell = (kind, int(total), UP_LABELS.index(up))
                    self.first[cell], self.fallback[cell] = FIRST[letter], ELSE[letter]
        for label, row in chart.pairs.items():
            for up, letter in row.items():
                cell = (2, PAIR_ROWS.index(label), UP_LABELS.index(up))
                self.first[cell], self.fallback[cell] = FIRST[letter], ELSE[letter]
                self.splits[cell[1:]] = letter == "P"

    @staticmethod
    def label(codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """A card's place in ``UP_LABELS`` (and ``PAIR_ROWS``) from its code (``Card.index``
        + 1; its rank is ``index >> 2``, 0 the Two ... 8 the Ten, J, Q, K, 12 the Ace)."""
        rank = (np.maximum(codes, 1) - 1) >> 2
        return np.where(rank == 12, 9, np.minimum(rank, 8))

    def decide(self, observation: dict[str, Any], mask: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
        hand = observation["hand"]
        cards = (hand > 0).sum(axis=1)
        labels = self.label(hand[:, :2])
        up = self.label(observation["dealer"][:, 0])
        total = observation["total"]
        kind = np.where(observation["soft"] == 1, 1, 0)
        row = np.where(kind == 0, np.clip(total, 5, 31), np.clip(total, 0, 31))
        # A pair reads its row when it splits, or (not itself split) where its letter is not P;
        # else its total's (``croupier.analysis.blackjack.chart_action``).
        pair = (cards == 2) & (labels[:, 0] == labels[:, 1])
        splits = self.splits[labels[:, 0], up]
        from_split = observation["hands"] > 1
        pair &= np.where(splits, mask[:, SPLIT] == 1, ~from_split)
        kind = np.where(pair, 2, kind)
        row = np.where(pair, labels[:, 0], row)
        first = self.first[kind, row, up]
        fallback = self.fallback[kind, row, up]
        rows = np.arange(len(first))
        action = np.where(mask[rows, first] == 1, first, fallback)
        action = np.where(mask[rows, action] == 1, action, STAND)
        return np.where(mask[:, NO_INSURANCE] == 1, NO_INSURANCE, action)


class CountBettor:
    """The mean return per unit bet at each true count, learned from every round's reward,
    and the bet it makes of it."""

    def __init__(self, epsilon: float, seed: int) -> None:
        size = HIGHEST - LOWEST + 1
        self.rounds = np.zeros(size, dtype=np.int64)
        self.sums = np.zeros(size)
        self.squares = np.zeros(size)
        self.epsilon = epsilon
        self.random = np.random.default_rng(seed)

    @staticmethod
    def true_count(seen: npt.NDArray[np.int64], decks: int) -> npt.NDArray[np.int64]:
        """Hi-Lo's running count over the decks not yet seen (half a deck at the least),
        floored, as an index of the table (``LOWEST`` ... ``HIGHEST``)."""
        running = seen @ HI_LO
        decks_left = np.maximum((52 * decks - seen.sum(axis=1)) / 52, 0.5)
        count = np.floor(running / decks_left).astype(np.int64)
        return np.clip(count, LOWEST, HIGHEST) - LOWEST

    def learn(self, counts: npt.NDArray[np.int64], returns: npt.NDArray[np.float64]) -> None:
        np.add.at(self.rounds, counts, 1)
        np.add.at(self.sums, counts, returns)
        np.add.at(self.squares, counts, returns**2)

    def means(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The return per unit at each true count and its standard error."""
        n = np.maximum(self.rounds, 1)
        mean = self.sums / n
        variance = np.maximum(self.squares / n - mean**2, 0.0)
        return mean, np.sqrt(variance / n)

    def multiples(self, legal: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The bet at each true count (its place in ``BETS``; ``legal``: the legal places):
        the largest legal multiple where the learned return is above zero by two standard
        errors, else the smallest."""
        mean, error = self.means()
        sure = (mean - 2 * error > 0) & (self.rounds > 1000)
        return np.where(sure, legal.max(), legal.min())

    def bet(self, counts: npt.NDArray[np.int64], legal: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        """The betting step's actions for environments at true counts ``counts``."""
        chosen = self.multiples(legal)[counts]
        explore = self.random.random(len(counts)) < self.epsilon
        chosen = np.where(explore, self.random.choice(legal, len(counts)), chosen)
        return np.array(BETS)[chosen]


def train(rounds: int, envs: int, chart: Strategy, seed: int) -> tuple[CountBettor, dict[str, Any]]:
    profile = load_profile(PROFILE)
    assert isinstance(profile, BlackjackRules)
    vector = gym.make_vec(
        f"croupier/{PROFILE}-v0", num_envs=envs, vectorization_mode="vector_entry_point",
        betting=True, counting=True,
    )  # fmt: skip
    policy, bettor = ChartPolicy(chart), CountBettor(epsilon=0.1, seed=seed)
    count_at_bet = np.zeros(envs, dtype=np.int64)
    multiple_at_bet = np.ones(envs)
    observation, info = vector.reset(seed=seed)
    legal = np.flatnonzero(info["action_mask"][0, BETS])  # every environment is at its bet
    played = 0
    wagered = won = 0.0
    while played < rounds:
        mask = info["action_mask"]
        betting = observation["phase"] == 0
        actions = policy.decide(observation, mask)
        if betting.any():
            counts = bettor.true_count(observation["seen"], profile.decks)
            bets = bettor.bet(counts, legal)
            actions = np.where(betting, bets, actions)
            count_at_bet = np.where(betting, counts, count_at_bet)
            multiple_at_bet = np.where(betting, MULTIPLES[bets - BETS[0]], multiple_at_bet)
        observation, reward, terminated, _, info = vector.step(actions)
        if terminated.any():
            ended = np.flatnonzero(terminated)
            bettor.learn(count_at_bet[ended], reward[ended] / multiple_at_bet[ended])
            played += len(ended)
            wagered += float(multiple_at_bet[ended].sum())
            won += float(reward[ended].sum())
    return bettor, {"rounds": played, "wagered": wagered, "won": won, "legal": legal}


def draw(bettor: CountBettor, legal: npt.NDArray[np.int64], path: Path) -> None:
    """The learned return per unit bet by true count (with two standard errors) and the bet
    the agent makes there."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mean, error = bettor.means()
    counts = np.arange(LOWEST, HIGHEST + 1)
    multiples = MULTIPLES[bettor.multiples(legal)]
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    top.errorbar(counts, 100 * mean, yerr=200 * error, fmt="o", capsize=3)
    top.axhline(0, color="#555", linewidth=0.8)
    top.set_ylabel("return per unit bet (%)")
    top.set_title(f"{PROFILE}: what a counting agent learned on the vector environment")
    bottom.step(counts, multiples, where="mid", color="#2e7d32")
    bottom.set_yscale("log", base=2)
    bottom.set_yticks(
        sorted(set(MULTIPLES[legal])), [f"{m}x" for m in sorted(set(MULTIPLES[legal]))]
    )
    bottom.set_ylabel("its bet (base bets)")
    bottom.set_xlabel(f"Hi-Lo true count at the bet ({LOWEST} and below ... {HIGHEST} and above)")
    for x, n in zip(counts, bettor.rounds, strict=True):
        place = (x, multiples[x - LOWEST])
        bottom.annotate(
            f"{n / 1e3:.0f}k", place, textcoords="offset points", xytext=(0, 6), ha="center",
            fontsize=7,
        )  # fmt: skip
    figure.tight_layout()
    figure.savefig(path, dpi=120, metadata={"Software": None})
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4_000_000)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chart", type=Path, default=CHART)
    parser.add_argument("--out", type=Path, default=Path("examples/out"))
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    chart = Strategy.from_json(json.loads(arguments.chart.read_text()), surrender=False)
    start = time.perf_counter()
    bettor, totals = train(arguments.rounds, arguments.envs, chart, arguments.seed)
    seconds = time.perf_counter() - start
    legal = totals.pop("legal")
    draw(bettor, legal, arguments.out / "count-betting.png")
    mean, error = bettor.means()
    multiples = MULTIPLES[bettor.multiples(legal)]
    print(f"{totals['rounds']:,.0f} rounds on {arguments.envs} environments in {seconds:.0f} s")
    for k, count in enumerate(range(LOWEST, HIGHEST + 1)):
        print(
            f"true count {count:+d}: {bettor.rounds[k]:>9,} rounds, return per unit "
            f"{100 * mean[k]:+.2f}% +- {200 * error[k]:.2f}, bets {multiples[k]}x"
        )
    flat = bettor.sums.sum() / bettor.rounds.sum()
    print(
        f"while learning: {100 * totals['won'] / totals['wagered']:+.3f}% of the amount bet, "
        f"{totals['won'] / totals['rounds']:+.4f} base bets a round (flat: {100 * flat:+.3f}%)"
    )
    print(f"wrote {arguments.out / 'count-betting.png'}")


if __name__ == "__main__":
    main()
