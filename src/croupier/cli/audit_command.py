"""``croupier audit``: the tamper-evident record (RELIABILITY R15).

``croupier audit verify --database URL [--head FILE]`` checks the hash chain and every audited
row against it: exit 0 when all agree, 1 naming the first bad entry or row (2: a URL or file
that cannot be read). ``croupier audit head --database URL --out FILE`` exports the chain's
head to publish, signed with the operator's key (``--audit-key``, the server's by default);
``verify --head FILE`` then checks that signature (exit 1 naming a bad or missing one) and
also catches a chain cut short.
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

KeyOption = Annotated[
    Path | None,
    typer.Option(
        "--audit-key",
        help="The key heads are signed with (R15), as `croupier serve --audit-key` keeps it. "
        "Default: beside the SQLite database file (croupier.sqlite.audit-key), else "
        "./croupier.audit-key.",
    ),
]


@app.command("verify")
def verify(
    *,
    database: DatabaseOption = DEFAULT_URL,
    head: Annotated[
        Path | None,
        typer.Option(
            "--head",
            help="A head exported earlier: its signature must be the key's, and the chain "
            "must still reach it.",
        ),
    ] = None,
    audit_key: KeyOption = None,
) -> None:
    """Check the chain and that every ledger entry, round record and account agrees with it."""
    from croupier.audit.signing import default_key_path
    from croupier.audit.verify import read_signed_head, verify_database

    published, problems = None, []
    if head is not None:
        published, signature_problem = read_signed_head(
            head, audit_key or default_key_path(database)
        )
        if signature_problem is not None:
            problems.append(signature_problem)
            published = None  # a head that may be forged proves nothing about the chain
    report = verify_database(database, published)
    problems += report.problems
    if problems:
        typer.echo(f"FAILED: {problems[0]}")
        if len(problems) > 1:
            typer.echo(f"  ({len(problems)} problems in all; the first is shown)")
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
    audit_key: KeyOption = None,
) -> None:
    """Export the chain's head (its last entry's number, hash and time) as JSON, signed, to
    publish."""
    from croupier.audit.signing import default_key_path, ensure_key, read_key
    from croupier.audit.verify import current_head, head_document, snapshot, write_head

    with snapshot(database) as connection:
        found = current_head(connection)
    key_path = audit_key or default_key_path(database)
    if ensure_key(key_path):
        typer.echo(f"a new audit key was made in {key_path}: keep it, never publish it", err=True)
    key = read_key(key_path)
    if out is None:
        typer.echo(json.dumps(head_document(found, key)))
        return
    write_head(found, out, key)
    typer.echo(f"{out}: head {found.seq} ({found.hash})")
