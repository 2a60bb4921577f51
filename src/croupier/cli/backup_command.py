"""``croupier backup`` and ``croupier restore``: an online backup of the table server's
database, and bringing one back into a fresh database (RELIABILITY R19)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from croupier.service.defaults import DEFAULT_URL

DatabaseOption = Annotated[
    str,
    typer.Option(
        "--database",
        help="SQLAlchemy URL: sqlite:///path (the default file) or postgresql+psycopg://...",
    ),
]


def backup(
    file: Annotated[Path, typer.Argument(help="Where to write the backup (replaced atomically).")],
    *,
    database: DatabaseOption = DEFAULT_URL,
) -> None:
    """Back the database up while tables play: SQLite's online backup, or one consistent
    PostgreSQL snapshot written to a portable file."""
    from croupier.service.backup import backup as take_backup

    summary = take_backup(database, file)
    typer.echo(f"{file}: {summary.describe()}")


def restore(
    file: Annotated[Path, typer.Argument(help="A backup written by `croupier backup`.")],
    *,
    database: DatabaseOption = DEFAULT_URL,
) -> None:
    """Restore a backup into a fresh database (one with no rows in croupier's tables)."""
    from croupier.service.backup import restore as bring_back

    summary = bring_back(file, database)
    typer.echo(f"{database}: restored the {summary.describe()}")
