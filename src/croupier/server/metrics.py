"""``GET /metrics``: what an operator's Prometheus scrapes (issue 29, item 4).

Names follow OpenTelemetry's semantic conventions where one exists, as Prometheus spells
them: ``http_server_request_duration_seconds`` (``http.server.request.duration``), a
histogram by ``http_request_method``, ``http_route`` (the route's template,
``/tables/{table_id}/bets``, never a path with its ids) and ``http_response_status_code``,
with the buckets OpenTelemetry advises. croupier's own are named ``croupier_*``: open
WebSocket connections, push latency (a table change heard to its state sent on a socket),
rounds dealt and settled, tables run, table leases held, taken over and handed over,
requests forwarded to a table's owner, the fail safe (engaged or not, and each fault), where
a command's time goes (``unit_of_work.Stage``: the locks waited for, the transaction, the
audit chain's part of it, the publish) and every garbage collection's pause by generation (a
pause of the process is a pause of every request in it: issue 28 found the players' slowest
answers behind them). **No money figure is ever a metric**: stakes, balances and winnings
are the ledger's, read through the operator's reports.

Several processes: **one registry per process, each scraped on its own port** (Prometheus
adds the ``instance`` label). ``prometheus_client``'s multiprocess mode is for workers that
share one port behind a pre-fork server; each ``croupier serve`` is a process of its own
with its own port, and a scrape through the load balancer would reach one of them at random,
so scrape each process directly (``docs/deploy.md``).
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.service.fail_safe import Fault
from croupier.service.leases import Ownership
from croupier.service.tables import Casino
from croupier.service.unit_of_work import Stage

REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10)
"""OpenTelemetry's advice for ``http.server.request.duration``."""

PUSH_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1)

STAGE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1)
"""From a lock taken at once (0.1 ms) to a wait that is most of a player's target (50 ms)."""

GC_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1)


class Metrics:
    """One server's registry and the instruments the web layer updates."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.request_duration = Histogram(
            "http_server_request_duration",
            "Duration of HTTP server requests.",
            ["http_request_method", "http_route", "http_response_status_code"],
            unit="seconds",
            buckets=REQUEST_BUCKETS,
            registry=self.registry,
        )
        self.push_latency = Histogram(
            "croupier_push_latency",
            "From a table change heard by a WebSocket to its new state sent on it.",
            unit="seconds",
            buckets=PUSH_BUCKETS,
            registry=self.registry,
        )
        self.websockets = Gauge(
            "croupier_websocket_connections",
            "Table WebSocket connections open on this process.",
            registry=self.registry,
        )
        command_stage = Histogram(
            "croupier_command_stage_duration",
            "Where a command's time goes: the locks waited for, its transaction, its publish.",
            ["stage"],
            unit="seconds",
            buckets=STAGE_BUCKETS,
            registry=self.registry,
        )
        self._stages = {stage: command_stage.labels(str(stage)) for stage in Stage}
        self.registry.register(_GcPauses())

    def time_stage(self, stage: Stage, seconds: float) -> None:
        """A command's ``stage`` took ``seconds`` (``UnitOfWork.timed``)."""
        self._stages[stage].observe(seconds)

    def watch(self, casino: Casino, leases: Callable[[], Ownership]) -> None:
        """Read the tables' own counts at each scrape (nothing to keep in step)."""
        self.registry.register(_TablesCollector(casino, leases))


class _TablesCollector(Collector):
    def __init__(self, casino: Casino, leases: Callable[[], Ownership]) -> None:
        self.casino = casino
        self.leases = leases

    def collect(self) -> Iterator[Metric]:
        casino, leases = self.casino, self.leases()
        yield CounterMetricFamily(
            "croupier_rounds_dealt", "Rounds dealt by this process.", value=casino.rounds.dealt
        )
        yield CounterMetricFamily(
            "croupier_rounds_settled",
            "Rounds settled by this process.",
            value=casino.rounds.settled,
        )
        yield GaugeMetricFamily(
            "croupier_tables_running", "Tables this process runs.", value=len(casino.tables)
        )
        yield GaugeMetricFamily(
            "croupier_table_leases_held",
            "Table leases this process holds (PostgreSQL; 0 on SQLite's one process).",
            value=len(getattr(leases, "held", {})),
        )
        yield CounterMetricFamily(
            "croupier_table_leases_taken_over",
            "Tables taken over from a process whose lease had expired (fail-overs).",
            value=getattr(leases, "taken_over", 0),
        )
        yield CounterMetricFamily(
            "croupier_table_leases_handed_over",
            "Tables handed to another process: the one their requests came through (the lease "
            "follows them), or, above this process's share, one below its own.",
            value=getattr(leases, "handed_over", 0),
        )
        arrivals = getattr(leases, "arrivals", None)
        yield CounterMetricFamily(
            "croupier_requests_forwarded",
            "Requests this process forwarded to the process that runs their table.",
            value=0 if arrivals is None else arrivals.forwarded_in_all,
        )
        safe = casino.fail_safe
        yield GaugeMetricFamily(
            "croupier_fail_safe_engaged",
            "1 while the fail safe refuses every bet (R17), else 0.",
            value=int(safe.is_engaged),
        )
        faults = GaugeMetricFamily(
            "croupier_fail_safe_fault", "1 for each fault standing now (R17).", labels=["fault"]
        )
        for fault in Fault:
            faults.add_metric([str(fault)], int(fault in safe.faults))
        yield faults


class _GcPauses(Collector):
    """``croupier_gc_pause_seconds``: each of this process's garbage collections, by
    generation. ``gc.callbacks`` is the process's, so one timer serves every registry."""

    _histogram: Histogram | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        with _GcPauses._lock:
            if _GcPauses._histogram is None:
                _GcPauses._histogram = Histogram(
                    "croupier_gc_pause",
                    "Garbage collections of this process, by generation: each pauses every "
                    "request it serves.",
                    ["generation"],
                    unit="seconds",
                    buckets=GC_BUCKETS,
                    registry=None,
                )
                gc.callbacks.append(_timed_collection(_GcPauses._histogram))

    def collect(self) -> Iterator[Metric]:
        assert _GcPauses._histogram is not None
        yield from _GcPauses._histogram.collect()


def _timed_collection(histogram: Histogram) -> Callable[[str, dict[str, int]], None]:
    generations = [histogram.labels(str(generation)) for generation in range(3)]
    started = [0.0]

    def timing(phase: str, info: dict[str, int]) -> None:
        # One collection at a time: the collector runs with the GIL held, never nested.
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            generations[info["generation"]].observe(time.perf_counter() - started[0])

    return timing


class RequestTimer:
    """ASGI middleware: each HTTP request's duration, by method, route template and status."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            server = getattr(scope["app"].state, "server", None)
            if server is not None:
                route = scope.get("route")
                server.metrics.request_duration.labels(
                    scope["method"], getattr(route, "path", ""), str(status)
                ).observe(time.perf_counter() - started)
