"""The API's OpenAPI schema (``GET /openapi.json``): every request body a named component,
every refusal documented, so that a client can be generated from it (issue 11, item 6).

FastAPI sees a route's parameters, not the body a dependency reads: ``context.typed_body``
reads the body itself (its size and depth limits, the domain's own errors) and marks its
model, and this module puts each marked model in the schema, as
``#/components/schemas/<Model>``, on the operation that reads it.

>>> from croupier.server.app import create_app
>>> from croupier.server.context import Settings
>>> schema = create_app(Settings(database_url="sqlite://", demo_tables=False)).openapi()
>>> schema["paths"]["/tables/{table_id}/bets"]["post"]["requestBody"]["content"]
{'application/json': {'schema': {'$ref': '#/components/schemas/BetBody'}}}
>>> schema["components"]["schemas"]["BetBody"]["required"]
['seat', 'amount']
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from croupier.server.schemas import Refusal

COMPONENTS = "#/components/schemas/{model}"
IDEMPOTENCY_KEY = "Idempotency-Key"
"""The header every mutating route needs (R8)."""

REFUSALS: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": Refusal, "description": "Refused: the request is at fault (see `error`)"},
    "5XX": {
        "model": Refusal,
        "description": "The server cannot serve it now (503 with Retry-After: try again)",
    },
}
"""What every operation may answer besides its success (``server.errors``: one JSON shape)."""


def operation_id(route: APIRoute) -> str:
    """An operation is named by its route's function (``bet``, ``act``, ``create_table``): the
    name a generated client gives its call."""
    return route.name


def body_model(dependant: Dependant) -> type[BaseModel] | None:
    """The model ``context.typed_body`` reads for this route, if it reads one."""
    for dependency in dependant.dependencies:
        model = getattr(dependency.call, "body_model", None)
        if model is not None:
            return model  # type: ignore[no-any-return]
        found = body_model(dependency)
        if found is not None:
            return found
    return None


def request_body(model: type[BaseModel]) -> dict[str, Any]:
    return {
        "required": bool(model.model_json_schema().get("required")),
        "content": {
            "application/json": {"schema": {"$ref": COMPONENTS.format(model=model.__name__)}}
        },
    }


def _named_answers(operation: dict[str, Any]) -> None:
    """A success whose route names its answer model (``responses=answers.documented(...)``)
    is that model alone: FastAPI merges the ``$ref`` into the schema it infers from the
    function's ``dict[str, Any]``, which it keeps for its fast serialisation (issue 28,
    item 6)."""
    for status, response in operation.get("responses", {}).items():
        schema = response.get("content", {}).get("application/json", {}).get("schema", {})
        if status.startswith("2") and "$ref" in schema:
            response["content"]["application/json"]["schema"] = {"$ref": schema["$ref"]}


def build(app: FastAPI, *routers: APIRouter) -> dict[str, Any]:
    """FastAPI's schema of ``app``, with the body of each of ``routers``' routes."""
    schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
    models: dict[str, type[BaseModel]] = {}
    for route in (route for router in routers for route in router.routes):
        if not isinstance(route, APIRoute):
            continue
        model = body_model(route.dependant)
        if model is None:
            continue
        models[model.__name__] = model
        for method in route.methods or ():
            schema["paths"][route.path_format][method.lower()]["requestBody"] = request_body(model)
    for item in schema["paths"].values():
        for operation in item.values():
            _named_answers(operation)
            for parameter in operation.get("parameters", []):
                if parameter["name"] == IDEMPOTENCY_KEY:
                    # Checked by ``unit_of_work.check_key`` (400 without one), not by FastAPI.
                    parameter["required"] = True
    _, definitions = models_json_schema(
        [(model, "validation") for model in models.values()], ref_template=COMPONENTS
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.update(definitions.get("$defs", {}))
    return schema


def install(app: FastAPI, *routers: APIRouter) -> None:
    """Serve ``build(app, *routers)`` at ``/openapi.json`` (built once, on the first request);
    ``routers``, included as they are (``server.app.API_ROUTERS``), hold the routes whose
    bodies it documents (a route that reads none is left as FastAPI wrote it)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build(app, *routers)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
