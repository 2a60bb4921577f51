"""``croupier settle FILE``: settle one round from JSON and print the result as JSON.

Bad input exits with status 2 and one line on stderr, printing no result (the fixed contract).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from croupier import resident
from croupier.errors import SettleInputError


def settle(
    file: Annotated[str, typer.Argument(help="A round description in JSON, or - for stdin.")],
) -> None:
    """Settle one round described in JSON; print the result as JSON."""
    # The engines load here: ``croupier --help`` need not import them.
    with resident.loading():
        from croupier.settle import settle_text

    if file == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(file).read_text(encoding="utf-8")
        except OSError as error:
            raise SettleInputError(f"cannot read {file}: {error.strerror}") from None
    result = settle_text(text)
    print(json.dumps(result, indent=2))
