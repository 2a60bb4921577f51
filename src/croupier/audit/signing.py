"""The exported head, signed with Ed25519: the operator keeps the private key, anyone checks
with the public one (R15; GLI-19 2.8.8; docs/rules.md#D-GEN-16a).

The chain alone shows any edit, deletion or reordering of its entries, but not a rewrite of
the whole chain from some entry on: a head exported earlier and published catches that. So
that the published head cannot itself be forged (its sequence or hash edited to fit a
rewritten chain), it is signed: ``public_key`` is ``ed25519:`` and the hex of the operator's
public key, and ``signature`` is ``ed25519:`` and the hex Ed25519 signature of the canonical
JSON of every other field of the head file (``public_key`` included). Checking needs only the
public key, so a regulator verifies a head without holding anything that could sign one.

A head carries its public key so that a reader sees who signed it, but a forger would put
their own there: what vouches for a head is the key the checker already trusts (the operator's
public key, exported once with ``croupier audit public-key``, or the private key itself), and a
head that names another is refused before its signature is even checked.

Heads signed by earlier versions with HMAC-SHA256 under a shared key are refused, with how to
re-export them: whoever held that key (the operator, and every auditor it was lent to) could
have written them.

The private key is made from the operating system's CSPRNG by ``cryptography`` and kept as
PKCS#8 PEM in a file that only its owner may read or write (0600), created at the server's
first start, as the code manifest is (``ensure_key``), and never replaced.

>>> private = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
>>> trusted = private.public_key()
>>> document = {"format": "croupier-audit-head", "seq": 3, "hash": "ab" * 32, "at": 1.5}
>>> signed = sign(document, private)
>>> signature_problem(signed, trusted) is None
True
>>> signature_problem({**signed, "seq": 4}, trusted)
'bad signature: the head was altered after it was signed, or signed by another key'
>>> other = Ed25519PrivateKey.from_private_bytes(bytes(32))
>>> signature_problem(sign(document, other), trusted)[:52]
'bad signature: signed with another key (public key e'
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy.engine import make_url

from croupier.audit.chain import AuditError
from croupier.audit.records import canonical

SCHEME = "ed25519"
RETIRED_SCHEME = "hmac-sha256"
SIGNATURE_FIELD = "signature"
PUBLIC_KEY_FIELD = "public_key"
# What ``ensure_key`` wrote before Ed25519: the hex of 32 random bytes, an HMAC key.
_RETIRED_KEY = re.compile(r"[0-9a-f]{64}")
_HEX_BYTES = {"public key": 32, "signature": 64}


def public_key_text(public: Ed25519PublicKey) -> str:
    """``public`` as a head carries it: ``ed25519:`` and the hex of its 32 raw bytes."""
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return f"{SCHEME}:{raw.hex()}"


def _signed_bytes(document: Mapping[str, Any]) -> bytes:
    signed = {name: value for name, value in document.items() if name != SIGNATURE_FIELD}
    return canonical(signed).encode("utf-8")


def sign(document: Mapping[str, Any], private: Ed25519PrivateKey) -> dict[str, Any]:
    """``document`` with the public key of ``private`` and its signature of every field but
    ``signature`` itself (canonical JSON), any earlier ones replaced."""
    unsigned = {
        name: value
        for name, value in document.items()
        if name not in (SIGNATURE_FIELD, PUBLIC_KEY_FIELD)
    }
    unsigned[PUBLIC_KEY_FIELD] = public_key_text(private.public_key())
    signed = private.sign(_signed_bytes(unsigned))
    return {**unsigned, SIGNATURE_FIELD: f"{SCHEME}:{signed.hex()}"}


def _hex_value(found: object, what: str) -> bytes | None:
    """The bytes of an ``ed25519:HEX`` field of the expected length, else ``None``."""
    if not isinstance(found, str) or not found.startswith(f"{SCHEME}:"):
        return None
    try:
        value = bytes.fromhex(found.removeprefix(f"{SCHEME}:"))
    except ValueError:
        return None
    return value if len(value) == _HEX_BYTES[what] else None


def signature_problem(document: Mapping[str, Any], trusted: Ed25519PublicKey) -> str | None:
    """``None`` when ``document`` carries ``trusted``'s signature of its fields, else what is
    wrong (no signature, a retired HMAC one, another key's, a bad one)."""
    found = document.get(SIGNATURE_FIELD)
    if found is None:
        return "not signed: a head without a signature could have been written by anyone"
    if isinstance(found, str) and found.startswith(f"{RETIRED_SCHEME}:"):
        return (
            "bad signature: an HMAC-SHA256 signature of an earlier croupier, which anyone who "
            "held its shared key could have made, is no longer accepted (docs/rules.md#D-GEN-16a); "
            "re-export the head with `croupier audit head --database URL --out FILE` (signed "
            "with Ed25519) and publish it, with `croupier audit public-key`, in its place"
        )
    signature = _hex_value(found, "signature")
    if signature is None:
        return f"bad signature: not an {SCHEME} signature (ed25519: and 128 hex digits)"
    expected = public_key_text(trusted)
    named = document.get(PUBLIC_KEY_FIELD)
    if named != expected:
        return (
            f"bad signature: signed with another key (public key {named}, "
            f"not the trusted {expected})"
        )
    try:
        trusted.verify(signature, _signed_bytes(document))
    except InvalidSignature:
        return "bad signature: the head was altered after it was signed, or signed by another key"
    return None


# --- the keys ------------------------------------------------------------------------------------
def default_key_path(database_url: str) -> Path:
    """Where ``croupier serve`` keeps the private key unless told: beside a SQLite database
    file (``croupier.sqlite`` -> ``croupier.sqlite.audit-key``), else in the working folder."""
    parsed = make_url(database_url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        database = Path(str(parsed.database))
        return database.with_name(database.name + ".audit-key")
    return Path("croupier.audit-key")


def ensure_key(path: Path) -> bool:
    """Make a fresh private key at ``path`` (0600) if there is none; ``True`` if it was made.
    An existing file is never replaced: the heads already published were signed with it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    except OSError as error:
        raise AuditError(f"cannot create the audit key file {path}: {error.strerror}") from None
    with os.fdopen(descriptor, "wb") as file:
        os.fchmod(file.fileno(), 0o600)  # whatever the umask
        file.write(pem)
    return True


def _read_bytes(path: Path, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise AuditError(f"cannot read the {what} file {path}: {error.strerror}") from None


def read_private_key(path: Path) -> Ed25519PrivateKey:
    """The private key kept at ``path`` (``ensure_key``'s format: PKCS#8 PEM, Ed25519)."""
    data = _read_bytes(path, "audit key")
    if _RETIRED_KEY.fullmatch(data.strip().decode("ascii", "replace")):
        raise AuditError(
            f"{path} is the HMAC key of an earlier croupier, which no longer signs heads "
            "(docs/rules.md#D-GEN-16a): move it aside (keep it while heads it signed are "
            "still to be read), and the next start or `croupier audit head` makes an Ed25519 "
            "key in its place"
        )
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        key = None
    if not isinstance(key, Ed25519PrivateKey):
        raise AuditError(f"{path} is not an audit key (an Ed25519 private key, PKCS#8 PEM)")
    return key


def public_key_pem(private: Ed25519PrivateKey) -> str:
    """The public half of ``private`` as PEM (SubjectPublicKeyInfo), to give the regulator."""
    return (
        private.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode("ascii")
    )


def read_public_key(path: Path) -> Ed25519PublicKey:
    """A public key as ``public_key_pem`` writes it (``croupier audit public-key``)."""
    data = _read_bytes(path, "public key")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        key = None
    if not isinstance(key, Ed25519PublicKey):
        raise AuditError(f"{path} is not an audit public key (Ed25519, PEM)")
    return key
