"""HTTP route of the regulator's daily report (issue 27, item 4; ``croupier.reports.daily``,
docs/reports.md).

``GET /operator/reports/daily?date=YYYY-MM-DD[&format=json|csv|pdf]``: the operator's (and
an outside tool's with the operator's token). Read-only; the theoretical figures come from
the analyses already made (``Server.returns``): a request never computes one.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from croupier.reports import daily
from croupier.reports.formats import to_csv
from croupier.reports.gaming_day import GamingDayError, parse_date
from croupier.server.answers import DailyReport
from croupier.server.context import Operator, ServerDep
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
