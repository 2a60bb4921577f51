"""The simulator's runner: blocks of rounds, one ``SeedSequence`` each, on a process pool.

``--rounds N`` is cut into blocks of ``BLOCK_ROUNDS`` (the last one shorter) and block ``i``
deals from ``SeedSequence(seed).spawn(n_blocks)[i]``. The layout depends on N and the seed
only, never on the number of workers, and the blocks' tallies are added in block order with
exact integer sums: the same seed gives bit-identical figures on one worker, on twenty, or
on a Dask cluster (``--dask ADDRESS``, through ``Client.get_executor()``).

Workers are started with the ``spawn`` method (forking after numba's threads started kills
workers; STACK.md). Each block's kernel time is measured inside the worker, compilation and
set-up excluded: ``seconds`` is their sum (core-seconds), ``hands_per_second`` is per core.

>>> from croupier.rules import load_profile
>>> result = run_simulation(load_profile("peru-2016"), SimulationOptions(rounds=3_000, seed=1))
>>> result.tally.rounds, result.blocks
(3000, 1)
"""

from __future__ import annotations

import concurrent.futures
import importlib
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from croupier.rules.base import Profile
from croupier.rules.blackjack import BlackjackRules
from croupier.simulation.blackjack_sim import (
    BlackjackStrategy,
    BlackjackTally,
    Counting,
    SimulationError,
)
from croupier.simulation.tally import Tally

BLOCK_ROUNDS = 250_000
"""Rounds per block: small enough for a live progress bar and an even spread over workers."""
MAX_ROUNDS = 10**11
"""The most rounds one run takes (400,000 blocks; hours of CPU at the kernels' rates): a
larger ``--rounds`` is refused rather than laid out in memory."""
FOR_GAME_FROM = 10_000_000
"""Blackjack runs of this many rounds or more play one box by a loop compiled for their game
(``blackjack_kernel.one_box_loop``): about 14% more hands a second on an AMD EPYC, for a
compilation of about 10 s once per game and machine. A shorter run takes a second or less of
the kernel's time, where a game's first compilation would be most of the wait; it plays the
loop compiled once for every game."""

GAME_MODULES = {
    "baccarat": ("croupier.simulation.baccarat_sim", "simulate_baccarat"),
    "casino-holdem": ("croupier.simulation.casino_holdem_sim", "simulate_casino_holdem"),
}


@dataclass(frozen=True)
class SimulationOptions:
    rounds: int
    seed: int | None = None
    """``None``: fresh entropy from the operating system (reported, so the run repeats)."""
    workers: int = 1
    players: int = 1
    strategy: str | Path = "basic"
    """Blackjack: ``basic`` or a chart file; Casino Hold'em: the sim-games strategy name."""
    counting: Counting | None = None
    bankroll: float | None = None
    """Blackjack with a count: the bankroll (units) whose risk of ruin is reported."""
    dask: str | None = None
    game_count: str | None = None
    """Baccarat: its own count for the tie and pair bets (``baccarat_counting.SYSTEM``)."""


@dataclass(frozen=True)
class Block:
    """One task: a block of rounds and its seed stream (picklable for any executor)."""

    index: int
    profile: Profile
    rounds: int
    seed: np.random.SeedSequence
    players: int
    strategy: Any
    counting: Counting | None
    game_count: str | None = None
    for_game: bool = False
    """Blackjack: a run of ``FOR_GAME_FROM`` rounds or more, played by a loop compiled for
    its game."""


@dataclass(frozen=True)
class SimulationResult:
    profile: Profile
    options: SimulationOptions
    seed: int
    blocks: int
    tally: Tally
    wall_seconds: float
    strategy_name: str
    history: tuple[tuple[int, int, int], ...] = ()
    """Per block, in order: box-rounds, total net and its square (the convergence chart)."""

    @property
    def seconds(self) -> float:
        """The kernels' own time, summed over blocks (core-seconds)."""
        if isinstance(self.tally, BlackjackTally):
            return self.tally.seconds
        return float(getattr(self.tally, "seconds", self.wall_seconds))


def block_sizes(rounds: int) -> list[int]:
    """The layout of ``rounds`` in blocks: depends on the rounds alone."""
    if rounds < 1:
        raise SimulationError(f"--rounds: at least 1, not {rounds}")
    if rounds > MAX_ROUNDS:
        raise SimulationError(f"--rounds: at most {MAX_ROUNDS:,}, not {rounds:,}")
    full, rest = divmod(rounds, BLOCK_ROUNDS)
    return [BLOCK_ROUNDS] * full + ([rest] if rest else [])


