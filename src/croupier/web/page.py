"""How a page is drawn: a Jinja2 template in the browser's language, its messages handed to
a plain JS module as JSON data, under a content security policy that allows only our own
scripts. Every page module (``routes``, ``staff_pages``, ``dealer_pages``) draws through here."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import Header, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from croupier.web.language import Catalogue, negotiate

HERE = Path(__file__).resolve().parent
STATIC_URL = "/web/static"

templates = Jinja2Templates(directory=HERE / "templates")

# Scripts only from our own origin and no inline script; the catalogue travels as JSON data.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

AcceptLanguage = Annotated[str | None, Header()]


def render(
    request: Request,
    template: str,
    title_key: str,
    accept_language: str | None,
    *,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    """``template`` in the language ``accept_language`` asks for, its messages handed to the
    page's script as JSON data, under the pages' content security policy."""
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


def not_found_page(
    request: Request, accept_language: str | None, *, what: str = "page"
) -> HTMLResponse:
    """The 404 page a person reads: no such page, or (``what="table"``) no such table."""
    keys = {
        "page": ("not_found.page", "not_found.page_text"),
        "table": ("not_found.table", "not_found.table_text"),
    }
    title_key, text_key = keys[what]
    return render(
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
