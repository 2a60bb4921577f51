"""The kernel's one-box path (``play_one_box``, taken for one box without a count) deals the
game of its general path (``play_block``'s loop over boxes) on the same seed: the same shoes,
the same nets on every wager, the same totals and squares. The general path is run by a
count whose tags are all zero (a running count that never moves, a flat one-unit bet, no
index play), which changes nothing in the game but takes ``play_block``'s own loop. Both
paths are also replayed against the engine, card for card
(tests/consistency/test_simulator_blackjack_matches_engine.py); this check covers many more
rounds (splits, re-splits and exhausted shoes included) in a second."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from croupier.rules import BlackjackRules, load_profile
from croupier.simulation import blackjack_kernel as kernel
from croupier.simulation import blackjack_sim
from croupier.simulation.blackjack_sim import BlackjackStrategy, simulate_blackjack

PROFILES = ("peru-2016", "spain-1979", "veintiuno-real")


def _figures(tally: blackjack_sim.BlackjackTally) -> tuple[Any, ...]:
    return (
        tally.rounds,
        tally.hands,
        tally.shoes,
        tally.exhausted,
        tally.total_net,
        tally.total_net_squared,
        tally.net.tolist(),
        tally.net_squared.tolist(),
        tally.hits.tolist(),
        tally.played.tolist(),
    )


@pytest.mark.parametrize("name", PROFILES)
def test_one_box_path_deals_the_general_path_game(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    profile = load_profile(name)
    assert isinstance(profile, BlackjackRules)
    strategy = BlackjackStrategy.basic(profile)
    rounds = 300_000
    fast = simulate_blackjack(profile, rounds, np.random.SeedSequence(4), 1, strategy, None)
    original = blackjack_sim.parameters

    def counted(*args: Any, **kwargs: Any) -> Any:
        p = original(*args, **kwargs)
        p[kernel.P_COUNTING] = 1  # tags stay zero (no system given): the count never moves
        p[kernel.P_BALANCED] = 1
        p[kernel.P_TAG_SCALE] = 1
        return p

    monkeypatch.setattr(blackjack_sim, "parameters", counted)
    general = simulate_blackjack(profile, rounds, np.random.SeedSequence(4), 1, strategy, None)
    assert fast.played[0] == rounds
    assert _figures(fast) == _figures(general)
