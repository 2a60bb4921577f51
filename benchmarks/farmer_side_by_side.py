"""``croupier analyze PROFILE --json`` side by side with Eric Farmer's exact C++ engine, both
as whole processes, in one run (issue 12, item 2: "no slower than Farmer's engine on the same
rules ... measured side by side with his").

Farmer's engine is his basic strategy calculator (github.com/possibly-wrong/blackjack,
``src/strategy.cpp`` over ``src/blackjack.cpp``): exact dealer probabilities for every player
hand by composition, exact split values up to four hands, composition-dependent strategy
(CDZ-: the unsplit hand's best play reused after a split). It reads its rule questions from
standard input, writes its strategy table and the round's expected value to a file, then
asks for hands to look up. This driver answers the questions and then "0 0" (no hand: from
his 6.7 on the program ends there), and reads its output until that last prompt or its end
(the file is written and closed by then), stopping the program if it still runs: its time is
everything up to the prompt. It prints the version the program announces. Its code stays
outside the repository; the driver takes the binary's path.

Measured so far (how to build each: ``how_to_build``): 6.5 (commit 677431e), whose dealer
code is a recursion over the dealer's draws; and 7.5 (commit 7923e4a, the newest version found
whole in the stored copies of his repository; later 2017 commits make the number type a
parameter and were not built), where the dealer's probabilities are generated straight-line
code (``src/dealer_s17.hpp``). 7.5 asks the same questions. Two files it includes were not
copied and are stubbed in the build: ``dealer_h17.hpp`` (the H17 dealer, which no profile
here uses; the stub stops the program) and ``blackjack_pdf.h`` (the distribution of a
round's outcomes, used only for a standard deviation in games without re-splits; the stub
returns none, so his program does a little less than his real 7.5).

Each variant is a shipped profile with Farmer's answers for the nearest game his engine
plays (US dealer peek, at most four hands, a split Ace and ten a plain 21). Where the rules
are the same the house edges must agree to 1e-9 of the initial bet; where they are not, the
difference is printed and the variant says why (``same_game`` is False):

- ``peru-2016`` as shipped: its hole card is dealt and never checked, and a dealer blackjack
  takes the original bet only, but a hand that busted stays lost, doubles and splits
  included (docs/rules.md D-BJ-10). Under the peek the player never doubles or splits into
  a dealer blackjack, so the shipped game costs the player a little more.
- ``peru-2016`` with ``hole_card = "peek"`` (written to a temporary profile, as
  ``tests/oracles/test_blackjack_farmer_cdz.py`` does): Farmer's game exactly.
- ``veintiuno-real``: doubling on hard 9-11 and four hands without re-split Aces are his
  too, but its split Ace and ten is a blackjack (D-BJ-9) and its hole card follows D-BJ-10.
- ``spain-1979``: no hole card and every bet lost to a dealer blackjack, hands split without
  limit; his engine has neither (it runs the peeked game with four hands and re-split Aces).

croupier runs warm: one untimed run of each command first (numba's cache and the modules'
bytecode in place), then every timed run with an empty result cache (``CROUPIER_CACHE_DIR``
pointed at a folder emptied before each run), so that it computes rather than prints a kept
answer, as ``benchmarks/analyze.py --command`` does. Farmer's program, croupier's
``--strategy basic`` and ``--strategy composition`` run in turn, ``--repeats`` rounds
(interleaved, so that they share the same load); best of the rounds, wall and CPU seconds
(the child's user + system time), ratios croupier / Farmer.

Run: ``uv run python benchmarks/farmer_side_by_side.py --farmer /tmp/farmer/strategy
[--repeats N]``. Without ``--farmer`` it says how to obtain and build his engine.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROFILES = Path(__file__).parents[1] / "src/croupier/rules/profiles"
FARMER_SOURCE = "https://github.com/possibly-wrong/blackjack"
FARMER_BUILDS = (
    "version 6.5 (commit 677431e): src/blackjack.h, src/blackjack.cpp, src/strategy.cpp;\n"
    "    g++ -O2 -o strategy src/strategy.cpp src/blackjack.cpp",
    "version 7.5 (commit 7923e4a; src/dealer_s17.hpp as of commit 6327890, 242,253 "
    "characters): src/blackjack.h, src/blackjack.cpp, src/strategy.cpp, src/dealer_s17.hpp;\n"
    "    in a folder stubs/: dealer_h17.hpp (fprintf(stderr, ...); abort();) and "
    "blackjack_pdf.h (includes blackjack.h and <map>;\n"
    "    an inline compute_pdf(const BJShoe&, BJRules&, BJStrategy&) returning an empty "
    "std::map<double, double>);\n"
    "    g++ -O2 -Istubs -Isrc -include cstdio -include cstdlib -o strategy "
    "src/strategy.cpp src/blackjack.cpp",
)
FARMER_PROMPT = b"Enter dealer up card and player hand"
FARMER_NO_HAND = "0 0"
"""His last prompt's answer for no hand: the program ends from 6.7 on; 6.5 asks again."""
_CLI = "from croupier.cli.main import main; main()"
STRATEGIES = ("basic", "composition")


