"""The one tree of errors croupier raises.

Every error a user can cause is a ``CroupierError``; leaves that are bad values are also
``ValueError``s. Messages name the offending value. The HTTP and CLI edges map these to
status codes and exit codes in one place each.

Each error also carries a stable ``code`` and its ``params`` (issue 13, item 6): the pages
render the message from their language's catalogue (``error.<code>`` in ``web/i18n``), so
the English text may change and a person still reads their own language. A class has its
own code, said of any error of that kind; a raise site that knows more names a finer one:

>>> error = BetError("seat 3 main: 20000 is outside the limits 1 to 10000",
...     code="bet_outside_limits", seat=3, wager="main", amount=20000, minimum=1, maximum=10000)
>>> error.code, error.params["maximum"], str(error)
('bet_outside_limits', 10000, 'seat 3 main: 20000 is outside the limits 1 to 10000')
>>> NotationError("no card 'Xx'").code
'notation'
"""

from __future__ import annotations

Param = str | int
"""A message parameter: a number (an amount, a seat) or a name (a wager, a game)."""


class CroupierError(Exception):
    """Base of every error croupier raises on purpose."""

    code = "error"
    """The message's key in the catalogues (``error.<code>``); a finer one per raise site."""

    def __init__(self, message: str = "", /, *, code: str | None = None, **params: Param) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, Param] = params


class NotationError(CroupierError, ValueError):
    """A card, shoe or action written in a notation croupier does not read."""

    code = "notation"


class ProfileError(CroupierError, ValueError):
    """A rule profile that is unknown, malformed or impossible."""

    code = "profile"


class AmountError(CroupierError, ValueError):
    """An amount that is negative, fractional, not a number or outside the limits."""

    code = "amount"


class BetError(CroupierError, ValueError):
    """A bet the rules refuse: outside the table limits, a forbidden combination, a bad seat."""

    code = "bet_refused"


class IllegalActionError(CroupierError, ValueError):
    """An action the round does not allow now: out of turn, wrong phase, or not legal."""

    code = "not_allowed_now"


class ShoeError(CroupierError, ValueError):
    """A shoe that is impossible (too many copies of a card) or has run out."""

    code = "shoe"


class CardRefused(ShoeError):  # noqa: N818 - the dealer's own word
    """A card a physical shoe cannot hold any more: its decks have no copy of it left."""

    code = "card_refused"


class CardNeeded(CroupierError):  # noqa: N818 - a stop, not a fault
    """A round dealt from a physical shoe needs a card it has not been given yet: the
    command stopped at the draw, and the dealer's next card goes where this says."""

    code = "card_needed"

    def __init__(
        self, purpose: str | None = None, seat: int | None = None, hand: int | None = None
    ):
        where = purpose or "the next card"
        if seat is not None:
            where += f", box {seat}" + ("" if hand is None else f", hand {hand}")
        super().__init__(f"a card is needed: {where}", code="card_needed")
        self.where = where
        """Where the card goes, in words: ``player, box 1, hand 0``, ``dealer``."""
        self.purpose = purpose
        self.seat = seat
        self.hand = hand

    def to_json(self) -> dict[str, object]:
        return {"purpose": self.purpose, "seat": self.seat, "hand": self.hand}


class SettleInputError(CroupierError, ValueError):
    """A round description for ``croupier settle`` that cannot be settled."""

    code = "settle_input"


class ReplayError(CroupierError, ValueError):
    """A recorded round that the engine does not reproduce: the record or the engine is wrong."""

    code = "replay"


class InsufficientFunds(CroupierError):  # noqa: N818 - the domain's own word
    """A wallet that does not cover the amount asked of it."""

    code = "insufficient_funds"


class LedgerError(CroupierError):
    """A posting that would break double entry or conservation."""

    code = "ledger"
