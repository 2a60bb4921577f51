"""The pages of disputes (issue 14, item 6): the player's disputes, the inspector's queue and
decision page. ``routes.install`` serves them beside the other pages.

- ``/disputes`` a player's disputes, their status, decision and reason, and the dossier
- ``/inspector`` the inspector's queue; ``/inspector/{dispute_id}`` one dispute and its decision

"Dispute this round" is a form on the recall page (``dispute-round.js``, beside
``recall.js``), reached from the account page; the operator's page lists the disputes and the
staff (``operator-staff.js``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParameter
from fastapi.responses import HTMLResponse

from croupier.web.page import AcceptLanguage, render

router = APIRouter(include_in_schema=False)


@router.get("/disputes", response_class=HTMLResponse)
def my_disputes_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return render(request, "disputes.html", "dispute.mine", accept_language, page="disputes")


@router.get("/inspector", response_class=HTMLResponse)
def inspector_page(request: Request, accept_language: AcceptLanguage = None) -> HTMLResponse:
    return render(request, "inspector.html", "inspector.title", accept_language, page="inspector")


@router.get("/inspector/{dispute_id}", response_class=HTMLResponse)
def inspector_dispute_page(
    request: Request,
    dispute_id: Annotated[int, PathParameter(ge=1)],
    accept_language: AcceptLanguage = None,
) -> HTMLResponse:
    return render(
        request,
        "inspector_dispute.html",
        "inspector.decision_title",
        accept_language,
        page="inspector-dispute",
        dispute_id=dispute_id,
    )
