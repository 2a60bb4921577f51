"""The browser's scripts name only events and card purposes the engines really record.

A string compared in two places drifts: ``replay.js`` waited for ``HoleCardRevealing`` while
the blackjack engine records ``HoleCardRevealed``, so after every hole-card round the table
and the recall showed the dealer's hole card face down and a total without it (the dealer
showing 13 beside a player's 19 marked "Lose"). The pages now draw the engine's own views
and rebuild no round, but the recall still names events and purposes to describe each step:
every name a script matches on is checked against the engines, event kinds against the
registry, card purposes against the purposes of rounds actually dealt, and every event kind
has its words in the catalogues.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from croupier.games import GAME_MODULES, game_module
from croupier.games.base import random_round
from croupier.games.events import EVENT_KINDS, CardDrawn
from croupier.randomness import SeededRandomSource
from croupier.rules.registry import load_profile, shipped_profile_names
from croupier.shoe import Shoe
from croupier.web.language import LANGUAGES, Catalogue

for _game in GAME_MODULES:
    game_module(_game)  # each game registers its own event kinds when imported

SCRIPTS = Path(__file__).resolve().parents[2] / "src" / "croupier" / "web" / "static" / "js"


def _event_kinds_named_in(script: str) -> set[str]:
    cases = re.findall(r'case\s+"([A-Za-z]+)"', script)
    compared = re.findall(r'\.kind\s*===?\s*"([A-Za-z]+)"', script)
    catalogue_keys = re.findall(r'"event\.([A-Za-z]+)', script)
    return {*cases, *compared, *catalogue_keys}


def _purposes_named_in(script: str) -> set[str]:
    compared = re.findall(r'\.purpose\s*===?\s*"([a-z_-]+)"', script)
    board = re.search(r"BOARD_PURPOSES\s*=\s*new Set\(\[([^\]]*)\]\)", script)
    listed = re.findall(r'"([a-z_-]+)"', board.group(1)) if board else []
    return {*compared, *listed}


def _purposes_dealt() -> set[str]:
    """Every card purpose in 200 seeded random rounds of every shipped profile."""
    purposes: set[str] = set()
    for name in shipped_profile_names():
        profile = load_profile(name)
        source = SeededRandomSource(f"vocabulary {name}".encode())
        for _ in range(200):
            shoe = Shoe.shuffled(profile.decks, source)
            game = random_round(profile, shoe, source, new_shoe=True)
            purposes |= {e.purpose for e in game.events if isinstance(e, CardDrawn)}
    return purposes


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.js")))
def test_every_event_kind_a_script_waits_for_is_one_the_engines_record(script: str) -> None:
    named = _event_kinds_named_in((SCRIPTS / script).read_text())
    assert named <= set(EVENT_KINDS), f"{script} names unknown events {named - set(EVENT_KINDS)}"


def test_every_card_purpose_a_script_waits_for_is_one_the_engines_deal() -> None:
    dealt = _purposes_dealt()
    assert {"hole", "dealer", "player", "banker", "board", "burn"} <= dealt
    for path in SCRIPTS.glob("*.js"):
        named = _purposes_named_in(path.read_text())
        assert named <= dealt, f"{path.name} names purposes never dealt: {named - dealt}"


def test_every_event_kind_has_its_words_in_both_catalogues() -> None:
    """The recall describes each event of a step in words; a kind without them would show
    as its raw name (the catalogue once still said ``HoleCardRevealing``)."""
    for language in LANGUAGES:
        messages = Catalogue.load(language).messages
        missing = {kind for kind in EVENT_KINDS if f"event.{kind}" not in messages}
        assert not missing, (language, sorted(missing))
