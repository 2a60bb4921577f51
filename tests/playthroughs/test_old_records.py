"""Records written by the release before the operation records still replay (issue 11, item 3).

The server's database holds rounds whose decisions are ``Decided`` events, each double, split,
insurance and Casino Hold'em call followed by a ``BetPlaced`` of the stake it added. The
files in ``old-records/`` are the golden playthroughs' event lists exactly as that release
wrote them; ``replay`` must rebuild each round from them, end where they end, and tell in
today's operation records exactly what each old pair of events meant.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.errors import ReplayError
from croupier.games.events import (
    BetPlaced,
    Called,
    Decided,
    Doubled,
    EvenMoneyTaken,
    Event,
    Folded,
    Hit,
    InsuranceDeclined,
    InsuranceTaken,
    Split,
    upgrade,
)
from croupier.games.replay import replay
from round_support import upgrade_json

HERE = Path(__file__).parent
OLD = HERE / "old-records"


def _old(name: str) -> list[Event]:
    return [Event.from_json(item) for item in json.loads((OLD / f"{name}.events.json").read_text())]


def _golden_events(name: str) -> list[dict[str, object]]:
    if name.startswith("casino-holdem"):
        return list(json.loads((HERE / f"{name}.output.json").read_text())["events"])
    return list(json.loads((HERE / "blackjack" / f"{name}.json").read_text())["settled"]["events"])


NAMES = [
    "peru-2016",
    "spain-1979",
    "veintiuno-real",
    "casino-holdem-peru-2007",
    "casino-holdem-standard",
]


@pytest.mark.parametrize("name", NAMES)
def test_an_old_golden_record_replays_into_todays_record(name: str) -> None:
    old = _old(name)
    assert any(isinstance(item, Decided) for item in old)  # truly a record of the old release
    rebuilt = replay(old)
    assert rebuilt.is_done
    assert [item.to_json() for item in rebuilt.events] == _golden_events(name)
    assert upgrade_json(item.to_json() for item in old) == _golden_events(name)


def test_peru_golden_old_pairs_read_as_what_happened() -> None:
    """The peru-2016 playthrough: seat 1 takes even money, seat 2 insures 5, splits its 8s
    and doubles hand 1 for 5; seat 3 declines insurance (docs/rules.md §6: the record names each
    decision)."""
    operations = [item for item in upgrade(_old("peru-2016")) if not isinstance(item, BetPlaced)]
    assert [item for item in operations if isinstance(item, EvenMoneyTaken)] == [
        EvenMoneyTaken(seat=1)
    ]
    assert InsuranceTaken(seat=2, amount=Fraction(5)) in operations
    assert InsuranceDeclined(seat=3) in operations
    assert Split(seat=2, hand=0, new_hand=1, amount=Fraction(10)) in operations
    assert Doubled(seat=2, hand=0, amount=Fraction(5)) in operations


def test_casino_holdem_old_call_and_fold_read_as_called_and_folded() -> None:
    record = upgrade(_old("casino-holdem-peru-2007"))
    assert [item for item in record if isinstance(item, Called | Folded)] == [
        Folded(seat=1),
        Called(seat=3, amount=Fraction(50)),
        Called(seat=5, amount=Fraction(10)),
    ]
    assert not any(isinstance(item, BetPlaced) and item.wager == "bet" for item in record)


def test_an_old_record_of_an_unfinished_round_replays_and_waits_where_it_was() -> None:
    """A round stored mid-play (the server's in-progress rounds): seat 1 hit once on hand 0."""
    old = [
        {"kind": "RoundStarted", "game": "blackjack", "profile": "peru-2016"},
        {"kind": "BetPlaced", "seat": 1, "wager": "main", "amount": 10},
        {"kind": "BetsClosed"},
        {"kind": "CardDrawn", "card": "5h", "purpose": "player", "seat": 1, "hand": 0},
        {"kind": "CardDrawn", "card": "9c", "purpose": "dealer"},
        {"kind": "CardDrawn", "card": "3d", "purpose": "player", "seat": 1, "hand": 0},
        {"kind": "CardDrawn", "card": "7s", "purpose": "hole"},
        {"kind": "Decided", "seat": 1, "action": "hit", "hand": 0},
        {"kind": "CardDrawn", "card": "2c", "purpose": "player", "seat": 1, "hand": 0},
    ]
    game = replay(Event.from_json(item) for item in old)
    assert not game.is_done
    decision = game.pending()
    assert decision is not None and (decision.seat, decision.hand) == (1, 0)
    assert [str(action) for action in decision.legal] == ["hit", "stand"]
    assert game.events[7] == Hit(seat=1, hand=0)
    assert len(game.events) == len(old)


def test_an_old_record_that_does_not_match_the_engine_is_refused() -> None:
    old = _old("spain-1979")
    tampered = [
        Decided(seat=item.seat, action="hit", hand=item.hand)
        if isinstance(item, Decided) and item.action == "stand"
        else item
        for item in old
    ]
    with pytest.raises(ReplayError):
        replay(tampered)
