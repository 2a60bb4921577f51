"""``croupier serve``: the table server (HTTP and WebSocket), money in a real database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from croupier.reports.retention import DEFAULT_RETENTION_YEARS
from croupier.server.defaults import DEFAULT_RATE_LIMIT, DEFAULT_TOKEN_RATE_LIMIT
from croupier.service.defaults import DEFAULT_URL

SWITCH_SECONDS = 0.0005
"""How long a thread may hold the interpreter while another waits for it (Python's 5 ms
default: ``sys.getswitchinterval``)."""


def command(
    *,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[
        str,
        typer.Option(
            "--database",
            help="SQLAlchemy URL: sqlite:///path (the default file) or postgresql+psycopg://...",
        ),
    ] = DEFAULT_URL,
    operator_token: Annotated[
        str | None, typer.Option("--operator-token", help="The operator's bearer token.")
    ] = None,
    betting_seconds: Annotated[float, typer.Option(help="Betting window of new tables.")] = 15.0,
    decision_seconds: Annotated[float, typer.Option(help="Time for each decision.")] = 20.0,
    demo_tables: Annotated[bool, typer.Option(help="Open one table per shipped profile.")] = True,
    broadcast: Annotated[
        str | None,
        typer.Option(
            "--broadcast",
            help="redis://host:port/db: publish table changes over Redis pub/sub and keep the "
            "rate limits' counts there (default: within this process). One process runs the "
            "tables of a database: a second serve on it refuses to start.",
        ),
    ] = None,
    code_manifest: Annotated[
        Path | None,
        typer.Option(
            "--code-manifest",
            help="The SHA-256 manifest of the installed code (R17), written at first start and "
            "checked at every start and while serving; after a deliberate upgrade run "
            "`croupier manifest --write PATH`. Default: beside the SQLite database file "
            "(croupier.sqlite.manifest.json), else ./croupier.manifest.json.",
        ),
    ] = None,
    code_check: Annotated[
        bool, typer.Option(help="Check the installed code against its manifest (R17).")
    ] = True,
    audit_head: Annotated[
        Path | None,
        typer.Option(
            "--audit-head",
            help="Where the audit chain's head is written at start, every hour and at shutdown, "
            "to publish (R15; `croupier audit verify --head FILE` then catches a chain cut "
            "short). Default: beside the SQLite database file "
            "(croupier.sqlite.audit-head.json), else ./croupier.audit-head.json.",
        ),
    ] = None,
    audit_key: Annotated[
        Path | None,
        typer.Option(
            "--audit-key",
            help="The private key the audit head is signed with (R15, Ed25519), made at first "
            "start with 0600 permissions: keep it, never publish it; give the regulator its "
            "public half (`croupier audit public-key`), with which `croupier audit verify "
            "--head FILE --public-key PEM` checks the signature. Default: beside the SQLite "
            "database file (croupier.sqlite.audit-key), else ./croupier.audit-key.",
        ),
    ] = None,
    rate_limit: Annotated[
        str,
        typer.Option(
            "--rate-limit",
            help="Sign-ins, and apart from them sign-ups, per client address, e.g. '10/minute' "
            "(429 with Retry-After past it; counted in Redis with --broadcast).",
        ),
    ] = DEFAULT_RATE_LIMIT,
    token_rate_limit: Annotated[
        str,
        typer.Option(
            "--token-rate-limit",
            help="Requests with an unknown, ended or idle token per client address.",
        ),
    ] = DEFAULT_TOKEN_RATE_LIMIT,
    gaming_day_start: Annotated[
        str,
        typer.Option(
            "--gaming-day-start",
            help="When the house's day begins, HH:MM: the daily report's day (docs/reports.md).",
        ),
    ] = "06:00",
    time_zone: Annotated[
        str | None,
        typer.Option(
            "--time-zone", help="IANA zone of the gaming day, e.g. America/Lima (default: local)."
        ),
    ] = None,
    retention_years: Annotated[
        int,
        typer.Option(
            "--retention-years",
            min=1,
            help="Years rounds, ledger and audit records are kept (croupier deletes none).",
        ),
    ] = DEFAULT_RETENTION_YEARS,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="A reverse proxy whose X-Forwarded-For names the client (an address, a "
            "network such as 10.0.0.0/8, or '*'); repeat for several. Default none: the "
            "client address is the connection's own, whatever a header says, also from "
            "127.0.0.1.",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds",
            min=2.0,
            # An hour at most: a stopped process's locks are freed after half a lease
            # (server.app), which PostgreSQL takes in milliseconds up to 2**31 - 1.
            max=3600.0,
            help="PostgreSQL, several processes: how long a table's lease lasts unrenewed "
            "(renewed every second); a process that dies loses its tables within it "
            "(docs/deploy.md).",
        ),
    ] = 5.0,
    advertise: Annotated[
        str | None,
        typer.Option(
            "--advertise",
            help="PostgreSQL, several processes: the URL where the other processes reach "
            "this one (default http://HOST:PORT).",
        ),
    ] = None,
    accept_broken_chain: Annotated[
        bool,
        typer.Option(
            "--accept-broken-chain",
            help="Start even though the audit chain (R15) does not verify: logged, and "
            "recorded in the chain. Without it a start on a database whose chain or audited "
            "rows do not verify is refused (exit 2).",
        ),
    ] = False,
) -> None:
    """Run live tables of every profile for many players over HTTP and WebSocket."""
    import gc
    import logging
    import sys
    import threading

    from croupier.audit.signing import default_key_path
    from croupier.audit.verify import default_head_path
    from croupier.gaming_day import GamingDay
    from croupier.integrity import default_manifest
    from croupier.server.app import create_app, start
    from croupier.server.context import Settings

    # Warnings and errors of every part, with the time; the fail safe's refusals too (R17:
    # every bet refused while a fault stands is on the record).
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("croupier.fail_safe").setLevel(logging.INFO)
    settings = Settings(
        database_url=database,
        operator_token=operator_token,
        betting_seconds=betting_seconds,
        decision_seconds=decision_seconds,
        demo_tables=demo_tables,
        broadcast_url=broadcast,
        code_manifest=(code_manifest or default_manifest(database)) if code_check else None,
        audit_head=audit_head or default_head_path(database),
        audit_key=audit_key or default_key_path(database),
        rate_limit=rate_limit,
        token_rate_limit=token_rate_limit,
        gaming_day=GamingDay.parse(gaming_day_start, time_zone),
        analyse_returns=True,
        retention_years=retention_years,
        verify_chain=True,
        accept_broken_chain=accept_broken_chain,
        lease_seconds=lease_seconds,
        advertise_url=advertise or f"http://{host}:{port}",
    )
    from croupier.server.rate_limits import parse_limit

    for limit in (rate_limit, token_rate_limit):
        try:
            parse_limit(limit)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None
    from sqlalchemy.exc import OperationalError

    from croupier.errors import CroupierError

    try:
        server = start(settings)
    except (OperationalError, OSError) as error:
        # A full or read-only disk, a database server that does not answer: one line on
        # stderr (``croupier: error: ...``, exit 2), not the driver's traceback.
        raise CroupierError(_why_not_started(error, database)) from None
    for note in server.notes:
        typer.echo(note)
    url = f"http://{host}:{port}"
    typer.echo(f"croupier is serving {len(server.casino.tables)} tables at {url}")
    typer.echo(
        f"  API documentation: {url}/docs   tables: {url}/tables   WebSocket: {url.replace('http', 'ws')}/tables/{{id}}/ws?token=..."
    )
    typer.echo(f"  database: {database}")
    if settings.code_manifest is not None:
        typer.echo(f"  code verified against its SHA-256 manifest: {settings.code_manifest}")
    typer.echo(
        f"  audit chain head written every hour to: {settings.audit_head}, signed with the key "
        f"in {settings.audit_key}"
    )
    if broadcast:
        typer.echo(f"  table changes published over Redis: {broadcast}")
    if server.operator_token is not None:
        typer.echo(f"  operator token (Authorization: Bearer ...): {server.operator_token}")
    else:
        typer.echo("  operator token: the one printed at first start (or pass --operator-token)")
    app = create_app(settings, server=server)
    # What start-up built (modules, the app, the engines) lives as long as the process: moved
    # out of the collector's sight, a full collection scans only what requests made since.
    # Scanning it all stopped every request for 50-150 ms a few times a minute under load.
    gc.collect()
    gc.freeze()

    # Once more when the first requests have made what the web stack builds lazily on first
    # use (protocol modules, caches). Only objects still alive after a full collection are
    # frozen; refcounting still frees them when they go.
    def freeze_survivors() -> None:
        gc.collect()
        gc.freeze()

    later = threading.Timer(30, freeze_survivors)
    later.daemon = True
    later.start()
    # A command's thread gives the interpreter up at each statement it sends the database,
    # and waits to take it back until the thread holding it yields: by default up to 5 ms,
    # a command's twenty statements then queueing behind the event loop's pushes (and every
    # other command behind that one, on SQLite's one writer). Half a millisecond bounds it.
    sys.setswitchinterval(SWITCH_SECONDS)
    try:
        _run(app, host, port, trusted_proxy or [])
    finally:
        server.release()


def _run(app: Any, host: str, port: int, trusted_proxy: list[str]) -> None:
    import uvicorn

    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_keep_alive=30,  # clients keep connections between moves
        # A state push is a few hundred bytes of JSON on a local network: compressing each
        # one for every seat cost more CPU than it saved.
        ws_per_message_deflate=False,
        **proxy_options(trusted_proxy),
    )


def proxy_options(trusted: list[str]) -> dict[str, Any]:
    """uvicorn's handling of ``X-Forwarded-For``: read only from the proxies named
    (``--trusted-proxy``), and not at all when none is: uvicorn's own default trusts
    127.0.0.1 (or ``$FORWARDED_ALLOW_IPS``), so any local process could name any client
    address and pass each rate limit as many addresses (issue 25, item 6)."""
    if not trusted:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": list(trusted)}


def _why_not_started(error: Exception, database: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import OperationalError

    where = make_url(database).render_as_string(hide_password=True)
    if isinstance(error, OperationalError):
        reason = str(error.orig or error).strip().splitlines()[0]
        return (
            f"the database {where} cannot be opened and written: {reason} "
            "(a full or read-only disk, or a database server that does not answer?)"
        )
    assert isinstance(error, OSError)
    return (
        f"cannot write {error.filename or 'a file of the server'}: {error.strerror or error} "
        f"(database {where}; a full or read-only disk?)"
    )
