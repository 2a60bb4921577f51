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
first start, as the code manifest is (``ensure_key``), and never replaced. An earlier
version's HMAC key file found there at a start is renamed beside itself, never deleted
(``retire_hmac_key``), and a new key made in its place.

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
import stat
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed448, rsa, x448, x25519
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.utils import CryptographyDeprecationWarning
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
# What an upgraded server renames an earlier croupier's HMAC key file to, beside it.
RETIRED_KEY_SUFFIX = ".hmac-retired"
# An Ed25519 key file is about 120 bytes and an RSA-16384 private key 13 KB: a larger file is
# not a key, and is refused before it is read.
MAX_KEY_FILE_BYTES = 64 * 1024
# The kinds of key a PEM may hold instead of Ed25519 (private, public), named in the refusal;
# not Diffie-Hellman, whose very names in ``cryptography`` warn that it is deprecated.
_KEY_KINDS: tuple[tuple[type, type, str], ...] = (
    (rsa.RSAPrivateKey, rsa.RSAPublicKey, "an RSA"),
    (ec.EllipticCurvePrivateKey, ec.EllipticCurvePublicKey, "an elliptic-curve (EC)"),
    (Ed25519PrivateKey, Ed25519PublicKey, "an Ed25519"),
    (ed448.Ed448PrivateKey, ed448.Ed448PublicKey, "an Ed448"),
    (dsa.DSAPrivateKey, dsa.DSAPublicKey, "a DSA"),
    (x25519.X25519PrivateKey, x25519.X25519PublicKey, "an X25519"),
    (x448.X448PrivateKey, x448.X448PublicKey, "an X448"),
)


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
    """The bytes of a key file, refused before reading when it is no plain file or larger than
    any key file: a path given by mistake (a database, a folder, a device) says so at once
    instead of being read whole."""
    path = Path(path)
    try:
        found = path.stat()
        if not stat.S_ISREG(found.st_mode):
            raise AuditError(f"cannot read the {what} file {path}: it is not a plain file")
        if found.st_size > MAX_KEY_FILE_BYTES:
            raise AuditError(
                f"{path} is {found.st_size:,} bytes: no {what} file is that large (an audit "
                f"key is a few hundred bytes; at most {MAX_KEY_FILE_BYTES:,} are read)"
            )
        with path.open("rb") as file:
            data = file.read(MAX_KEY_FILE_BYTES + 1)  # a file that grew since its stat
    except OSError as error:
        raise AuditError(f"cannot read the {what} file {path}: {error.strerror}") from None
    if len(data) > MAX_KEY_FILE_BYTES:
        raise AuditError(f"{path} is larger than any {what} file ({MAX_KEY_FILE_BYTES:,} bytes)")
    return data


def _kind_of_key(key: object) -> str:
    """What ``key`` is, for a message that says why it is refused: "an RSA private key"."""
    for private, public, name in _KEY_KINDS:
        if isinstance(key, private | public):
            return f"{name} {'private' if isinstance(key, private) else 'public'} key"
    return "a key of another kind"


def _load_pem(data: bytes, half: str) -> object | None:
    """The key a PEM file holds (``half``: "private" or "public"), else ``None``: no PEM, a
    damaged one, an encrypted private key, an algorithm or curve ``cryptography`` does not
    load (``UnsupportedAlgorithm``, which is no ``ValueError``)."""
    with warnings.catch_warnings():
        # A Diffie-Hellman key warns that FFDH is deprecated: noise beside the refusal.
        warnings.simplefilter("ignore", CryptographyDeprecationWarning)
        try:
            if half == "private":
                return serialization.load_pem_private_key(data, password=None)
            return serialization.load_pem_public_key(data)
        except (ValueError, TypeError, UnsupportedAlgorithm):
            return None


def _why_not(data: bytes, half: str, key: object | None) -> str:
    """Why ``data`` is not the Ed25519 key expected (``half``: "private" or "public")."""
    other = "public" if half == "private" else "private"
    if not data.strip():
        return "the file is empty"
    if key is not None:
        return f"it holds {_kind_of_key(key)}"
    if f"{other.upper()} KEY-----".encode() in data:
        hint = " (`croupier audit public-key` writes it)" if half == "public" else ""
        return f"it holds a {other} key, where the {half} one is expected{hint}"
    if b"-----BEGIN " not in data:
        return "it holds no PEM text"
    return (
        "its PEM holds no key that can be read (damaged, encrypted, a certificate, or an "
        "algorithm or curve not supported)"
    )


def is_retired_key(data: bytes) -> bool:
    """Whether ``data`` is an earlier croupier's key file: the hex of a 32-byte HMAC key."""
    return _RETIRED_KEY.fullmatch(data.strip().decode("ascii", "replace")) is not None


def retire_hmac_key(path: Path) -> Path | None:
    """Move an earlier croupier's HMAC key file at ``path`` aside, so that an upgraded server
    starts and makes its Ed25519 key there (docs/rules.md#D-GEN-16a); the new name, or
    ``None`` when ``path`` holds no such key (absent, or anything else, which
    ``read_private_key`` then judges). The file is renamed beside itself
    (``<name>.hmac-retired``, ``.hmac-retired.2``... if that is taken), never deleted nor
    rewritten: it still checks the HMACs of old heads anyone kept. A rename that fails (a
    read-only folder) is the ``AuditError`` that says to move it aside by hand."""
    path = Path(path)
    try:
        if not path.is_file() or path.stat().st_size > MAX_KEY_FILE_BYTES:
            return None
    except OSError:
        return None  # read_private_key says why it cannot be read
    if not is_retired_key(_read_bytes(path, "audit key")):
        return None
    retired = path.with_name(path.name + RETIRED_KEY_SUFFIX)
    number = 1
    while retired.exists() or retired.is_symlink():  # an earlier upgrade's, kept too
        number += 1
        retired = path.with_name(f"{path.name}{RETIRED_KEY_SUFFIX}.{number}")
    try:
        path.rename(retired)
    except OSError as error:
        raise AuditError(
            f"{path} is the HMAC key of an earlier croupier, which no longer signs heads "
            f"(docs/rules.md#D-GEN-16a), and it could not be moved aside to {retired} "
            f"({error.strerror}): move it aside yourself (keep it while heads it signed are "
            "still to be read), and the next start makes an Ed25519 key in its place"
        ) from None
    return retired


def read_private_key(path: Path) -> Ed25519PrivateKey:
    """The private key kept at ``path`` (``ensure_key``'s format: PKCS#8 PEM, Ed25519)."""
    data = _read_bytes(path, "audit key")
    if is_retired_key(data):
        raise AuditError(
            f"{path} is the HMAC key of an earlier croupier, which no longer signs heads "
            "(docs/rules.md#D-GEN-16a): move it aside (keep it while heads it signed are "
            "still to be read), or start the server, which does so; the next start or "
            "`croupier audit head` makes an Ed25519 key in its place"
        )
    key = _load_pem(data, "private")
    if not isinstance(key, Ed25519PrivateKey):
        raise AuditError(
            f"{path} is not an audit key (an Ed25519 private key, PKCS#8 PEM): "
            f"{_why_not(data, 'private', key)}"
        )
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
    key = _load_pem(data, "public")
    if not isinstance(key, Ed25519PublicKey):
        raise AuditError(
            f"{path} is not an audit public key (Ed25519, PEM): {_why_not(data, 'public', key)}"
        )
    return key
