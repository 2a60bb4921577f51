"""Players, the operator, and sessions (R16).

A wrong user name, a wrong password and a locked account get the same answer, after the same
work (a hash is verified every time), so that sign-in never tells a real account from an
unknown one (issue 10, item 5). Failures are counted per account and client address: three
failed sign-ins for one account from one address within 30 minutes lock that account, for
that address only, for 30 minutes. An attacker's guesses lock the attacker out; the owner
signing in from another address is never stopped by them. A session is a fresh random bearer
token (only its SHA-256 is stored) that ends after 30 minutes without a request; the
operator's token does not idle out.
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import threading
import unicodedata
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, TypedDict, cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Table, bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.ledger import book
from croupier.service.errors import AuthenticationError, Conflict, RequestError
from croupier.service.models import Session as SessionRecord
from croupier.service.models import User

LOCK_AFTER_FAILURES = 3
FAILURE_WINDOW_SECONDS = 30 * 60
LOCK_SECONDS = 30 * 60
IDLE_SECONDS = 30 * 60
TOUCH_EVERY_SECONDS = 15.0
"""A session's last-seen time is written at most this often (fewer writes under load)."""

USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")
"""A user name, whole (``fullmatch``: ``$`` would let a trailing newline through)."""
OPERATOR_NAME = "operator"
ROLE_NAMES = frozenset({"operator", "dealer", "inspector", "admin", "administrator", "root"})
"""Names a player may not take, nor any name that reads as one (``reads_as_staff``): they
read as a role of the house (issue 10; issue 25, item 6)."""

LOOKALIKES = str.maketrans(
    {
        # Cyrillic letters drawn as Latin ones (Unicode TR39's confusables, those letters)
        "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j",
        "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s",
        "т": "t", "у": "y", "х": "x", "ԝ": "w", "ь": "b", "г": "r", "п": "n",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "μ": "u", "γ": "y",
        # Latin letters without their marks, and the dotless i
        "ı": "i", "ł": "l", "ø": "o", "đ": "d",
    }
)  # fmt: skip
"""Letters of other scripts folded to the Latin letter they are drawn as (after NFKC and
casefolding, which already fold full-width, mathematical and small-capital forms)."""

DIGIT_LETTERS = (("0", "o"), ("3", "e"), ("4", "a"), ("5", "s"), ("7", "t"), ("8", "b"), ("9", "g"))
"""Digits read as the letters they are drawn as (``1`` is read both as ``l`` and as ``i``)."""
SEPARATORS = re.compile(r"[\W_]+")
"""Anything that is not a letter or a digit: ``op.erator``, ``dealer_``, ``admin.``."""


def name_forms(username: str) -> set[str]:
    """What ``username`` reads as, by look: NFKC, casefolded, other scripts' look-alikes
    folded, separators removed; then its digits read as the letters they mimic (``0perator``;
    ``1`` as ``l`` and as ``i``), or dropped (``inspector1``).

    >>> sorted(name_forms("0p.Erator_1"))
    ['operatori', 'operatorl', 'perator']
    """
    folded = SEPARATORS.sub("", unicodedata.normalize("NFKC", username).casefold())
    folded = folded.translate(LOOKALIKES)
    forms = {"".join(c for c in folded if not c.isdigit())}
    for one in ("l", "i"):
        mapped = folded.replace("1", one)
        for digit, letter in DIGIT_LETTERS:
            mapped = mapped.replace(digit, letter)
        forms.add(mapped)
    return forms


def reads_as_staff(username: str) -> bool:
    """``True`` when ``username`` reads as a role of the house (``ROLE_NAMES``), by look.

    >>> [reads_as_staff(n) for n in ("0perator", "op.erator", "inspector1", "\u043eperator")]
    [True, True, True, True]
    >>> reads_as_staff("dealerbob"), reads_as_staff("rootbeer"), reads_as_staff("ann")
    (False, False, False)
    """
    return not name_forms(username).isdisjoint(ROLE_NAMES)


