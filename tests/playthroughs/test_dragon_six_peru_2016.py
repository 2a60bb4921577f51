"""Golden playthrough of Dragon Six Baccarat Plus (Peru 2016): a seeded shoe prepared by
Art. 6 and ten rounds with bets on three zones, stored event for event in
``dragon-six-peru-2016.json``. The seed was picked so that the ten rounds hold a Banker win
with 6 (Art. 8 b)), a tie, a winning pair and third cards on both sides.

Any change to the shuffle, the tableau, the paytable or the event record shows here. Should a
change be intended, regenerate with ``uv run python tests/playthroughs/test_dragon_six_peru_2016.py``
and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from croupier.games.baccarat import BaccaratRound, new_shoe
from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.randomness import SeededRandomSource
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of

GOLDEN = Path(__file__).with_name("dragon-six-peru-2016.json")
SEED = "golden-22"
ROUNDS = 10
BETS = {
    1: {"banker": 10, "banker_pair": 1},
    2: {"player": 5, "tie": 2, "player_pair": 1},
    3: {"banker": 3, "tie": 1},
}


def session() -> dict[str, Any]:
    profile = load_profile_of("baccarat", "dragon-six-peru-2016")
    assert isinstance(profile, BaccaratRules)
    shoe, preparation = new_shoe(profile, SeededRandomSource(SEED))
    rounds = []
    for _ in range(ROUNDS):
        coup = BaccaratRound(profile, shoe)
        for zone, bets in BETS.items():
            for wager, amount in bets.items():
                coup.place_bet(zone, wager, amount)
        coup.deal()
        rounds.append([event.to_json() for event in coup.events])
    return {
        "profile": profile.name,
        "seed": SEED,
        "new_shoe": [event.to_json() for event in preparation],
        "rounds": rounds,
    }


def test_the_golden_session_is_dealt_again_event_for_event() -> None:
    assert session() == json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_every_golden_round_replays_from_its_stored_record() -> None:
    stored = json.loads(GOLDEN.read_text(encoding="utf-8"))
    outcomes = set()
    for record in stored["rounds"]:
        events = [Event.from_json(item) for item in record]
        coup = replay(events)
        assert [event.to_json() for event in coup.events] == record
        winner = coup.winner.value
        outcomes.add("banker six" if (winner, coup.banker_total) == ("banker", 6) else winner)
    assert {"banker six", "tie", "player"} <= outcomes


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(session(), indent=1) + "\n", encoding="utf-8")
