"""The pages a person sits down at, served by ``croupier serve`` itself.

Each page is a Jinja2 template in the browser's language (``Accept-Language``) with its
messages handed to a plain JS module, which talks to the table server's JSON API and its
table WebSocket. No build step: the modules and the stylesheet are served as they are.

``install(app, runs_table=...)`` adds the pages and the static assets to the server's app (one
line in its factory, which says which tables it runs). Page URLs:

- ``/`` the lobby; ``/sign-in``, ``/sign-up``
- ``/table/{table_id}`` a table (any game)
- ``/account`` balance and history; ``/recall/{round_id}`` a past round, step by step
- ``/operator`` tables, players, the ledger, the shoes' commitments and reveals, disputes, staff
- ``/disputes``, ``/inspector``, ``/inspector/{dispute_id}``: ``staff_pages``

Any other path, and a table that does not exist, answers 404: a page for a browser (its
``Accept`` names ``text/html``; ``page.not_found_page``), the API's JSON error for any other
client (the server's app decides which).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, FastAPI, Request
from fastapi import Path as PathParameter
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from croupier.gaming_day import GamingDay
from croupier.service import pace
from croupier.web.dealer_pages import router as dealer_pages
from croupier.web.page import HERE, STATIC_URL, AcceptLanguage, not_found_page, render
from croupier.web.staff_pages import router as staff_pages

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def lobby_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return render(request, "lobby.html", "lobby.title", accept_language, page="lobby")


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return render(request, "sign_in.html", "auth.sign_in", accept_language, page="sign-in")


@router.get("/sign-up", response_class=HTMLResponse)
def sign_up_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return render(request, "sign_up.html", "auth.sign_up", accept_language, page="sign-up")


@router.get("/recall/{round_id}", response_class=HTMLResponse)
def recall_page(
    request: Request,
    round_id: Annotated[int, PathParameter(ge=1)],
    accept_language: AcceptLanguage = None,
) -> HTMLResponse:
    return render(
        request, "recall.html", "recall.title", accept_language, page="recall", round_id=round_id
    )


@router.get("/favicon.ico")
def favicon() -> RedirectResponse:
    # Browsers ask for it whatever the page says; a 404 would be a console error.
    return RedirectResponse(f"{STATIC_URL}/favicon.svg", status_code=308)


RunsTable = Callable[[Request, int], bool]
"""Whether the server behind the pages runs table ``table_id``: the app that installs the
pages says (they stand below the server and know nothing of it)."""


def _table_page(runs_table: RunsTable) -> Callable[..., HTMLResponse]:
    """``/table/{table_id}``: any game's table, or the 404 page of an unknown table."""

    def table_page(
        request: Request,
        table_id: Annotated[int, PathParameter(ge=1)],
        accept_language: AcceptLanguage = None,
    ) -> HTMLResponse:
        # Known before the page loads, so it says "table not found" instead of connecting
        # forever.
        if not runs_table(request, table_id):
            return not_found_page(request, accept_language, what="table")
        return render(
            request,
            "table.html",
            "table.title",
            accept_language,
            page="table",
            table_id=table_id,
            # The felt's pace and the server's decision clock from the same numbers (issue 26).
            pace={
                "beat_ms": round(pace.DEAL_BEAT_SECONDS * 1000),
                "longest_ms": round(pace.DEAL_LONGEST_SECONDS * 1000),
                "reconnect_ms": round(pace.RECONNECT_SECONDS * 1000),
            },
        )

    return table_page


HouseDay = Callable[[Request], GamingDay]
"""The house's gaming day, for a page whose "today" is a report's or a statement's day (issue
27, item 6): the app that installs the pages says; the browser then takes today in that zone
and from that hour."""


def _house_day_page(
    template: str, title_key: str, page: str, house_day: HouseDay
) -> Callable[..., HTMLResponse]:
    """A page (the account's, the operator's) told the house's gaming day."""

    def house_day_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
        day = house_day(request)
        return render(
            request,
            template,
            title_key,
            accept_language,
            page=page,
            gaming_day_start=day.start.strftime("%H:%M"),
            gaming_day_zone=day.zone or "",
        )

    return house_day_page


def install(app: FastAPI, *, runs_table: RunsTable, house_day: HouseDay) -> None:
    """Serve the pages and their assets from ``app`` (the table server's app factory, which
    also answers its 404s with ``page.not_found_page`` for a browser)."""
    app.include_router(router)
    app.add_api_route(
        "/table/{table_id}",
        _table_page(runs_table),
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    for path, template, title_key, page in (
        ("/account", "account.html", "me.title", "account"),
        ("/operator", "operator.html", "operator.title", "operator"),
    ):
        app.add_api_route(
            path,
            _house_day_page(template, title_key, page, house_day),
            response_class=HTMLResponse,
            include_in_schema=False,
        )
    app.include_router(staff_pages)
    app.include_router(dealer_pages)
    app.mount(STATIC_URL, StaticFiles(directory=HERE / "static"), name="web-static")
