"""The compiled vector environment against Gymnasium's ``Blackjack-v1`` in the same run.

    uv run python benchmarks/vector_env.py [--profile peru-2016] [--envs 1024] [--steps 2000]
        [--rounds 10000] [--repeats 1] [--rollout-only]

Both at ``--envs`` environments, both played by the same rule of thumb (hit below 17, else
the first legal index: stand, or the betting step's deal), in numpy on the batch:
``Blackjack-v1`` under ``SyncVectorEnv``, croupier's through ``gym.make_vec(...,
vectorization_mode="vector_entry_point")``. Steps per CPU second of this process (per core:
numba runs on one thread here), and their ratio. Then ``rollout``: basic strategy inside the
kernel for ``--rounds`` rounds per environment, against the simulator (``simulate_blackjack``,
one box, basic strategy: its kernel's ``play_block``, timed around that call) for as many
rounds, in rounds per CPU second; ``--repeats N`` alternates the two N times in this process
and prints the median of the N ratios and their range (the machine's load moves either by
more than the difference). ``--rollout-only`` leaves out ``Blackjack-v1`` and the steps: the
rollout's ratio alone, e.g. ``--rollout-only --envs 256 --rounds 4000 --repeats 5`` in a few
seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym
import numpy as np

import croupier.envs  # noqa: F401 - registers the ids
from croupier.envs.vector import CroupierVectorEnv
from croupier.rules import BlackjackRules, load_profile
from croupier.simulation.blackjack_sim import BlackjackStrategy, simulate_blackjack


def _gymnasium_steps(envs: int, steps: int) -> float:
    vector = gym.vector.SyncVectorEnv([lambda: gym.make("Blackjack-v1") for _ in range(envs)])
    observation, _ = vector.reset(seed=1)
    start = time.process_time()
    for _ in range(steps):
        actions = (observation[0] < 17).astype(np.int64)
        observation, *_ = vector.step(actions)
    return envs * steps / (time.process_time() - start)


def _croupier_steps(profile: str, envs: int, steps: int) -> float:
    vector = gym.make_vec(
        f"croupier/{profile}-v0", num_envs=envs, vectorization_mode="vector_entry_point"
    )
    vector.reset(seed=0)
    vector.step(np.zeros(envs, dtype=np.int64))  # compiled before the clock starts
    observation, info = vector.reset(seed=1)
    start = time.process_time()
    for _ in range(steps):
        mask = info["action_mask"]
        hit = (observation["phase"] == 1) & (observation["total"] < 17) & (mask[:, 1] == 1)
        actions = np.where(hit, 1, mask.argmax(axis=1))
        observation, _, _, _, info = vector.step(actions)
    return envs * steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="peru-2016")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument(
        "--repeats", type=int, default=1, help="rollout and simulator alternated this many times"
    )
    parser.add_argument(
        "--rollout-only", action="store_true", help="only the rollout against the simulator"
    )
    arguments = parser.parse_args()
    if not arguments.rollout_only:
        theirs = _gymnasium_steps(arguments.envs, max(arguments.steps // 10, 20))
        ours = _croupier_steps(arguments.profile, arguments.envs, arguments.steps)
        print(
            f"{arguments.envs} environments: Blackjack-v1 (SyncVectorEnv) {theirs / 1e6:.3f} M "
            f"steps/CPU s, croupier/{arguments.profile}-v0 {ours / 1e6:.2f} M; "
            f"ratio {ours / theirs:.0f}x"
        )
    profile = load_profile(arguments.profile)
    assert isinstance(profile, BlackjackRules)
    vector = CroupierVectorEnv(arguments.envs, profile)
    vector.rollout(rounds=1, seed=0)  # compiled before the clock starts
    strategy = BlackjackStrategy.basic(profile)
    simulate_blackjack(profile, 1000, np.random.SeedSequence(0), 1, strategy, None)
    rollouts, simulators = [], []
    for _ in range(max(arguments.repeats, 1)):
        start = time.process_time()
        result = vector.rollout(rounds=arguments.rounds, seed=1)
        rollouts.append(result.rounds / (time.process_time() - start))
        tally = simulate_blackjack(
            profile, result.rounds, np.random.SeedSequence(1), 1, strategy, None
        )
        simulators.append(result.rounds / tally.cpu_seconds)
    rollout, simulator = statistics.median(rollouts), statistics.median(simulators)
    ratios = [r / s for r, s in zip(rollouts, simulators, strict=True)]
    spread = (
        f"; median of {len(ratios)} alternated, range {min(ratios):.3f}-{max(ratios):.3f}"
        if len(ratios) > 1
        else ""
    )
    print(
        f"rollout (basic strategy in the kernel) {rollout / 1e6:.2f} M rounds/CPU s, "
        f"the simulator {simulator / 1e6:.2f} M; ratio {statistics.median(ratios):.2f} "
        f"(edge {100 * result.mean:+.3f}% +- {100 * result.standard_error:.3f}){spread}"
    )


if __name__ == "__main__":
    main()
