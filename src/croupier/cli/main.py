"""The ``croupier`` console command. Each sub-command lives in its own module here."""

from __future__ import annotations

import os
import sys

# numpy's OpenBLAS starts a thread per core and keeps each spinning after every matrix
# product, waiting for more; the analysis's products are small (a few hundred numbers), so
# those threads only took a core from the up cards' second thread: with one BLAS thread a
# computed `analyze --json` is 1.11-1.24x faster on two cores, the figures the same bit for
# bit (`benchmarks/analyze.py --command --base-only --against HEAD --base-env
# OPENBLAS_NUM_THREADS=2`). Set before numpy is imported; a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from croupier import resident

# The CLI's modules live as long as the process: made without the collector (croupier.resident).
with resident.loading():
    import typer

    from croupier.errors import CroupierError

app = typer.Typer(
    name="croupier",
    help="Deal, settle and analyse casino table games exactly as their regulations say.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_COMMANDS = {"play": "play_command", "analyze": "analyze_command", "serve": "serve_command"}
_COMMANDS |= {"simulate": "simulate_command"}
_COMMANDS |= {"verify": "verify_command", "backup": "backup_command"}
_COMMANDS |= {"restore": "backup_command", "manifest": "manifest_command"}
_COMMANDS |= {"audit": "audit_command", "report": "report_command"}


@app.callback()
def _group() -> None:
    # A callback keeps the app a group of sub-commands when only one is registered (a lone
    # command would take ``croupier settle FILE``'s "settle" for its own argument).
    pass


def _wanted() -> set[str]:
    """The sub-commands to register: only the one named on the command line when it is a
    known one (``croupier rules show ...`` need not import the database, signing and web
    stacks, a quarter of a second), else all of them (help, tests calling ``app``
    directly)."""
    named = sys.argv[1] if len(sys.argv) > 1 else ""
    known = {"settle", "rules", *_COMMANDS}
    return {named} if named in known else known


def _register_optional() -> None:
    # Commands whose modules pull heavy dependencies (numba, the web stack) import lazily.
    import importlib

    wanted = _wanted()
    if "rules" in wanted:
        from croupier.cli import rules_command

        app.add_typer(rules_command.app, name="rules")
    if "settle" in wanted:
        from croupier.cli import settle_command

        app.command("settle")(settle_command.settle)
    for command, module_name in (
        (command, f"croupier.cli.{module}") for command, module in _COMMANDS.items()
    ):
        if command not in wanted:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        group = getattr(module, "app", None)
        if isinstance(group, typer.Typer):  # a group of sub-commands (``croupier audit ...``)
            app.add_typer(group, name=command)
            continue
        app.command(command)(getattr(module, command, None) or module.command)


with resident.loading():
    _register_optional()


def main() -> None:
    try:
        app()
    except CroupierError as error:
        print(f"croupier: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
