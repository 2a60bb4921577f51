"""``croupier audit``: the tamper-evident record (RELIABILITY R15).

``croupier audit verify --database URL [--head FILE]`` checks the hash chain and every audited
row against it: exit 0 when all agree, 1 naming the first bad entry or row (2: a URL or file
that cannot be read). ``croupier audit head --database URL --out FILE`` exports the chain's
head to publish; ``verify --head FILE`` then also catches a chain cut short.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from croupier.service.database import DEFAULT_URL

app = typer.Typer(
    help="The tamper-evident record (R15): verify the hash chain, export its head.",
    no_args_is_help=True,
)

DatabaseOption = Annotated[
    str,
    typer.Option(
        "--database",
        help="SQLAlchemy URL: sqlite:///path (the default file) or postgresql+psycopg://...",
    ),
]


@app.command("verify")
def verify(
    *,
    database: DatabaseOption = DEFAULT_URL,
    head: Annotated[
        Path | None,
        typer.Option("--head", help="A head exported earlier: the chain must still reach it."),
    ] = None,
) -> None:
    """Check the chain and that every ledger entry, round record and account agrees with it."""
    from croupier.audit.verify import read_head, verify_database

    report = verify_database(database, read_head(head) if head is not None else None)
    if report.problems:
        typer.echo(f"FAILED: {report.problems[0]}")
        if len(report.problems) > 1:
            typer.echo(f"  ({len(report.problems)} problems in all; the first is shown)")
        raise typer.Exit(1)
    typer.echo(
        f"verified: {report.entries} entries, head {report.head.seq} ({report.head.hash}); "
        f"{report.rows} rows agree with the chain"
    )


@app.command("head")
def head(
    *,
    database: DatabaseOption = DEFAULT_URL,
    out: Annotated[
        Path | None, typer.Option("--out", help="Where to write it (default: standard output).")
    ] = None,
) -> None:
    """Export the chain's head (its last entry's number, hash and time) as JSON, to publish."""
    from croupier.audit.verify import current_head, snapshot, write_head

    with snapshot(database) as connection:
        found = current_head(connection)
    if out is None:
        typer.echo(json.dumps(found.to_json()))
        return
    write_head(found, out)
    typer.echo(f"{out}: head {found.seq} ({found.hash})")
