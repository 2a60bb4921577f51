"""Issue 29, item 4: ``/metrics`` in Prometheus' text format with OpenTelemetry's names, and
``/health/ready`` that fails when this process stops renewing its table leases.

The metrics are read as Prometheus reads them (``prometheus_client.parser``): each HTTP
request timed by its route's template and status (never a path with its ids), rounds dealt
and settled counted as they commit, open sockets and push latency, the fail safe; and no
money figure among them (the ledger's, never a metric's).
"""

from __future__ import annotations

import gc
import json
import math
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from database_support import fresh_database
from prometheus_client.parser import text_string_to_metric_families
from server_support import Api, Table, make_api

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def sqlite_api(tmp_path: Path) -> Iterator[Api]:
    yield from make_api(f"sqlite:///{tmp_path / 'croupier.sqlite'}")


def scrape(api: Api) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    answer = api.client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    samples: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            samples.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def test_metrics_count_requests_by_route_template_rounds_and_sockets(sqlite_api: Api) -> None:
    api = sqlite_api
    table = Table(api, "veintiuno-real", ["ann"])
    with api.client.websocket_connect(f"/tables/{table.id}/ws?token={table.tokens['ann']}") as ws:
        ws.receive_json()
        assert scrape(api)["croupier_websocket_connections"][()] == 1
        round_id = table.play_round()
        ws.receive_json()  # a change pushed: its latency observed
    seen = scrape(api)
    bets = (
        ("http_request_method", "POST"),
        ("http_response_status_code", "200"),
        ("http_route", "/tables/{table_id}/bets"),
    )
    assert seen["http_server_request_duration_seconds_count"][bets] == 1
    assert seen["http_server_request_duration_seconds_bucket"][(*bets[:2], *bets[2:], ("le", "+Inf"))] == 1  # fmt: skip
    routes = {dict(labels)["http_route"] for labels in seen["http_server_request_duration_seconds_count"]}  # fmt: skip
    assert not any(str(table.id) in route.split("/") for route in routes)  # templates, not ids
    assert seen["croupier_rounds_dealt_total"][()] == 1
    assert seen["croupier_rounds_settled_total"][()] == 1
    assert table.recall(round_id)["status"] == "complete"
    assert seen["croupier_websocket_connections"][()] == 0
    assert seen["croupier_push_latency_seconds_count"][()] >= 1
    assert seen["croupier_tables_running"][()] == 1
    assert seen["croupier_fail_safe_engaged"][()] == 0
    assert seen["croupier_fail_safe_fault"][(("fault", "database"),)] == 0
    assert seen["croupier_table_leases_held"][()] == 0  # SQLite: one process, no leases
    # No money figure is a metric: the ledger's, read through the operator's reports.
    money_words = ("balance", "amount", "stake", "payout", "wager", "minor", "escrow", "win")
    assert not [name for name in seen if any(word in name for word in money_words)]


def test_a_commands_waits_and_steps_are_timed_where_they_were_spent(sqlite_api: Api) -> None:
    """Issue 28: where a slow answer's time went is a figure the server keeps, not a timer put
    in for one run. A bet that waits 0.2 s for its table's lock (held meanwhile by another
    thread, as an earlier command would) shows in ``table_lock_wait`` above 0.1 s; every
    table command is timed at each stage; on SQLite every transaction waited for the
    writers' lock first; and a collection forced now is counted in its generation."""
    api = sqlite_api
    table = Table(api, "veintiuno-real", ["ann"])
    before = scrape(api)
    live = api.server.casino.table(table.id)
    held, release = threading.Event(), threading.Event()

    def hold_the_table() -> None:
        with live.lock:
            held.set()
            release.wait(5)

    holder = threading.Thread(target=hold_the_table)
    holder.start()
    held.wait(5)
    threading.Timer(0.2, release.set).start()
    table.bet_all()  # queued behind the holder
    holder.join()
    gc.collect()
    after = scrape(api)

    def count(stage: str, le: str | None = None) -> float:
        name = "croupier_command_stage_duration_seconds_" + ("bucket" if le else "count")
        labels = (("le", le), ("stage", stage)) if le else (("stage", stage),)
        return after[name].get(labels, 0) - before.get(name, {}).get(labels, 0)

    assert count("table_lock_wait") == 1  # the one bet, a table's command
    assert count("table_lock_wait", "+Inf") - count("table_lock_wait", "0.1") == 1  # waited
    assert count("publish") == 1
    assert count("transaction") >= 1  # the bet's, and the caller's session's last-seen
    assert count("writers_lock_wait") == count("transaction")  # SQLite: every one queued
    assert count("audit_chain") == count("transaction")  # every commit enters the chain
    assert count("audit_head_wait") == count("transaction")
    collections = "croupier_gc_pause_seconds_count"
    oldest = (("generation", "2"),)
    assert after[collections][oldest] >= before.get(collections, {}).get(oldest, 0) + 1


def test_every_figure_the_dashboard_draws_is_one_the_server_exports(sqlite_api: Api) -> None:
    """docs/grafana-dashboard.json's queries name only series ``/metrics`` has, after a round
    played with a socket open and a collection made (a renamed metric fails here, not on an
    operator's empty panel)."""
    api = sqlite_api
    table = Table(api, "veintiuno-real", ["ann"])
    with api.client.websocket_connect(f"/tables/{table.id}/ws?token={table.tokens['ann']}") as ws:
        ws.receive_json()
        table.play_round()
        ws.receive_json()
    gc.collect()
    exported = set(scrape(api))
    dashboard = json.loads((DOCS / "grafana-dashboard.json").read_text(encoding="utf-8"))
    queried = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\b(?:http_server|croupier)_[a-z_]+", target["expr"])
    }
    assert len(queried) >= 10
    assert sorted(queried - exported) == []


@pytest.mark.postgres
def test_ready_fails_while_the_leases_are_not_renewed(
    pg_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from croupier.service import leases, sharing

    monkeypatch.setattr(sharing, "keep_forever", lambda *_args: None)  # renewal "paused"
    for url in fresh_database("postgresql", tmp_path, pg_server):
        for api in make_api(url, lease_seconds=600):
            Table(api, "veintiuno-real", ["ann"])
            assert api.client.get("/health/ready").status_code == 200
            assert scrape(api)["croupier_table_leases_held"][()] == 1
            owner = api.server.leases
            assert isinstance(owner, leases.TableLeases)
            owner.renewed_at = -math.inf  # no renewal within a lease's length
            answer = api.client.get("/health/ready")
            assert answer.status_code == 503
            assert answer.json()["checks"]["tables"] == "failed"
            # Not ready, but the tables play on: every command is fenced by its lease.
            assert scrape(api)["croupier_fail_safe_engaged"][()] == 0
            sharing.balance(api.server.casino, owner)  # renewed again: ready once more
            assert api.client.get("/health/ready").status_code == 200
