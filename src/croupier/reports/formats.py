"""The daily report as CSV: one line per table, then its wagers, then the totals.

Columns (``COLUMNS``; docs/reports.md): a table's line has an empty ``wager`` and every
figure; each of its wagers follows with the ``wager`` named and only its ``handle_minor``
and ``theoretical_win_minor``; the last line is the totals (``table`` = ``total``). Money
is integer minor units, ``hold`` and ``theoretical_hold`` fractions of one, an unknown figure
an empty cell, ``flagged`` ``true`` or ``false``.
"""

from __future__ import annotations

import csv
import io
from typing import Any

SPAN_COLUMNS = (
    "rounds",
    "handle_minor",
    "win_minor",
    "hold",
    "theoretical_win_minor",
    "z",
    "flagged",
)
"""The month- and year-to-date columns, prefixed ``mtd_`` and ``ytd_``."""

COLUMNS = (
    "date",
    "table",
    "name",
    "profile",
    "game",
    "wager",
    "rounds",
    "handle_minor",
    "drop_minor",
    "win_minor",
    "hold",
    "theoretical_win_minor",
    "theoretical_hold",
    "z",
    "flagged",
    "jackpot_minor",
    *(f"mtd_{name}" for name in SPAN_COLUMNS),
    *(f"ytd_{name}" for name in SPAN_COLUMNS),
)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _line(date: str, head: dict[str, Any], figures: dict[str, Any]) -> dict[str, str]:
    line = {name: _cell(figures.get(name)) for name in COLUMNS} | {
        name: _cell(value) for name, value in head.items()
    }
    line["date"] = date
    for prefix, span in (("mtd_", "month_to_date"), ("ytd_", "year_to_date")):
        for name in SPAN_COLUMNS:
            line[prefix + name] = _cell(figures[span].get(name))
    return line


def to_csv(report: dict[str, Any]) -> str:
    """``report`` (the JSON document, ``DailyReport.as_json``) as CSV text."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    date = report["date"]
    for table in report["tables"]:
        head = {
            "table": table["table"],
            "name": table["name"],
            "profile": table["profile"],
            "game": table["game"],
            "wager": "",
        }
        writer.writerow(_line(date, head, table))
        for wager in table["wagers"]:
            writer.writerow(
                {name: "" for name in COLUMNS}
                | {name: _cell(value) for name, value in head.items()}
                | {
                    "date": date,
                    "wager": wager["wager"],
                    "handle_minor": _cell(wager["handle_minor"]),
                    "theoretical_win_minor": _cell(wager["theoretical_win_minor"]),
                }
            )
    writer.writerow(_line(date, {"table": "total", "wager": ""}, report["totals"]))
    return buffer.getvalue()
