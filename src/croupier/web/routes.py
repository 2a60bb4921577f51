"""The pages a person sits down at, served by ``croupier serve`` itself.

Each page is a Jinja2 template in the browser's language (``Accept-Language``) with its
messages handed to a plain JS module, which talks to the table server's JSON API and its
table WebSocket. No build step: the modules and the stylesheet are served as they are.

``install(app)`` adds the pages and the static assets to the server's app (one line in its
factory). Page URLs:

- ``/`` the lobby; ``/sign-in``, ``/sign-up``
- ``/table/{table_id}`` a table (any game)
- ``/account`` balance and history; ``/recall/{round_id}`` a past round, step by step
- ``/operator`` tables, players, the ledger, the shoes' commitments and reveals, disputes, staff
- ``/disputes``, ``/inspector``, ``/inspector/{dispute_id}``: ``staff_pages``

Any other path, and a table that does not exist, answers 404: a page for a browser (its
``Accept`` names ``text/html``), the API's JSON error for any other client.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Request
from fastapi import Path as PathParameter
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from croupier.server import errors
from croupier.server.context import Server, ServerDep
from croupier.service import pace
from croupier.web.api import router as api_router
from croupier.web.language import Catalogue, negotiate

HERE = Path(__file__).resolve().parent
STATIC_URL = "/web/static"

templates = Jinja2Templates(directory=HERE / "templates")

# Scripts only from our own origin and no inline script; the catalogue travels as JSON data.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

router = APIRouter(include_in_schema=False)

AcceptLanguage = Annotated[str | None, Header()]


def _page(
    request: Request,
    template: str,
    title_key: str,
    accept_language: str | None,
    *,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    catalogue = Catalogue.load(negotiate(accept_language))
    response = templates.TemplateResponse(
        request,
        template,
        {
            "lang": catalogue.language,
            "t": catalogue.text,
            "messages_json": catalogue.as_json(),
            "title_key": title_key,
            "static": STATIC_URL,
            **context,
        },
        status_code=status_code,
    )
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Content-Language"] = catalogue.language
    response.headers["Vary"] = "Accept-Language"
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/", response_class=HTMLResponse)
def lobby_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return _page(request, "lobby.html", "lobby.title", accept_language, page="lobby")


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return _page(request, "sign_in.html", "auth.sign_in", accept_language, page="sign-in")


@router.get("/sign-up", response_class=HTMLResponse)
def sign_up_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return _page(request, "sign_up.html", "auth.sign_up", accept_language, page="sign-up")


def not_found_page(
    request: Request, accept_language: str | None, *, what: str = "page"
) -> HTMLResponse:
    """The 404 page a person reads: no such page, or (``what="table"``) no such table."""
    keys = {
        "page": ("not_found.page", "not_found.page_text"),
        "table": ("not_found.table", "not_found.table_text"),
    }
    title_key, text_key = keys[what]
    return _page(
        request,
        "not_found.html",
        title_key,
        accept_language,
        status_code=404,
        page="not-found",
        text_key=text_key,
    )


def wants_a_page(request: Request) -> bool:
    """A browser navigating asks for ``text/html``; ``fetch`` and API clients do not."""
    return "text/html" in request.headers.get("accept", "")


@router.get("/table/{table_id}", response_class=HTMLResponse)
def table_page(
    request: Request,
    server: ServerDep,
    table_id: Annotated[int, PathParameter(ge=1)],
    accept_language: AcceptLanguage = None,
) -> HTMLResponse:
    # Known before the page loads, so it says "table not found" instead of connecting forever.
    if table_id not in server.casino.tables:
        return not_found_page(request, accept_language, what="table")
    return _page(
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


@router.get("/account", response_class=HTMLResponse)
def player_page(
    request: Request, server: ServerDep, accept_language: AcceptLanguage = None
) -> HTMLResponse:
    return _page(
        request,
        "account.html",
        "me.title",
        accept_language,
        page="account",
        **_gaming_day(server),
    )


@router.get("/recall/{round_id}", response_class=HTMLResponse)
def recall_page(
    request: Request,
    round_id: Annotated[int, PathParameter(ge=1)],
    accept_language: AcceptLanguage = None,
) -> HTMLResponse:
    return _page(
        request, "recall.html", "recall.title", accept_language, page="recall", round_id=round_id
    )


@router.get("/operator", response_class=HTMLResponse)
def operator_page(
    request: Request, server: ServerDep, accept_language: AcceptLanguage = None
) -> HTMLResponse:
    return _page(
        request,
        "operator.html",
        "operator.title",
        accept_language,
        page="operator",
        **_gaming_day(server),
    )


def _gaming_day(server: Server) -> dict[str, Any]:
    """The house's gaming day (its start, and its zone if the operator named one) for a
    page's "today": a report's or a statement's day is the browser's (issue 27, item 6)."""
    gaming_day = server.settings.gaming_day
    return {
        "gaming_day_start": gaming_day.start.strftime("%H:%M"),
        "gaming_day_zone": gaming_day.zone or "",
    }


@router.get("/favicon.ico")
def favicon() -> RedirectResponse:
    # Browsers ask for it whatever the page says; a 404 would be a console error.
    return RedirectResponse(f"{STATIC_URL}/favicon.svg", status_code=308)


async def _not_found(request: Request, error: Exception) -> Response:
    """Starlette's 404 (no route matched): a page for a browser, the API's JSON for others."""
    if wants_a_page(request):
        return not_found_page(request, request.headers.get("accept-language"))
    return errors.http_answer(error if isinstance(error, HTTPException) else HTTPException(404))


def install(app: FastAPI) -> None:
    """Serve the pages and their assets from ``app`` (the table server's app factory)."""
    from croupier.web.dealer_pages import router as dealer_pages
    from croupier.web.staff_pages import router as staff_pages

    app.include_router(router)
    app.include_router(staff_pages)
    app.include_router(dealer_pages)
    app.include_router(api_router)
    app.mount(STATIC_URL, StaticFiles(directory=HERE / "static"), name="web-static")
    app.add_exception_handler(404, _not_found)
