"""HAProxy's own refusals, in front of several processes (issue 29, item 2: the error
contract as today), are the servers' error document, not HAProxy's HTML page.

The chaos run (``benchmarks/cluster.py --chaos``) met HAProxy's own 503 "No server is
available" as ``<html><body>...``, where a client of the API reads ``{"error", "detail",
"code", "params"}``. ``deploy/errors/*.http`` give 502, 503 and 504 that document with code
``unavailable`` and ``Retry-After`` (the servers' own 503 has both), and both writers of the
configuration (``deploy/cluster.sh``, ``benchmarks/cluster.py``) point HAProxy at them.
Where HAProxy is installed (``deploy/cluster.sh`` installs it) a real one in front of no live
process answers with it."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from croupier.server.errors import RETRY_AFTER_SECONDS

ROOT = Path(__file__).resolve().parents[2]
ERRORS = ROOT / "deploy" / "errors"
STATUSES = (502, 503, 504)

sys.path.insert(0, str(ROOT / "benchmarks"))


def _response(status: int) -> tuple[str, dict[str, str], bytes]:
    raw = (ERRORS / f"{status}.http").read_bytes()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("ascii").split("\r\n")
    headers = dict(line.split(": ", 1) for line in header_lines)
    return status_line, headers, body


@pytest.mark.parametrize("status", STATUSES)
def test_each_error_file_is_the_servers_error_document(status: int) -> None:
    status_line, headers, body = _response(status)
    assert status_line.split(" ")[:2] == ["HTTP/1.0", str(status)]
    assert headers["Content-Type"] == "application/json"
    assert headers["Retry-After"] == str(RETRY_AFTER_SECONDS)  # the servers' own
    assert int(headers["Content-Length"]) == len(body)
    document = json.loads(body)
    assert set(document) == {"error", "detail", "code", "params"}
    assert (document["error"], document["code"], document["params"]) == (
        "Unavailable",
        "unavailable",
        {},
    )


def test_both_configurations_use_them(tmp_path: Path) -> None:
    import cluster  # benchmarks/cluster.py

    script = (ROOT / "deploy" / "cluster.sh").read_text(encoding="utf-8")
    written = cluster.haproxy_config(8000, [], tmp_path).read_text(encoding="utf-8")
    for status in STATUSES:
        assert f"errorfile {status} $HERE/deploy/errors/{status}.http" in script
        assert f"errorfile {status} {ERRORS / f'{status}.http'}" in written


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="HAProxy is not installed here")
def test_haproxy_with_no_live_process_answers_the_document(tmp_path: Path) -> None:
    import cluster  # benchmarks/cluster.py

    class Down:
        port = _free_port()  # nothing listens there

    port = _free_port()
    config = cluster.haproxy_config(port, [Down()], tmp_path)
    # Its warnings are not read: a pipe left unread could fill and stop it.
    proxy = subprocess.Popen(["haproxy", "-f", str(config)], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/tables", timeout=2)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert answer.status_code == 503
        assert answer.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
        assert answer.json()["code"] == "unavailable"
    finally:
        proxy.terminate()
        proxy.wait(10)
