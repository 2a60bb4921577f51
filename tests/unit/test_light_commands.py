"""Each command imports only what it needs (issue 12's speed line): ``croupier rules show``
took 0.42 s because the CLI imported every command, the audit's signing, SQLAlchemy and
Alembic among them, to print a table of rules. Run as the console command runs, in a fresh
interpreter, a light command loads none of the heavy stacks and prints what the whole CLI
prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli.main import _COMMANDS, app

# The database, signing, web and compiled stacks: each a tenth of a second or more to import.
HEAVY = ("sqlalchemy", "alembic", "cryptography", "fastapi", "starlette", "uvicorn", "numba")

# The console command, argv and all, then the modules it imported, on stderr.
SCRIPT = """
import json, sys
sys.argv = ["croupier", *json.loads(sys.argv[1])]
from croupier.cli.main import main
try:
    main()
except SystemExit as exit:
    code = exit.code
else:
    code = 0
sys.stdout.flush()
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""

WIDTH = {"COLUMNS": "120"}

SETTLE = {
    "game": "blackjack",
    "rules": "peru-2016",
    "shoe": ["Th", "9c", "9d", "7s", "Kd"],
    "seats": [{"seat": 1, "bets": {"main": 10, "21+3": 5}, "actions": ["stand"]}],
}


def _run_fresh(arguments: list[str]) -> tuple[int, str, set[str]]:
    """Exit code, standard output and the modules ``croupier ARGUMENTS`` imported."""
    environment = os.environ | WIDTH
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(arguments)],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        timeout=60,
    )
    code, modules = json.loads(done.stderr.splitlines()[-1])
    return code, done.stdout, set(modules)


@pytest.mark.parametrize(
    "arguments",
    [
        ["rules", "show", "peru-2016"],
        ["rules"],
        ["settle", "ROUND"],
        ["--help"],
        ["serve", "--help"],
        ["backup", "--help"],
        ["manifest", "--help"],
        ["audit", "verify", "--help"],
    ],
)
def test_a_light_command_imports_no_heavy_stack_and_prints_what_the_whole_cli_prints(
    arguments: list[str], tmp_path: Path
) -> None:
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps(SETTLE), encoding="utf-8")
    arguments = [str(round_file) if argument == "ROUND" else argument for argument in arguments]
    code, output, modules = _run_fresh(arguments)
    packages = {name.partition(".")[0] for name in modules}
    assert not packages & set(HEAVY), sorted(packages & set(HEAVY))
    # In this process every command is registered (pytest's argv names none of them).
    whole = CliRunner().invoke(app, arguments, env=WIDTH)
    assert (code, output) == (whole.exit_code, whole.output)
    assert code == 0


def test_the_help_still_lists_every_command() -> None:
    code, output, _ = _run_fresh(["--help"])
    assert code == 0
    listed = {line.split()[1] for line in output.splitlines() if line.startswith("│ ")}
    assert listed >= {"settle", "rules", *_COMMANDS}


def test_the_help_builds_no_rules_model_and_imports_no_engine() -> None:
    """``croupier --help`` reads each command's docstring: the rules' pydantic models (a
    tenth of a second) and the game engines load only in the commands that use them."""
    code, _, modules = _run_fresh(["--help"])
    assert code == 0
    loaded = {name for name in modules if name.startswith(("croupier.rules", "croupier.games."))}
    assert not loaded, sorted(loaded)
