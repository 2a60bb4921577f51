"""The app factory: database, migrations, operator, demo tables, the deadline clock, routes.

>>> app = create_app(Settings(database_url="sqlite://", demo_tables=False))
>>> "/tables/{table_id}/bets" in app.openapi()["paths"]
True
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import Response
from sqlalchemy import Engine, select
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from croupier.audit import chain as audit_chain
from croupier.audit import signing as audit_signing
from croupier.audit import verify as audit_verify
from croupier.gaming_day import GamingDay
from croupier.reports.returns import Returns
from croupier.rules.registry import load_profile, shipped_profile_names
from croupier.server import errors, fail_safe_http, openapi
from croupier.server.context import MAX_BODY_BYTES, Server, Settings
from croupier.server.correction_routes import router as correction_router
from croupier.server.dealer_routes import router as dealer_router
from croupier.server.forwarding import Forwarder
from croupier.server.health_routes import router as health_router
from croupier.server.metrics import RequestTimer
from croupier.server.protection_routes import router as protection_router
from croupier.server.rate_limits import RateLimits
from croupier.server.report_routes import router as report_router
from croupier.server.routes import router, table_router
from croupier.server.staff_routes import router as staff_router
from croupier.server.table_facts_routes import router as table_facts_router
from croupier.server.web_api_routes import router as web_api_router
from croupier.service import engines, fail_safe, sharing
from croupier.service.accounts import (
    ensure_operator,
)
from croupier.service.claim import TablesClaim, claim_tables
from croupier.service.commands import CreateTable
from croupier.service.database import make_engine, one_start_at_a_time, upgrade
from croupier.service.errors import PayloadTooLarge
from croupier.service.leases import Ownership, TableLeases, serving_peers
from croupier.service.models import GameTable
from croupier.service.publishing import Broadcaster, InProcessBroadcaster, RedisBroadcaster
from croupier.service.tables import Casino
from croupier.service.unit_of_work import UnitOfWork
from croupier.web import install as install_pages
from croupier.web.page import not_found_page, wants_a_page

log = logging.getLogger("croupier.server")


def playable_profiles() -> list[str]:
    """Shipped profiles whose game has an engine in this build."""
    names = []
    for name in shipped_profile_names():
        try:
            engines.round_class(load_profile(name))
        except (ModuleNotFoundError, LookupError):
            continue
        names.append(name)
    return names


def start(settings: Settings) -> Server:
    """Claim the database's tables for this process (``TablesClaimed`` when another runs
    them), open the database, migrate it, and bring every table back (R10, R11)."""
    claim = claim_tables(settings.database_url)
    try:
        return _start(settings, claim)
    except BaseException:
        claim.release()
        raise


def _start(settings: Settings, claim: TablesClaim) -> Server:
    # Before the migrations: a migration that rewrites rows seals them into the chain. Only
    # on a database no process serves: one joining live peers finds it in service since the
    # first of them verified it (``serving_peers`` says why; issue 29's restarts).
    peers = serving_peers(settings.database_url) if settings.verify_chain else []
    checked = settings.verify_chain and not peers
    broken = audit_verify.problems_at_start(settings.database_url) if checked else []
    if peers:
        log.info(
            "joining %d process(es) serving this database (%s): its audit chain was verified "
            "at the start of the first of them, and is not verified again here",
            len(peers),
            ", ".join(peers),
        )
    if broken and not settings.accept_broken_chain:
        where = make_url(settings.database_url).render_as_string(hide_password=True)
        raise audit_verify.ChainDoesNotVerify(where, broken)
    engine = make_engine(settings.database_url)
    with one_start_at_a_time(engine):
        return _start_alone(settings, claim, engine, broken)


def _start_alone(
    settings: Settings, claim: TablesClaim, engine: Engine, broken: list[str]
) -> Server:
    upgrade(engine)
    if settings.database_url.startswith("sqlite"):
        writes, reads = engine, make_engine(settings.database_url, read_only=True)
    else:
        # Every write transaction bounded: a stopped process frees its locks (the audit head
        # above all, which every process's commits take in turn) within half a lease, so
        # before its tables' leases run out, even after a wait of its own for that lock.
        # Reads, which lock nothing another process waits for, are not: a long report may
        # think between its statements.
        writes = make_engine(
            settings.database_url, idle_in_transaction_seconds=settings.lease_seconds / 2
        )
        reads = engine
    uow = UnitOfWork(writes, settings.clock, read_engine=reads)
    broadcaster: Broadcaster = (
        RedisBroadcaster(settings.broadcast_url)
        if settings.broadcast_url
        else InProcessBroadcaster()
    )
    casino = Casino(uow, settings.clock, broadcaster, gaming_day=settings.gaming_day)
    ownership = (
        TableLeases(
            settings.database_url,
            address=settings.advertise_url,
            lease_seconds=settings.lease_seconds,
        )
        if engine.dialect.name == "postgresql"
        else Ownership()
    )
    now = settings.clock.now()
    token = uow.run(lambda s: ensure_operator(s, settings.operator_token, now))
    server = Server(
        settings,
        uow,
        casino,
        broadcaster,
        operator_token=token,
        claim=claim,
        leases=ownership,
        rate_limits=RateLimits(
            settings.rate_limit, settings.token_rate_limit, storage_url=settings.broadcast_url
        ),
    )
    if broken:
        log.warning(
            "started on an audit chain that does not verify (--accept-broken-chain): %s "
            "(%d problems)",
            broken[0],
            len(broken),
        )
        detail = {"problems": len(broken), "first": broken[0]}
        uow.run(lambda s: audit_chain.record(s, now, "started_on_broken_chain", detail, "system"))
        server.notes.append(
            f"the audit chain does not verify ({len(broken)} problems, the first: {broken[0]}); "
            "started anyway (--accept-broken-chain), recorded in the chain"
        )
    # Every table (one process), or this process's share of them (leases, issue 29).
    server.notes += sharing.install(casino, ownership)
    if settings.demo_tables:
        existing = set(uow.read(lambda s: list(s.scalars(select(GameTable.name)))))
        for name in playable_profiles():
            if name in existing:
                continue
            casino.handle(
                CreateTable(name, name, settings.betting_seconds, settings.decision_seconds)
            )
            server.notes.append(f"demo table {name} opened")
    # The tables' own rules, as the database holds them: never a profile file (issue 10).
    for profile in {live.profile.name: live.profile for live in casino.tables.values()}.values():
        engines.warm_up(profile)
    # Each table's return to player, read from the analysis's cache or computed in the
    # background: a request never waits on the math (issue 27, item 5).
    server.returns = Returns(background=settings.analyse_returns)
    server.returns.warm(live.profile for live in casino.tables.values())
    if settings.audit_key is not None:
        # An upgrade from a croupier that signed with HMAC: its key file is moved aside (never
        # deleted) and a new Ed25519 key made in its place, rather than a start that stops.
        retired = audit_signing.retire_hmac_key(settings.audit_key)
        if retired is not None:
            log.warning(
                "%s was the HMAC key of an earlier croupier, which no longer signs audit heads "
                "(docs/rules.md#D-GEN-16a): it is kept, unchanged, as %s (it still checks the "
                "heads it signed) and a new Ed25519 key signs from now on in %s. Give the "
                "regulator its public key: `croupier audit public-key --audit-key %s`, and "
                "re-export and publish the head (`croupier audit head`)",
                settings.audit_key,
                retired,
                settings.audit_key,
                settings.audit_key,
            )
        if audit_signing.ensure_key(settings.audit_key):
            server.notes.append(
                f"first start: made the private key that signs the audit head in "
                f"{settings.audit_key} (0600): keep it and back it up apart from the database; "
                "never publish it. Give the regulator its public key: `croupier audit "
                f"public-key --audit-key {settings.audit_key}`"
            )
        # A key that cannot sign (unreadable, not an Ed25519 key) stops the start with what to
        # do, rather than an hourly logged failure nobody reads.
        audit_signing.read_private_key(settings.audit_key)
    fail_safe.install(
        casino,
        database_url=settings.database_url,
        code_manifest=settings.code_manifest,
        claim=claim,
        interval=settings.fail_safe_seconds,
    )
    return server


def _tick_forever(server: Server, stop: threading.Event) -> None:
    while not stop.wait(server.settings.tick_seconds):
        try:
            server.casino.tick()
        except Exception:  # the clock must keep running; the failure is logged
            log.exception("deadline tick failed")


def _publish_audit_head_forever(server: Server, stop: threading.Event) -> None:
    """R15: the audit chain's head, written to ``settings.audit_head`` now, every
    ``audit_head_seconds`` and once more when the server stops; published from there, it
    catches a chain later cut short (``croupier audit verify --head``)."""
    path, key_path = server.settings.audit_head, server.settings.audit_key
    if path is None:
        return
    while True:
        try:
            head = server.uow.read(lambda session: audit_verify.current_head(session.connection()))
            key = None if key_path is None else audit_signing.read_private_key(key_path)
            audit_verify.write_head(head, path, key)
        except Exception:  # the next hour tries again; the failure is logged
            log.exception("the audit head could not be written to %s", path)
        if stop.is_set():
            return
        stop.wait(server.settings.audit_head_seconds)


class BodyLimit:
    """413 for any request that declares a body above ``MAX_BODY_BYTES``, before a route (or
    its dependencies) runs; ``read_body`` enforces the same on what is streamed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"content-length" and not (
                    value.isdigit() and int(value) <= MAX_BODY_BYTES
                ):
                    refusal = PayloadTooLarge(
                        f"a body of {value[:20].decode('latin-1')!r} bytes: at most "
                        f"{MAX_BODY_BYTES} are read"
                    )
                    await errors.answer(refusal)(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def _runs_table(request: Request, table_id: int) -> bool:
    """Whether this server runs table ``table_id`` (the table page's 404 of an unknown one)."""
    running: Server = request.app.state.server
    return table_id in running.casino.tables


def _house_day(request: Request) -> GamingDay:
    """The house's gaming day for the account's and the operator's pages (issue 27, item 6)."""
    running: Server = request.app.state.server
    return running.settings.gaming_day


async def _not_found(request: Request, error: Exception) -> Response:
    """Starlette's 404 (no route matched): a page for a browser, the API's JSON for others."""
    if wants_a_page(request):
        return not_found_page(request, request.headers.get("accept-language"))
    return errors.http_answer(error if isinstance(error, HTTPException) else HTTPException(404))


API_ROUTERS = (
    table_router,  # a player's every request: tried first (``server.routes.table_router``)
    staff_router,  # before ``router``: /operator/tables/{id}/dealers before {state}
    correction_router,
    dealer_router,
    router,
    table_facts_router,
    report_router,
    protection_router,
    health_router,
    web_api_router,
)
"""The API's routers, in the order the app tries their routes (the pages' come after)."""


def create_app(settings: Settings | None = None, *, server: Server | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        given = getattr(app.state, "server", None)
        running = given or start(settings)
        app.state.server = running
        stop = threading.Event()
        ticker = threading.Thread(target=_tick_forever, args=(running, stop), daemon=True)
        ticker.start()
        watcher = threading.Thread(target=running.casino.fail_safe.watch, args=(stop,), daemon=True)
        watcher.start()
        publisher = threading.Thread(
            target=_publish_audit_head_forever, args=(running, stop), daemon=True
        )
        publisher.start()
        keeper = threading.Thread(
            target=sharing.keep_forever, args=(running.casino, running.leases, stop), daemon=True
        )
        keeper.start()
        try:
            yield
        finally:
            stop.set()
            keeper.join(timeout=5)
            ticker.join(timeout=2)
            watcher.join(timeout=5)
            publisher.join(timeout=5)
            running.uow.dispose()
            running.returns.close()
            if given is None:  # started here: given up here (a server passed in is its maker's)
                running.release()
            if isinstance(running.broadcaster, RedisBroadcaster):
                running.broadcaster.close()

    app = FastAPI(
        title="croupier",
        version="1",
        lifespan=lifespan,
        responses=openapi.REFUSALS,
        generate_unique_id_function=openapi.operation_id,
    )
    if server is not None:
        app.state.server = server
    errors.install(app)
    fail_safe_http.install(app)
    app.add_middleware(Forwarder)  # a table run by another process: its owner answers
    app.add_middleware(BodyLimit)
    app.add_middleware(RequestTimer)  # outermost: a refused body is timed too
    for api_router in API_ROUTERS:
        app.include_router(api_router)
    install_pages(app, runs_table=_runs_table, house_day=_house_day)
    app.add_exception_handler(404, _not_found)
    openapi.install(app, *API_ROUTERS)

    return app
