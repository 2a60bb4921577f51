"""One golden playthrough per blackjack profile: a whole multi-seat round through the settle
contract, compared with its stored transcript (every card, hand, payout and event).

The transcripts were checked by hand when written:
- peru-2016: Ace up; seat 1's blackjack takes even money (20); seat 2 insures 5 (lost: the
  hole card is a 9), splits 8s, doubles hand 1 for 5 to 20 (push 15) and loses hand 2 with 18;
  seat 3's Qc Kc with the Ac up is a 21+3 straight flush (5 at 30:1 = 155) and pushes 20.
- spain-1979: seat 1 splits, doubles, re-splits and doubles again (50 staked); the dealer's
  second card makes a blackjack and every bet on the box is lost; seat 2's blackjack pushes
  and its insurance of 5 pays 15.
- veintiuno-real: seat 1's three 7s pay 5:1 (60); seat 2's split Ace + King pays 3:2 (25),
  the other Ace's 16 loses; seat 3 doubles 11 to 20 against the dealer's 19 (80).
- peru-2016-corrected (docs/rules.md D-GEN-11, D-BJ-31, D-GEN-12; a ``corrections`` list):
  Kh is found face up before the deal and burnt; the hole card 5s is exposed and replaced by
  8h; 2c leaves the shoe in error before seat 2 decides and is burnt. Seat 2's 9d 9h with the
  9c up is a 21+3 three of a kind (5 at 20:1 = 105); seat 1's 17 pushes the dealer's 9c 8h
  (17) and seat 2's 18 wins 20.
Any change to these numbers or to the event record is a change of the contract.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.settle import settle_document

HERE = Path(__file__).parent


@pytest.mark.parametrize(
    "name", ["peru-2016", "spain-1979", "veintiuno-real", "peru-2016-corrected"]
)
def test_golden_playthrough(name: str) -> None:
    stored = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    assert settle_document(stored["round"]) == stored["settled"]
    events = [Event.from_json(item) for item in stored["settled"]["events"]]
    assert [item.to_json() for item in replay(events).events] == stored["settled"]["events"]
