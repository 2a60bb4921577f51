"""The dealer's console (issue 14, item 6): ``/dealer`` lists the caller's tables and deals
one of them (``dealer.js``, over ``server.dealer_routes``). ``routes.install`` serves it."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from croupier.web.page import AcceptLanguage, render

router = APIRouter(include_in_schema=False)


@router.get("/dealer", response_class=HTMLResponse)
def dealer_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return render(request, "dealer.html", "dealer.title", accept_language, page="dealer")