MAX_FAILURE_RECORDS = 200
"""Failures and locks kept per account (the oldest go first): a bound on the row's size."""


class Argon2Cost(TypedDict):
    time_cost: int
    memory_cost: int  # KiB
    parallelism: int


PASSWORD_COST = Argon2Cost(time_cost=2, memory_cost=19 * 1024, parallelism=1)
"""Argon2id's cost for a password: OWASP's recommended minimum (19 MiB, two passes, one
lane), 25-39 ms a hash on the project's 2-core machines. Pinned by
``tests/server/test_hardening_edge_sign_in.py::test_passwords_are_stored_as_argon2id_at_owasps_cost``."""

_hasher = PasswordHasher(**PASSWORD_COST)
_DUMMY_HASH = _hasher.hash("not a password anyone has")


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a player or the operator."""

    user_id: int
    username: str
    role: str

    @property
    def is_operator(self) -> bool:
        return self.role == "operator"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def usernames(session: Session, ids: set[int]) -> dict[int, str]:
    """Each of ``ids`` (user ids) by its account's name, in one query."""
    if not ids:
        return {}
    return dict(session.execute(select(User.id, User.username).where(User.id.in_(ids))).all())


def wallet_of(session: Session, user_id: int) -> int:
    return book.open_account(session, *book.wallet(user_id))


def sign_up(session: Session, username: object, password: object, now: float) -> Principal:
    # The name that reads as staff is refused first: the alphabet rule below would refuse
    # ``оperator`` (a Cyrillic о) too, but as a bad name rather than for what it reads as.
    if isinstance(username, str) and reads_as_staff(username):
        raise RequestError(
            f"username {username!r} reads as a role of the house; choose another",
            code="username_reserved",
            username=username,
        )
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise RequestError(
            f"username {username!r}: 3 to 32 letters, digits, '_', '.' or '-'",
            code="bad_username",
        )
    if not isinstance(password, str) or not 8 <= len(password) <= 256:
        raise RequestError("password: 8 to 256 characters", code="bad_password")
    user = User(
        username=username,
        password_hash=_hasher.hash(password),
        role="player",
        failure_times=[],
        created_at=now,
    )
    try:
        with session.begin_nested():
            session.add(user)
            session.flush()
    except IntegrityError:
        raise Conflict(
            f"username {username!r} is taken", code="username_taken", username=username
        ) from None
    wallet_of(session, user.id)
    return Principal(user.id, user.username, user.role)


def _new_session(session: Session, user_id: int, now: float) -> str:
    token = secrets.token_urlsafe(32)
    session.add(
        SessionRecord(
            token_hash=token_hash(token), user_id=user_id, created_at=now, last_seen_at=now
        )
    )
    return token


def _failures(user: User, now: float) -> list[dict[str, Any]]:
    """The account's live failure and lock records, each ``{"from": address, "at": time}``
    or ``{"from": address, "until": time}`` (a plain number is a record of before item 5)."""
    live = []
    for entry in user.failure_times:
        record: dict[str, Any] = (
            entry if isinstance(entry, dict) else {"from": "", "at": float(entry)}
        )
        locks = "until" in record and now < float(record["until"])
        counts = "at" in record and now - float(record["at"]) < FAILURE_WINDOW_SECONDS
        if locks or counts:
            live.append(record)
    return live[-MAX_FAILURE_RECORDS:]


def is_locked_for(user: User, address: str, now: float) -> bool:
    """Whether sign-ins to ``user`` from ``address`` are locked out (R16, per address)."""
    return any(r["from"] == address and "until" in r for r in _failures(user, now))


