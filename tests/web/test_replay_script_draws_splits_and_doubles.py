"""The browser's replay (``replay.js``) draws a blackjack round's hands as the engine left them.

The recall page and the table page rebuild a round from its record in the browser. Splits and
doubles are now recorded as ``Split`` (the second card of ``hand`` and a bet of ``amount`` go
to ``new_hand``) and ``Doubled`` (``amount`` added to the hand's bet) instead of ``Decided``
plus a ``BetPlaced`` on the hand: the script must read the new records or it draws a split
hand with three cards and a double at the single bet. Seeded random rounds with both a split
and a double are replayed by the script under Node and every hand's cards and bet compared
with the engine's own.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from croupier.games import blackjack
from croupier.games.events import Doubled, Split
from croupier.randomness import SeededRandomSource
from croupier.rules.registry import load_profile
from croupier.shoe import Shoe

SCRIPT = Path(__file__).resolve().parents[2] / "src" / "croupier" / "web" / "static" / "js"


def _rounds_with_split_and_double(count: int) -> list[blackjack.BlackjackRound]:
    profile = load_profile("peru-2016")
    assert isinstance(profile, blackjack.BlackjackRules)
    source = SeededRandomSource(b"replay.js splits and doubles")
    found = []
    for _ in range(5000):
        shoe = Shoe.shuffled(profile.decks, source)
        game = blackjack.random_round(profile, shoe, source, new_shoe=True)
        kinds = {type(item) for item in game.events}
        if Split in kinds and Doubled in kinds:
            found.append(game)
            if len(found) == count:
                break
    assert len(found) == count, "the seeded stream dealt too few split-and-double rounds"
    return found


def _drawn_by_script(records: list[list[dict[str, object]]]) -> list[dict[str, object]]:
    program = (
        f"import {{ replay }} from {json.dumps((SCRIPT / 'replay.js').as_uri())};\n"
        "let text = '';\n"
        "process.stdin.on('data', (chunk) => { text += chunk; });\n"
        "process.stdin.on('end', () => {\n"
        "  const views = JSON.parse(text).map((record) => replay(record, record.length));\n"
        "  process.stdout.write(JSON.stringify(views));\n"
        "});\n"
    )
    node = shutil.which("node")
    assert node is not None
    finished = subprocess.run(
        [node, "--input-type=module", "-e", program],
        input=json.dumps(records, default=str),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    views: list[dict[str, object]] = json.loads(finished.stdout)
    return views


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node to run the page's script")
def test_the_script_draws_each_split_and_doubled_hand_as_the_engine_dealt_it() -> None:
    games = _rounds_with_split_and_double(3)
    views = _drawn_by_script([[item.to_json() for item in game.events] for game in games])
    for game, view in zip(games, views, strict=True):
        expected = {
            seat: sorted(
                (hand.number, [str(card) for card in hand.cards], hand.total_stake)
                for hand in box.hands
            )
            for seat, box in game.boxes.items()
        }
        drawn = {
            box["seat"]: sorted(
                (hand["hand"], hand["cards"], int(float(hand["bet"]))) for hand in box["hands"]
            )
            for box in view["boxes"]  # type: ignore[attr-defined]
        }
        assert drawn == expected
        assert view["dealer"]["cards"] == [str(card) for card in game.dealer]  # type: ignore[index]
