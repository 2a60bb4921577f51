"""``croupier report --database URL --date D --out DIR`` writes the daily report's JSON, CSV
and PDF from the database alone: the same documents the route answers."""

from __future__ import annotations

import json
from pathlib import Path

from report_support import play, report
from server_support import OPERATOR_TOKEN, Api, Table
from typer.testing import CliRunner

from croupier.cli.main import app


def test_the_command_writes_what_the_route_answers(
    api: Api, database_url: str, tmp_path: Path
) -> None:
    table = Table(api, "dragon-six-peru-2016", ["cli-a", "cli-b"])
    play(table, 2)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app,
        [
            "report",
            "--database",
            database_url,
            "--date",
            "2026-12-05",
            "--out",
            str(out),
            "--time-zone",
            "UTC",
        ],
    )
    assert result.exit_code == 0, result.output
    written = json.loads((out / "daily-2026-12-05.json").read_text(encoding="utf-8"))
    # The command analysed Dragon Six into the cache; the route now reads it from there.
    answered = report(api)
    assert written == answered
    assert written["tables"][0]["theoretical_win_minor"] is not None
    csv = api.get("/operator/reports/daily?date=2026-12-05&format=csv", OPERATOR_TOKEN)
    assert (out / "daily-2026-12-05.csv").read_bytes() == csv.content
    pdf = (out / "daily-2026-12-05.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and b"Daily report" in pdf
    assert api.get(
        "/operator/reports/daily?date=2026-12-05&format=pdf", OPERATOR_TOKEN
    ).content.startswith(b"%PDF-")
