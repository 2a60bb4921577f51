"""The callers a server keeps between requests (issue 28, item 8): nothing kept outlives a
sign-out, nor the time after which a session's activity must be written (R16)."""

from __future__ import annotations

from croupier.service.accounts import TOUCH_EVERY_SECONDS, KnownCallers, Principal

ALICE = Principal(7, "alice", "player")


def test_a_session_read_is_known_until_its_activity_is_due_to_be_noted() -> None:
    callers = KnownCallers(enabled=True)
    callers.keep("token-a", (ALICE, 100.0), callers.generation(), now=100.0)
    assert callers.known("token-a", 100.0 + TOUCH_EVERY_SECONDS) == ALICE
    assert callers.known("token-a", 100.0 + TOUCH_EVERY_SECONDS + 0.001) is None
    assert callers.known("token-b", 100.0) is None


def test_a_read_that_began_before_a_sign_out_is_not_kept() -> None:
    # The read may have found the session before the sign-out committed.
    callers = KnownCallers(enabled=True)
    began = callers.generation()
    callers.forget("token-a")
    callers.keep("token-a", (ALICE, 100.0), began, now=100.0)
    assert callers.known("token-a", 100.0) is None


def test_signing_out_forgets_the_session() -> None:
    callers = KnownCallers(enabled=True)
    callers.keep("token-a", (ALICE, 100.0), callers.generation(), now=100.0)
    callers.forget("token-a")
    assert callers.known("token-a", 100.0) is None


def test_where_processes_share_the_database_nothing_is_kept() -> None:
    callers = KnownCallers(enabled=False)
    callers.keep("token-a", (ALICE, 100.0), callers.generation(), now=100.0)
    assert callers.known("token-a", 100.0) is None