def sign_in(
    session: Session, username: object, password: object, now: float, address: str = ""
) -> tuple[str, Principal] | CroupierError:
    """A fresh session token, or one error for any wrong name, wrong password or lock (R16).

    The error is returned, not raised, so that the failure count it records is committed.
    """
    wrong = AuthenticationError("wrong user name or password", code="wrong_credentials")
    if not isinstance(username, str) or not isinstance(password, str):
        return wrong
    if not USERNAME.fullmatch(username):
        # No account has a name sign-up refuses; and such a name may hold what the database
        # cannot even compare (PostgreSQL refuses a NUL byte in a text parameter: a 500).
        return wrong
    user = session.scalar(select(User).where(User.username == username).with_for_update())
    if user is None or user.role != "player" or is_locked_for(user, address, now):
        with suppress(VerificationError, InvalidHashError):
            _hasher.verify(_DUMMY_HASH, password)  # the same work as a real check (R16)
        return wrong
    records = _failures(user, now)
    try:
        _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        records.append({"from": address, "at": now})
        mine = [r for r in records if r["from"] == address and "at" in r]
        if len(mine) >= LOCK_AFTER_FAILURES:
            records = [r for r in records if r["from"] != address]
            records.append({"from": address, "until": now + LOCK_SECONDS})
        user.failure_times = records[-MAX_FAILURE_RECORDS:]
        return wrong
    # The owner's success clears this address's failures only: another address's lock stays.
    user.failure_times = [r for r in records if r["from"] != address]
    user.locked_until = None
    return _new_session(session, user.id, now), Principal(user.id, user.username, user.role)


SESSIONS = cast(Table, SessionRecord.__table__)
USERS = cast(Table, User.__table__)
CALLER = (
    select(SESSIONS.c.ended, SESSIONS.c.last_seen_at, USERS.c.id, USERS.c.username, USERS.c.role)
    .join(USERS, USERS.c.id == SESSIONS.c.user_id)
    .where(SESSIONS.c.token_hash == bindparam("token_hash"))
)
"""The caller of a token's hash, built once: every request reads it (and every open
WebSocket, at each of its session checks: ``last_seen``), and building the statement cost
more than running it (issue 28, item 8)."""
ENDED = update(SESSIONS).where(SESSIONS.c.token_hash == bindparam("hashed")).values(ended=True)
"""A session idled out (bound by ``hashed``: an ``UPDATE`` keeps its columns' names)."""
SEEN = (
    update(SESSIONS)
    .where(SESSIONS.c.token_hash == bindparam("hashed"))
    .values(last_seen_at=bindparam("now"))
)
"""A session's activity noted."""


def identify(
    connection: Connection, token: str | None, now: float
) -> tuple[Principal, float] | None:
    """The caller of ``token`` and the session's last noted activity, from one read; or
    ``None`` when authenticating it must write (the session idled out, or its activity is due
    to be noted): then ``authenticate``.

    Most requests come here only: one Core statement, no ORM objects, no write (R16).
    """
    if not token:
        raise AuthenticationError("sign in first: no bearer token")
    row = connection.execute(CALLER, {"token_hash": token_hash(token)}).first()
    if row is None or row.ended:
        raise AuthenticationError("unknown or ended session: sign in again")
    if now - row.last_seen_at > TOUCH_EVERY_SECONDS:
        return None
    return Principal(row.id, row.username, row.role), float(row.last_seen_at)


