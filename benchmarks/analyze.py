"""``croupier analyze`` timings per profile (after compilation), as ratios against a
straightforward pure-Python reference measured in the same run.

- Baccarat: the compiled enumeration against a pure-Python recursive enumeration of the same
  shoe (same order of loops, same exact integer counts; the results are compared too).
- Blackjack: the analysis (basic strategy + the round's value) against the previous
  implementation, kept in ``benchmarks/blackjack_python_reference.py``: the player's
  recursion in pure Python over every composition, the dealer's probabilities compiled one
  composition at a time. Both run here on the same profile; their figures must be identical
  (checked). A second, estimated reference adds what the dealer's computations of that
  reference would cost in pure Python too: each up card's pure-Python dealer time on the full
  shoe, times the number of dealer computations the reference made for that up card.
  Untimed, the figures of both are also compared on 15 other deck counts and rule sets.

Run: ``uv run python benchmarks/analyze.py`` (``--startup``: only where a warm command's time
goes, layer by layer: interpreter, CLI, numba, the analysis modules, the whole command;
``--joint``: only what taking the split rounds' hands jointly costs, the analysis with and
without it in one process, CPU seconds; ``--command``: only the whole command per profile
and variant, interleaved with the branch's base, the code before the speed work and the
previous implementation; ``--command --base-only``: with the branch's base only;
``--command --base-only --against REV``: with that commit instead)
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

import blackjack_python_reference as reference
from croupier.analysis import blackjack_exact as exact
from croupier.analysis.baccarat import RANK_VALUE, deal_counts
from croupier.analysis.blackjack import (
    Game,
    RoundResult,
    Strategy,
    derive_strategy,
    evaluate_round,
)
from croupier.analysis.dealer import full_shoe
from croupier.analysis.profile_analysis import analyse_profile
from croupier.rules import load_profile, shipped_profile_names
from croupier.rules.baccarat import PairBy
from croupier.rules.blackjack import BlackjackRules, HoleCard


def best_of(function: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


# --- pure-Python references --------------------------------------------------------------


def python_baccarat(decks: int) -> dict[tuple[int, int], int]:
    counts = [4 * decks] * 13
    values = [int(v) for v in RANK_VALUE]
    n = 52 * decks
    result: Counter[tuple[int, int]] = Counter()

    def banker_draws(banker: int, third: int) -> bool:
        return (
            banker <= 2
            or (banker == 3 and third != 8)
            or (banker == 4 and 2 <= third <= 7)
            or (banker == 5 and 4 <= third <= 7)
            or (banker == 6 and 6 <= third <= 7)
        )

    def deal(cards: list[int], weight: int) -> None:
        if len(cards) < 4:
            for rank in range(13):
                if counts[rank]:
                    w = weight * counts[rank]
                    counts[rank] -= 1
                    deal([*cards, rank], w)
                    counts[rank] += 1
            return
        player = (values[cards[0]] + values[cards[2]]) % 10
        banker = (values[cards[1]] + values[cards[3]]) % 10
        left = n - 4
        if player >= 8 or banker >= 8 or (player >= 6 and banker >= 6):
            result[(player, banker)] += weight * left * (left - 1)
            return
        by_value = [0] * 10
        for rank in range(13):
            by_value[values[rank]] += counts[rank]
        if player >= 6:
            for v in range(10):
                result[(player, (banker + v) % 10)] += weight * by_value[v] * (left - 1)
            return
        for v in range(10):
            if not by_value[v]:
                continue
            w = weight * by_value[v]
            by_value[v] -= 1
            final = (player + v) % 10
            if banker_draws(banker, v):
                for u in range(10):
                    result[(final, (banker + u) % 10)] += w * by_value[u]
            else:
                result[(final, banker)] += w * (left - 1)
            by_value[v] += 1

    deal([], 1)
    return dict(result)


def python_dealer(counts: list[int], up: int, hits_soft_17: bool) -> list[float]:
    out = [0.0] * 7

    def draw(remaining: int, hard: int, ace: bool, probability: float, first: bool) -> None:
        for rank in range(10):
            if not counts[rank]:
                continue
            p = probability * counts[rank] / remaining
            if first and ((up == 0 and rank == 9) or (up == 9 and rank == 0)):
                out[6] += p
                continue
            new_hard = hard + rank + 1
            new_ace = ace or rank == 0
            soft = new_ace and new_hard + 10 <= 21
            total = new_hard + 10 if soft else new_hard
            if total > 21:
                out[5] += p
            elif total >= 17 and not (total == 17 and soft and hits_soft_17):
                out[total - 17] += p
            else:
                counts[rank] -= 1
                draw(remaining - 1, new_hard, new_ace, p, False)
                counts[rank] += 1

    draw(sum(counts), up + 1, up == 0, 1.0, True)
    return out


def main() -> None:
    print("croupier analyze: compiled time per profile vs a pure-Python reference (same run)\n")
    for name in shipped_profile_names():
        analyse_profile(load_profile(name))  # compile and warm caches

    # Baccarat.
    for decks in (8,):
        compiled = best_of(lambda decks=decks: deal_counts(decks, PairBy.RANK))
        start = time.perf_counter()
        baccarat_reference = python_baccarat(decks)
        python_time = time.perf_counter() - start
        counts, _ = deal_counts(decks, PairBy.RANK)
        same = all(
            int(counts[p, b].sum()) == baccarat_reference.get((p, b), 0)
            for p in range(10)
            for b in range(10)
        )
        print(
            f"baccarat kernel, {decks} decks: {compiled * 1e3:.1f} ms compiled, "
            f"{python_time:.2f} s pure Python: x{python_time / compiled:,.0f} "
            f"(identical counts: {same})"
        )

    # Blackjack dealer recursion, per up card, on the full shoe minus the up card.
    python_per_up: dict[int, float] = {}
    for up in range(10):
        counts = [int(c) for c in full_shoe(6)]
        counts[up] -= 1
        start = time.perf_counter()
        python_dealer(counts, up, False)
        python_per_up[up] = time.perf_counter() - start

    for name in shipped_profile_names():
        profile = load_profile(name)
        whole = best_of(lambda profile=profile: _analysed_anew(profile), repeat=3)
        print(f"{name:<26} analyze: {whole * 1e3:8.1f} ms")
        if isinstance(profile, BlackjackRules):
            blackjack_line(profile, python_per_up)
    print(f"\n{variants_line()}")
    print()
    whole_command_lines()
    print(
        f"\n({os.cpu_count()} cores seen; load averages {os.getloadavg()}; the compiled "
        "analysis runs the ten up cards on threads; median pure-Python dealer time per up "
        f"card: {statistics.median(python_per_up.values()) * 1e3:.1f} ms)"
    )


def _analysed_anew(profile: Any) -> None:
    exact.up_card.cache_clear()  # blackjack keeps each up card's values for the same rules
    analyse_profile(profile)


def variants_line() -> str:
    """The compiled analysis against the previous Python one on other deck counts and rules
    (figures only, untimed): every deck count and rule branch the kernel reads."""
    base = Game.of(_blackjack_rules("peru-2016"))
    variants = [
        Game.of(_blackjack_rules(name), decks)
        for name in ("peru-2016", "spain-1979", "veintiuno-real")
        for decks in (1, 2, 8)
    ]
    variants += [
        dataclasses.replace(base, hits_soft_17=True, hole_card=HoleCard.PEEK),
        dataclasses.replace(base, double_any_two=True, double_after_split=False),
        dataclasses.replace(base, resplit_aces=True, max_hands=4),
        dataclasses.replace(base, blackjack_pays=Fraction(6, 5)),
        dataclasses.replace(Game.of(_blackjack_rules("spain-1979")), max_hands=1),
        dataclasses.replace(Game.of(_blackjack_rules("veintiuno-real")), all_bets_lost=True),
    ]
    identical = same_distribution = same_chart = 0
    for game in variants:
        reference_strategy = reference.derive_strategy(game)
        # The reference takes each split hand alone, as evaluate_round(joint=False) does; by
        # default the pairs that cannot be re-split are taken jointly, another distribution.
        result = evaluate_round(game, reference_strategy, joint=False)
        reference_result = reference.evaluate_round(game, reference_strategy)
        same_chart += derive_strategy(game) == reference_strategy
        identical += _same_round(result, reference_result)
        same_distribution += _same_round(result, reference_result, wagered=False)
    return (
        f"blackjack: compiled distributions (split hands each alone) equal (to 1e-12) to the "
        f"previous Python ones, under the same chart, on {same_distribution} of {len(variants)} "
        "variants (1, 2, 8 decks of each profile; H17 with peek; any two without DAS; re-split "
        "Aces to 4 hands; 6:5; no split; Veintiuno Real with all bets), the amount wagered too "
        f"on {identical} (under the peek 3.4e-3 below the previous one, which appears to count "
        "doubles and splits against the dealer blackjacks the peek ends the round on; with the "
        "hole card dealt both agree); the chart derived from exact composition "
        f"values is the previous one on {same_chart} of them (it differs where one deck or "
        "two put a cell the other way: issue 12)"
    )


def _same_round(
    result: RoundResult, reference_result: RoundResult, *, wagered: bool = True
) -> bool:
    """The same figures to 1e-12 (the distribution is now summed by composition, in another
    order than the reference's recursion over card sequences)."""
    nets = set(result.distribution) | set(reference_result.distribution)
    return (
        all(
            abs(result.distribution.get(net, 0.0) - reference_result.distribution.get(net, 0.0))
            <= 1e-12
            for net in nets
        )
        and (
            not wagered or abs(result.expected_wagered - reference_result.expected_wagered) <= 1e-12
        )
        and abs(result.split_probability - reference_result.split_probability) <= 1e-12
    )


def _blackjack_rules(name: str) -> BlackjackRules:
    rules = load_profile(name)
    assert isinstance(rules, BlackjackRules)
    return rules


def blackjack_line(rules: BlackjackRules, python_per_up: dict[int, float]) -> None:
    game = Game.of(rules)

    def compiled_analysis() -> tuple[Strategy, RoundResult]:
        exact.up_card.cache_clear()  # time the computation, not its kept results
        strategy = derive_strategy(game)
        return strategy, evaluate_round(game, strategy)

    compiled = best_of(compiled_analysis, repeat=5)
    calls: Counter[int] = Counter()
    original = reference.dealer_outcomes

    def counting(counts: np.ndarray, up: int, hits_soft_17: bool) -> Any:
        calls[int(up)] += 1
        return original(counts, up, hits_soft_17)

    reference.dealer_outcomes = counting
    try:
        start = time.perf_counter()
        reference_strategy = reference.derive_strategy(game)
        reference_result = reference.evaluate_round(game, reference_strategy)
        python_time = time.perf_counter() - start
    finally:
        reference.dealer_outcomes = original
    identical = _same_round(evaluate_round(game, reference_strategy, joint=False), reference_result)
    all_python = python_time + sum(python_per_up[up] * count for up, count in calls.items())
    print(
        f"{'':<26} blackjack analysis {compiled * 1e3:.1f} ms compiled; the previous "
        f"Python player recursion {python_time * 1e3:.0f} ms: x{python_time / compiled:,.1f} "
        f"(distribution under its chart, split hands each alone, equal to 1e-12: {identical}); with its {sum(calls.values()):,} dealer "
        f"computations in pure Python too, about {all_python:.0f} s: "
        f"x{all_python / compiled:,.0f}"
    )


# --- the whole command, as a user runs it ------------------------------------------------

PREVIOUS = "47a8212"
"""The last commit before exact split values (issue 12): the previous implementation."""
BASE = "main"
"""The branch this one starts from (its merge base with ``HEAD``, resolved when the
benchmark runs): a change's A/B against the code it changes, in the same run."""
BEFORE_SPEED = "5fcd391"
"""The last commit before the whole command's speed work (issue 12, item 2): same figures,
bit for bit (``tests/consistency/test_analyze_json_is_unchanged.py``)."""
COMMAND_CASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("peru-2016", ()),
    ("spain-1979", ()),
    ("veintiuno-real", ()),
    ("peru-2016", ("--decks", "1")),
    ("peru-2016", ("--strategy", "composition")),
    ("peru-2016", ("--strategy", "cdp1")),
)
_CLI = "from croupier.cli.main import main; main()"
_REFERENCE = (
    "import sys; sys.path.insert(0, {benchmarks!r}); import blackjack_python_reference as r; "
    "from croupier.analysis.blackjack import Game; from croupier.rules import load_profile; "
    "game = Game.of(load_profile({name!r}), {decks}); "
    "r.evaluate_round(game, r.derive_strategy(game))"
)


