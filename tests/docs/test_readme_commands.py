"""Every command the README shows runs as shown (issue 26: "every command it shows is run by a
test").

The README's ``sh`` blocks are read line by line, a comment after ``#`` dropped and ``&&``
taken as two commands, and each command is run here the one way a test can:

- ``pip install uv`` as written: where the suite runs, uv is installed already (``.ci/run``
  installs it so), and pip answers that it is satisfied without downloading anything (its
  own version check is turned off, the one thing it would fetch);
- ``uv run croupier serve`` from a fresh folder (its database, code manifest and audit key
  land there; ``UV_PROJECT`` points uv at this checkout) with one flag added, ``--port`` of a
  free port: it must print its banner with that address and answer ``/health``, and stop
  cleanly on Ctrl-C (SIGINT to its process group);
- ``uv run mkdocs serve`` likewise, with ``-a 127.0.0.1:PORT`` added: the site's home page
  must answer;
- ``uv run python tools/check.py``, the test command, is not run from inside itself: its
  ``main`` runs with each step recorded instead of run (``run``; a step started any other
  way fails the test at once), and the steps must be ruff, mypy, ``mkdocs build --strict``
  and pytest; ``.ci/run`` runs the same line.

A command no test here knows fails, so a command added to the README comes with its run.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import time
import types
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
START_SECONDS = 180  # a server's or the site's first answer, on a loaded two-core machine


def readme_commands(text: str) -> list[str]:
    """The commands of the ``sh`` blocks of ``text``, in order, each once.

    >>> readme_commands("```sh\\npip install uv && uv run x   # y\\nuv run z\\n```\\n```\\nno\\n```")
    ['pip install uv', 'uv run x', 'uv run z']
    """
    commands: list[str] = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            for command in line.split(" #", 1)[0].split("&&"):
                if command.strip() and " ".join(command.split()) not in commands:
                    commands.append(" ".join(command.split()))
    return commands


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def answers(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            body: bytes = response.read()
            return body.decode("utf-8", errors="replace") if response.status == 200 else None
    except OSError:
        return None


def environment(**more: str) -> dict[str, str]:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "NO_MKDOCS_2_WARNING": "1"}
    return {**env, **more}


@contextlib.contextmanager
def ctrl_c_heard() -> Iterator[None]:
    """A command started meanwhile hears Ctrl-C, as one typed at a terminal does. Where this
    process ignores SIGINT (started in the background by a non-interactive shell: its children
    inherit the ignoring), ``mkdocs serve``, which installs no handler of its own, ignored the
    test's Ctrl-C and was killed after 30 s. A handler, unlike an ignored signal, is not
    inherited across ``exec``: the child starts with SIGINT's default."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def serve_until_it_answers(
    command: list[str], cwd: Path, url: str, env: dict[str, str], log: Path
) -> tuple[str, str]:
    """Start ``command`` as a terminal would (its own process group), wait until ``url``
    answers 200, stop it with Ctrl-C: the answer and the command's output. A start that fails or never answers, or a
    stop that takes over 30 s, fails the test."""
    with log.open("w") as output, ctrl_c_heard():
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + START_SECONDS
            body: str | None = None
            while body is None and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.25)
                body = answers(url)
            assert body is not None, f"{command} never answered {url}:\n{log.read_text()}"
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                    pytest.fail(f"{command} did not stop on Ctrl-C:\n{log.read_text()}")
    return body, log.read_text()


# --- each command, run ---------------------------------------------------------------------


def pip_install_uv(tmp_path: Path) -> None:
    ran = subprocess.run(
        ["pip", "install", "uv"],
        check=False,
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "Requirement already satisfied: uv" in ran.stdout


def croupier_serve(tmp_path: Path) -> None:
    port = free_port()
    env = environment(UV_PROJECT=str(ROOT))
    command = ["uv", "run", "croupier", "serve", "--port", str(port)]
    url = f"http://127.0.0.1:{port}/health"
    _, output = serve_until_it_answers(command, tmp_path, url, env, tmp_path / "output.log")
    assert f"croupier is serving 6 tables at http://127.0.0.1:{port}" in output
    assert "operator token" in output
    assert (tmp_path / "croupier.sqlite").exists()


def mkdocs_serve(tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    command = ["uv", "run", "mkdocs", "serve", "-a", address]
    url = f"http://{address}/"
    home, output = serve_until_it_answers(command, ROOT, url, environment(), tmp_path / "log")
    assert f"Serving on http://{address}/" in output
    assert "<title>croupier</title>" in home


def the_test_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "uv run python tools/check.py\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    spec = importlib.util.spec_from_file_location("check", ROOT / "tools" / "check.py")
    assert spec is not None and spec.loader is not None
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    steps: list[tuple[str, ...]] = []
    monkeypatch.setattr(check, "run", lambda *command: steps.append(command))

    def refused(*command: object, **_options: object) -> None:
        # A way of running a step that is not recorded ran the whole suite inside this test
        # (300 s, then the time limit): it fails at once instead.
        raise AssertionError(f"check.py started {command[0]!r} unrecorded")

    monkeypatch.setattr(subprocess, "run", refused)
    monkeypatch.setattr(subprocess, "Popen", refused)
    monkeypatch.setitem(
        sys.modules,
        "install_packages",
        types.SimpleNamespace(install_browser=lambda: None, install_load_balancer=lambda: None),
    )
    monkeypatch.setattr(os, "environ", dict(os.environ))
    monkeypatch.setattr(sys, "argv", ["tools/check.py"])
    check.main()
    tools = [step[2] for step in steps]
    assert tools == ["ruff", "mypy", "mkdocs", "pytest"], steps
    assert steps[0][3:] == ("check", "src", "tests", "benchmarks", "tools")
    assert steps[2][3:5] == ("build", "--strict")
    assert steps[3][3:] == (
        "-m", "not slow", "-n", "auto", "--dist", "loadgroup", "--timeout", "300",
    )  # fmt: skip


RUNS: dict[str, Callable[..., None]] = {
    "pip install uv": pip_install_uv,
    "uv run croupier serve": croupier_serve,
    "uv run python tools/check.py": the_test_command,
    "uv run mkdocs serve": mkdocs_serve,
}


def test_the_readme_shows_the_two_commands_and_nothing_unknown() -> None:
    commands = readme_commands(README)
    assert {"uv run croupier serve", "uv run python tools/check.py"} <= set(commands)
    assert [command for command in commands if command not in RUNS] == []


@pytest.mark.parametrize("command", readme_commands(README))
def test_the_command_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = RUNS.get(command)
    assert run is not None, f"the README shows {command!r} and no test here runs it"
    if run is the_test_command:
        run(tmp_path, monkeypatch)
    else:
        run(tmp_path)
