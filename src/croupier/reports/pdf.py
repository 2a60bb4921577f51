"""The daily report as the regulator reads it: a PDF (reportlab, A4 landscape) with a chart
(matplotlib) of each table's win against its theoretical win and 99% band.

Laid out as the project's other PDFs (``service.dossier``: its styles and money format;
``analysis.par_pdf``: its grid, numbers right-aligned), headings in English and Spanish as
the dossier's are: the regulators of the shipped profiles write Spanish.
"""

from __future__ import annotations

import io
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import (
    Image,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from croupier.reports.daily import Z_99
from croupier.service.dossier import BODY, CELL, HEADING, TITLE, money

PAGE = landscape(A4)
WIDTH = PAGE[0] - 30 * mm


def _escape(text: object) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.2%}"


def _z(value: float | None) -> str:
    return "–" if value is None else f"{value:+.2f}"


def _grid(rows: list[list[Any]], fractions: tuple[float, ...], bold_last: bool = False) -> Table:
    """A grid with a shaded header, the first two columns left, the numbers right-aligned
    (as ``analysis.par_pdf``'s)."""
    body = [[Paragraph(_escape(cell), CELL) for cell in rows[0]]]
    body += [[str(cell) for cell in row] for row in rows[1:]]
    table = Table(body, colWidths=[WIDTH * f for f in fractions], repeatRows=1)
    style = [
        ("FONT", (0, 1), (-1, -1), "Helvetica", 8),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde4ee")),
        ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#9aa5b1")),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f5f7fa")]),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    if bold_last:
        style.append(("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 8))
    for index, row in enumerate(rows[1:], start=1):
        if "FLAGGED" in row:
            style.append(("BACKGROUND", (0, index), (-1, index), colors.HexColor("#f8d7da")))
    table.setStyle(TableStyle(style))
    return table


def _flag(figures: dict[str, Any]) -> str:
    return "FLAGGED" if figures["flagged"] else ""


def _day_rows(report: dict[str, Any]) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [
            "Table / Mesa",
            "Rules / Reglas",
            "Rounds / Manos",
            "Handle / Apuestas",
            "Drop",
            "Win / Ganancia",
            "Meter / Pozo",
            "Hold",
            "Theoretical / Teórico",
            "Theor. hold",
            "z",
            "99% band / Banda",
        ]
    ]
    for table in report["tables"]:
        rows.append(
            [
                f"{table['table']} {table['name']}",
                table["profile"],
                table["rounds"],
                money(table["handle_minor"]),
                money(table["drop_minor"]),
                money(table["win_minor"]),
                money(table["jackpot_minor"]),
                _percent(table["hold"]),
                money(table["theoretical_win_minor"]),
                _percent(table["theoretical_hold"]),
                _z(table["z"]),
                _flag(table),
            ]
        )
    totals = report["totals"]
    rows.append(
        [
            "Total",
            "",
            totals["rounds"],
            money(totals["handle_minor"]),
            money(totals["drop_minor"]),
            money(totals["win_minor"]),
            money(totals["jackpot_minor"]),
            _percent(totals["hold"]),
            money(totals["theoretical_win_minor"]),
            _percent(totals["theoretical_hold"]),
            _z(totals["z"]),
            _flag(totals),
        ]
    )
    return rows


def _to_date_rows(report: dict[str, Any]) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [
            "Table / Mesa",
            "Span / Periodo",
            "Rounds / Manos",
            "Handle / Apuestas",
            "Win / Ganancia",
            "Hold",
            "Theoretical / Teórico",
            "z",
            "99% band / Banda",
        ]
    ]
    named = [(f"{t['table']} {t['name']}", t) for t in report["tables"]]
    for label, figures in [*named, ("Total", report["totals"])]:
        for span, words in (("month_to_date", "month / mes"), ("year_to_date", "year / año")):
            part = figures[span]
            rows.append(
                [
                    label,
                    words,
                    part["rounds"],
                    money(part["handle_minor"]),
                    money(part["win_minor"]),
                    _percent(part["hold"]),
                    money(part["theoretical_win_minor"]),
                    _z(part["z"]),
                    _flag(part),
                ]
            )
    return rows


def _wager_rows(report: dict[str, Any]) -> list[list[Any]]:
    rows: list[list[Any]] = [
        ["Table / Mesa", "Wager / Apuesta", "Handle / Apuestas", "Theoretical / Teórico"]
    ]
    for table in report["tables"]:
        for wager in table["wagers"]:
            rows.append(
                [
                    f"{table['table']} {table['name']}",
                    wager["wager"],
                    money(wager["handle_minor"]),
                    money(wager["theoretical_win_minor"]),
                ]
            )
    return rows


def chart_png(report: dict[str, Any], width_inches: float = 10.0) -> bytes:
    """Each table's result of play (its win and its meter's movement: what the players lost)
    as a bar against its theoretical win (a dot) with the 99% band (the theoretical win
    +/- 2.576 standard deviations), in units; a flagged table's bar red. ``Figure`` rather
    than pyplot: a server may draw two at once."""
    tables = [t for t in report["tables"] if t["rounds"] or t["win_minor"]]
    figure = Figure(figsize=(width_inches, 3.2), dpi=150)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    labels = [f"{t['table']} {t['name']}" for t in tables]
    positions = list(range(len(tables)))
    played = [(t["win_minor"] + t["jackpot_minor"]) / 100 for t in tables]
    bar_colours = ["#c62828" if t["flagged"] else "#5b7fa6" for t in tables]
    axes.bar(
        positions,
        played,
        color=bar_colours,
        width=0.55,
        label="win at play (win + meter) / ganancia del juego (ganancia + pozo)",
        zorder=2,
    )
    banded = False
    for position, table in zip(positions, tables, strict=True):
        theoretical = table["theoretical_win_minor"]
        if theoretical is None:
            continue
        spread = (table["standard_deviation_minor"] or 0) * Z_99 / 100
        axes.errorbar(
            position,
            theoretical / 100,
            yerr=spread,
            fmt="o",
            color="#222222",
            ecolor="#888888",
            capsize=6,
            zorder=3,
            label=None if banded else "theoretical, 99% band / teórico, banda 99%",
        )
        banded = True
    axes.axhline(0, color="#444444", linewidth=0.6)
    axes.set_xticks(positions, labels, fontsize=7, rotation=15, ha="right")
    axes.set_ylabel("units / unidades", fontsize=8)
    axes.tick_params(axis="y", labelsize=7)
    axes.grid(axis="y", color="#e3e7ec", zorder=0)
    axes.set_title("Win against theoretical / Ganancia frente a la teórica", fontsize=9)
    if tables:
        axes.legend(fontsize=7, loc="best")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def _listing(
    title: str, items: list[dict[str, Any]], columns: tuple[str, ...], zone: ZoneInfo | None
) -> list[Any]:
    story: list[Any] = [Paragraph(_escape(title), HEADING)]
    if not items:
        return [*story, Paragraph("None / Ninguno.", BODY)]
    rows: list[list[Any]] = [list(columns)]
    for item in items:
        rows.append(
            [
                money(item[name])
                if name.endswith("_minor")
                else _moment(item[name], zone)
                if name.endswith("_at")
                else "–"
                if item[name] is None
                else item[name]
                for name in columns
            ]
        )
    fractions = tuple(1 / len(columns) for _ in columns)
    return [*story, _grid(rows, fractions)]


def _zone(name: str) -> ZoneInfo | None:
    """The report's zone; ``None``: the server's local zone (named by its abbreviation)."""
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        return None


def _moment(seconds: float | None, zone: ZoneInfo | None) -> str:
    if seconds is None:
        return "–"
    return datetime.fromtimestamp(seconds, zone).strftime("%Y-%m-%d %H:%M")


def render(report: dict[str, Any]) -> bytes:
    """The PDF of ``report`` (the JSON document, ``DailyReport.as_json``)."""
    day = report["gaming_day"]
    zone = day["time_zone"]
    tz = _zone(zone)
    opens, closes = _moment(day["from"], tz), _moment(day["to"], tz)
    story: list[Any] = [
        Paragraph(
            _escape(f"Daily report / Informe diario: {report['date']}"),
            TITLE,
        ),
        Paragraph(
            _escape(
                f"Gaming day from {opens} to {closes} ({zone}); the day begins at "
                f"{day['starts']}. / Jornada de juego de {opens} a {closes} ({zone}). Money in units / Importes en unidades "
                "(minor units / 100). Win: what the house won / lo que ganó la casa."
            ),
            BODY,
        ),
        Spacer(1, 3 * mm),
        Paragraph("The day, per table / La jornada, por mesa", HEADING),
        _grid(
            _day_rows(report),
            (0.13, 0.14, 0.06, 0.09, 0.07, 0.09, 0.08, 0.07, 0.09, 0.06, 0.05, 0.07),
            bold_last=True,
        ),
        Spacer(1, 3 * mm),
        Image(io.BytesIO(chart_png(report)), width=WIDTH, height=WIDTH * 0.32),
    ]
    flagged = [t for t in report["tables"] if t["flagged"]]
    story.append(
        Paragraph(
            _escape(
                "Flagged / Señaladas: "
                + (
                    ", ".join(f"{t['table']} {t['name']} (z = {t['z']:+.2f})" for t in flagged)
                    if flagged
                    else "none: every table's win lies in its 99% band / ninguna"
                )
            ),
            BODY,
        )
    )
    story += [
        KeepTogether(
            [
                Paragraph("Handle per wager / Apuestas por tipo", HEADING),
                _grid(_wager_rows(report), (0.3, 0.2, 0.25, 0.25)),
            ]
        ),
        Paragraph("Month and year to date / Mes y año hasta la fecha", HEADING),
        _grid(_to_date_rows(report), (0.18, 0.1, 0.08, 0.13, 0.12, 0.08, 0.13, 0.07, 0.11)),
    ]
    story += _listing(
        "Disputes / Reclamaciones",
        report["disputes"],
        ("dispute", "round", "table", "status", "opened_at", "decided_at", "corrected_minor"),
        tz,
    )
    story += _listing(
        "Payout corrections / Correcciones de pagos",
        report["corrections"],
        ("correction", "round", "table", "status", "amount_minor", "proposed_at", "decided_at"),
        tz,
    )
    story += _listing(
        "Voided rounds / Manos anuladas",
        report["voids"],
        ("round", "table", "ended_at", "reason"),
        tz,
    )
    notes = [
        "Win: the house account's movement from the table's rounds, the corrections paid in "
        "the day (disputes, payout corrections) included. Meter: the movement of the table's "
        "progressive meter (Casino Hold'em), which the house seeds from its own account. Hold "
        "= (win + meter) / handle: what the players lost over what they wagered. / Ganancia: "
        "el movimiento de la cuenta de la casa por las manos de la mesa, con las correcciones "
        "del día. Pozo: el movimiento del pozo progresivo, que la casa siembra. Retención = "
        "(ganancia + pozo) / apuestas.",
        "Theoretical win: the sum over every wager initially placed of its stake times the "
        "exact house edge of the table's own rules (croupier analyze); z = (win + meter - "
        "theoretical) / sqrt(sum of stake^2 x the wager's variance per unit); flagged when "
        f"|z| > {Z_99} (outside the 99% band). / Ganancia teórica: cada apuesta inicial por "
        "la ventaja exacta de la casa según las reglas de la mesa; señalada si |z| > "
        f"{Z_99}.",
        "Blackjack: the basic strategy the analysis prints, per initial bet (doubles and "
        "splits are inside the main wager's figures): players who play otherwise move the "
        "hold. Casino Hold'em's Bet is inside the Ante's figures; the progressive at its "
        "seed meter. / Blackjack: la estrategia básica del análisis, por apuesta inicial.",
    ]
    if report["pending_analysis"]:
        notes.append(
            "No analysis yet for " + ", ".join(report["pending_analysis"]) + ": their "
            "theoretical figures are left blank. / Sin análisis todavía: cifras teóricas en "
            "blanco."
        )
    story.append(
        KeepTogether(
            [
                Paragraph("Notes / Notas", HEADING),
                *(Paragraph(_escape(f"- {note}"), BODY) for note in notes),
            ]
        )
    )

    def footer(canvas: Any, document: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7.5)
        canvas.drawString(15 * mm, 9 * mm, f"croupier daily report {report['date']}")
        canvas.drawRightString(PAGE[0] - 15 * mm, 9 * mm, f"page {document.page}")
        canvas.restoreState()

    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=PAGE,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=12 * mm,
        bottomMargin=16 * mm,
        title=f"Daily report {report['date']}",
        author="croupier",
        invariant=1,
    )
    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