def _run(arguments: list[str], environment: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        arguments,
        env=environment,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def _merge_base(branch: str) -> str:
    """The commit ``HEAD`` branched from ``branch`` at (``HEAD`` itself on that branch)."""
    found = subprocess.run(
        ["git", "merge-base", branch, "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    return found[:7]


def _commit(revision: str) -> str:
    """``revision``'s commit, abbreviated as ``_merge_base`` does."""
    found = subprocess.run(
        ["git", "rev-parse", revision], check=True, capture_output=True, text=True
    ).stdout.strip()
    return found[:7]


def _checkout(commit: str) -> dict[str, str]:
    """The package's source (and the rules document its profiles cite) at ``commit``, kept
    in the temporary folder with its own numba cache so that a later run need not compile
    it again, and the environment that runs it."""
    folder = Path(tempfile.gettempdir()) / f"croupier-bench-{commit}"
    if not (folder / "src").is_dir():
        folder.mkdir(exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", commit, "src", "docs"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return {"PYTHONPATH": str(folder / "src"), "NUMBA_CACHE_DIR": str(folder / "nb")}


def _width(label: str) -> int:
    """A column's width: its label's and a space, at least a cell's."""
    return max(15, len(label) + 1)


def _cell(times: tuple[float, float]) -> str:
    """Wall/CPU seconds, or a dash where the revision was not run on this row."""
    wall, cpu = times
    return f"{'-':>7} {'':<7}" if math.isnan(wall) else f"{wall:7.2f}/{cpu:<7.2f}"


def _ratio(times: tuple[float, float], computed: tuple[float, float]) -> str:
    wall, cpu = times
    if math.isnan(wall):
        return f"{'-':>5} {'':<5}"
    return f"{wall / computed[0]:5.2f}/{cpu / computed[1]:<5.2f}"


def whole_command_lines(
    repeat: int = 5,
    *,
    history: bool = True,
    against: str | None = None,
    base_environment: dict[str, str] | None = None,
) -> None:
    """``croupier analyze PROFILE --json`` as whole processes (interpreter, imports, numba's
    cache, the analysis), best of ``repeat`` rounds in which each implementation runs once in
    turn (interleaved, so that they share the same load): computed (an empty result cache),
    printed from the result cache (``analysis.result_cache``), the code before the speed
    work (commit ``BEFORE_SPEED``, computed), the previous implementation (commit
    ``PREVIOUS``) and the pure-Python player recursion of ``blackjack_python_reference`` run
    as a process (once); ratios against the computed run. ``BASE``'s tree (the code this
    branch changes, computed) runs in each round too, first in the ratios. Each
    implementation's kernels are compiled (or loaded) once first, and its modules' bytecode
    written then, as an installed package has it (``PYTHONDONTWRITEBYTECODE`` in the
    benchmark's own environment would otherwise have every run compile the package's
    modules from source: a tenth of a second the user never pays). ``history=False``
    (``--command --base-only``): only the computed, cached and ``BASE`` runs, for an A/B on a
    loaded machine, where each older tree's first compilation alone takes minutes.
    ``against`` (``--command --base-only --against REV``): that commit in place of
    ``BASE``'s, to measure one commit of the branch against the one before it.
    ``base_environment`` (``--base-env NAME=VALUE``): variables set for ``BASE``'s runs only,
    to measure a setting (``--against HEAD --base-env OPENBLAS_NUM_THREADS=2``: the same
    code with numpy's BLAS on two threads)."""
    scratch = Path(tempfile.mkdtemp(prefix="croupier-bench-"))
    base = dict(os.environ)
    base.pop("PYTHONDONTWRITEBYTECODE", None)
    base_commit = _merge_base(BASE) if against is None else _commit(against)
    on_base = base | _checkout(base_commit) | (base_environment or {})
    before = base | _checkout(BEFORE_SPEED)
    old = base | _checkout(PREVIOUS)
    print(
        f"whole command, best of {repeat} interleaved rounds (wall/CPU seconds, CPU the "
        "child's user + system time, steadier on a loaded machine; ratios against "
        "'computed', all measured in this run on this machine):"
    )
    # Only the revisions this run measures have columns (``--base-only``: the branch and its
    # base); a row where one was not run (the previous implementation had no --strategy)
    # shows a dash, not a figure.
    base_label = BASE if against is None else against
    columns = [("computed", "computed"), ("cached", "cached")]
    columns.append(
        ("base", base_commit if base_label == base_commit else f"{base_label} {base_commit}")
    )
    if base_environment:
        print("base runs with " + " ".join(f"{k}={v}" for k, v in base_environment.items()))
    ratio_columns = [("base", base_label)]
    if history:
        columns += [("before", BEFORE_SPEED), ("old", PREVIOUS), ("python", "Python ref")]
        ratio_columns += [("before", BEFORE_SPEED), ("old", PREVIOUS), ("python", "Python")]
    print(
        f"{'profile':<16}{'options':<22}"
        + "".join(label.ljust(_width(label)) for _, label in columns)
        + "".join(f"{'x ' + label:<11}" for _, label in ratio_columns)
    )
    for name, options in COMMAND_CASES:
        command = [sys.executable, "-c", _CLI, "analyze", name, *options, "--json"]
        results = scratch / f"results-{name}-{'-'.join(options)}"

        def fresh(results: Path = results) -> dict[str, str]:
            for old_file in results.glob("*"):
                old_file.unlink()
            return base | {"CROUPIER_CACHE_DIR": str(results)}

        def empty(environment: dict[str, str], results: Path = results) -> dict[str, str]:
            for old_file in results.glob("*"):
                old_file.unlink()
            return environment | {"CROUPIER_CACHE_DIR": str(results)}

        # the previous implementation had no --strategy
        with_previous = history and "--strategy" not in options
        _run(command, fresh())  # numba's cache loaded once
        _run(command, empty(on_base))
        if history:
            _run(command, empty(before))
        if with_previous:
            _run(command, empty(old))
        times: dict[str, list[tuple[float, float]]] = {
            "computed": [],
            "cached": [],
            "base": [],
            "before": [],
            "old": [],
        }
        for _ in range(repeat):
            times["computed"].append(_timed(command, fresh()))
            cached_environment = base | {"CROUPIER_CACHE_DIR": str(results)}
            times["cached"].append(_timed(command, cached_environment))
            times["base"].append(_timed(command, empty(on_base)))
            if history:
                times["before"].append(_timed(command, empty(before)))
            if with_previous:
                times["old"].append(_timed(command, empty(old)))
        best = {
            key: (min(w for w, _ in runs), min(c for _, c in runs)) if runs else (math.nan,) * 2
            for key, runs in times.items()
        }
        decks = options[1] if "--decks" in options else "None"
        script = _REFERENCE.format(benchmarks=str(Path(__file__).parent), name=name, decks=decks)
        python_time = math.nan, math.nan
        if with_previous:
            python_time = _timed([sys.executable, "-c", script], base)
        best["python"] = python_time
        print(
            f"{name:<16}{' '.join(options):<22}"
            + "".join(_cell(best[key]).ljust(_width(label)) for key, label in columns)
            + "".join(_ratio(best[key], best["computed"]) for key, _ in ratio_columns)
        )
    print(f"(load averages after: {os.getloadavg()})")


# --- where a warm command's time goes -------------------------------------------------------

_STARTUP_STEPS: tuple[tuple[str, str], ...] = (
    ("the interpreter alone", "pass"),
    ("+ the CLI (typer, rich, the rules)", "import croupier.cli.analyze_command"),
    (
        "+ numba's array functions, BLAS probe skipped",
        "import croupier.cli.analyze_command as a; a._load_numba_for_cached_kernels()",
    ),
    (
        "+ numba's array functions as numba loads them",
        "import croupier.cli.analyze_command; import numba.np.arraymath",
    ),
    (
        "+ the blackjack analysis modules",
        "import croupier.cli.analyze_command as a; a._load_numba_for_cached_kernels(); "
        "import croupier.analysis.profile_analysis",
    ),
)


def _timed(arguments: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = _run(arguments, environment)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def startup_lines(repeat: int = 7) -> None:
    """Each layer of a warm ``croupier analyze peru-2016 --json`` (computed, an empty result
    cache) as a process of its own, best of ``repeat``, wall and CPU seconds, as shares of
    the whole command measured in the same run. CPU time is the steadier figure on a loaded
    machine; the command's own share of the analysis runs on threads, so its CPU may exceed
    its wall time."""
    base = dict(os.environ)
    scratch = Path(tempfile.mkdtemp(prefix="croupier-startup-"))
    command = [sys.executable, "-c", _CLI, "analyze", "peru-2016", "--json"]

    def fresh() -> dict[str, str]:
        for old_file in scratch.glob("*"):
            old_file.unlink()
        return base | {"CROUPIER_CACHE_DIR": str(scratch)}

    _run(command, fresh())  # numba's cache loaded once
    runs = [_timed(command, fresh()) for _ in range(repeat)]
    whole_wall, whole_cpu = min(w for w, _ in runs), min(c for _, c in runs)
    print(
        f"where the warm command's time goes (best of {repeat}; shares of the whole command "
        "measured in this run):"
    )
    print(f"{'step':<52}{'wall s':>8}{'share':>7}{'cpu s':>8}{'share':>7}")
    for label, code in _STARTUP_STEPS:
        steps = [_timed([sys.executable, "-c", code], base) for _ in range(repeat)]
        wall, cpu = min(w for w, _ in steps), min(c for _, c in steps)
        print(f"{label:<52}{wall:8.3f}{wall / whole_wall:7.0%}{cpu:8.3f}{cpu / whole_cpu:7.0%}")
    print(f"{'analyze peru-2016 --json (computed)':<52}{whole_wall:8.3f}{1:7.0%}{whole_cpu:8.3f}")


# --- what the split rounds' joint distribution costs ---------------------------------------


def joint_lines(repeat: int = 3) -> None:
    """``analyse_blackjack`` of each blackjack profile with the split rounds' hands taken
    jointly (``blackjack_split_round``: the exact two-hand rounds) and without (every split
    round approximated), CPU seconds of this process (the analysis runs on threads), best
    of ``repeat``, each run from empty per-up-card tables; the ratio is the joint's cost."""
    from croupier.analysis.blackjack import analyse_blackjack

    def cpu(rules: BlackjackRules, *, joint: bool) -> float:
        exact.up_card.cache_clear()
        start = time.process_time()
        analyse_blackjack(rules, joint=joint)
        return time.process_time() - start

    print(f"split rounds taken jointly (best of {repeat}, CPU seconds of the analysis):")
    print(f"{'profile':<16}{'joint':>8}{'approx.':>9}{'x':>7}")
    for name in ("peru-2016", "spain-1979", "veintiuno-real"):
        rules = _blackjack_rules(name)
        cpu(rules, joint=True)  # kernels loaded
        with_joint = min(cpu(rules, joint=True) for _ in range(repeat))
        without = min(cpu(rules, joint=False) for _ in range(repeat))
        print(f"{name:<16}{with_joint:8.2f}{without:9.2f}{with_joint / without:7.1f}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("``", "'"),
        epilog="Without an option: every part, then --startup's lines.",
    )
    part = parser.add_mutually_exclusive_group()
    part.add_argument("--startup", action="store_true", help="where a warm command's time goes")
    part.add_argument("--joint", action="store_true", help="what the joint split rounds cost")
    part.add_argument("--command", action="store_true", help="the whole command per variant")
    parser.add_argument(
        "--base-only", action="store_true", help="with --command: the branch's base only"
    )
    parser.add_argument(
        "--against", metavar="REV", help="with --command --base-only: this commit, not the base"
    )
    parser.add_argument(
        "--base-env",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="with --command --base-only: set this variable for the base's runs only",
    )
    arguments = parser.parse_args()
    if any("=" not in pair or not pair.split("=", 1)[0] for pair in arguments.base_env):
        parser.error("--base-env takes NAME=VALUE")
    if arguments.base_env and not arguments.base_only:
        parser.error("--base-env goes with --command --base-only")
    if arguments.base_only and not arguments.command:
        parser.error("--base-only goes with --command")
    if arguments.against and not arguments.base_only:
        parser.error("--against goes with --command --base-only")
    return arguments


if __name__ == "__main__":
    arguments = _arguments()
    if arguments.startup:
        startup_lines()
    elif arguments.joint:
        joint_lines()
    elif arguments.command:
        whole_command_lines(
            history=not arguments.base_only,
            against=arguments.against,
            base_environment=dict(pair.split("=", 1) for pair in arguments.base_env),
        )
    else:
        main()
        print()
        startup_lines()
