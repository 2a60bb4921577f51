"""The exported head, signed: HMAC-SHA256 under a key the operator keeps (R15; GLI-19 2.8.8).

The chain alone shows any edit, deletion or reordering of its entries, but not a rewrite of
the whole chain from some entry on: a head exported earlier and published catches that. So
that the published head cannot itself be forged (its sequence or hash edited to fit a
rewritten chain), it is signed: ``signature`` is ``hmac-sha256:`` and the hex HMAC-SHA256,
under the operator's key, of the canonical JSON of every other field of the head file.
(``cryptography`` is not a dependency, so there is no Ed25519: whoever checks a signature
holds the key, and could sign; the operator keeps it, and lends it to whoever audits.)

The key is 32 random bytes from the operating system's CSPRNG, kept as hex in a file that
only its owner may read or write (0600), created at the server's first start, as the code
manifest is (``ensure_key``).

>>> key = bytes(range(32))
>>> document = {"format": "croupier-audit-head", "seq": 3, "hash": "ab" * 32, "at": 1.5}
>>> signed = {**document, "signature": signature(document, key)}
>>> signature_problem(signed, key) is None
True
>>> signature_problem({**signed, "seq": 4}, key)
'bad signature: the head was altered after it was signed, or signed with another key'
>>> signature_problem(signed, bytes(32))
'bad signature: the head was altered after it was signed, or signed with another key'
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from croupier.audit.chain import AuditError
from croupier.audit.records import canonical

SCHEME = "hmac-sha256"
KEY_BYTES = 32
SIGNATURE_FIELD = "signature"


def signature(document: Mapping[str, Any], key: bytes) -> str:
    """The signature of ``document``: every field but ``signature`` itself, canonical JSON."""
    signed = {name: value for name, value in document.items() if name != SIGNATURE_FIELD}
    mac = hmac.new(key, canonical(signed).encode("utf-8"), hashlib.sha256).hexdigest()
    return f"{SCHEME}:{mac}"


def signature_problem(document: Mapping[str, Any], key: bytes) -> str | None:
    """``None`` when ``document`` carries a signature that ``key`` made of its fields, else
    what is wrong (no signature, another scheme, a bad one)."""
    found = document.get(SIGNATURE_FIELD)
    if found is None:
        return "not signed: a head without a signature could have been written by anyone"
    if not isinstance(found, str) or not found.startswith(f"{SCHEME}:"):
        return f"bad signature: not an {SCHEME} signature"
    if not hmac.compare_digest(found, signature(document, key)):
        return "bad signature: the head was altered after it was signed, or signed with another key"
    return None


# --- the key -------------------------------------------------------------------------------------
def default_key_path(database_url: str) -> Path:
    """Where ``croupier serve`` keeps the key unless told: beside a SQLite database file
    (``croupier.sqlite`` -> ``croupier.sqlite.audit-key``), else in the working folder."""
    parsed = make_url(database_url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        database = Path(str(parsed.database))
        return database.with_name(database.name + ".audit-key")
    return Path("croupier.audit-key")


def ensure_key(path: Path) -> bool:
    """Make a fresh key at ``path`` (0600) if there is none; ``True`` if it was made. An
    existing file is never replaced: the heads already published were signed with it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    except OSError as error:
        raise AuditError(f"cannot create the audit key file {path}: {error.strerror}") from None
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        os.fchmod(file.fileno(), 0o600)  # whatever the umask
        file.write(secrets.token_hex(KEY_BYTES) + "\n")
    return True


def read_key(path: Path) -> bytes:
    """The key kept at ``path`` (``ensure_key``'s format: hex of 32 bytes)."""
    try:
        text = Path(path).read_text(encoding="ascii").strip()
    except OSError as error:
        raise AuditError(f"cannot read the audit key file {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise AuditError(f"{path} is not an audit key (hex of {KEY_BYTES} bytes)") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise AuditError(f"{path} is not an audit key (hex of {KEY_BYTES} bytes)")
    return key
