"""The first run on a new machine, with numba's cache empty (every kernel the run takes
compiles): the whole process a user waits for, this tree against ``--against`` (a commit) in
the same run, as a ratio.

- ``simulate``: ``croupier simulate PROFILE --rounds 1000``. ``play_block`` was compiled,
  which made numba compile all three of its loops (one box with a count, one box without,
  the general loop) where a run takes one.
- ``env``: a researcher's first vector environment, ``gym.make_vec("croupier/PROFILE-v0",
  num_envs=8, vectorization_mode="vector_entry_point")``, reset and stepped ten times. Its
  packed rules derived the basic strategy (the exact analysis, compiled) for two flags the
  vector kernel never reads.

Each revision runs from its own copy of ``src`` with a fresh numba cache, turn about,
``--repeat`` times; the table shows wall seconds, the best and the median.

Run: ``uv run python benchmarks/first_run.py --against 1805bc7 [--what env]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analyze import _checkout, _commit

ROOT = Path(__file__).resolve().parent.parent


FIRST_STEPS = """
import gymnasium as gym, numpy as np, croupier.envs
env = gym.make_vec("croupier/{profile}-v0", num_envs=8, vectorization_mode="vector_entry_point")
_, info = env.reset(seed=1)
for _ in range(10):
    _, _, _, _, info = env.step(np.argmax(info["action_mask"], axis=1))
"""


def first_run(environment: dict[str, str], what: str, profile: str, rounds: int) -> float:
    """Wall seconds of ``what`` with ``environment``'s numba cache emptied first."""
    shutil.rmtree(environment["NUMBA_CACHE_DIR"], ignore_errors=True)
    if what == "env":
        command = [sys.executable, "-c", FIRST_STEPS.format(profile=profile)]
    else:
        command = [sys.executable, "-c", "from croupier.cli.main import main; main()"]
        command += ["simulate", profile, "--rounds", str(rounds)]
    start = time.perf_counter()
    subprocess.run(command, env={**os.environ, **environment}, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the commit to compare with")
    parser.add_argument("--what", choices=("simulate", "env"), default="simulate")
    parser.add_argument("--profile", default="peru-2016")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=2)
    options = parser.parse_args()
    base = _commit(options.against)
    here = {
        "PYTHONPATH": str(ROOT / "src"),
        "NUMBA_CACHE_DIR": str(Path("/tmp") / "croupier-first-run-nb"),
    }
    there = _checkout(base)
    times: dict[str, list[float]] = {"this tree": [], base: []}
    for _ in range(options.repeat):
        times["this tree"].append(first_run(here, options.what, options.profile, options.rounds))
        times[base].append(first_run(there, options.what, options.profile, options.rounds))
    if options.what == "env":
        print(f"croupier/{options.profile}-v0: make_vec, reset, ten steps; numba's cache empty")
    else:
        print(f"croupier simulate {options.profile} --rounds {options.rounds}, numba's cache empty")
    print(f"{'':<10} {'best s':>8} {'median s':>9}")
    for label, measured in times.items():
        print(f"{label:<10} {min(measured):8.2f} {statistics.median(measured):9.2f}")
    ratio = min(times[base]) / min(times["this tree"])
    print(f"this tree's first run takes 1/{ratio:.2f} of {base}'s (best against best)")


if __name__ == "__main__":
    main()
