"""``croupier simulate PROFILE|file.toml``: deal many rounds with the compiled kernels.

Every wager of the profile is played, one unit each, every round; blackjack by the derived
basic strategy (``--strategy basic``) or a user's chart file, optionally with a count
(``--count hi-lo --ramp "1:1,2:2,3:4,4:8"``), index plays, wonging and a bankroll whose risk
of ruin is simulated and computed. ``--json`` prints the contract of issue 15; ``--report
DIR`` writes a Markdown page with its charts. The same ``--seed`` gives the same figures for
any ``--workers`` (and on a Dask cluster with ``--dask``).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from croupier import resident

if TYPE_CHECKING:  # the kernels (numba) load when the command runs, not with the CLI
    from croupier.simulation.blackjack_sim import Counting


class _RateColumn(ProgressColumn):
    """Rounds per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed / 1e6:.2f} M rounds/s")


def _counting(  # noqa: PLR0917 - the command's options, passed on
    count: str | None,
    ramp: str | None,
    indices: str | None,
    deck_estimation: str,
    wong_in: float | None,
    wong_out: float | None,
    horizon: int,
    *,
    surrender: bool,
) -> Counting | None:
    from croupier.counting import load_counting_system, load_index_set
    from croupier.simulation.blackjack_sim import Counting, SimulationError, parse_ramp

    if count is None:
        if ramp is not None or indices is not None or wong_in is not None:
            raise SimulationError("--ramp, --indices and --wong-in need --count SYSTEM")
        return None
    system = load_counting_system(count)
    if indices is None:
        index_set = Counting.default_indices(system, surrender=surrender)
    elif indices == "none":
        index_set = None
    else:
        index_set = load_index_set(indices)
    return Counting(
        system=system,
        ramp=parse_ramp(ramp) if ramp is not None else ((Fraction(0), 1),),
        indices=index_set,
        estimation=deck_estimation,
        wong_in=wong_in,
        wong_out=wong_out if wong_out is not None or wong_in is None else wong_in,
        horizon=horizon,
    )


