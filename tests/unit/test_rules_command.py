"""``croupier rules show``: every rule of a profile, its value and its source
(docs/rules-as-data.md), including a later rule the profile leaves out (rules.base.LATER_FIELDS)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from croupier.cli.main import app
from croupier.rules.registry import shipped_profile_names


@pytest.mark.parametrize("name", shipped_profile_names())
def test_every_shipped_profile_is_shown(name: str) -> None:
    result = CliRunner().invoke(app, ["rules", "show", name], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert name in result.output


def test_a_blackjack_profile_without_surrender_shows_none_offered() -> None:
    """docs/rules.md#D-BJ-32: a blackjack profile without ``surrender`` offers none. The key
    is absent from spain-1979 and so from its dumped rules; showing it raised KeyError."""
    result = CliRunner().invoke(app, ["rules", "show", "spain-1979"], terminal_width=200)
    assert result.exit_code == 0, result.output
    surrender = next(line for line in result.output.splitlines() if "surrender" in line)
    assert "(not offered)" in surrender
    assert "key absent" in surrender
