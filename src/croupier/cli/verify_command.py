"""``croupier verify FILE``: check a revealed shoe against its commitment and its rounds (R18).

FILE is the JSON the server gives at ``GET /shoes/{id}/export`` (format in
``croupier.fairness``). Exits 0 and prints ``verified`` when everything matches, else 1 and
one line per problem.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from croupier import resident
from croupier.errors import SettleInputError


def command(
    file: Annotated[str, typer.Argument(help="A shoe export in JSON, or - for stdin.")],
) -> None:
    """Verify a revealed shoe: its commitment, its seed's order, and every round dealt from it."""
    # The engines load here: ``croupier --help`` need not import them.
    with resident.loading():
        from croupier.fairness import verify_export

    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        export = json.loads(text)
    except OSError as error:
        raise SettleInputError(f"cannot read {file}: {error.strerror}") from None
    except ValueError as error:
        raise SettleInputError(f"malformed JSON: {error}") from None
    if not isinstance(export, dict):
        raise SettleInputError("a shoe export is a JSON object")
    problems = verify_export(export)
    if problems:
        for problem in problems:
            typer.echo(f"FAILED: {problem}")
        raise typer.Exit(1)
    rounds = len(export.get("rounds", []))
    typer.echo(f"verified: shoe {export.get('shoe')} ({export.get('commitment')}), {rounds} rounds")
