"""``croupier audit``: the tamper-evident record (RELIABILITY R15).

``croupier audit verify --database URL [--head FILE]`` checks the hash chain and every audited
row against it: exit 0 when all agree, 1 naming the first bad entry or row (2: a URL or file
that cannot be read). ``croupier audit head --database URL --out FILE`` exports the chain's
head to publish, signed with the operator's Ed25519 private key (``--audit-key``, the
server's by default); ``croupier audit public-key`` prints that key's public half, to give the
regulator once. ``verify --head FILE`` then checks the signature against the trusted public
key (``--public-key PEM``, else the public half of ``--audit-key``): exit 1 naming a bad or
missing one, or another key's (docs/rules.md#D-GEN-16a); and it also catches a chain cut short.
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
        help="The private key heads are signed with (R15, Ed25519), as `croupier serve "
        "--audit-key` keeps it. Default: beside the SQLite database file "
        "(croupier.sqlite.audit-key), else ./croupier.audit-key.",
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
            help="A head exported earlier: its signature must be the trusted key's, and the "
            "chain must still reach it.",
        ),
    ] = None,
    public_key: Annotated[
        Path | None,
        typer.Option(
            "--public-key",
            help="The operator's public key (PEM, as `croupier audit public-key` writes it) "
            "that a --head must be signed with: all a regulator needs. Without it, the public "
            "half of --audit-key.",
        ),
    ] = None,
    audit_key: KeyOption = None,
) -> None:
    """Check the chain and that every ledger entry, round record and account agrees with it."""
    from croupier.audit.chain import AuditError
    from croupier.audit.signing import default_key_path, read_private_key, read_public_key
    from croupier.audit.verify import read_head, read_signed_head, verify_database

    published, problems = None, []
    if head is not None:
        read_head(head)  # a file that is no head is said so before any key is looked for
        key_path = audit_key or default_key_path(database)
        if public_key is None and audit_key is None and not key_path.exists():
            raise AuditError(
                "no key to check the head's signature with: pass the operator's public key, "
                "--public-key PEM (`croupier audit public-key` writes it), or the private key, "
                f"--audit-key KEY ({key_path} does not exist)"
            )
        trusted = (
            read_public_key(public_key)
            if public_key is not None
            else read_private_key(key_path).public_key()
        )
        published, signature_problem = read_signed_head(head, trusted)
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
    from croupier.audit.signing import default_key_path, ensure_key, read_private_key
    from croupier.audit.verify import current_head, head_document, snapshot, write_head

    key_path = audit_key or default_key_path(database)
    # A key that cannot sign (an earlier croupier's HMAC key) is said before the database is
    # read; a missing one is made only once the database has given a head to sign.
    key = read_private_key(key_path) if key_path.exists() else None
    with snapshot(database) as connection:
        found = current_head(connection)
    if key is None:
        if ensure_key(key_path):
            typer.echo(
                f"a new audit key was made in {key_path}: keep it, never publish it; give the "
                f"regulator its public key (`croupier audit public-key --audit-key {key_path}`)",
                err=True,
            )
        key = read_private_key(key_path)
    if out is None:
        typer.echo(json.dumps(head_document(found, key)))
        return
    write_head(found, out, key)
    typer.echo(f"{out}: head {found.seq} ({found.hash})")


@app.command("public-key")
def public_key(
    *,
    database: DatabaseOption = DEFAULT_URL,
    out: Annotated[
        Path | None, typer.Option("--out", help="Where to write it (default: standard output).")
    ] = None,
    audit_key: KeyOption = None,
) -> None:
    """Print the public half of the key heads are signed with (PEM): give it to the regulator
    once, who checks every published head with `verify --head FILE --public-key PEM`."""
    from croupier.audit.signing import default_key_path, public_key_pem, read_private_key

    pem = public_key_pem(read_private_key(audit_key or default_key_path(database)))
    if out is None:
        typer.echo(pem, nl=False)
        return
    out.write_text(pem, encoding="ascii")
    typer.echo(f"{out}: the public key heads are signed with")