def command(  # noqa: PLR0917 - Typer reads the options from the signature
    profile: Annotated[str, typer.Argument(help="A shipped profile name or a .toml file.")],
    rounds: Annotated[int, typer.Option(help="Rounds to deal (each box plays each).")] = 1_000_000,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed (the same figures every run); fresh OS entropy if absent."),
    ] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (the figures do not change).")] = 1,
    players: Annotated[int, typer.Option(help="Boxes in play, each playing the strategy.")] = 1,
    strategy: Annotated[
        str,
        typer.Option(
            help=(
                "Blackjack: 'basic' (analyze's derived chart) or a JSON chart file (the "
                "'strategy' object of 'croupier analyze --json'; missing rows stay basic). "
                "Casino Hold'em: optimal (also 'basic'), always-call, computer, or a .toml "
                "call rule (call_with_at_least, call_with_hole_card_at_least, "
                "call_with_four_to_a_flush)."
            )
        ),
    ] = "basic",
    count: Annotated[
        str | None,
        typer.Option(
            help=(
                "A counting system (hi-lo, ko, hi-opt-ii, omega-ii, zen, wong-halves) or a "
                ".toml file; baccarat: croupier-tie (its tie and pair bets by count)."
            )
        ),
    ] = None,
    ramp: Annotated[
        str | None,
        typer.Option(
            help=(
                "Bet ramp by true count, TC:UNITS steps: '1:1,2:2,3:4,4:8' bets 1 unit up to "
                "TC 1, 2 at TC 2, 4 at 3, 8 at 4 or more (unbalanced counts: the running count)."
            )
        ),
    ] = None,
    indices: Annotated[
        str | None,
        typer.Option(
            help=(
                "Index plays: illustrious-18 (the default with hi-lo), fab-4, "
                "illustrious-18-fab-4 (the default with hi-lo where the profile has late "
                "surrender), a .toml file, or none."
            )
        ),
    ] = None,
    deck_estimation: Annotated[
        str,
        typer.Option(help="Decks left as the player sees them: half-deck, whole-deck or exact."),
    ] = "half-deck",
    wong_in: Annotated[
        float | None, typer.Option(help="Wonging: start betting at this true count or more.")
    ] = None,
    wong_out: Annotated[
        float | None, typer.Option(help="Wonging: stop below this true count (default: --wong-in).")
    ] = None,
    horizon: Annotated[
        int, typer.Option(help="Rounds per session for the bankroll trajectories and risk of ruin.")
    ] = 10_000,
    bankroll: Annotated[
        float | None,
        typer.Option(help="With --count: the bankroll (units) whose risk of ruin is reported."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    report: Annotated[
        Path | None, typer.Option(help="Write a Markdown page with charts (PNG) here.")
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option(
            help="Run the blocks on a Dask cluster at this address (the dask extra of croupier)."
        ),
    ] = None,
    generate_index: Annotated[
        str | None,
        typer.Option(
            help=(
                "Blackjack with --count: find by simulation the true count at which a play "
                "changes, e.g. '16vT:S/H' (stand on hard 16 against a ten from the index up, "
                "hit below), 'A7v2:D/S' (soft 18), 'TTv6:P/S' (a pair), '15vA:R/H' (late "
                "surrender, on a profile that has it); plays S, H, D, P, R; "
                "or 'insurance' (the count from which insuring pays)."
            )
        ),
    ] = None,
) -> None:
    """Simulate rounds of a profile: return, SD and hit frequency of every wager."""
    # The rules' models load here (``croupier --help`` need not build them), kept for the
    # process (croupier.resident).
    with resident.loading():
        from croupier.rules import load_profile
        from croupier.rules.blackjack import BlackjackRules, Surrender
    from croupier.simulation.blackjack_sim import SimulationError
    from croupier.simulation.runner import SimulationOptions, result_json, run_simulation

    rules = load_profile(profile)
    if generate_index is not None:
        _generate_index(rules, generate_index, count, rounds, seed, deck_estimation, as_json)
        return
    game_count = count if rules.game == "baccarat" else None  # baccarat's own count
    counting = _counting(
        None if game_count else count,
        ramp,
        indices,
        deck_estimation,
        wong_in,
        wong_out,
        horizon,
        surrender=isinstance(rules, BlackjackRules) and rules.surrender is Surrender.LATE,
    )
    if bankroll is not None and counting is None:
        raise SimulationError("--bankroll needs --count SYSTEM (the counter's bankroll)")
    options = SimulationOptions(
        rounds=rounds,
        seed=seed,
        workers=workers,
        players=players,
        strategy=strategy,
        counting=counting,
        bankroll=bankroll,
        dask=dask,
        game_count=game_count,
    )
    console = Console(stderr=True)
    if rules.game == "casino-holdem" and strategy in ("basic", "optimal"):
        from croupier.rules.casino_holdem import CasinoHoldemRules
        from croupier.simulation.casino_holdem_strategy import is_cached

        if isinstance(rules, CasinoHoldemRules) and not is_cached(rules):
            console.print(
                "The optimal call/fold needs analyze's exact table, not cached yet: computing "
                "it once (1.5-3 minutes on 2 cores; later runs load it in a second)."
            )
    with Progress(
        TextColumn(f"[bold]{rules.name}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("rounds"),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=as_json,
    ) as bar:
        task = bar.add_task("simulate", total=rounds)
        result = run_simulation(rules, options, lambda done: bar.advance(task, done))
    document = result_json(result)
    if report is not None:
        from croupier.simulation.report import write_simulation_report

        write_simulation_report(result, document, report)
    if as_json:
        typer.echo(json.dumps(document, indent=2))
        return
    _print(Console(), document)


CELL = re.compile(
    r"^\s*(([2-9TA])\2|\d{1,2}|A[2-9])\s*v\s*([2-9TA])\s*:\s*([SHDPR])\s*/\s*([SHDPR])\s*$"
)
"""A cell: a hard total (``16``), a soft hand (``A7``: soft 18) or a pair (``TT``, ``99``,
``AA``), against an up card, and the two plays."""


def _card_value(label: str) -> int:
    return 1 if label == "A" else (10 if label == "T" else int(label))


def _generate_index(  # noqa: PLR0917 - the command's options, passed on
    rules: Any,
    cell: str,
    count: str | None,
    rounds: int,
    seed: int | None,
    deck_estimation: str,
    as_json: bool,
) -> None:
    from croupier.counting import load_counting_system
    from croupier.rules.blackjack import BlackjackRules
    from croupier.simulation.blackjack_sim import SimulationError
    from croupier.simulation.indices import generate_index, generate_insurance_index

    insurance = cell.strip().lower() == "insurance"
    match = CELL.match(cell)
    if match is None and not insurance:
        raise SimulationError(
            f"--generate-index {cell!r}: write TOTALvUP:PLAY/PLAY, e.g. 16vT:S/H, A7v3:D/S, "
            "TTv6:P/S, 15vA:R/H, or insurance"
        )
    if not isinstance(rules, BlackjackRules) or count is None:
        raise SimulationError("--generate-index is for a blackjack profile with --count SYSTEM")
    if match is None:
        found = generate_insurance_index(
            rules,
            load_counting_system(count),
            rounds=rounds,
            seed=0 if seed is None else seed,
            estimation=deck_estimation,
        )
    else:
        hand, pair_card, up_label, above, below = match.groups()
        is_pair, is_soft = pair_card is not None, hand.startswith("A")
        found = generate_index(
            rules,
            load_counting_system(count),
            hard=None if is_pair or is_soft else int(hand),
            soft=11 + int(hand[1]) if is_soft and not is_pair else None,
            pair=_card_value(pair_card) if is_pair else None,
            up=_card_value(up_label),
            plays=(above, below),
            rounds=rounds,
            seed=0 if seed is None else seed,
            estimation=deck_estimation,
        )
    above, below = found.plays
    document = {
        "profile": rules.name,
        "count": count,
        "cell": found.cell,
        "plays": list(found.plays),
        "index": found.index,
        "standard_error": found.standard_error,
        "probes": found.probes,
        "rounds": rounds,
        "by_true_count": found.by_true_count,
    }
    if as_json:
        typer.echo(json.dumps(document, indent=2))
        return
    index = "no crossing" if found.index is None else f"{found.index:+.2f}"
    if found.standard_error is not None:
        index += f" (standard error {found.standard_error:.2f})"
    Console().print(
        f"{rules.name}, {count}: {found.cell}: {above} rather than {below} from a true count "
        f"of {index} ({found.probes:,} hands played both ways)"
    )


def _print(console: Console, document: dict[str, Any]) -> None:
    table = Table(
        title=(
            f"{document['profile']}: {document['rounds']:,} rounds, {document['hands']:,} hands, "
            f"seed {document['seed']}"
        )
    )
    for column in ("wager", "EV per round", "95% interval", "SD", "hit frequency"):
        table.add_column(column, justify="left" if column == "wager" else "right")
    for wager, figures in document["bets"].items():
        low, high = figures["ci95"]
        table.add_row(
            wager,
            f"{figures['ev_per_round']:+.5f}",
            f"[{low:+.5f}, {high:+.5f}]",
            f"{figures['sd']:.4f}",
            f"{figures['hit_frequency']:.4f}",
        )
    total = document["total"]
    table.add_row(
        "total",
        f"{total['ev_per_round']:+.5f}",
        f"[{total['ci95'][0]:+.5f}, {total['ci95'][1]:+.5f}]",
        f"{total['sd']:.4f}",
        "",
    )
    console.print(table)
    rate, cpu_rate = document["hands_per_second"], document["hands_per_cpu_second"]
    if rate and cpu_rate:
        console.print(
            f"simulation {document['seconds']:.2f} s summed over blocks "
            f"({rate / 1e6:.2f} M hands/s), {document['cpu_seconds']:.2f} CPU-s "
            f"({cpu_rate / 1e6:.2f} M hands per CPU-second); shuffling included"
        )
    counting = document.get("counting")
    if counting is not None and "by_pair_probability" in counting:  # baccarat's count
        _print_baccarat_counting(console, counting)
    elif counting is not None:
        console.print(
            f"{counting['title']}: win rate {counting['win_rate_per_100']:+.3f} units per 100 "
            f"rounds (SD {counting['sd_per_100']:.2f}), average bet {counting['average_bet']:.3f}, "
            f"DI {counting['di'] or 0:.2f}, SCORE {counting['score']:.2f}, "
            f"N0 {counting['n0'] or float('inf'):,.0f}"
        )
    risk = document.get("risk")
    if risk is not None:
        simulated = risk["risk_of_ruin_simulated"]
        console.print(
            f"risk of ruin of {risk['bankroll']:g} units over {risk['horizon_rounds']:,} rounds: "
            f"simulated {'n/a' if simulated is None else f'{simulated:.4f}'} "
            f"({risk['sessions']} sessions), formula {risk['risk_of_ruin_formula']:.4f}; "
            f"without end {risk['risk_of_ruin_formula_without_end']:.4f}"
        )


def _print_baccarat_counting(console: Console, counting: dict[str, Any]) -> None:
    table = Table(title=f"{counting['system']}: the tie's EV per round by true count")
    for column in ("true count", "frequency", "tie", "player", "banker"):
        table.add_column(column, justify="right")
    for row in counting["by_true_count"]:
        if row["frequency"] >= 0.005:
            ev = row["ev_per_round"]
            table.add_row(
                f"{row['true_count']:+d}",
                f"{row['frequency']:.4f}",
                f"{ev['tie']:+.4f}",
                f"{ev['player']:+.4f}",
                f"{ev['banker']:+.4f}",
            )
    console.print(table)
    chosen = counting["pairs_when_positive"]["player_pair"]
    ev = chosen["ev_per_bet"]
    console.print(
        f"player pair by the exact pair probability: worth betting in {chosen['frequency']:.2%} "
        f"of coups, {'n/a' if ev is None else f'{ev:+.2%}'} a bet then"
    )