@dataclasses.dataclass(frozen=True)
class Variant:
    """A shipped profile, how croupier runs it, and Farmer's answers for his nearest game."""

    label: str
    profile: str
    farmer_answers: tuple[str, ...]
    """In the order his program asks: decks; dealer hits soft 17; double on any total (if not:
    on 9); double on soft hands; double on any number of cards; double after a split;
    re-split (if so: re-split Aces); CDZ- post-split strategy; late surrender; blackjack
    payoff. The output file's name follows."""
    same_game: bool
    peeked: bool = False
    """croupier runs the profile with its hole card peeked (a temporary profile file)."""
    note: str = ""


PERU = ("6", "n", "y", "y", "n", "y", "y", "n", "y", "n", "1.5")
"""6 decks, S17, double any two (soft too), no doubling on 3+ cards, DAS, re-split to 4 hands,
no re-split Aces, CDZ-, no surrender, 3:2."""

VARIANTS = (
    Variant(
        "peru-2016",
        "peru-2016",
        PERU,
        same_game=False,
        note="hole card dealt, OBO with busted hands lost (D-BJ-10); Farmer: peek",
    ),
    Variant("peru-2016 peeked", "peru-2016", PERU, same_game=True, peeked=True),
    Variant(
        "veintiuno-real",
        "veintiuno-real",
        ("6", "n", "n", "y", "n", "n", "y", "y", "n", "y", "n", "1.5"),
        same_game=False,
        note="split A+T a blackjack (D-BJ-9), OBO (D-BJ-10), Veintiuno Real; Farmer: peek",
    ),
    Variant(
        "spain-1979",
        "spain-1979",
        ("6", "n", "n", "y", "n", "n", "y", "y", "y", "y", "n", "1.5"),
        same_game=False,
        note="no hole card, all bets lost, unlimited splits; Farmer: peek, 4 hands, RSA",
    ),
)


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_farmer(binary: Path, answers: tuple[str, ...], table: Path) -> tuple[float, float, str]:
    """(wall, CPU seconds, the version it announces) of Farmer's program up to its last
    prompt, the table written."""
    cpu_before = _child_cpu()
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(("\n".join((*answers, str(table), FARMER_NO_HAND)) + "\n").encode())
    process.stdin.close()
    head = seen = b""
    try:
        while FARMER_PROMPT not in seen:
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError(f"{binary} ended before its last prompt")
            head = (head + chunk)[:200]
            seen = seen[-len(FARMER_PROMPT) :] + chunk
        wall = time.perf_counter() - start
    finally:
        # 7.x has ended at "0 0" (its output comes at its exit); 6.5 keeps asking: stop it,
        # and a program that failed is reaped too.
        process.kill()
        process.wait()
        process.stdout.close()
    found = re.search(rb"version (\S+)", head)
    return wall, _child_cpu() - cpu_before, found.group(1).decode() if found else "unknown"


def farmer_house_edge(table: Path) -> float:
    """The house edge, a fraction of the initial bet, from the table's "Total" line (the
    player's expected value in percent, to 9 decimals)."""
    found = re.search(r"Total \|\s+(-?[0-9.]+)", table.read_text(encoding="ascii"))
    if found is None:
        raise RuntimeError(f"no overall expected value in {table}")
    return -float(found.group(1)) / 100


