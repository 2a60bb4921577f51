"""A Redis server for the tests: the machine's own, or a throwaway one of ours.

``server_url()`` answers with ``redis://127.0.0.1:6379/0`` where a Redis answers there, else
starts Debian's ``redis-server`` on a free loopback port with nothing kept on disk (stopped
at exit), else returns ``None``: Redis is an optional deployment piece (several server
processes), so its tests skip, saying why, on a machine that has none.
"""

from __future__ import annotations

import atexit
import shutil
import socket
import subprocess
import time

import redis

DEFAULT_URL = "redis://127.0.0.1:6379/0"


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server() -> str | None:
    binary = shutil.which("redis-server")
    if binary is None:
        return None
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    atexit.register(process.terminate)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if _answers(url):
            return url
        time.sleep(0.05)
    process.terminate()
    return None


def server_url() -> str | None:
    return DEFAULT_URL if _answers(DEFAULT_URL) else start_server()


if __name__ == "__main__":
    print(server_url())
