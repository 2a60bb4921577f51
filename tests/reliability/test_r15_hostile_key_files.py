"""R15, docs/rules.md#D-GEN-16a: the key files ``croupier audit`` is handed (``verify
--public-key PEM``, ``--audit-key KEY``, ``public-key``, ``head``) may be anything: another
algorithm's key, the other half of the right one, a 50 MB file, garbage, a folder. Each is
exit 2 (the CLI's usage-error code) with one line on stderr that names the file and what it
holds, never a traceback, a warning or a file read whole.
"""

from __future__ import annotations

import errno
import random
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from audit_cli_support import audit_cli
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed448, rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.utils import CryptographyDeprecationWarning

from croupier.audit import chain
from croupier.audit.signing import MAX_KEY_FILE_BYTES, public_key_pem
from croupier.audit.verify import Head, write_head

# A key on brainpoolP512t1, a curve OpenSSL 3.0 makes (`openssl ecparam -name brainpoolP512t1
# -genkey`) but ``cryptography`` does not load: it raises UnsupportedAlgorithm, no ValueError.
# Made for this test only; it signs nothing.
BRAINPOOL_T1_PUBLIC = b"""-----BEGIN PUBLIC KEY-----
MIGbMBQGByqGSM49AgEGCSskAwMCCAEBDgOBggAEmDgGggfUzAQ3TTmNElOagJo/
Jx8zcPKD89g8+cV5jqMRxDS3LjRSntsJwN+ivcQoXbutVBkh9H/sEecNh69341FU
Bi8LuZuHXmNG4IYyb//Pr4z/I1cC051GQ3uFhA5xbXf3mlkvXeG9Ppz3jf8D+Hij
x7dO0rZj3lOGT7LYFJY=
-----END PUBLIC KEY-----
"""
BRAINPOOL_T1_PRIVATE = b"""-----BEGIN EC PRIVATE KEY-----
MIHaAgEBBEBgeolDQkvK17fO/5eFO3zE+hIQg/Hks7Gw3/JImabFLHP+uScAhjwe
RywC2FjOMnlg/kfLKBGqVuoiIbLw+kyxoAsGCSskAwMCCAEBDqGBhQOBggAEmDgG
ggfUzAQ3TTmNElOagJo/Jx8zcPKD89g8+cV5jqMRxDS3LjRSntsJwN+ivcQoXbut
VBkh9H/sEecNh69341FUBi8LuZuHXmNG4IYyb//Pr4z/I1cC051GQ3uFhA5xbXf3
mlkvXeG9Ppz3jf8D+Hijx7dO0rZj3lOGT7LYFJY=
-----END EC PRIVATE KEY-----
"""
HUGE_BYTES = 50 * 1024 * 1024
UNREADABLE = "unreadable.pem"


def _private_pem(key: object, encryption: object = None) -> bytes:
    return key.private_bytes(  # type: ignore[attr-defined, no-any-return]
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        encryption or serialization.NoEncryption(),
    )


