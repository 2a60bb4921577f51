"""Issue 25, item 6: ``croupier audit verify``, ``restore`` and ``backup`` on a truncated
file, random bytes or a path that cannot be written printed Python tracebacks and exited 1,
which must mean only that tampering was found. Each is now one line, ``croupier: error:``,
exit 2 (cli/main.py's convention for an error croupier names)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from server_support import make_api

from croupier.audit.signing import ensure_key
from croupier.service.backup import backup

DRIVER = """
import contextlib, io, json, sys
sys.argv = ["croupier", "--every-command"]  # registers every sub-command (cli.main._wanted)
from croupier.cli.main import main
results = []
for arguments in json.loads(sys.stdin.read()):
    sys.argv = ["croupier", *arguments]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException as error:  # a traceback: what the test must never see
            code = f"raised {type(error).__name__}: {error}"
    results.append([code, err.getvalue()])
print(json.dumps(results))
"""
"""Every case in one interpreter: a fresh one per case would cost seconds of imports each."""


def test_bad_files_and_paths_are_one_line_and_exit_2(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite"
    made = make_api(f"sqlite:///{live}")
    next(made).player("ann", 1_000)
    made.close()
    whole = tmp_path / "whole.backup"
    backup(f"sqlite:///{live}", whole)
    truncated = tmp_path / "truncated.sqlite"
    truncated.write_bytes(whole.read_bytes()[:3_000])
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 40)
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    nowhere = a_file / "x.sqlite"  # its folder is a file: it cannot be written
    ensure_key(tmp_path / "key")
    cases = [
        ["audit", "verify", "--database", f"sqlite:///{truncated}"],
        ["audit", "verify", "--database", f"sqlite:///{noise}"],
        ["audit", "verify", "--database", f"sqlite:///{live}", "--head", str(noise)],
        ["audit", "head", "--database", f"sqlite:///{live}", "--out", str(nowhere),
         "--audit-key", str(tmp_path / "key")],
        ["restore", str(truncated), "--database", f"sqlite:///{tmp_path / 'r1.sqlite'}"],
        ["restore", str(noise), "--database", f"sqlite:///{tmp_path / 'r2.sqlite'}"],
        ["restore", str(whole), "--database", f"sqlite:///{nowhere}"],
        ["backup", "--database", f"sqlite:///{truncated}", str(tmp_path / "b1.backup")],
        ["backup", "--database", f"sqlite:///{noise}", str(tmp_path / "b2.backup")],
        ["backup", "--database", f"sqlite:///{live}", str(nowhere)],
    ]  # fmt: skip
    ran = subprocess.run(
        [sys.executable, "-c", DRIVER],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    results = json.loads(ran.stdout.strip().splitlines()[-1])
    for arguments, (code, err) in zip(cases, results, strict=True):
        lines = err.strip().splitlines()
        assert code == 2, (arguments, code, err[-2000:])
        assert len(lines) == 1 and lines[0].startswith("croupier: error: "), (arguments, err)
        assert "Traceback" not in err
    assert not (tmp_path / "r1.sqlite").exists()  # a backup that cannot be read: nothing made