def _simulate_block(block: Block) -> Tally:
    """Run one block (in a worker process)."""
    profile = block.profile
    if isinstance(profile, BlackjackRules):
        from croupier.simulation.blackjack_sim import simulate_blackjack

        def deal(rounds: int) -> Tally:
            return simulate_blackjack(
                profile, rounds, block.seed, block.players, block.strategy, block.counting,
                for_game=block.for_game,
            )  # fmt: skip

        deal(0)  # compile (or load numba's cache) on an empty block first: never timed
        return deal(block.rounds)
    module_name, function_name = GAME_MODULES[profile.game]
    simulate: Callable[..., Tally] = getattr(importlib.import_module(module_name), function_name)
    if profile.game == "casino-holdem":
        return simulate(profile, block.rounds, block.seed, block.players, block.strategy)
    return simulate(profile, block.rounds, block.seed, block.players, block.game_count)


def _check_game(profile: Profile) -> None:
    if isinstance(profile, BlackjackRules):
        return
    if profile.game not in GAME_MODULES:
        raise SimulationError(f"{profile.name}: no simulator for the game {profile.game!r}")
    module_name, _ = GAME_MODULES[profile.game]
    try:
        importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise SimulationError(
            f"{profile.name}: the {profile.game} simulator is not yet in this build "
            f"({module_name} has not landed); blackjack profiles simulate now"
        ) from None


def _strategy_for(profile: Profile, options: SimulationOptions) -> tuple[Any, str]:
    if isinstance(profile, BlackjackRules):
        if str(options.strategy) == "basic":
            return BlackjackStrategy.basic(profile), "basic"
        path = Path(options.strategy)
        return BlackjackStrategy.from_file(path, profile), str(path)
    if options.counting is not None:
        raise SimulationError(f"{profile.name}: --count is for blackjack")
    if options.game_count is not None and profile.game != "baccarat":
        raise SimulationError(f"{profile.name}: --count is for blackjack and baccarat")
    if profile.game == "baccarat":
        return "", "none (baccarat draws by rule)"
    if profile.game == "casino-holdem" and str(options.strategy) in ("basic", "optimal"):
        from croupier.rules.casino_holdem import CasinoHoldemRules
        from croupier.simulation.casino_holdem_sim import verify_boxes
        from croupier.simulation.casino_holdem_strategy import optimal_calls

        assert isinstance(profile, CasinoHoldemRules)
        verify_boxes(profile, options.players)
        # Here, once: the exact decisions (from analyze's cached table, or computed into it
        # as analyze does, minutes the first time) land on disk before any worker needs them.
        optimal_calls(profile)
        return "optimal", "optimal (exact, from analyze)"
    if profile.game == "casino-holdem" and str(options.strategy).endswith(".toml"):
        from croupier.simulation.casino_holdem import load_call_rule

        path = Path(options.strategy).resolve()  # the workers read it again, by this path
        return str(path), f"{load_call_rule(path).title} ({Path(options.strategy).name})"
    return str(options.strategy), str(options.strategy)


def _shortened(text: str, most: int = 60) -> str:
    """``text``, cut to ``most`` characters with an ellipsis: a value echoed in a message."""
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def _executor(options: SimulationOptions) -> tuple[Executor | None, Callable[[], None]]:
    """The pool to run blocks on, and how to close it; ``None`` runs in this process."""
    if options.dask is not None:
        try:
            from distributed import Client
        except ModuleNotFoundError:
            raise SimulationError(
                "--dask needs the optional extra: pip install 'croupier[dask]'"
            ) from None
        try:
            client = Client(options.dask)  # type: ignore[no-untyped-call]
        except (OSError, ValueError) as error:
            # OSError: no scheduler answered (refused, timed out, a bad host); ValueError:
            # not an address (no port, a broken IPv6 bracket). The address is named, cut
            # short (distributed's message repeats it whole).
            shown = _shortened(options.dask)
            raise SimulationError(
                f"--dask {shown}: {_shortened(str(error).replace(options.dask, shown), 160)}"
            ) from None
        return client.get_executor(), client.close  # type: ignore[no-untyped-call]
    if options.workers < 1:
        raise SimulationError(f"--workers: at least 1, not {options.workers}")
    if options.workers == 1:
        return None, lambda: None
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=options.workers, mp_context=multiprocessing.get_context("spawn")
    )
    return pool, lambda: pool.shutdown(cancel_futures=True)


