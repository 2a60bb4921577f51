"""HTTP route of the regulator's daily report (issue 27, item 4; ``croupier.reports.daily``,
docs/reports.md).

``GET /operator/reports/daily?date=YYYY-MM-DD[&format=json|csv|pdf]``: the operator's (and
an outside tool's with the operator's token). Read-only; the theoretical figures come from
the analyses already made (``Server.returns``): a request never computes one.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date as date_type
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from croupier.gaming_day import GamingDayError, parse_date
from croupier.reports import daily, players, statement
from croupier.reports.formats import to_csv
from croupier.server.answers import (
    ActivityStatement,
    DailyRangeReport,
    DailyReport,
    PlayersActivity,
    documented,
)
from croupier.server.context import Caller, Operator, ServerDep
from croupier.service.errors import RequestError

router = APIRouter()


@router.get(
    "/operator/reports/daily",
    responses={
        200: {
            "model": DailyReport,
            "content": {"text/csv": {}, "application/pdf": {}},
            "description": "The report as JSON, CSV or PDF (``format``).",
        }
    },
)
def daily_report(
    *,
    server: ServerDep,
    who: Operator,
    date: Annotated[str, Query(max_length=10, description="The gaming day, YYYY-MM-DD.")],
    format: Annotated[Literal["json", "csv", "pdf"], Query()] = "json",
) -> Response:
    """Per table: rounds, handle (per wager), drop, win, hold, theoretical win, z and the 99%
    flag, with month- and year-to-date; the day's disputes, corrections and voids. Money in
    minor units; ``win_minor`` is what the house won."""
    try:
        day = parse_date(date)
    except GamingDayError as error:
        raise RequestError(str(error), code="bad_date", date=date) from None
    settings = server.settings
    report = server.uow.read(
        lambda session: daily.build(
            session, day, settings.gaming_day, server.returns.of, settings.retention_years
        )
    ).as_json()
    name = f"daily-{day.isoformat()}"
    if format == "csv":
        return Response(
            to_csv(report),
            media_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
        )
    if format == "pdf":
        from croupier.reports import pdf  # reportlab and matplotlib load with the first PDF

        return Response(
            pdf.render(report),
            media_type="application/pdf",
            headers={"Content-Disposition": f'attachment; filename="{name}.pdf"'},
        )
    return JSONResponse(report)


# --- the operator's chart and the player's statement (issue 27, item 6) --------------------
def _days(first: str, last: str) -> tuple[date_type, date_type]:
    """Both ends of a span, or a typed ``bad_date`` naming the one that is no date."""
    days = []
    for text in (first, last):
        try:
            day = parse_date(text)
        except GamingDayError as error:
            raise RequestError(str(error), code="bad_date", date=text) from None
        if day == date_type.max:  # its gaming day would end after the calendar does
            raise RequestError(f"date: {text!r} is the calendar's last", code="bad_date", date=text)
        days.append(day)
    return days[0], days[1]


@router.get("/operator/reports/daily-range", responses=documented(DailyRangeReport))
def daily_range_report(
    *,
    server: ServerDep,
    who: Operator,
    first: Annotated[str, Query(alias="from", max_length=10, description="YYYY-MM-DD")],
    last: Annotated[str, Query(alias="to", max_length=10, description="YYYY-MM-DD")],
) -> JSONResponse:
    """Gaming days ``from`` to ``to`` (both included, at most 92): each table's figures day by
    day as the daily report gives them (no month or year to date), for the operator's chart
    of win against theoretical."""
    start, end = _days(first, last)
    if end < start or (end - start).days + 1 > daily.MAX_RANGE_DAYS:
        raise RequestError(
            f"{first} to {last} is not a span of 1 to {daily.MAX_RANGE_DAYS} days",
            code="bad_report_span",
            first=first,
            last=last,
            most=daily.MAX_RANGE_DAYS,
        )
    gaming_day = server.settings.gaming_day
    document = server.uow.read(
        lambda session: daily.build_range(session, start, end, gaming_day, server.returns.of)
    ).as_json()
    return JSONResponse(document)


@router.get(
    "/me/statement",
    responses={
        200: {
            "model": ActivityStatement,
            "content": {"text/csv": {}},
            "description": "JSON or CSV (``format``).",
        }
    },
)
def my_statement(
    *,
    server: ServerDep,
    who: Caller,
    first: Annotated[str, Query(alias="from", max_length=10, description="YYYY-MM-DD")],
    last: Annotated[str, Query(alias="to", max_length=10, description="YYYY-MM-DD")],
    format: Annotated[Literal["json", "csv"], Query()] = "json",
) -> Response:
    """The caller's activity statement over gaming days ``from`` to ``to`` (both included, at
    most 366): every movement of the caller's own wallet with its round and table. Whose
    wallet is the token's alone: no parameter names another player."""
    start, end = _days(first, last)
    try:
        span = statement.span_of(start, end, server.settings.gaming_day)
    except GamingDayError:
        raise RequestError(
            f"{first} to {last} is not a span of 1 to {statement.MAX_STATEMENT_DAYS} days",
            code="bad_report_span",
            first=first,
            last=last,
            most=statement.MAX_STATEMENT_DAYS,
        ) from None
    lines = server.uow.read(lambda session: statement.lines_of(session, who.user_id, span))
    if format == "csv":
        return Response(
            statement.to_csv(lines),
            media_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="statement-{first}-{last}.csv"'},
        )
    return JSONResponse({"from": first, "to": last, "lines": [asdict(line) for line in lines]})


@router.get("/operator/players/activity", responses=documented(PlayersActivity))
def players_activity(
    *,
    server: ServerDep,
    who: Operator,
    date: Annotated[str, Query(max_length=10, description="The gaming day, YYYY-MM-DD.")],
) -> JSONResponse:
    """Each player's balance, and in gaming day ``date``: rounds played, amount wagered, the
    net of play, the cashier's net movement and the last movement (the back office's list)."""
    day, _ = _days(date, date)
    window = server.settings.gaming_day.window(day)
    found = server.uow.read(lambda session: players.activity(session, window))
    return JSONResponse({"date": date, "players": [asdict(player) for player in found]})
