"""Software verification: the installed code against the SHA-256 hashes recorded for it.

GLI-19 (2.3.2 and 3.3.3) asks that the software of a gaming system can be verified, and that
altered software stops play (RELIABILITY R17). The manifest lists every ``.py`` and ``.toml``
file of the ``croupier`` package (the code and the shipped rule profiles) with its SHA-256.
``croupier serve`` writes it at its first start and checks it at every start, and again while
it runs; a file changed, missing or added engages the fail safe, naming the files.

After a deliberate upgrade the operator records the new code with
``croupier manifest --write PATH`` (the same path ``serve`` uses, see ``--code-manifest``).

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "rules.toml").write_text("decks = 6\\n")
>>> manifest = write_manifest(folder / "manifest.json", folder)
>>> sorted(manifest.files)
['rules.toml']
>>> altered(folder / "manifest.json", folder)
[]
>>> _ = (folder / "rules.toml").write_text("decks = 1\\n")
>>> altered(folder / "manifest.json", folder)
['changed: rules.toml']
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from croupier.errors import CroupierError

PACKAGE_ROOT = Path(__file__).resolve().parent
SUFFIXES = (".py", ".toml")
FORMAT = "croupier-code-manifest"


class CodeIntegrityError(CroupierError):
    """The installed code differs from its recorded hashes, or the record cannot be read."""


@dataclass(frozen=True)
class Manifest:
    """Relative path (``/``-separated) -> SHA-256 hex digest of each file."""

    files: dict[str, str]

    def to_json(self) -> str:
        document = {
            "format": FORMAT,
            "algorithm": "sha256",
            "files": dict(sorted(self.files.items())),
        }
        return json.dumps(document, indent=1) + "\n"

    @classmethod
    def read(cls, path: Path) -> Manifest:
        try:
            document = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CodeIntegrityError(f"cannot read the code manifest {path}: {error}") from None
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise CodeIntegrityError(f"{path} is not a croupier code manifest")
        return cls({str(name): str(digest) for name, digest in document["files"].items()})


def package_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    """Every ``.py`` and ``.toml`` file under ``root``, compiled-bytecode folders aside."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        found += [Path(folder) / name for name in names if name.endswith(SUFFIXES)]
    return sorted(found)


def hashes(root: Path = PACKAGE_ROOT) -> Manifest:
    return Manifest(
        {
            path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in package_files(root)
        }
    )


def write_manifest(path: Path, root: Path = PACKAGE_ROOT) -> Manifest:
    """Record the code under ``root`` as it is now (atomically: a reader never sees half)."""
    manifest = hashes(root)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    partial = Path(path).with_name(Path(path).name + ".partial")
    partial.write_text(manifest.to_json(), encoding="utf-8")
    os.replace(partial, path)
    return manifest


def altered(path: Path, root: Path = PACKAGE_ROOT) -> list[str]:
    """Each file that differs from the manifest at ``path``: ``changed``, ``missing`` or
    ``added``; an empty list when the code is as recorded."""
    recorded = Manifest.read(path).files
    current = hashes(root).files
    found = [
        f"changed: {name}"
        for name in sorted(recorded)
        if current.get(name, recorded[name]) != recorded[name]
    ]
    found += [f"missing: {name}" for name in sorted(set(recorded) - set(current))]
    found += [f"added: {name}" for name in sorted(set(current) - set(recorded))]
    return found


def verify(path: Path, root: Path = PACKAGE_ROOT) -> None:
    """Raise ``CodeIntegrityError`` naming the altered files, if any."""
    found = altered(path, root)
    if found:
        shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        raise CodeIntegrityError(
            f"the installed code differs from the manifest {path}: {shown}; after a deliberate "
            f"upgrade record it again with `croupier manifest --write {path}`"
        )


def default_manifest(database_url: str) -> Path:
    """Where ``croupier serve`` keeps the manifest unless told: beside a SQLite database file
    (``croupier.sqlite`` -> ``croupier.sqlite.manifest.json``), else in the working folder."""
    from sqlalchemy.engine import make_url

    parsed = make_url(database_url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        database = Path(str(parsed.database))
        return database.with_name(database.name + ".manifest.json")
    return Path("croupier.manifest.json")


def ensure_manifest(path: Path, root: Path = PACKAGE_ROOT) -> bool:
    """Write the manifest if there is none yet (a first start); ``True`` if it was written."""
    if Path(path).exists():
        return False
    write_manifest(path, root)
    return True
