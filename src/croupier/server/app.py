"""The app factory: database, migrations, operator, demo tables, the deadline clock, routes.

>>> app = create_app(Settings(database_url="sqlite://", demo_tables=False))
>>> "/tables/{table_id}/bets" in app.openapi()["paths"]
True
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from sqlalchemy import select

from croupier.errors import CroupierError
from croupier.rules.registry import load_profile, shipped_profile_names
from croupier.server import errors, fail_safe_http
from croupier.server.context import Server, Settings
from croupier.server.routes import router
from croupier.service import engines, fail_safe
from croupier.service.accounts import authenticate, ensure_operator
from croupier.service.broadcast import Broadcaster, InProcessBroadcaster, RedisBroadcaster
from croupier.service.database import make_engine, upgrade
from croupier.service.models import GameTable
from croupier.service.tables import Casino
from croupier.service.unit_of_work import UnitOfWork
from croupier.web import install as install_pages

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
    """Open the database, migrate it, and bring every table back (R10, R11)."""
    engine = make_engine(settings.database_url)
    upgrade(engine)
    read_engine = (
        make_engine(settings.database_url, read_only=True)
        if settings.database_url.startswith("sqlite")
        else None
    )
    uow = UnitOfWork(engine, settings.clock, read_engine=read_engine)
    broadcaster: Broadcaster = (
        RedisBroadcaster(settings.broadcast_url)
        if settings.broadcast_url
        else InProcessBroadcaster()
    )
    casino = Casino(uow, settings.clock, broadcaster)
    now = settings.clock.now()
    token = uow.run(lambda s: ensure_operator(s, settings.operator_token, now))
    server = Server(settings, uow, casino, broadcaster, operator_token=token)
    server.notes += casino.load()
    if settings.demo_tables:
        existing = set(uow.read(lambda s: list(s.scalars(select(GameTable.name)))))
        for name in playable_profiles():
            if name in existing:
                continue
            uow.run(
                lambda s, n=name: casino.create_table(  # type: ignore[misc]
                    s, n, n, settings.betting_seconds, settings.decision_seconds
                )
            )
            server.notes.append(f"demo table {name} opened")
    # The tables' own rules, as the database holds them: never a profile file (issue 10).
    for profile in {live.profile.name: live.profile for live in casino.tables.values()}.values():
        engines.warm_up(profile)
    fail_safe.install(
        casino,
        database_url=settings.database_url,
        code_manifest=settings.code_manifest,
        interval=settings.fail_safe_seconds,
    )
    return server


def _tick_forever(server: Server, stop: threading.Event) -> None:
    while not stop.wait(server.settings.tick_seconds):
        try:
            server.casino.tick()
        except Exception:  # the clock must keep running; the failure is logged
            log.exception("deadline tick failed")


def create_app(settings: Settings | None = None, *, server: Server | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        running = app.state.server if getattr(app.state, "server", None) else start(settings)
        app.state.server = running
        stop = threading.Event()
        ticker = threading.Thread(target=_tick_forever, args=(running, stop), daemon=True)
        ticker.start()
        watcher = threading.Thread(target=running.casino.fail_safe.watch, args=(stop,), daemon=True)
        watcher.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join(timeout=2)
            watcher.join(timeout=5)
            running.uow.dispose()
            if isinstance(running.broadcaster, RedisBroadcaster):
                running.broadcaster.close()

    app = FastAPI(title="croupier", version="1", lifespan=lifespan)
    if server is not None:
        app.state.server = server
    errors.install(app)
    fail_safe_http.install(app)
    app.include_router(router)
    install_pages(app)

    @app.websocket("/tables/{table_id}/ws")
    async def table_socket(websocket: WebSocket, table_id: int, token: str | None = None) -> None:
        """Pushes ``{"type": "state", ...}``: the table as this client may see it, at once on
        connecting (so a reconnecting client has the current state) and after every change."""
        running: Server = websocket.app.state.server
        now = running.settings.clock.now()
        try:
            who = await asyncio.to_thread(running.uow.run, lambda s: authenticate(s, token, now))
            live = running.casino.table(table_id)
        except CroupierError as error:
            await websocket.close(
                code=4401 if "session" in str(error) or "sign in" in str(error) else 4404,
                reason=str(error)[:120],
            )
            return
        await websocket.accept()

        def state() -> str:
            return running.casino.state_message(live, who)

        async with running.broadcaster.subscribe(table_id) as changes:
            try:
                await websocket.send_text(state())
                receiving = asyncio.ensure_future(websocket.receive_text())
                while True:
                    waiting = asyncio.ensure_future(changes.get())
                    done, _ = await asyncio.wait(
                        {waiting, receiving}, return_when=asyncio.FIRST_COMPLETED
                    )
                    if receiving in done:
                        receiving.result()  # raises on disconnect; messages are pings
                        receiving = asyncio.ensure_future(websocket.receive_text())
                    if waiting in done:
                        while not changes.empty():
                            changes.get_nowait()
                        await websocket.send_text(state())
                    else:
                        waiting.cancel()
            except (WebSocketDisconnect, RuntimeError):
                pass
            finally:
                with suppress(Exception):
                    receiving.cancel()

    return app
