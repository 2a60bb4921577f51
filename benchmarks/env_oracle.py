"""What ``oracle=True`` costs per decision in the Gymnasium environment (issue 30, item 2), as
a ratio against a plain step measured in the same run.

Two environments of the same profile play the same seeded episodes with the same random
legal actions (the same seeds give the same rounds): one plain, one with ``oracle=True``,
which values every legal action exactly at each decision (``croupier.envs.oracle``). The
oracle's first decision, which loads the analysis's compiled kernels, is left out of its
timing and reported apart.

Run: ``uv run python benchmarks/env_oracle.py [--profile peru-2016] [--episodes 200]``
"""

from __future__ import annotations

import argparse
import time

from croupier.envs.table import CroupierEnv, Stage


def play(env: CroupierEnv, episodes: int, seed: int) -> tuple[float, int]:
    """Seconds spent in ``step`` at the agent's decisions, and how many there were."""
    env.action_space.seed(seed)
    _, info = env.reset(seed=seed)
    spent, decisions = 0.0, 0
    for _ in range(episodes):
        done = False
        while not done:
            deciding = env.stage == Stage.DECIDE
            action = int(env.action_space.sample(mask=info["action_mask"]))
            start = time.perf_counter()
            _, _, done, _, info = env.step(action)
            if deciding:
                spent += time.perf_counter() - start
                decisions += 1
        _, info = env.reset()
    return spent, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="peru-2016")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args()
    warm = CroupierEnv(arguments.profile, oracle=True)
    start = time.perf_counter()
    play(warm, 1, arguments.seed + 1)
    first = time.perf_counter() - start
    plain_time, plain_decisions = play(
        CroupierEnv(arguments.profile), arguments.episodes, arguments.seed
    )
    oracle_time, oracle_decisions = play(
        CroupierEnv(arguments.profile, oracle=True), arguments.episodes, arguments.seed
    )
    assert plain_decisions == oracle_decisions, "the same seeds must give the same decisions"
    plain = plain_time / plain_decisions
    oracle = oracle_time / oracle_decisions
    print(f"{arguments.profile}: {plain_decisions} decisions in {arguments.episodes} episodes")
    print(f"  plain step:   {plain * 1e3:9.3f} ms a decision")
    print(
        f"  oracle step:  {oracle * 1e3:9.3f} ms a decision ({oracle / plain:,.0f}x the plain step)"
    )
    print(f"  first oracle episode (loads the analysis's kernels): {first:.2f} s")


if __name__ == "__main__":
    main()
