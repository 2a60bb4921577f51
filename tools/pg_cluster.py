"""A PostgreSQL server for the tests: the machine's own, or a throwaway cluster of ours.

``server_url()`` answers with a SQLAlchemy URL to a PostgreSQL server that accepts trust
connections: 127.0.0.1:5432 (database ``test``, user ``root`` or ``postgres``) where one
answers, else a cluster made with Debian's ``initdb``/``pg_ctl`` (as the ``postgres`` user when
run as root, since initdb refuses root) on a free loopback port with ``fsync=off``, stopped
at exit. Run as a script it starts a cluster and prints its URL until interrupted.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator

import psycopg

CANDIDATES = (
    "postgresql://root@127.0.0.1:5432/test",
    "postgresql://postgres@127.0.0.1:5432/test",
    "postgresql://postgres@127.0.0.1:5432/postgres",
)


def _answers(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=2) as connection:
            connection.execute("select 1")
        return True
    except psycopg.Error:
        return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _as_postgres(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def start_cluster() -> str:
    """A fresh throwaway cluster; returns its URL (libpq form)."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not binaries:
        raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    bin_dir = binaries[-1]
    base = tempfile.mkdtemp(prefix="croupier-pg-")
    data = os.path.join(base, "data")
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
    port = _free_port()
    subprocess.run(
        _as_postgres(
            [f"{bin_dir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]
        ),
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -c listen_addresses=127.0.0.1 -c fsync=off -c unix_socket_directories={base}"
    )
    subprocess.run(
        _as_postgres(
            [f"{bin_dir}/pg_ctl", "-D", data, "-o", options, "-w", "-l", f"{base}/log", "start"]
        ),
        check=True,
        capture_output=True,
    )

    def stop() -> None:
        subprocess.run(
            _as_postgres([f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)

    atexit.register(stop)
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    for _ in range(50):
        if _answers(url):
            return url
        time.sleep(0.1)
    raise RuntimeError(f"the throwaway cluster on port {port} does not answer")


def server_url() -> str:
    """A libpq URL to a PostgreSQL server the tests may create schemas in."""
    for url in CANDIDATES:
        if _answers(url):
            return url
    return start_cluster()


def sqlalchemy_url(libpq_url: str, schema: str | None = None, *, durable: bool = True) -> str:
    """``libpq_url`` for SQLAlchemy's psycopg driver, its connections in ``schema``.

    ``durable=False`` is for the tests: their connections commit without waiting for the WAL
    to reach the disk (``synchronous_commit=off``, a setting of the session, as the throwaway
    cluster's ``fsync=off`` is of the server). A commit is as visible, as atomic and as
    isolated as before; only a crash of the PostgreSQL server itself could lose the last
    ones, which no test does. The machine's server waits about 3 ms for each commit's flush
    (0.2 ms without), and a PostgreSQL test commits hundreds of times: the migrations, each
    command. The benchmarks keep durable commits, as a deployment has them."""
    url = libpq_url.replace("postgresql://", "postgresql+psycopg://", 1)
    options = [] if schema is None else [f"-csearch_path%3D{schema}"]
    if not durable:
        options.append("-csynchronous_commit%3Doff")
    if options:
        url += "?options=" + "%20".join(options)
    return url


@contextlib.contextmanager
def schema_of_its_own(libpq_url: str, *, prefix: str = "t", durable: bool = True) -> Iterator[str]:
    """A new empty schema on ``libpq_url``'s server for one test or run, as a SQLAlchemy URL
    whose connections work in it (``sqlalchemy_url``); dropped with all it holds afterwards."""
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(libpq_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield sqlalchemy_url(libpq_url, schema, durable=durable)
    finally:
        with psycopg.connect(libpq_url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


if __name__ == "__main__":
    print(sqlalchemy_url(start_cluster()), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
