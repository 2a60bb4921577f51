"""Liveness and readiness (issue 25, item 6): what a load balancer or an orchestrator asks.

- ``GET /health/live``: the process is up and answers (it does nothing else; restart the
  process only when this fails). It is also the benchmarks' reference latency.
- ``GET /health/ready``: this process can take bets now: the database takes a write, the
  entropy source and the installed code pass the fail safe's probes (R17), and this process
  holds the claim on the database's tables (``service/claim.py``). 200 when all hold, else
  503 with a JSON body naming what failed (in public words: the log has the details).
- ``GET /health``: the same as ``/health/ready`` (what it answered before it was split, a
  200 while PostgreSQL was down and every bet answered 503).
- ``GET /metrics``: this process's figures in Prometheus' text format (``server.metrics``).

The ``tables`` check: on SQLite this process holds the claim on the database's tables
(``service/claim.py``, a fail safe's fault when lost); on PostgreSQL, shared by several
processes, it renewed its table leases within a lease's length (``service/leases.py``, issue
29): a lag makes it not ready, so that a load balancer sends it nothing new, but stops no
table (every command is fenced by its lease).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from croupier.server.answers import Live, Ready, documented
from croupier.server.context import Server, ServerDep
from croupier.service.fail_safe import PUBLIC_REASONS, Fault

router = APIRouter()

READY_CHECKS = ("database", "entropy", "code", "tables")

WRITE_PROBE = text("UPDATE alembic_version SET version_num = version_num")
"""A write that changes nothing, rolled back: refused by a read-only database or disk, a
PostgreSQL standby, a lock that does not come."""


def _database_writable(server: Server) -> str | None:
    try:
        with server.uow.engine.connect() as connection, connection.begin() as transaction:
            connection.execute(WRITE_PROBE)
            transaction.rollback()
    except Exception:
        return "the database does not take a write"
    return None


def _readiness(server: Server) -> tuple[int, dict[str, Any]]:
    safe = server.casino.fail_safe
    safe.check()  # the probes run now, as the fail safe's watch runs them
    failed = {str(fault): PUBLIC_REASONS[fault] for fault in sorted(safe.faults)}
    unwritable = _database_writable(server)
    if unwritable is not None:
        failed.setdefault(str(Fault.DATABASE), unwritable)
    if server.leases.renewed_within() is not None:  # PostgreSQL: the leases lag (issue 29)
        failed.setdefault(str(Fault.TABLES), PUBLIC_REASONS[Fault.TABLES])
    checks = {name: ("failed" if name in failed else "ok") for name in READY_CHECKS}
    if failed:
        return 503, {"status": "not_ready", "checks": checks, "failed": failed}
    return 200, {"status": "ready", "checks": checks}


@router.get("/health/live", responses=documented(Live))
async def health_live() -> dict[str, str]:
    """The process is up and answers; nothing else is checked."""
    return {"status": "live"}


@router.get(
    "/health/ready",
    responses=documented(Ready) | {503: {"description": "Not ready: `failed` says why."}},
)
def health_ready(server: ServerDep) -> JSONResponse:
    """Ready to take bets: database writable, entropy, code manifest, this process holds the
    tables (503 with ``failed`` naming what does not hold)."""
    status, body = _readiness(server)
    return JSONResponse(body, status_code=status)


@router.get(
    "/health",
    responses=documented(Ready) | {503: {"description": "Not ready: `failed` says why."}},
)
def health(server: ServerDep) -> JSONResponse:
    """The same as ``/health/ready``."""
    status, body = _readiness(server)
    return JSONResponse(body, status_code=status)


@router.get(
    "/metrics",
    response_class=Response,
    responses={
        200: {
            "content": {"text/plain": {"schema": {"type": "string"}}},
            "description": "Prometheus' text exposition format.",
        }
    },
)
def metrics(server: ServerDep) -> Response:
    """This process's figures in Prometheus' text format (no money figure: the ledger's)."""
    return Response(generate_latest(server.metrics.registry), media_type=CONTENT_TYPE_LATEST)
