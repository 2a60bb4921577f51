"""Every 2xx JSON answer a test receives, read back through the model its route documents
(issue 28, item 6: ``server.answers``). The routes document their answers without FastAPI
validating them by those models (``responses=``), so this is where a model that drifted from
the JSON the service builds is caught: the answer must validate strictly (no ``"5"`` for ``5``)
and dump back to itself, so that a field the model lacks, renames or types otherwise fails.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import httpx
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.routing import Match

from croupier.server.app import API_ROUTERS

JSON = "application/json"

API_ROUTES = [
    route for router in API_ROUTERS for route in router.routes if isinstance(route, APIRoute)
]
"""The API's routes in the order the app matches them (``server.app.create_app``)."""


@functools.lru_cache(maxsize=4096)
def documented_model(method: str, path: str, status: int) -> type[BaseModel] | None:
    """The model documented for ``status`` of ``method path``; ``None`` when no API route
    serves it (a page, a static file)."""
    scope = {"type": "http", "method": method.upper(), "path": path, "root_path": ""}
    for route in API_ROUTES:
        if route.matches(scope)[0] is Match.FULL:
            documented = route.responses.get(status, {}).get("model")
            assert documented is not None, f"{method} {path}: {status} answers with no model"
            model: type[BaseModel] = documented
            return model
    return None


def read_back(model: type[BaseModel], text: str) -> tuple[Any, Any]:
    """The answer as JSON, and as its model dumps it again (only the fields it had)."""
    typed = model.model_validate_json(text, strict=True)
    return json.loads(text), typed.model_dump(mode="json", by_alias=True, exclude_unset=True)


def check(response: httpx.Response) -> None:
    """Fail unless a 2xx JSON answer of an API route is exactly its documented model."""
    request = response.request
    check_answer(
        request.method,
        request.url.path,
        response.status_code,
        response.headers.get("content-type", ""),
        response.text,
    )


def check_answer(method: str, path: str, status: int, content_type: str, text: str) -> None:
    """``check`` of an answer given by its parts (schemathesis's responses are not httpx's)."""
    if not (200 <= status < 300 and content_type.startswith(JSON)):
        return
    model = documented_model(method, path, status)
    if model is None:
        return
    sent, read = read_back(model, text)
    if sent == read:  # the common case, compared in C; strict validation refused bool for int
        return
    where = difference(sent, read)
    assert where is None, f"{method} {path}: {model.__name__} differs {where}"


def difference(sent: Any, read: Any, at: str = "$") -> str | None:
    """Where ``read`` first differs from ``sent`` (a JSON path and both values), or ``None``."""
    if isinstance(sent, dict) and isinstance(read, dict):
        for key in sorted(set(sent) | set(read), key=str):
            if key not in read or key not in sent:
                shown = sent.get(key, "(absent)"), read.get(key, "(absent)")
                return f"at {at}.{key}: sent {shown[0]!r:.120}, read back {shown[1]!r:.120}"
            found = difference(sent[key], read[key], f"{at}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(sent, list) and isinstance(read, list) and len(sent) == len(read):
        for index, (one, other) in enumerate(zip(sent, read, strict=True)):
            found = difference(one, other, f"{at}[{index}]")
            if found is not None:
                return found
        return None
    # A JSON number is one type: 5 read back as 5.0 by a float field is the same number.
    if sent != read or isinstance(sent, bool) != isinstance(read, bool):
        return f"at {at}: sent {sent!r:.120}, read back {read!r:.120}"
    return None
