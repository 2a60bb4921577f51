"""``croupier manifest``: check the installed code against its SHA-256 manifest, or record it
again after a deliberate upgrade (RELIABILITY R17; GLI-19 software verification)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from croupier.service.defaults import DEFAULT_URL


def command(
    path: Annotated[
        Path | None,
        typer.Argument(
            help="The manifest (default: the one `croupier serve --database URL` uses)."
        ),
    ] = None,
    *,
    write: Annotated[
        bool, typer.Option("--write", help="Record the installed code as it is now.")
    ] = False,
    database: Annotated[
        str, typer.Option("--database", help="The server's database, to find its default manifest.")
    ] = DEFAULT_URL,
) -> None:
    """Verify the installed code against its SHA-256 manifest (exit 2 naming each altered
    file), or with --write record it again after a deliberate upgrade."""
    from croupier import integrity

    manifest = path or integrity.default_manifest(database)
    if write:
        recorded = integrity.write_manifest(manifest)
        typer.echo(f"{manifest}: recorded {len(recorded.files)} files of {integrity.PACKAGE_ROOT}")
        return
    integrity.verify(manifest)  # a CodeIntegrityError exits with status 2
    typer.echo(
        f"{manifest}: the installed code matches ({len(integrity.Manifest.read(manifest).files)} files)"
    )
