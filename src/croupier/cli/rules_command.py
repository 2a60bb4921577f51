"""``croupier rules``: list the profiles, or print one with the source of each rule."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier import resident

app = typer.Typer(help="List the rule profiles, or show one.", invoke_without_command=True)


@app.callback()
def list_profiles(context: typer.Context) -> None:
    """List the shipped profiles."""
    if context.invoked_subcommand is not None:
        return
    # rich loads here, not with the CLI: ``croupier analyze --json`` need not load it.
    from rich.console import Console
    from rich.table import Table

    # The rules' models load here too: ``croupier --help`` need not build them.
    with resident.loading():
        from croupier.rules.registry import load_profile, shipped_profile_names

    table = Table("profile", "game", "title")
    for name in shipped_profile_names():
        profile = load_profile(name)
        table.add_row(name, profile.game, profile.title)
    Console().print(table)


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="A shipped profile name or a .toml file.")],
) -> None:
    """Print one profile: every rule, its value and the article or decision it comes from."""
    from rich.console import Console
    from rich.table import Table

    with resident.loading():
        from croupier.rules.base import LATER_FIELDS, META_FIELDS
        from croupier.rules.registry import load_profile

    profile = load_profile(name)
    console = Console()
    console.print(f"[bold]{profile.name}[/bold]: {profile.title} ({profile.game})")
    console.print(f"regulation: {profile.regulation}")
    table = Table("rule", "value", "source", show_lines=True)
    values = profile.model_dump(mode="json")
    for rule in type(profile).model_fields:
        if rule in META_FIELDS:
            continue
        if rule in LATER_FIELDS and rule not in profile.sources:
            # A later rule the profile leaves out is neither stored nor cited (base.LATER_FIELDS):
            # a blackjack profile without ``surrender`` offers none (docs/rules.md#D-BJ-32).
            table.add_row(rule, _format(values.get(rule)), "(key absent: the rule's default)")
            continue
        table.add_row(rule, _format(values[rule]), profile.source_of(rule))
    console.print(table)


def _format(value: object) -> str:
    if isinstance(value, dict):
        return "\n".join(f"{key}: {_format(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(_format(item) for item in value)
    if value is None:
        return "(not offered)"
    return str(value)
