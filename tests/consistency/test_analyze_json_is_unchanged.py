"""``croupier analyze PROFILE --json`` prints, character for character, what the code printed
when these files were last written: every shipped blackjack profile under each
``--strategy``, other deck counts, and the baccarat profile. Making the command faster
(vectorised strategy choices, fewer dealer compositions, lighter start-up) must not move a
single bit of a figure: the JSON prints each float in full.

The files in ``analyze_json/`` are that command's output, one per case, named by its
arguments: at 5fcd391 (before the speed work of issue 12), written again when the dealer's
outcomes came to be summed by the dealer's finished hands instead of by draw sequence (the
same exact sums grouped otherwise, closer to the exact fractions: every figure moved by at
most 2.6e-16 against the code before, the charts not at all). The last bits depend on the
machine too (numpy's BLAS kernels differ by processor): on this project's machine the
files of 5fcd391 differed from main's output by up to 2.8e-17 before they were written
again. A change meant to move the figures (exact re-split distributions, say) regenerates
them: ``uv run python tests/consistency/test_analyze_json_is_unchanged.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli.main import app

GOLDEN = Path(__file__).parent / "analyze_json"
QUICK: tuple[tuple[str, ...], ...] = (
    *(
        (profile, "--strategy", strategy)
        for profile in ("peru-2016", "spain-1979", "veintiuno-real")
        for strategy in ("basic", "composition", "cdp1")
    ),
    ("dragon-six-peru-2016",),
)
OTHER_DECKS = tuple(
    (profile, *options)
    for profile in ("peru-2016", "spain-1979", "veintiuno-real")
    for options in (
        ("--decks", "1"),
        ("--decks", "2", "--strategy", "composition"),
        ("--decks", "8", "--strategy", "cdp1"),
    )
)


def _name(arguments: tuple[str, ...]) -> str:
    return "-".join(arguments).replace("---", "--") + ".json"


def _printed(arguments: tuple[str, ...], cache: Path) -> str:
    """The command's standard output, computed (an empty result cache)."""
    result = CliRunner().invoke(
        app, ["analyze", *arguments, "--json"], env={"CROUPIER_CACHE_DIR": str(cache)}
    )
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("arguments", QUICK, ids=_name)
def test_analyze_json_is_the_previous_output(arguments: tuple[str, ...], tmp_path: Path) -> None:
    assert _printed(arguments, tmp_path) == (GOLDEN / _name(arguments)).read_text()


@pytest.mark.slow
@pytest.mark.parametrize("arguments", OTHER_DECKS, ids=_name)
def test_analyze_json_on_other_deck_counts_is_the_previous_output(
    arguments: tuple[str, ...], tmp_path: Path
) -> None:
    assert _printed(arguments, tmp_path) == (GOLDEN / _name(arguments)).read_text()


def test_every_case_has_its_file() -> None:
    """No file without its case, no case without its file."""
    assert {p.name for p in GOLDEN.glob("*.json")} == {_name(a) for a in QUICK + OTHER_DECKS}


if __name__ == "__main__":  # regenerate the files after a change meant to move the figures
    import tempfile

    for case in QUICK + OTHER_DECKS:
        with tempfile.TemporaryDirectory() as scratch:
            (GOLDEN / _name(case)).write_text(_printed(case, Path(scratch)))
        print(f"wrote {_name(case)}", file=sys.stderr)