def run_croupier(target: str, strategy: str, results: Path) -> tuple[float, float, float]:
    """(wall, CPU seconds, house edge) of ``croupier analyze TARGET --strategy S --json``
    computed: the result cache emptied first."""
    for kept in results.glob("*"):
        kept.unlink()
    environment = dict(os.environ) | {"CROUPIER_CACHE_DIR": str(results)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
    command = [sys.executable, "-c", _CLI, "analyze", target, "--strategy", strategy, "--json"]
    cpu_before = _child_cpu()
    start = time.perf_counter()
    printed = subprocess.run(
        command, env=environment, check=True, capture_output=True, text=True
    ).stdout
    wall = time.perf_counter() - start
    house_edge = float(json.loads(printed)["bets"]["main"]["house_edge"])
    return wall, _child_cpu() - cpu_before, house_edge


def peeked_profile(name: str, folder: Path) -> Path:
    """The shipped profile ``name`` with its hole card peeked, as a file in ``folder``."""
    changes = {"name": f'"{name}-peeked"', "hole_card": '"peek"'}
    lines = []
    in_tables = False  # the rules are the top-level keys; [sources] cites them by name too
    for line in (PROFILES / f"{name}.toml").read_text(encoding="utf-8").splitlines():
        key = line.split(" = ")[0]
        in_tables = in_tables or line.startswith("[")
        lines.append(f"{key} = {changes[key]}" if key in changes and not in_tables else line)
    path = folder / f"{name}-peeked.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def how_to_build() -> str:
    builds = "".join(f"  {build}\n" for build in FARMER_BUILDS)
    return (
        "Farmer's engine is not part of croupier. To measure against it, take from "
        f"{FARMER_SOURCE} and build, in a folder outside this repository:\n{builds}"
        "then: uv run python benchmarks/farmer_side_by_side.py --farmer /path/to/strategy"
    )


def best(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return min(wall for wall, _ in runs), min(cpu for _, cpu in runs)


def side_by_side(binary: Path, repeats: int) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="croupier-farmer-"))
    load_before = os.getloadavg()
    print(
        f"croupier analyze --json against Farmer's engine ({binary}), whole processes, best of "
        f"{repeats} interleaved rounds; wall/CPU seconds (CPU: the child's user + system); "
        "croupier computed (empty result cache), warm (numba's cache loaded)"
    )
    header = (
        f"{'variant':<18}{'Farmer CDZ-':<13}{'basic':<13}{'composition':<13}"
        f"{'x basic':<11}{'x comp.':<11}"
    )
    print(header)
    edges: list[tuple[Variant, float, float, float]] = []
    for index, variant in enumerate(VARIANTS):
        target = (
            str(peeked_profile(variant.profile, scratch)) if variant.peeked else variant.profile
        )
        table = scratch / f"farmer-{index}.txt"
        results = scratch / f"results-{index}"
        results.mkdir()
        version = run_farmer(binary, variant.farmer_answers, table)[2]  # untimed, as croupier
        for strategy in STRATEGIES:
            run_croupier(target, strategy, results)  # numba's cache and bytecode loaded
        farmer_runs: list[tuple[float, float]] = []
        croupier_runs: dict[str, list[tuple[float, float]]] = {s: [] for s in STRATEGIES}
        croupier_edge = {}
        for _ in range(repeats):
            farmer_runs.append(run_farmer(binary, variant.farmer_answers, table)[:2])
            for strategy in STRATEGIES:
                wall, cpu, croupier_edge[strategy] = run_croupier(target, strategy, results)
                croupier_runs[strategy].append((wall, cpu))
        farmer = best(farmer_runs)
        basic, composition = (best(croupier_runs[s]) for s in STRATEGIES)
        print(
            f"{variant.label:<18}"
            + "".join(f"{wall:6.2f}/{cpu:<6.2f}" for wall, cpu in (farmer, basic, composition))
            + "".join(
                f"{wall / farmer[0]:4.2f}/{cpu / farmer[1]:<6.2f}"
                for wall, cpu in (basic, composition)
            )
        )
        edges.append(
            (
                variant,
                farmer_house_edge(table),
                croupier_edge["composition"],
                croupier_edge["basic"],
            )
        )
    print(
        "\nhouse edge (fraction of the initial bet; Farmer prints it to 1e-11): Farmer CDZ-, "
        "croupier --strategy composition, their difference, croupier --strategy basic"
    )
    for variant, farmer_edge, composition_edge, basic_edge in edges:
        difference = composition_edge - farmer_edge
        verdict = (
            ("same game: " + ("agrees to 1e-9" if abs(difference) <= 1e-9 else "DIFFERS"))
            if variant.same_game
            else f"not the same game: {variant.note}"
        )
        print(
            f"{variant.label:<18}{farmer_edge:.11f}  {composition_edge:.11f}  "
            f"{difference:+.2e}  {basic_edge:.11f}  {verdict}"
        )
    print(f"(Farmer's program announces version {version})")
    print(f"(load averages before: {load_before}, after: {os.getloadavg()})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--farmer", type=Path, help="Farmer's strategy program, built")
    parser.add_argument("--repeats", type=int, default=5, help="rounds, best of (default 5)")
    arguments = parser.parse_args()
    if arguments.farmer is None or not arguments.farmer.is_file():
        if arguments.farmer is not None:
            print(f"no program at {arguments.farmer}\n", file=sys.stderr)
        print(how_to_build(), file=sys.stderr)
        return 2
    side_by_side(arguments.farmer.resolve(), arguments.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
