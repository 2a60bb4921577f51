"""How long croupier's small commands take to start, as whole processes: each sub-command's
``--help``, ``rules``, ``rules show peru-2016`` and ``settle`` of docs/settle.md's round, this
tree against another commit's (``--against REV``, default the merge base with main),
interleaved command by command, best of ``--repeat`` (5) runs each, wall and CPU seconds (CPU
the child's user + system time, steadier on a loaded machine).

Both trees run on this environment's interpreter and packages, the other one's source first
on ``PYTHONPATH`` (``git archive REV src docs`` in the temporary folder), each first run once
so that its modules' bytecode is written, as an installed package has it
(``PYTHONDONTWRITEBYTECODE`` is taken out of the children's environment).

    uv run python benchmarks/commands.py [--against REV] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
_CLI = "from croupier.cli.main import main; main()"
ROUND = {
    "game": "blackjack",
    "rules": "peru-2016",
    "shoe": ["Th", "9c", "9d", "7s", "Kd"],
    "seats": [{"seat": 1, "bets": {"main": 10, "21+3": 5}, "actions": ["stand"]}],
}
HELPS = ("settle", "verify", "play", "analyze", "simulate", "serve", "backup", "restore")
HELPS += ("manifest", "rules", "audit", "audit verify", "audit head", "audit public-key")


def _commands(round_file: Path) -> list[list[str]]:
    commands = [["--help"], ["rules"], ["rules", "show", "peru-2016"]]
    commands.append(["settle", str(round_file)])
    commands += [[*name.split(), "--help"] for name in HELPS]
    return commands


def _checkout(revision: str) -> Path:
    """``revision``'s source and rules document, unpacked once in the temporary folder."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short=7", revision],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout.strip()
    folder = Path(tempfile.gettempdir()) / f"croupier-commands-{commit}"
    if not (folder / "src").is_dir():
        folder.mkdir(exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", commit, "src", "docs"], check=True, capture_output=True, cwd=ROOT
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "src"


def _timed(arguments: list[str], environment: dict[str, str], folder: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        arguments,
        env=environment,
        cwd=folder,
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--against", metavar="REV", help="the other tree (default: main's merge base)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command (best of)")
    arguments = parser.parse_args()
    if arguments.repeat < 1:
        parser.error("--repeat: 1 or more")
    against = (
        arguments.against
        or subprocess.run(
            ["git", "merge-base", "main", "HEAD"],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).stdout.strip()[:7]
    )
    left_out = {"PYTHONDONTWRITEBYTECODE", "PYTHONPATH"}
    environment = {k: v for k, v in os.environ.items() if k not in left_out}
    trees = {"this": environment, against: environment | {"PYTHONPATH": str(_checkout(against))}}
    with tempfile.TemporaryDirectory(prefix="croupier-commands-") as scratch:
        folder = Path(scratch)
        round_file = folder / "round.json"
        round_file.write_text(json.dumps(ROUND), encoding="utf-8")
        print(f"load average before: {os.getloadavg()}")
        print(f"best of {arguments.repeat}, interleaved, wall/CPU seconds:")
        print(f"{'command':<40}{'this':<14}{against:<14}{against} / this, wall/CPU")
        for command in _commands(round_file):
            process = [sys.executable, "-c", _CLI, *command]
            for tree in trees.values():
                _timed(process, tree, folder)  # bytecode written, caches warm
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
            for _ in range(arguments.repeat):
                for name, tree in trees.items():
                    runs[name].append(_timed(process, tree, folder))
            best = {
                name: (min(w for w, _ in found), min(c for _, c in found))
                for name, found in runs.items()
            }
            label = " ".join(["croupier", *command]).replace(str(round_file), "ROUND")
            mine, theirs = best["this"], best[against]
            print(
                f"{label:<40}{mine[0]:.2f}/{mine[1]:<9.2f}{theirs[0]:.2f}/{theirs[1]:<9.2f}"
                f"{theirs[0] / mine[0]:.2f}/{theirs[1] / mine[1]:.2f}"
            )
        print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
