"""Golden playthroughs: one whole Casino Hold'em game per profile through ``croupier settle``.

The same deck under both profiles: zone 1 flops a royal flush and folds (the progressive
pays the whole meter, 1234.5 + two halves, which restarts at 5000); zone 3 flops a queen-high
straight flush (a tenth of the restarted meter: 500) and calls; zone 5 calls with nothing.
The dealer's pair of 3s does not qualify (Art. 13 g): Peru pays the Antes 1:1, the standard
game pays zone 3's Ante 20:1. Checked by hand when recorded; any change is a regression.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.settle import settle_document

HERE = Path(__file__).parent


@pytest.mark.parametrize("profile", ["casino-holdem-peru-2007", "casino-holdem-standard"])
def test_golden_playthrough(profile: str) -> None:
    document = json.loads((HERE / f"{profile}.input.json").read_text())
    expected = json.loads((HERE / f"{profile}.output.json").read_text())
    result = settle_document(document)
    assert result == expected
    events = [Event.from_json(item) for item in result["events"]]
    assert replay(events).events == events


def test_the_two_profiles_differ_only_in_zone_3s_ante() -> None:
    peru, standard = (
        json.loads((HERE / f"{name}.output.json").read_text())
        for name in ("casino-holdem-peru-2007", "casino-holdem-standard")
    )
    assert peru["seats"][1]["bets"]["ante"] == {"bet": 25, "payout": 50}
    assert standard["seats"][1]["bets"]["ante"] == {"bet": 25, "payout": 525}
    assert peru["jackpot"] == standard["jackpot"] == 4500
