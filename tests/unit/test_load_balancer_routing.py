"""The load balancer sends every request for one table to one process (issue 29, item 2: the
forwarding hop's cost), which the table's lease then follows (``service.leases``).

A real HAProxy, configured by ``deploy/cluster.sh config``, in front of three stand-in
processes that answer each request with their own name and the request's
``X-Croupier-Forwarded`` header: each table's API routes, page, socket, dealer's and
operator's routes reach one process; the tables spread over the processes; and a client's
own ``X-Croupier-Forwarded`` never reaches a process (only a process says that it forwarded
a request: the owner counts where its tables' requests come from). ``benchmarks/cluster.py``
writes the same routing lines."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

PROCESSES = 3
TABLES = range(1, 16)


def _free_ports(count: int) -> list[int]:
    """``count`` consecutive free ports (the script numbers its processes from the first)."""
    for first in range(20_000, 60_000, 97):
        probes = []
        try:
            for port in range(first, first + count):
                probe = socket.socket()
                probes.append(probe)
                probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            for probe in probes:
                probe.close()
        return list(range(first, first + count))
    raise RuntimeError("no free ports")


def _config(tmp_path: Path, listen: int, first_port: int) -> str:
    environment = {
        **os.environ,
        "CROUPIER_RUN": str(tmp_path),
        "CROUPIER_LISTEN": f"127.0.0.1:{listen}",
        "CROUPIER_FIRST_PORT": str(first_port),
    }
    written = subprocess.run(
        ["sh", str(ROOT / "deploy" / "cluster.sh"), "config", str(PROCESSES)],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return written.stdout


def test_both_configurations_route_alike(tmp_path: Path) -> None:
    import cluster  # benchmarks/cluster.py

    script = _config(tmp_path, 8000, 8001).splitlines()
    for line in [*cluster.ROUTING_BY_TABLE, *cluster.BALANCE_BY_TABLE]:
        assert line in script
    assert "    balance leastconn" not in script


class StandIn(BaseHTTPRequestHandler):
    """A process: answers any request with its name and the forwarding header it received."""

    def _answer(self) -> None:
        body = json.dumps(
            {"process": self.server.name, "forwarded": self.headers.get("X-Croupier-Forwarded")}  # type: ignore[attr-defined]
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def balancer(tmp_path: Path) -> Iterator[str]:
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pytest.skip("HAProxy is not installed here (tools/check.py installs Debian's package)")
    listen, *ports = _free_ports(PROCESSES + 1)
    stand_ins = []
    for index, port in enumerate(ports):
        stand_in = ThreadingHTTPServer(("127.0.0.1", port), StandIn)
        stand_in.name = f"croupier{index}"  # type: ignore[attr-defined]
        threading.Thread(target=stand_in.serve_forever, daemon=True).start()
        stand_ins.append(stand_in)
    _config(tmp_path, listen, ports[0])
    process = subprocess.Popen(
        [haproxy, "-db", "-f", str(tmp_path / "haproxy.cfg")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{listen}"
    try:
        since = time.monotonic()
        seen: set[str] = set()
        while len(seen) < PROCESSES:  # listening, and every process up: its health checked
            assert process.poll() is None, "HAProxy did not start"
            assert time.monotonic() - since < 30, f"only {seen} came up"
            time.sleep(0.3)
            with contextlib.suppress(httpx.HTTPError), httpx.Client(base_url=url) as client:
                seen = {client.get(f"/probe/{n}").json()["process"] for n in range(40)}
        yield url
    finally:
        process.terminate()
        process.wait(10)
        for stand_in in stand_ins:
            stand_in.shutdown()
            stand_in.server_close()


def test_every_request_for_a_table_reaches_one_process(balancer: str) -> None:
    paths = [
        ("GET", "/tables/{}"),
        ("POST", "/tables/{}/bets"),
        ("POST", "/tables/{}/seats/3"),
        ("GET", "/tables/{}/ws?token=abc"),
        ("GET", "/table/{}"),
        ("POST", "/dealer/tables/{}/cards"),
        ("POST", "/operator/tables/{}/limits"),
    ]
    where: dict[int, str] = {}
    with httpx.Client(base_url=balancer) as client:
        for table in TABLES:
            reached = {
                client.request(method, path.format(table)).json()["process"]
                for method, path in paths
            }
            assert len(reached) == 1, (table, reached)
            where[table] = reached.pop()
        # Across the processes, not all on one.
        assert len(set(where.values())) > 1, where
        # A client cannot pass for a process that forwarded its request.
        answer = client.get("/tables/1/bets", headers={"X-Croupier-Forwarded": "someone"})
        assert answer.json() == {"process": where[1], "forwarded": None}
