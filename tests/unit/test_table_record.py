"""The common table record (issue 11, item 5) and the common view (item 4), for every game.

A consumer reads a table's shape from ``profile.table`` whatever the game, and a round's
state from ``view(seat)["round"]`` in one shape: no probing of per-game field names."""

from __future__ import annotations

import pytest

from croupier.games import game_module
from croupier.games.base import random_round
from croupier.randomness import SeededRandomSource
from croupier.rules import load_profile, shipped_profile_names
from croupier.rules.base import Burn
from croupier.shoe import Shoe

VIEW_KEYS = {
    "game", "rules", "phase", "viewer", "seats", "pending", "legal_actions", "results", "done",
}  # fmt: skip


@pytest.mark.parametrize("name", shipped_profile_names())
def test_every_profile_describes_its_table_in_the_same_fields(name: str) -> None:
    profile = load_profile(name)
    table = profile.table
    assert table.decks == profile.decks  # type: ignore[attr-defined]
    assert table.seats == (getattr(profile, "boxes", None) or getattr(profile, "zones", None))
    assert 1 <= table.seats_per_player <= table.seats and 1 <= table.min_players <= table.seats
    assert table.wagers and all(1 <= w.minimum <= w.maximum for w in table.wagers.values())
    assert table.is_one_round_per_shoe == (profile.game == "casino-holdem")
    assert (table.burn is Burn.FIXED) == (table.burn_cards > 0)


def test_the_records_say_what_each_regulation_says() -> None:
    spain, dragon, holdem = (load_profile(n).table for n in ("spain-1979", "dragon-six-peru-2016", "casino-holdem-peru-2007"))  # fmt: skip
    assert (spain.burn, spain.burn_cards, spain.back_betting) == (Burn.FIXED, 5, True)  # Art. 03
    assert dragon.burn is Burn.BY_FIRST_CARD_VALUE  # Art. 6 d)
    assert holdem.min_players == 2  # Art. 9: "cuando menos dos jugadores"
    assert (holdem.wagers["progressive"].minimum, holdem.wagers["progressive"].maximum) == (1, 1)


@pytest.mark.parametrize("name", shipped_profile_names())
def test_every_game_views_a_round_in_the_same_shape_at_every_step(name: str) -> None:
    profile = load_profile(name)
    source = SeededRandomSource(f"shape {name}".encode())
    game = random_round(profile, Shoe.shuffled(profile.decks, source), source)
    view = game.view(1)
    assert set(view) >= VIEW_KEYS and view["done"] and view["viewer"] == 1
    assert ("dealer" in view) != ("banker" in view and "player" in view)
    for seat in view["seats"]:
        assert set(seat) == {"seat", "bets", "hands", "results"}
        for hand in seat["hands"]:
            assert {"hand", "cards", "total", "bet", "result", "payout"} <= set(hand)


def test_a_round_class_says_which_constructor_options_it_takes() -> None:
    """What the live table probed with ``inspect.signature``, as two flags of the class."""
    import inspect

    from croupier.games.base import ROUND_CLASSES

    for game in ("blackjack", "baccarat", "casino-holdem"):
        game_module(game)
        cls = ROUND_CLASSES[game]
        parameters = inspect.signature(cls).parameters
        assert cls.takes_new_shoe == ("new_shoe" in parameters)
        assert cls.takes_meter == ("meter" in parameters)
