"""The one tree of errors croupier raises.

Every error a user can cause is a ``CroupierError``; leaves that are bad values are also
``ValueError``s. Messages name the offending value. The HTTP and CLI edges map these to
status codes and exit codes in one place each.
"""

from __future__ import annotations


class CroupierError(Exception):
    """Base of every error croupier raises on purpose."""


class NotationError(CroupierError, ValueError):
    """A card, shoe or action written in a notation croupier does not read."""


class ProfileError(CroupierError, ValueError):
    """A rule profile that is unknown, malformed or impossible."""


class AmountError(CroupierError, ValueError):
    """An amount that is negative, fractional, not a number or outside the limits."""


class BetError(CroupierError, ValueError):
    """A bet the rules refuse: outside the table limits, a forbidden combination, a bad seat."""


class IllegalActionError(CroupierError, ValueError):
    """An action the round does not allow now: out of turn, wrong phase, or not legal."""


class ShoeError(CroupierError, ValueError):
    """A shoe that is impossible (too many copies of a card) or has run out."""


class SettleInputError(CroupierError, ValueError):
    """A round description for ``croupier settle`` that cannot be settled."""


class ReplayError(CroupierError, ValueError):
    """A recorded round that the engine does not reproduce: the record or the engine is wrong."""


class InsufficientFunds(CroupierError):  # noqa: N818 - the domain's own word
    """A wallet that does not cover the amount asked of it."""


class LedgerError(CroupierError):
    """A posting that would break double entry or conservation."""
