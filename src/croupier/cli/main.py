"""The ``croupier`` console command. Each sub-command lives in its own module here."""

from __future__ import annotations

import sys

import typer

from croupier.cli import rules_command, settle_command
from croupier.errors import CroupierError

app = typer.Typer(
    name="croupier",
    help="Deal, settle and analyse casino table games exactly as their regulations say.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(rules_command.app, name="rules")
app.command("settle")(settle_command.settle)


def _register_optional() -> None:
    # Commands whose modules pull heavy dependencies (numba, the web stack) import lazily.
    import importlib

    for module_name, command in (
        ("croupier.cli.play_command", "play"),
        ("croupier.cli.analyze_command", "analyze"),
        ("croupier.cli.simulate_command", "simulate"),
        ("croupier.cli.serve_command", "serve"),
        ("croupier.cli.verify_command", "verify"),
    ):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        app.command(command)(module.command)


_register_optional()


def main() -> None:
    try:
        app()
    except CroupierError as error:
        print(f"croupier: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
