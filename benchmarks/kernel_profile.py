"""The simulator's kernel under ``perf record``, with its compiled functions named.

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -F 4000 -e cpu-clock -o perf.data \\
        uv run python benchmarks/kernel_profile.py [--profile NAME] [--rounds N] [--objects DIR]
        [--for-game]
    perf report -i perf.data --no-children --sort dso,symbol

numba's code has no symbols for perf, and its ``NUMBA_ENABLE_PROFILING`` writes no perf map
with the llvmlite wheels (none here). So this script plays a thousand rounds (compiling the
kernel), writes ``/tmp/perf-PID.map`` naming every function of the kernel's code libraries
at the address it was loaded at, then plays ``--rounds`` rounds of the profile, one box,
basic strategy, no count (``benchmarks/simulate.py``'s basic row), which is what perf samples;
with ``--for-game`` by the loop compiled for the game (``one_box_loop``), as a long run.
A library's object code is kept only when it is compiled in the process, hence the empty
``NUMBA_CACHE_DIR``. With ``--objects DIR`` each library's object is written to ``DIR``; compiled
with ``NUMBA_DEBUGINFO=1`` they carry the kernel's line numbers, and a sample's address less
its library's base (written beside them in ``bases.txt``) is a line by
``addr2line -j .ltext -e DIR/play_one_box.o OFFSET``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from croupier.rules import BlackjackRules, load_profile
from croupier.simulation import blackjack_kernel
from croupier.simulation.blackjack_sim import BlackjackStrategy, parameters, simulate_blackjack


def _text_symbols(path: Path) -> dict[str, tuple[int, int]]:
    """The object's defined functions: name -> (offset, size)."""
    listing = subprocess.run(
        ["nm", "-S", "--defined-only", str(path)], check=True, capture_output=True, text=True
    ).stdout
    symbols = {}
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in {"t", "T"}:
            symbols[fields[3]] = (int(fields[0], 16), int(fields[1], 16))
    return symbols


def write_perf_map(objects: Path, game_loop: Any = None) -> int:
    """``/tmp/perf-PID.map`` for every kernel function compiled in this process (and
    ``game_loop``, a game's own one-box loop, named ``one_box_loop``)."""
    from numba.core.registry import CPUDispatcher  # numba's own type, absent from its stubs

    objects.mkdir(parents=True, exist_ok=True)
    entries = set()
    named = [(name, getattr(blackjack_kernel, name)) for name in dir(blackjack_kernel)]
    for name, dispatcher in [*named, ("one_box_loop", game_loop)]:
        if not isinstance(dispatcher, CPUDispatcher):
            continue
        compiled: Any
        for compiled in dispatcher.overloads.values():
            library = compiled.library
            try:
                code = library._get_compiled_object()  # numba has no public accessor
            except (RuntimeError, ValueError):
                continue  # loaded from a cache: no object kept
            path = objects / f"{name}.o"
            path.write_bytes(code)
            symbols = _text_symbols(path)
            function = compiled.fndesc.llvm_func_name
            base = library.get_pointer_to_function(function) - symbols[function][0]
            for symbol, (offset, size) in symbols.items():
                entries.add((base + offset, size, f"{name}:{symbol[:80]}"))
    lines = [f"{address:x} {size:x} {label}\n" for address, size, label in sorted(entries)]
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("".join(lines), encoding="utf-8")
    (objects / "bases.txt").write_text("".join(lines), encoding="utf-8")
    return len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="peru-2016")
    parser.add_argument("--rounds", type=int, default=30_000_000)
    parser.add_argument("--objects", type=Path, default=None, help="a folder for the objects")
    parser.add_argument(
        "--for-game", action="store_true", help="the loop compiled for the game, as long runs"
    )
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    profile = load_profile(args.profile)
    assert isinstance(profile, BlackjackRules)
    strategy = BlackjackStrategy.basic(profile)
    simulate_blackjack(
        profile, 1_000, np.random.SeedSequence(0), 1, strategy, None, for_game=args.for_game
    )
    objects = args.objects or Path(f"/tmp/kernel-profile-{os.getpid()}")
    game_loop = None
    if args.for_game:
        game_loop = blackjack_kernel.one_box_loop(parameters(profile, strategy, None), False)
    named = write_perf_map(objects, game_loop)
    if named == 0:
        sys.exit("no kernel function was compiled in this process: set NUMBA_CACHE_DIR empty")
    tally = simulate_blackjack(
        profile, args.rounds, np.random.SeedSequence(1), 1, strategy, None, for_game=args.for_game
    )
    print(
        f"{args.profile}: {tally.hands:,} hands, {tally.hands / tally.cpu_seconds / 1e6:.2f} M "
        f"hands per CPU second; {named} functions named in /tmp/perf-{os.getpid()}.map"
    )


if __name__ == "__main__":
    main()
