"""A split pair's exact value, re-splits to four hands, on a shoe small enough that every
card of the other hands matters: Eric Farmer's published figures (docs/rules.md §3, splits).

Source: Eric Farmer, post in the blackjackinfo.com thread "Software update with new split
EVs", page 5 (https://blackjackinfo.com/community/threads/software-update-with-new-split-evs.22710/page-5),
the console output of his "Blackjack Basic Strategy Calculator version 6.3" for the shoe
``0 4 4 2 0 0 2 0 0 7`` (no Ace, four 2s, four 3s, two 4s, two 7s, seven ten-valued cards),
dealer stands on soft 17, double on any two cards including soft ones and after a split,
re-splitting to four hands (no re-split of Aces), CDZ- post-split play, no surrender,
blackjack 3:2; dealer 7 up, player 2-2: stand -61.639194139%, hit -13.266733267%, double
-123.278388278%, split -76.210220335% (printed to 9 decimals of a percent).
"""

from __future__ import annotations

import numpy as np
import pytest

from croupier.analysis import blackjack_exact as exact

SHOE = np.array([0, 4, 4, 2, 0, 0, 2, 0, 0, 7], dtype=np.int64)
SEVEN, TWO = 6, 1
PUBLISHED = {"stand": -61.639194139, "hit": -13.266733267, "double": -123.278388278}
PUBLISHED_SPLIT = -76.210220335


@pytest.mark.parametrize("peek", [True, False])
def test_two_two_against_seven_is_farmers_published_figure(peek: bool) -> None:
    """Against a 7 the dealer cannot have blackjack, so peeking or not changes nothing."""
    rules = exact.Rules(
        decks=1, hits_soft_17=False, peek=peek, all_bets_lost=False, blackjack_pays=1.5,
        double_any_two=True, double_after_split=True, max_hands=4, resplit_aces=False,
        ace_ten_is_blackjack=False, sevens_pays=0.0,
    )  # fmt: skip
    card = exact.UpCard(rules, SEVEN, SHOE)
    values = card.optimal()
    hand = card.table.of(TWO, TWO)
    for row, name in enumerate(("stand", "hit", "double")):
        assert abs(values[row, hand] * 100 - PUBLISHED[name]) <= 0.5e-9, name
    _, split_play = exact.composition_play(rules, values)
    value, _ = card.split_value(TWO, split_play)
    assert abs(value * 100 - PUBLISHED_SPLIT) <= 0.5e-9
