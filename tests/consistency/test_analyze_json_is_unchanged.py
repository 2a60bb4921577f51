"""``croupier analyze PROFILE --json`` prints, character for character, what the code printed
when these files were last written: every shipped blackjack profile under each
``--strategy``, other deck counts, and the baccarat profile. Making the command faster
(vectorised strategy choices, fewer dealer compositions, lighter start-up) must not move a
figure: the JSON prints each float in full, and every key, string, integer and the order of
every list must be the same.

A float may differ from the file in its last digits only, by a relative 1e-11 (and 1e-16 of a
unit near zero): the last bits of a sum depend on the machine's CPU, since NumPy picks its
SIMD loops (and so the order of a sum's partial additions) by what the CPU offers. The same
tree on an Intel and on an AMD EPYC of this project's machines printed, for instance, a
``distribution_mean_offset`` of -7.229252237389485e-06 and -7.229252237389051e-06 (6e-14
apart); any change to a rule, a strategy or an exact-split value moves a figure by far more.

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

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

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


FLOAT = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+e[-+]?\d+")
RELATIVE = 1e-11
NEAR_ZERO = 1e-16


def _differences(printed: Any, kept: Any, where: str = "$") -> list[str]:
    """Where ``printed`` differs from ``kept``: exactly for every key, string, integer, bool and
    list length; floats to ``RELATIVE`` (the module docstring says why)."""
    if isinstance(kept, float) and isinstance(printed, float):
        close = math.isclose(printed, kept, rel_tol=RELATIVE, abs_tol=NEAR_ZERO)
        return [] if close else [f"{where}: {printed!r} against {kept!r}"]
    if type(printed) is not type(kept):
        return [f"{where}: {printed!r} against {kept!r}"]
    if isinstance(kept, dict):
        if list(printed) != list(kept):
            return [f"{where}: keys {list(printed)} against {list(kept)}"]
        return [d for key in kept for d in _differences(printed[key], kept[key], f"{where}.{key}")]
    if isinstance(kept, list):
        if len(printed) != len(kept):
            return [f"{where}: {len(printed)} items against {len(kept)}"]
        return [
            d
            for i, (p, k) in enumerate(zip(printed, kept, strict=True))
            for d in _differences(p, k, f"{where}[{i}]")
        ]
    return [] if printed == kept else [f"{where}: {printed!r} against {kept!r}"]


def _same_as_kept(arguments: tuple[str, ...], cache: Path) -> None:
    printed = _printed(arguments, cache)
    kept = (GOLDEN / _name(arguments)).read_text()
    # The same text, character for character, where the floats stand aside: keys, strings,
    # integers, indentation and order.
    assert FLOAT.sub("<float>", printed) == FLOAT.sub("<float>", kept)
    assert _differences(json.loads(printed), json.loads(kept)) == []


def _printed(arguments: tuple[str, ...], cache: Path) -> str:
    """The command's standard output, computed (an empty result cache)."""
    result = CliRunner().invoke(
        app, ["analyze", *arguments, "--json"], env={"CROUPIER_CACHE_DIR": str(cache)}
    )
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("arguments", QUICK, ids=_name)
def test_analyze_json_is_the_previous_output(arguments: tuple[str, ...], tmp_path: Path) -> None:
    _same_as_kept(arguments, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("arguments", OTHER_DECKS, ids=_name)
def test_analyze_json_on_other_deck_counts_is_the_previous_output(
    arguments: tuple[str, ...], tmp_path: Path
) -> None:
    _same_as_kept(arguments, tmp_path)


def test_a_figure_moved_beyond_the_last_digits_is_a_difference() -> None:
    """The comparison is not vacuous: a house edge moved in its 9th digit, a key renamed, a
    list shortened or an integer changed are each reported."""
    kept = {"house_edge": 0.004125431, "hands": [1, 2], "name": "peru-2016"}
    assert _differences({**kept, "house_edge": 0.004125432}, kept) != []
    assert _differences({**kept, "house_edge": 0.004125431 * (1 + 1e-13)}, kept) == []
    assert (
        _differences({"house_edgE": 0.004125431, "hands": [1, 2], "name": "peru-2016"}, kept) != []
    )
    assert _differences({**kept, "hands": [1]}, kept) != []
    assert _differences({**kept, "hands": [1, 3]}, kept) != []
    assert _differences({**kept, "hands": [1.0, 2]}, kept) != []


def test_every_case_has_its_file() -> None:
    """No file without its case, no case without its file."""
    assert {p.name for p in GOLDEN.glob("*.json")} == {_name(a) for a in QUICK + OTHER_DECKS}


if __name__ == "__main__":  # regenerate the files after a change meant to move the figures
    import tempfile

    for case in QUICK + OTHER_DECKS:
        with tempfile.TemporaryDirectory() as scratch:
            (GOLDEN / _name(case)).write_text(_printed(case, Path(scratch)))
        print(f"wrote {_name(case)}", file=sys.stderr)
