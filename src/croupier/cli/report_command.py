"""``croupier report --database URL --date YYYY-MM-DD --out DIR``: the regulator's daily
report (``croupier.reports.daily``) written as ``daily-DATE.json``, ``.csv`` and ``.pdf``,
the same documents ``GET /operator/reports/daily`` answers, from the database alone: no
server need run. Nothing is written to the database. A profile whose exact analysis is not
in the cache yet is analysed here (seconds; the first Casino Hold'em table's enumeration
longer), and kept in the cache for the server and the next report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from croupier import resident


def command(  # noqa: PLR0917 - Typer reads the options from the signature
    date: Annotated[str, typer.Option("--date", help="The gaming day, YYYY-MM-DD.")],
    database: Annotated[
        str,
        typer.Option(
            "--database",
            help="SQLAlchemy URL: sqlite:///path or postgresql+psycopg://... (read only).",
        ),
    ] = "sqlite:///croupier.sqlite",
    out: Annotated[
        Path, typer.Option("--out", help="The folder the JSON, CSV and PDF are written to.")
    ] = Path(),
    gaming_day_start: Annotated[
        str,
        typer.Option(
            "--gaming-day-start",
            help="When the house's day begins, HH:MM (as `croupier serve` was given it).",
        ),
    ] = "06:00",
    time_zone: Annotated[
        str | None,
        typer.Option("--time-zone", help="IANA zone of the gaming day (default: this machine's)."),
    ] = None,
    retention_years: Annotated[
        int, typer.Option("--retention-years", min=1, help="Years the records are kept.")
    ] = 7,
) -> None:
    """Write the regulator's daily report (JSON, CSV, PDF) from the database alone."""
    with resident.loading():
        from sqlalchemy.orm import Session

        from croupier.gaming_day import GamingDay, parse_date
        from croupier.reports import daily, pdf
        from croupier.reports.formats import to_csv
        from croupier.reports.returns import Returns
        from croupier.service.database import make_engine

    day = parse_date(date)
    gaming_day = GamingDay.parse(gaming_day_start, time_zone)
    returns = Returns()
    engine = make_engine(database, read_only=True)
    try:
        with Session(engine) as session:
            report = daily.build(
                session, day, gaming_day, returns.compute, retention_years
            ).as_json()
    finally:
        engine.dispose()
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"daily-{day.isoformat()}"
    written = [stem.with_suffix(".json"), stem.with_suffix(".csv"), stem.with_suffix(".pdf")]
    written[0].write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    written[1].write_text(to_csv(report), encoding="utf-8", newline="")
    written[2].write_bytes(pdf.render(report))
    flagged = [str(table["table"]) for table in report["tables"] if table["flagged"]]
    for path in written:
        typer.echo(f"wrote {path}")
    if flagged:
        typer.echo(f"flagged (hold outside its 99% band): table {', '.join(flagged)}")