class KnownCallers:
    """The callers read lately, by session (token hash): a request within
    ``TOUCH_EVERY_SECONDS`` of its session's noted activity is answered from here rather than
    from the database (issue 28, item 8): ``identify`` would answer the same, since nothing
    but a sign-out ends a session that recent, and a sign-out through this process forgets it
    (``forget``) before it answers.

    Only where this process is the database's one server (``enabled``: SQLite, whose tables
    one process claims, ``service.claim``). Where several processes share the database
    (PostgreSQL), a sign-out through another must refuse the next request here at once, so
    every request reads its session.
    """

    MOST = 100_000
    """Sessions kept at most; past it, those whose time is up are dropped."""

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        self._lock = threading.Lock()
        self._known: dict[str, tuple[Principal, float]] = {}
        self._forgotten = 0
        """How many sign-outs this process has seen: a read that began before one ended is
        not kept (it may have found the session before the sign-out committed)."""

    def known(self, token: str, now: float) -> Principal | None:
        if not self.enabled:
            return None
        found = self._known.get(token_hash(token))
        if found is None or now - found[1] > TOUCH_EVERY_SECONDS:
            return None
        return found[0]

    def generation(self) -> int:
        """Read before a session is read from the database; given back to ``keep``."""
        return self._forgotten

    def keep(self, token: str, found: tuple[Principal, float], generation: int, now: float) -> None:
        """Keep what ``identify`` found, unless a session was forgotten since ``generation``."""
        if not self.enabled:
            return
        with self._lock:
            if generation != self._forgotten:
                return
            if len(self._known) >= self.MOST:
                self._known = {
                    key: value
                    for key, value in self._known.items()
                    if now - value[1] <= TOUCH_EVERY_SECONDS
                }
            self._known[token_hash(token)] = found

    def forget(self, token: str) -> None:
        """The session of ``token`` has ended (call once its end has committed)."""
        with self._lock:
            self._forgotten += 1
            self._known.pop(token_hash(token), None)


def authenticate(session: Session, token: str | None, now: float) -> Principal:
    """The caller of a bearer token; an unknown, ended or idle session is refused (R16).

    Core statements, no ORM objects: on PostgreSQL every request reads its session, and each
    session's activity is noted every ``TOUCH_EVERY_SECONDS``, so a player's request comes
    here every 15 s (issue 28, item 8)."""
    if not token:
        raise AuthenticationError("sign in first: no bearer token")
    hashed = token_hash(token)
    connection = session.connection()
    row = connection.execute(CALLER, {"token_hash": hashed}).first()
    if row is None or row.ended:
        raise AuthenticationError("unknown or ended session: sign in again")
    if row.role != "operator" and now - row.last_seen_at > IDLE_SECONDS:
        connection.execute(ENDED, {"hashed": hashed})
        raise AuthenticationError(
            "session ended after 30 minutes idle: sign in again", code="session_idle"
        )
    if now - row.last_seen_at > TOUCH_EVERY_SECONDS:
        connection.execute(SEEN, {"hashed": hashed, "now": now})
    return Principal(row.id, row.username, row.role)


def last_seen(session: Session, token: str | None) -> float | None:
    """When ``token``'s session was last used (``inf`` for the operator, who does not idle
    out), or ``None`` when it is unknown or ended; read without a write. An open WebSocket
    asks this: watching a table is not activity that keeps a session alive (R16)."""
    if not token:
        return None
    row = session.connection().execute(CALLER, {"token_hash": token_hash(token)}).first()
    if row is None or row.ended:
        return None
    return math.inf if row.role == "operator" else float(row.last_seen_at)


def sign_out(session: Session, token: str) -> None:
    session.execute(
        update(SessionRecord)
        .where(SessionRecord.token_hash == token_hash(token))
        .values(ended=True)
    )


def ensure_operator(session: Session, token: str | None, now: float) -> str | None:
    """Create the operator on first start; returns a token to print when one was made or given."""
    operator = session.scalar(select(User).where(User.username == OPERATOR_NAME))
    if operator is None:
        operator = User(
            username=OPERATOR_NAME,
            password_hash=_hasher.hash(secrets.token_urlsafe(32)),
            role="operator",
            failure_times=[],
            created_at=now,
        )
        session.add(operator)
        session.flush()
        token = token or secrets.token_urlsafe(32)
    if token is None:
        return None
    if session.get(SessionRecord, token_hash(token)) is None:
        session.add(
            SessionRecord(
                token_hash=token_hash(token), user_id=operator.id, created_at=now, last_seen_at=now
            )
        )
    return token
