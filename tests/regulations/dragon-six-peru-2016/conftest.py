"""Fixtures for the Dragon Six Baccarat Plus (Peru 2016) regulation tests: the shipped
profile and rounds dealt from stacked shoes."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from croupier.games.baccarat import BaccaratRound
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe

PlayRound = Callable[..., BaccaratRound]


@pytest.fixture(scope="session")
def profile() -> BaccaratRules:
    loaded = load_profile_of("baccarat", "dragon-six-peru-2016")
    assert isinstance(loaded, BaccaratRules)
    return loaded


@pytest.fixture
def play(profile: BaccaratRules) -> PlayRound:
    """Deal one whole round from ``shoe`` (cards in dealing order) with ``bets`` on zone 1
    (or ``{zone: {wager: amount}}`` when ``zones`` is given)."""

    def play_round(
        shoe: str,
        bets: Mapping[str, int] | None = None,
        zones: Mapping[int, Mapping[str, int]] | None = None,
    ) -> BaccaratRound:
        coup = BaccaratRound(profile, Shoe.parse(shoe, decks=profile.decks))
        for zone, zone_bets in (zones or {1: bets or {}}).items():
            for wager, amount in zone_bets.items():
                coup.place_bet(zone, wager, amount)
        coup.deal()
        return coup

    return play_round
