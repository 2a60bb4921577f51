"""Counting systems as data (``croupier.counting``): the shipped tags as published, and a bad
file refused with a typed error naming what is wrong."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from croupier.counting import counting_system, counting_systems, load_counting_systems
from croupier.errors import ProfileError


def test_the_shipped_systems_and_their_balance() -> None:
    """Every system the simulator issue names; all balanced but KO (+4 a deck: 2-7 count +1,
    Vancura and Fuchs, Knock-Out Blackjack)."""
    systems = counting_systems()
    assert set(systems) == {"hi-lo", "ko", "hi-opt-ii", "omega-ii", "zen", "wong-halves"}
    assert {name: s.deck_sum for name, s in systems.items()} == {
        "hi-lo": 0,
        "ko": 4,
        "hi-opt-ii": 0,
        "omega-ii": 0,
        "zen": 0,
        "wong-halves": 0,
    }
    assert [counting_system("omega-ii").tag(r) for r in "A23456789TJQK"] == [
        0, 1, 1, 2, 2, 2, 1, 0, -1, -2, -2, -2, -2
    ]  # fmt: skip
    assert counting_system("wong-halves").tag("5") == Fraction(3, 2)
    assert all(system.source for system in systems.values())


def test_true_count_removes_an_unbalanced_drift() -> None:
    """KO after one full deck seen of a 6-deck shoe: the running count is +4 by construction,
    its true count 0; Hi-Lo's true count is the running count per deck left."""
    ko = counting_system("ko")
    assert ko.true_count(Fraction(4), cards_seen=52, cards_unseen=260) == 0
    hi_lo = counting_system("hi-lo")
    assert hi_lo.true_count(Fraction(10), cards_seen=52, cards_unseen=260) == 2


def test_a_bad_systems_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "systems.toml"
    path.write_text(
        '[broken]\ntitle = "Broken"\nsource = "nowhere"\n'
        "tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0 }\n",
        encoding="utf-8",
    )
    with pytest.raises(ProfileError, match=r"systems.toml \[broken\].tags"):
        load_counting_systems(path)
    with pytest.raises(ProfileError, match="no counting system 'red-seven'"):
        counting_system("red-seven")