def run_simulation(
    profile: Profile,
    options: SimulationOptions,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Deal ``options.rounds`` rounds of ``profile``; ``progress(rounds)`` after each block."""
    _check_game(profile)
    if isinstance(profile, BlackjackRules) and not 1 <= options.players <= profile.boxes:
        raise SimulationError(
            f"--players: {profile.name} has {profile.boxes} boxes, not {options.players}"
        )
    if options.counting is not None and options.counting.horizon > BLOCK_ROUNDS:
        raise SimulationError(
            f"--horizon: at most {BLOCK_ROUNDS} rounds per session, not {options.counting.horizon}"
        )
    sizes = block_sizes(options.rounds)
    if options.seed is not None and options.seed < 0:
        raise SimulationError(f"--seed: a whole number 0 or more, not {options.seed}")
    root = np.random.SeedSequence(options.seed)
    seed = int(root.entropy)  # type: ignore[arg-type]
    strategy, strategy_name = _strategy_for(profile, options)
    for_game = options.rounds >= FOR_GAME_FROM
    shared = (options.players, strategy, options.counting, options.game_count, for_game)
    blocks = [
        Block(i, profile, n, child, *shared)
        for i, (n, child) in enumerate(zip(sizes, root.spawn(len(sizes)), strict=True))
    ]
    executor, close = _executor(options)
    start = time.perf_counter()
    results: list[Tally | None] = [None] * len(blocks)
    try:
        if executor is None:
            for block in blocks:
                results[block.index] = _simulate_block(block)
                if progress is not None:
                    progress(block.rounds)
        else:
            futures = {executor.submit(_simulate_block, block): block for block in blocks}
            for future in concurrent.futures.as_completed(futures):
                block = futures[future]
                results[block.index] = future.result()
                if progress is not None:
                    progress(block.rounds)
    finally:
        close()
    wall = time.perf_counter() - start
    history = tuple(
        (item.rounds, item.total_net, item.total_net_squared)
        for item in results
        if item is not None
    )
    tally = results[0]
    assert tally is not None
    for item in results[1:]:  # in block order, whatever order they finished in
        assert item is not None
        tally = tally + item
    return SimulationResult(
        profile, options, seed, len(blocks), tally, wall, strategy_name, history
    )


def _round(value: float) -> float:
    return float(f"{value:.10g}")


def result_json(result: SimulationResult) -> dict[str, Any]:
    """The ``croupier simulate --json`` contract (issue 15), with a few more keys."""
    tally = result.tally
    seconds = result.seconds
    bets = tally.figures()
    cpu_seconds = float(getattr(tally, "cpu_seconds", 0.0))
    document: dict[str, Any] = {
        "profile": result.profile.name,
        "game": result.profile.game,
        "rounds": result.options.rounds,
        "hands": tally.hands,
        "seconds": seconds,
        "hands_per_second": tally.hands / seconds if seconds > 0 else None,
        "cpu_seconds": cpu_seconds,
        "hands_per_cpu_second": tally.hands / cpu_seconds if cpu_seconds else None,
        "wall_seconds": result.wall_seconds,
        "seed": result.seed,
        "workers": result.options.workers,
        "dask": result.options.dask,
        "blocks": result.blocks,
        "players": result.options.players,
        "strategy": result.strategy_name,
        "figures_per": "box and round (one unit staked on each wager)",
        "bets": bets,
        "total": tally.total(),
    }
    if isinstance(tally, BlackjackTally):
        document["shoes"] = tally.shoes
        document["rounds_on_an_exhausted_shoe"] = tally.exhausted
        if result.options.counting is not None and tally.counting is not None:
            from croupier.simulation.advantage import counting_json, risk_json

            document["counting"] = counting_json(result.options.counting, tally)
            risk = risk_json(result.options.counting, tally, result.options.bankroll)
            if risk is not None:
                document["risk"] = risk
    _add_game_keys(result, document)
    return document


def _add_game_keys(result: SimulationResult, document: dict[str, Any]) -> None:
    """Baccarat's count by count and Casino Hold'em's meter (sim-games' kernels)."""
    from croupier.simulation.game_tally import BaccaratTally, CasinoHoldemTally

    tally = result.tally
    if isinstance(tally, BaccaratTally) and tally.counting is not None:
        from croupier.rules.baccarat import BaccaratRules
        from croupier.simulation.baccarat_sim import counting_figures, tables_of

        assert isinstance(result.profile, BaccaratRules)
        document["counting"] = counting_figures(tally.counting, tables_of(result.profile))
    if isinstance(tally, CasinoHoldemTally):
        document["progressive_meter"] = {
            "opening": "long-run (a warm-up of the meter alone before each block)",
            "mean_when_settled": float(tally.mean_meter),
            "boxes_feeding_it": result.options.players,
        }
