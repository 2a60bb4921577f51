"""``croupier simulate --report DIR``: the Markdown page and its four charts, the same bytes
for the same run."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from croupier.cli.main import app

runner = CliRunner()


def _report(directory: Path) -> str:
    result = runner.invoke(
        app,
        ["simulate", "spain-1979", "--rounds", "60000", "--seed", "3", "--count", "hi-lo",
         "--ramp", "1:1,3:4", "--bankroll", "100", "--horizon", "2000", "--report",
         str(directory)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return (directory / "spain-1979-simulation.md").read_text()


def test_report_page_and_charts(tmp_path: Path) -> None:
    page = _report(tmp_path / "a")
    for chart in ("convergence", "ev-by-true-count", "trajectories", "risk-of-ruin"):
        png = tmp_path / "a" / f"spain-1979-{chart}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png.name in page
    assert "| bankroll | simulated |" in page and "## Counting: Hi-Lo" in page
    _report(tmp_path / "b")
    for png in (tmp_path / "a").glob("*.png"):
        assert png.read_bytes() == (tmp_path / "b" / png.name).read_bytes(), png.name
