"""The pace of the live felt, in one place for the server's clock and the page's drawing.

The table page turns up the cards a command dealt one after another, a beat apart, as a
dealer deals them (``web/static/js/pace.js`` reads these numbers from the page, which the
server renders from here): a deal of many boxes goes faster rather than longer. A decision
asks about cards the player must see, so its deadline allows for their drawing first: the
clock the page shows starts when they are on the felt (issue 26, item 2).

>>> drawing_seconds(1)
0.0
>>> drawing_seconds(4)
1.35
>>> drawing_seconds(15) <= DEAL_LONGEST_SECONDS
True
"""

from __future__ import annotations

DEAL_BEAT_SECONDS = 0.45
"""Between two cards turned up on the felt: long enough to read each one."""

DEAL_LONGEST_SECONDS = 3.2
"""The most a deal's drawing takes: the beat shortens for a deal of many cards."""

RECONNECT_SECONDS = 1.0
"""The longest a table page waits between two tries to reach a server it lost (a restart):
a resumed decision's clock allows for it, so the player gets the decision's whole time."""


def beat_seconds(cards: int) -> float:
    """The beat between the ``cards`` one command dealt, as the page draws them."""
    return min(DEAL_BEAT_SECONDS, DEAL_LONGEST_SECONDS / max(1, cards))


def drawing_seconds(cards: int) -> float:
    """From the first of ``cards`` turned up to the last: the first shows at once."""
    return round(beat_seconds(cards) * max(0, cards - 1), 6)
