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
    head: Annotated[
        Path | None,
        typer.Option(
            "--head",
            help="A head exported earlier and published (`croupier audit head`): the "
            "backup's chain must reach it.",
        ),
    ] = None,
    public_key: Annotated[
        Path | None,
        typer.Option(
            "--public-key",
            help="The operator's public key (PEM): the --head must be signed with it.",
        ),
    ] = None,
    accept_broken: Annotated[
        bool,
        typer.Option(
            "--accept-broken",
            help="Restore although the backup's audit chain does not verify; the restore "
            "records in the chain that it was accepted so (and `serve` then needs "
            "--accept-broken-chain).",
        ),
    ] = False,
) -> None:
    """Restore a backup into a fresh database (one with no rows in croupier's tables), once
    its audit chain (R15) verifies: exit 1 naming the first bad entry or row, and nothing
    written, unless --accept-broken; exit 2 for a file that is no backup or cannot be read."""
    import getpass

    from croupier.audit.signing import read_public_key
    from croupier.audit.verify import Head, read_head, read_signed_head
    from croupier.service.backup import BrokenChain
    from croupier.service.backup import restore as bring_back

    published: Head | None = None
    if head is not None:
        if public_key is None:
            published = read_head(head)
        else:
            published, problem = read_signed_head(head, read_public_key(public_key))
            if problem is not None:  # a head that may be forged: tampering found, exit 1
                typer.echo(f"croupier: restore refused: {problem}", err=True)
                raise typer.Exit(1)
    try:
        summary = bring_back(
            file,
            database,
            published=published,
            accept_broken=accept_broken,
            actor=f"system:restore by {getpass.getuser()}",
        )
    except BrokenChain as broken:
        typer.echo(
            f"croupier: restore refused: {broken} (nothing was written; `--accept-broken` "
            "restores it anyway, recorded in the chain)",
            err=True,
        )
        raise typer.Exit(1) from None
    typer.echo(f"{database}: restored the {summary.describe()}")