def _public_pem(key: object) -> bytes:
    return key.public_key().public_bytes(  # type: ignore[attr-defined, no-any-return]
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _hostile_files(folder: Path) -> dict[str, tuple[str, str]]:
    """Each hostile file made in ``folder``: its name -> what the refusal says of it where a
    public key is expected, and where the private key is."""
    ours = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    made: dict[str, bytes] = {
        "rsa.pub": _public_pem(rsa.generate_private_key(public_exponent=65537, key_size=1024)),
        "rsa.key": _private_pem(rsa.generate_private_key(public_exponent=65537, key_size=1024)),
        "ec.pub": _public_pem(ec.generate_private_key(ec.SECP256R1())),
        "ec.key": _private_pem(ec.generate_private_key(ec.SECP256R1())),
        "ed448.pub": _public_pem(ed448.Ed448PrivateKey.generate()),
        "brainpool.pub": BRAINPOOL_T1_PUBLIC,
        "brainpool.key": BRAINPOOL_T1_PRIVATE,
        "ours.key": _private_pem(ours),
        "ours.pub": public_key_pem(ours).encode("ascii"),
        "encrypted.key": _private_pem(ours, serialization.BestAvailableEncryption(b"a passphrase")),
        "garbage": random.Random(15).randbytes(3_000),
        "empty": b"",
        UNREADABLE: public_key_pem(ours).encode("ascii"),
    }
    for name, data in made.items():
        (folder / name).write_bytes(data)
    with (folder / "huge").open("wb") as huge:
        huge.truncate(HUGE_BYTES)  # sparse: 50 MB long, no time to write
    (folder / "folder").mkdir()
    unreadable = "Permission denied"
    unloadable = "its PEM holds no key that can be read"
    return {
        "rsa.pub": ("it holds an RSA public key", "where the private one is expected"),
        "rsa.key": ("it holds a private key, where the public one", "an RSA private key"),
        "ec.pub": ("an elliptic-curve (EC) public key", "where the private one is expected"),
        "ec.key": ("where the public one is expected", "an elliptic-curve (EC) private key"),
        "ed448.pub": ("it holds an Ed448 public key", "where the private one is expected"),
        "brainpool.pub": (unloadable, "where the private one is expected"),
        "brainpool.key": ("where the public one is expected", unloadable),
        "ours.key": ("a private key, where the public one is expected (`croupier audit", ""),
        "ours.pub": ("", "it holds a public key, where the private one is expected"),
        "encrypted.key": ("where the public one is expected", unloadable),
        "garbage": ("it holds no PEM text", "it holds no PEM text"),
        "empty": ("the file is empty", "the file is empty"),
        "huge": (
            f"is {HUGE_BYTES:,} bytes: no public key file is that large",
            f"is {HUGE_BYTES:,} bytes: no audit key file is that large",
        ),
        "folder": ("it is not a plain file", "it is not a plain file"),
        "missing": ("No such file or directory", "does not exist"),
        UNREADABLE: (unreadable, unreadable),
    }


@pytest.fixture
def refuse_to_open(monkeypatch: pytest.MonkeyPatch) -> Callable[[Path], None]:
    """Make one file unreadable: the tests run as root, which reads through mode 0000, so the
    open itself is made to fail as it does for anyone else."""

    def refuse(path: Path) -> None:
        opened = Path.open

        def open_or_refuse(self: Path, *args: object, **kwargs: object) -> object:
            if self == path:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return opened(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Path, "open", open_or_refuse)

    return refuse


def _assert_refused(done: object, path: Path, says: str) -> None:
    code, out, err = done.returncode, done.stdout, done.stderr  # type: ignore[attr-defined]
    assert code == 2, (path.name, code, out, err)
    assert out == "", (path.name, out)
    assert err.startswith("croupier: error: ") and err.count("\n") == 1, (path.name, err)
    assert str(path) in err and says in err, (path.name, says, err)


def test_r15_every_hostile_key_file_is_a_one_line_exit_2(
    tmp_path: Path, refuse_to_open: Callable[[Path], None]
) -> None:
    """D-GEN-16a: whatever file is given as the public key, or as the private one, the verdict
    is never reached with it: exit 2, one line naming the file and what it holds."""
    expected = _hostile_files(tmp_path)
    refuse_to_open(tmp_path / UNREADABLE)
    head_file = tmp_path / "head.json"
    write_head(Head(0, chain.GENESIS_HASH, 0.0), head_file)
    database = f"sqlite:///{tmp_path / 'never-read.sqlite'}"
    verify = ("verify", "--database", database, "--head", str(head_file))
    for name, (as_public, as_private) in expected.items():
        path = tmp_path / name
        if as_public:
            _assert_refused(audit_cli(*verify, "--public-key", str(path)), path, as_public)
        if not as_private:
            continue
        _assert_refused(audit_cli(*verify, "--audit-key", str(path)), path, as_private)
        if name == "missing":
            continue  # `head` makes the key there; `public-key` says none is there (below)
        _assert_refused(audit_cli("public-key", "--audit-key", str(path)), path, as_private)
        out = tmp_path / "head-out.json"
        exported = audit_cli(
            "head", "--database", database, "--out", str(out), "--audit-key", str(path)
        )
        _assert_refused(exported, path, as_private)
        assert not out.exists()
    missing = tmp_path / "missing"
    _assert_refused(audit_cli("public-key", "--audit-key", str(missing)), missing, "no audit key")
    assert not (tmp_path / "never-read.sqlite").exists()  # refused before the database


def test_r15_a_huge_key_file_is_refused_by_its_size_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 50 MB file given as a key is refused by its size: it is never opened, let alone read
    whole into memory."""
    huge = tmp_path / "huge.pem"
    with huge.open("wb") as file:
        file.truncate(HUGE_BYTES)
    assert HUGE_BYTES > MAX_KEY_FILE_BYTES
    opened: list[Path] = []
    real_open = Path.open

    def recording_open(self: Path, *args: object, **kwargs: object) -> object:
        opened.append(self)
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", recording_open)
    done = audit_cli("public-key", "--audit-key", str(huge))
    _assert_refused(done, huge, f"is {HUGE_BYTES:,} bytes")
    assert huge not in opened


def test_r15_a_diffie_hellman_key_is_refused_without_a_deprecation_warning(
    tmp_path: Path,
) -> None:
    """``cryptography`` warns that finite-field Diffie-Hellman is deprecated when it loads
    such a key: that warning would be a second and third line on stderr beside the refusal."""
    from cryptography.hazmat.primitives.asymmetric import dh

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CryptographyDeprecationWarning)
        private = dh.generate_parameters(generator=2, key_size=512).generate_private_key()
    public_file, private_file = tmp_path / "dh.pub", tmp_path / "dh.key"
    public_file.write_bytes(_public_pem(private))
    private_file.write_bytes(_private_pem(private))
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        done = audit_cli("public-key", "--audit-key", str(private_file))
        _assert_refused(done, private_file, "it holds a key of another kind")
        head_file = tmp_path / "head.json"
        write_head(Head(0, chain.GENESIS_HASH, 0.0), head_file)
        done = audit_cli(
            "verify", "--database", "sqlite://", "--head", str(head_file),
            "--public-key", str(public_file),
        )  # fmt: skip
        _assert_refused(done, public_file, "it holds a key of another kind")
    assert [str(warning.message) for warning in warned] == []
