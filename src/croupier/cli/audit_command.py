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
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from croupier.service.defaults import DEFAULT_URL

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

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


def _kept_private_key(
    audit_key: Path | None, database: str
) -> tuple[Path, Ed25519PrivateKey | None]:
    """Where the operator's private key is kept (``--audit-key``, else beside the database, as
    the server keeps it) and the key read from there: ``None`` where no such file exists yet,
    an ``AuditError`` (exit 2) for a file that is there but is no audit key."""
    from croupier.audit.chain import AuditError
    from croupier.audit.signing import default_key_path, read_private_key

    path = audit_key or default_key_path(database)
    try:
        return path, read_private_key(path)
    except AuditError:
        # lexists, not Path.exists: it never raises (a folder that cannot be searched), and
        # a link to nowhere is a file there that cannot be read, not a key still to make.
        if os.path.lexists(path):
            raise
        return path, None


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
    from croupier.audit.signing import read_public_key
    from croupier.audit.verify import read_head, read_signed_head, verify_database

    # The rows the chain covers are the service's tables: their schema, which the audit (below
    # the service) cannot import, must be declared before the chain is checked against them.
    from croupier.service import models  # noqa: F401

    published, problems = None, []
    if head is not None:
        read_head(head)  # a file that is no head is said so before any key is looked for
        if public_key is not None:
            trusted = read_public_key(public_key)
        else:
            key_path, key = _kept_private_key(audit_key, database)
            if key is None:
                raise AuditError(
                    "no key to check the head's signature with: pass the operator's public "
                    "key, --public-key PEM (`croupier audit public-key` writes it), or the "
                    f"private key, --audit-key KEY ({key_path} does not exist)"
                )
            trusted = key.public_key()
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
    from croupier.audit.signing import ensure_key, read_private_key
    from croupier.audit.verify import current_head, head_document, snapshot, write_head

    # A key that cannot sign (an earlier croupier's HMAC key) is said before the database is
    # read; a missing one is made only once the database has given a head to sign.
    key_path, key = _kept_private_key(audit_key, database)
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
    from croupier.audit.chain import AuditError
    from croupier.audit.signing import public_key_pem

    key_path, key = _kept_private_key(audit_key, database)
    if key is None:
        raise AuditError(
            f"no audit key in {key_path}: the server makes it at its first start, "
            "`croupier audit head` when it exports the first head"
        )
    pem = public_key_pem(key)
    if out is None:
        typer.echo(pem, nl=False)
        return
    try:
        out.write_text(pem, encoding="ascii")
    except OSError as error:
        raise AuditError(f"cannot write {out}: {error.strerror or error}") from None
    typer.echo(f"{out}: the public key heads are signed with")
