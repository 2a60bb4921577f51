"""``croupier analyze PROFILE``: exact house edge, hit frequency, push, standard deviation and
outcome distribution of every wager of a profile, and the basic strategy where there are
decisions. ``--json`` prints the fixed JSON contract (``croupier.analysis.profile_analysis``);
with ``--all`` the JSON is an object keyed by profile name. ``--report DIR`` writes one
Markdown page per profile with its charts (PNG); ``--par DIR`` writes each profile's PAR
sheet (``croupier.analysis.par``) as Markdown and PDF.

Casino Hold'em's Ante + Bet game is exact: the first run enumerates every deal (a progress
bar on stderr, about 35 s on two cores) and caches a table under
``~/.cache/croupier`` (``$CROUPIER_CACHE_DIR`` moves it); later runs, and a designer's profile
with another paytable but the same dealer qualifier, take seconds. ``--ante-monte-carlo``
gives the quick Monte Carlo estimate instead (marked ``"exact": false``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from croupier import resident
from croupier.errors import ProfileError

if TYPE_CHECKING:  # the analysis (numba, matplotlib) loads when the command runs, not with the CLI
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from croupier.analysis.profile_analysis import ProfileAnalysis
    from croupier.analysis.rule_effects import RuleEffect


def _load_numba_for_cached_kernels() -> None:
    """Load numba as the analysis's cached kernels need it, without what only compiling a
    kernel needs (each of these cost a warm command a measured share: benchmarks/analyze.py
    ``--startup``).

    - numba probes for BLAS when it first loads its array functions (``numba.np.arraymath``
      imports ``scipy.linalg.cython_blas``), a quarter of a second of the warm command. No
      analysis kernel calls linear algebra inside compiled code (``np.dot``, ``@``,
      ``np.linalg``), so the probe is made to fail fast: numba then leaves out only its
      linear-algebra functions, which a kernel using them would name in its compile error.
      ``scipy.linalg`` imports normally again afterwards.
    - Likewise numba's CFFI support: its typing context imports ``cffi`` (and
      ``pycparser``) when the first compiled function loads, tens of milliseconds, for
      kernels that never call a CFFI function. Loaded here with ``cffi`` made unimportable,
      it stays off for this process (a kernel calling one would fail to compile); ``cffi``
      itself imports normally afterwards.
    - numba's configuration reads a ``.numba_config.yaml`` in the working folder if there is
      one, and imports PyYAML to do so whether there is or not (17 ms): without such a file
      here, it is loaded with ``yaml`` unimportable.
    - ``_load_cached_kernels_only``: the first cached kernel's load no longer installs
      every implementation numba has for compiling (a fifth of a second of the command)."""
    import os

    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    blocked = ["scipy.linalg"] + ([] if "cffi" in sys.modules else ["cffi"])
    if "yaml" not in sys.modules and not os.path.exists(".numba_config.yaml"):
        blocked.append("yaml")
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        import numba.core.typing.cffi_utils
        import numba.np.arraymath  # noqa: F401
    finally:
        for name in blocked:
            del sys.modules[name]
    _load_cached_kernels_only()


TESTED_NUMBA_SERIES = "0.68."
"""The numba series whose cache internals ``_load_cached_kernels_only`` was written against."""


def _load_cached_kernels_only() -> None:
    """Make numba load a kernel from its disk cache without first refreshing its target
    context.

    Before it reads a cached kernel, numba refreshes the target context: it imports and
    installs every typing and lowering registry it has (lists, dicts, sets, random
    generators, datetimes, polynomials...), about 0.15 CPU-s at the command's first kernel,
    although a cached kernel is machine code and its loading needs only numba's runtime
    (``rtsys.initialize``: the memory-management functions compiled code calls). A kernel
    that is not in the cache is compiled, and numba's compiler refreshes the contexts itself
    before compiling (``numba.core.compiler.CompilerBase``), so a first run after
    installation compiles as before. Written against numba 0.68 (``uv.lock``); a numba
    whose cache lacks the two methods used here keeps its own load. The figures are the same
    bit for bit (tests/consistency/test_analyze_json_is_unchanged.py).

    Numba's runtime itself (``rtsys.initialize``) is compiled by LLVM in every process,
    15 ms before the first kernel can load; it is started here on a thread of its own
    (LLVM works without the interpreter's lock) while this thread imports the analysis
    and reads the profile (``_start_runtime``)."""
    import numba
    from numba.core import caching
    from numba.core.runtime.nrt import rtsys

    # A private method's meaning may change in any release: only the series it was read
    # against takes the light load; any other numba keeps its own (slower, always right).
    if not numba.__version__.startswith(TESTED_NUMBA_SERIES) or not all(
        hasattr(caching.Cache, name)
        for name in ("_load_overload", "_guard_against_spurious_io_errors")
    ):
        return

    def load_overload(self: caching.Cache, sig: Any, target_context: Any) -> Any:
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)  # type: ignore[no-untyped-call]

    caching.Cache.load_overload = load_overload  # type: ignore[method-assign]
    _start_runtime()


def _start_runtime() -> None:
    """Compile numba's runtime on a thread while the caller goes on. Under numba's compiler
    lock, which every kernel's compilation or load from the cache takes too: the first
    kernel waits for the runtime, then finds it ready (``rtsys.initialize`` returns at
    once). The target context is made here, on the calling thread, so that there is only
    ever the one the kernels use. Should the thread fail, the first kernel's load
    initializes the runtime itself, as numba does."""
    import threading

    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target
    from numba.core.runtime.nrt import rtsys

    context = cpu_target.target_context

    def initialize() -> None:
        with global_compiler_lock:
            rtsys.initialize(context)

    threading.Thread(target=initialize, name="numba-runtime").start()


def command(  # noqa: PLR0917 - Typer reads the options from the signature
    profile: Annotated[
        str | None,
        typer.Argument(help="A shipped profile name or a .toml profile file (omit with --all)."),
    ] = None,
    decks: Annotated[
        int | None, typer.Option(help="Analyse with this many decks instead of the profile's.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    report: Annotated[
        Path | None, typer.Option(help="Write a Markdown page (and PNG charts) per profile here.")
    ] = None,
    every_profile: Annotated[
        bool, typer.Option("--all", help="Analyse every shipped profile.")
    ] = False,
    with_rule_effects: Annotated[
        bool,
        typer.Option(
            "--rule-effects",
            help="Blackjack: also compute each rule's effect against a common base (slower).",
        ),
    ] = False,
    par: Annotated[
        Path | None,
        typer.Option(help="Write a PAR sheet (Markdown and PDF) per profile in this folder."),
    ] = None,
    count: Annotated[
        str | None,
        typer.Option(
            help=(
                "Value by count: each wager's effects of removal and its expected value by "
                "true count for this counting system (hi-lo, ko, hi-opt-ii, omega-ii, zen, "
                "wong-halves, or all); with --json a 'by_count' key, with --par a chart too."
            ),
        ),
    ] = None,
    count_shoes: Annotated[
        int,
        typer.Option(
            help=(
                "With --count: also value every exact wager exactly on the compositions of "
                "this many seeded shoes, averaged per true count (0: the linear figures only)."
            ),
        ),
    ] = 0,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            help=(
                "Blackjack: the player's strategy for the house edge: 'basic' (the "
                "total-dependent chart), 'composition' (CDZ-: each hand's best play for its "
                "cards, the unsplit hand's play reused after a split) or 'cdp1' (as "
                "'composition', but after a split each hand plays best for the split's first "
                "hand, the pair's other card out of the shoe)."
            ),
        ),
    ] = "basic",
    strategy_file: Annotated[
        Path | None,
        typer.Option(
            "--strategy-file",
            help=(
                "Blackjack: evaluate this chart exactly instead of the basic strategy: a JSON "
                "file holding a chart in the form 'analyze --json' prints under \"strategy\" "
                "(or a whole 'analyze --json' document)."
            ),
        ),
    ] = None,
    ante_monte_carlo: Annotated[
        bool,
        typer.Option(
            "--ante-monte-carlo",
            help=(
                "Casino Hold'em: estimate the Ante + Bet game by Monte Carlo (seconds) instead "
                "of the exact enumeration (cached after its first run)."
            ),
        ),
    ] = False,
) -> None:
    """Exact game math of every wager of a profile: house edge, hit frequency, strategy."""
    # The rules' models load here, kept for the process (croupier.resident): ``croupier --help``
    # need not build them.
    with resident.loading():
        from croupier.rules import load_profile, shipped_profile_names

    if strategy not in {"basic", "composition", "cdp1"}:  # blackjack.Play, not loaded yet
        raise ProfileError(f"--strategy: 'basic', 'composition' or 'cdp1', not {strategy!r}")
    if every_profile == (profile is not None):
        raise ProfileError("analyze: give one PROFILE, or --all (not both)")
    if count is not None and count != "all":
        from croupier.counting import load_counting_system

        load_counting_system(count)  # an unknown system is refused before anything is computed
    if count_shoes < 0:
        raise ProfileError(f"--count-shoes: a number of shoes, 0 or more, not {count_shoes}")
    chart_document = _read_chart(strategy_file) if strategy_file is not None else None
    if chart_document is not None and (every_profile or strategy != "basic"):
        raise ProfileError("--strategy-file: one PROFILE, played by the chart (no --strategy)")
    cache_key = None
    if (
        chart_document is None
        and as_json
        and not every_profile
        and report is None
        and par is None
        and count is None
        and not with_rule_effects
    ):
        from croupier.analysis import result_cache

        rules = load_profile(str(profile))
        if rules.game == "blackjack":
            # A blackjack analysis run before prints from the disk (analysis.result_cache).
            cache_key = result_cache.document_key(rules, decks, strategy)
            cached = result_cache.load_document(cache_key)
            if cached is not None:
                print(json.dumps(cached, indent=2))
                return
    # numba and the analysis's modules live as long as the process too (croupier.resident).
    with resident.loading():
        _load_numba_for_cached_kernels()
        from croupier.analysis.blackjack import Play
        from croupier.analysis.profile_analysis import analyse_profile

    names = list(shipped_profile_names()) if every_profile else [str(profile)]
    chart = None
    if chart_document is not None:
        from croupier.analysis.blackjack import Strategy
        from croupier.rules import BlackjackRules
        from croupier.rules.blackjack import Surrender

        rules = load_profile(str(profile))
        if not isinstance(rules, BlackjackRules):
            raise ProfileError(f"--strategy-file: {rules.name} is {rules.game}, which has no chart")
        chart = Strategy.from_json(chart_document, surrender=rules.surrender is Surrender.LATE)
    analyses: list[ProfileAnalysis] = []
    # JSON piped on, stderr no terminal and nothing written beside it: no progress bar would
    # show, so rich (a twentieth of a warm command) is not loaded to draw it.
    quiet = as_json and report is None and par is None and not sys.stderr.isatty()
    console = None if quiet else _console(stderr=as_json)
    with _SilentProgress() if console is None else _progress(console) as progress:
        for name in names:
            rules = load_profile(name)
            task = progress.add_task(f"analysing {rules.name}", total=10)

            def advance(task_id: TaskID = task) -> None:
                progress.advance(task_id)

            enumeration: list[TaskID] = []

            def enumerated(
                done: int,
                total: int,
                name: str = rules.name,
                tasks: list[TaskID] = enumeration,
            ) -> None:
                if not tasks:
                    tasks.append(
                        progress.add_task(
                            f"{name}: enumerating every deal (first run; cached after)",
                            total=total,
                        )
                    )
                progress.update(tasks[0], completed=done)

            analyses.append(
                analyse_profile(
                    rules,
                    decks,
                    progress=advance,
                    ante_method="monte-carlo" if ante_monte_carlo else "exact",
                    enumeration_progress=enumerated,
                    play=Play(strategy),
                    # A PAR sheet takes every split round's hands jointly: the closest
                    # distribution there is, worth its seconds to a lab (evaluate_round).
                    joint=True if par is not None else None,
                    chart=chart,
                )
            )
            for task_id in enumeration:
                progress.remove_task(task_id)
            progress.update(task, completed=10)
        effects: tuple[float, list[RuleEffect]] | None = None
        wants_effects = with_rule_effects or report is not None
        if wants_effects and any(a.blackjack is not None for a in analyses):
            from croupier.analysis.rule_effects import ANALYSED, rule_effects

            task = progress.add_task("rule effects", total=ANALYSED)
            effects = rule_effects(
                lambda label: progress.update(task, advance=1, description=f"rule: {label}")
            )
    if report is not None:
        from croupier.analysis.report import write_report

        assert console is not None  # not quiet: a report is written

        for analysis in analyses:
            page = write_report(analysis, report, effects if analysis.blackjack else None)
            console.print(f"wrote {page}")
    if par is not None:
        from croupier.analysis.par_pdf import write_par

        assert console is not None  # not quiet: a PAR sheet is written

        for analysis in analyses:
            console.print("wrote " + " and ".join(map(str, write_par(analysis, par))))
    by_count = _by_count(analyses, count, count_shoes, par, console, printing=not as_json)
    if as_json:
        documents: dict[str, Any] = {a.profile.name: a.as_json() for a in analyses}
        if effects is not None:
            for document in documents.values():
                if document["game"] == "blackjack":
                    document["rule_effects"] = {
                        "base_house_edge": effects[0],
                        "rules": [
                            {"rule": r.rule, "house_edge": r.house_edge, "effect": r.effect}
                            for r in effects[1]
                        ],
                    }
        for name, value in by_count.items():
            documents[name]["by_count"] = value
        if strategy_file is not None:
            documents[analyses[0].profile.name]["strategy_file"] = str(strategy_file)
        output = documents if every_profile else documents[analyses[0].profile.name]
        if cache_key is not None:
            result_cache.store_document(cache_key, output)
        print(json.dumps(output, indent=2))
        return
    assert console is not None  # not quiet: the tables are printed
    for analysis in analyses:
        _print(console, analysis)
    if effects is not None:
        _print_effects(console, effects)


def _read_chart(path: Path) -> Any:
    """The chart of a ``--strategy-file``: the JSON object itself, or the ``"strategy"`` of a
    whole ``analyze --json`` document."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ProfileError(f"--strategy-file {path}: {error}") from None
    if isinstance(document, dict) and isinstance(document.get("strategy"), dict):
        return document["strategy"]
    return document


def _console(*, stderr: bool) -> Console:
    from rich.console import Console

    return Console(stderr=stderr)


def _progress(console: Console) -> Progress:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


class _SilentProgress:
    """What the command asks of rich's ``Progress``, showing nothing (``quiet``)."""

    def __enter__(self) -> _SilentProgress:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def add_task(self, description: str, total: float | None = None) -> TaskID:
        return cast("TaskID", 0)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        return None

    def update(
        self,
        task_id: TaskID,
        *,
        completed: float | None = None,
        advance: float | None = None,
        description: str | None = None,
    ) -> None:
        return None

    def remove_task(self, task_id: TaskID) -> None:
        return None


def _by_count(
    analyses: list[ProfileAnalysis],
    system: str | None,
    shoes: int,
    directory: Path | None,
    console: Console | None,
    *,
    printing: bool,
) -> dict[str, Any]:
    """``--count``: the ``by_count`` JSON per profile; prints the tables, writes the charts."""
    if system is None:
        return {}
    from croupier.analysis import by_count
    from croupier.counting import load_counting_system, shipped_systems

    systems = (
        list(shipped_systems().values()) if system == "all" else [load_counting_system(system)]
    )
    documents: dict[str, Any] = {}
    for analysis in analyses:
        effects = by_count.removal_effects(analysis)
        name = analysis.profile.name
        sampled = (
            by_count.sample_by_true_count(analysis, systems, shoes) if effects and shoes else None
        )
        documents[name] = by_count.by_count_json(effects, systems, sampled)
        if not effects:
            documents[name]["not_applicable"] = "one deck shuffled before every game (Art. 7)"
            continue
        page = by_count.by_count_markdown(name, effects, systems, sampled)
        if printing:
            assert console is not None  # quiet only when not printing
            console.print(page, markup=False, highlight=False)
        if directory is not None:
            (directory / f"{name}-by-count.md").write_text(
                page + f"\n![Value by count, {name}]({name}-by-count.png)\n", encoding="utf-8"
            )
            by_count.by_count_png(
                name, effects, systems, directory / f"{name}-by-count.png", sampled
            )
            assert console is not None  # quiet only without a folder to write in
            console.print(f"wrote {directory / f'{name}-by-count.md'} and its chart")
    return documents


def _print(console: Console, analysis: ProfileAnalysis) -> None:
    from rich.table import Table
    from rich.text import Text

    from croupier.analysis.blackjack import UP_LABELS
    from croupier.analysis.charts import RICH_STYLES, action_names, strategy_sections

    profile = analysis.profile
    table = Table(
        title=f"{profile.name}: {profile.title} ({analysis.decks} decks)",
        title_justify="left",
    )
    for column in ("wager", "house edge", "hit frequency", "push", "std dev", "element of risk"):
        table.add_column(column, justify="left" if column == "wager" else "right")
    for wager, figures in analysis.bets.items():
        edge = f"{figures.house_edge:.4%}"
        if figures.standard_error is not None:
            edge = f"~{edge} +/- {figures.standard_error:.2%} (Monte Carlo)"
        table.add_row(
            wager,
            edge,
            f"{figures.hit_frequency:.4%}",
            f"{figures.push:.4%}",
            f"{figures.std_dev:.4f}",
            f"{figures.element_of_risk:.4%}" if figures.element_of_risk is not None else "",
        )
    for wager, reason in analysis.not_computed.items():
        table.add_row(wager, "not computed", "", "", "", "")
        console.print(f"[dim]{wager}: {reason}[/dim]")
    console.print(table)
    for item in analysis.published:
        console.print(item.sentence())
    for note in analysis.notes:
        console.print(note)
    if "progressive_break_even_meter" in analysis.extra:
        console.print(
            f"progressive: figures at the meter seed "
            f"{analysis.extra['progressive_meter']} units; break-even meter "
            f"{analysis.extra['progressive_break_even_meter']:,.0f} units."
        )
    short = analysis.extra.get("short_strategy")
    if short is not None:
        console.print(
            f"short strategy (house edge {short['house_edge']:.4%}, "
            f"{short['cost_against_optimal']:.4%} more than optimal):"
        )
        for number, rule in enumerate(short["rules"], start=1):
            console.print(f"  {number}. {rule}")
    if analysis.blackjack is not None:
        strategy = analysis.blackjack.strategy
        for title, rows in strategy_sections(strategy):
            chart = Table(title=title, title_justify="left", padding=(0, 1))
            chart.add_column("")
            for up in UP_LABELS:
                chart.add_column(up, justify="center")
            for label, cells in rows:
                chart.add_row(label, *(Text(f"{c:^2}", style=RICH_STYLES[c]) for c in cells))
            console.print(chart)
        console.print("; ".join(action_names(strategy).values()))
        console.print(
            f"insurance: {strategy.insurance} (house edge "
            f"{analysis.blackjack.insurance.house_edge:.4%}); even money: {strategy.even_money}"
        )


def _print_effects(console: Console, effects: tuple[float, list[RuleEffect]]) -> None:
    from rich.table import Table

    base, rows = effects
    table = Table(
        title=f"Rule effects against 6D S17 peek DAS 3:2 (house edge {base:.4%})",
        title_justify="left",
    )
    table.add_column("rule")
    table.add_column("house edge", justify="right")
    table.add_column("effect", justify="right")
    table.add_column("shipped in")
    for row in rows:
        table.add_row(row.rule, f"{row.house_edge:.4%}", f"{row.effect:+.3%}", row.profiles)
    console.print(table)
