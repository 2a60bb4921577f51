"""Who is acting, for the audit chain's entries: set where the caller is known (the server's
request dependency), read when a transaction's entries are appended. Anything done outside a
request (deadlines, start-up, recovery) is the ``system``'s.

>>> current()
'system'
>>> with acting_as("operator:operator"):
...     current()
'operator:operator'
>>> current()
'system'
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

SYSTEM = "system"

_actor: ContextVar[str] = ContextVar("croupier_audit_actor", default=SYSTEM)


def current() -> str:
    """The actor of what this context does now."""
    return _actor.get()


def set_actor(actor: str) -> None:
    """Name the actor for the rest of this context (a request: its task and the threads it
    hands work to, which copy the context)."""
    _actor.set(actor)


@contextmanager
def acting_as(actor: str) -> Iterator[None]:
    """Name the actor for the block only."""
    token = _actor.set(actor)
    try:
        yield
    finally:
        _actor.reset(token)
