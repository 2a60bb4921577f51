"""R6: no hidden information leaves the server early - shoe order, hole cards, other players'
cards, seeds (GLI-19 4.4.4(a), B.4.4).

Every payload sent to every player (each HTTP answer, each table state, each recall) over
many rounds is searched for cards that player may not see at that moment. The games are
dealt from ONE deck (Casino Hold'em; blackjack on a one-deck copy of a shipped profile) so
that a card's name is unique within its shoe and a sighting is proof: a card still in the
shoe, a card drawn face down (the hole card, burns), or a card private to another seat.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from server_support import Api, Table, one_deck_profile

from croupier.games.events import CardDrawn
from croupier.rules.registry import load_profile
from croupier.server.app import playable_profiles

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
FULL_DECK = {rank + suit for rank in "23456789TJQKA" for suit in "cdhs"}


def cards_in(payload: Any) -> set[str]:
    return set(CARD.findall(json.dumps(payload)))


def profiles_under_test(folder: Path) -> list[str]:
    chosen = []
    for name in playable_profiles():
        profile = load_profile(name)
        if profile.game == "casino-holdem":
            chosen.append(name)
        elif profile.game == "blackjack" and name == "veintiuno-real":
            chosen.append(one_deck_profile(folder))
    return chosen


class Watcher:
    """Checks each payload against what the server's engine says its receiver may see now."""

    def __init__(self, api: Api, table: Table) -> None:
        self.api = api
        self.table = table
        self.checked = 0

    def allowed(self, name: str) -> tuple[set[str], set[str]]:
        """(cards this player may see, cards drawn so far in the live shoe)."""
        live = self.api.server.casino.tables[self.table.id]
        game_round = live.game_round
        mine = [seat for seat, owner in self.table.owner.items() if owner == name]
        visible = cards_in(game_round.view(None))
        for seat in mine:
            visible |= cards_in(game_round.view(seat))
        drawn = {str(e.card) for e in game_round.events if isinstance(e, CardDrawn)}
        return visible, drawn

    def check(self, name: str, payload: Any, earlier_rounds_public: set[str]) -> None:
        visible, drawn_now = self.allowed(name)
        seen = cards_in(payload)
        leaked = seen - visible - earlier_rounds_public
        assert not leaked, f"{name} was sent {sorted(leaked)} (drawn now: {sorted(drawn_now)})"
        self.checked += 1


@pytest.mark.skipif(not playable_profiles(), reason="no game engine has landed yet")
@pytest.mark.parametrize(
    "rounds",
    [6, pytest.param(300, marks=pytest.mark.slow, id="full")],  # CI form, R6's full form
)
def test_no_payload_to_any_player_holds_a_card_they_may_not_see(
    api: Api, tmp_path: Path, rounds: int
) -> None:
    profiles = profiles_under_test(tmp_path)
    assert profiles, "no one-deck game to test with"
    for number, profile in enumerate(profiles):
        table = Table(api, profile, [f"ann{number}", f"ben{number}", f"cat{number}"])
        watcher = Watcher(api, table)
        public_so_far: set[str] = (
            set()
        )  # cards of ended rounds of the live shoe, shown at the table
        shoe = table.state()["table"]["shoe"]
        for _round in range(rounds):
            round_id = table.state()["round"]["id"]
            for name, token in table.tokens.items():
                answer = api.post(
                    f"/tables/{table.id}/bets",
                    token,
                    {"seat": table.seat_of[name], "wager": table.wager, "amount": table.stake},
                )
                watcher.check(name, answer.json(), public_so_far)
            for name, token in table.tokens.items():
                api.post(f"/tables/{table.id}/ready", token)
                watcher.check(name, table.state(name), public_so_far)
            for _ in range(100):
                state = table.state()
                for name in table.tokens:
                    if state["round"]["id"] == round_id:
                        watcher.check(name, table.state(name), public_so_far)
                if state["round"]["id"] != round_id:
                    break
                pending = state["round"]["pending"]
                actor = table.owner[pending["seat"]]
                answer = api.post(
                    f"/tables/{table.id}/actions",
                    table.tokens[actor],
                    {
                        "seat": pending["seat"],
                        "action": pending["legal"][_ % len(pending["legal"])],
                    },
                )
                assert answer.status_code == 200, answer.text
                if table.state()["round"]["id"] == round_id:
                    watcher.check(actor, answer.json(), public_so_far)
            recall = table.recall(round_id, f"ann{number}")
            # The recall's steps draw from the record as the player may read it: not a card
            # more (a burn, another zone's hole cards) in any step's view.
            assert cards_in(recall["steps"]) <= cards_in(recall["events"])
            new_shoe = table.state()["table"]["shoe"]
            burns = {
                e["card"]
                for e in recall["events"]
                if e.get("kind") == "CardDrawn" and e.get("purpose") == "burn"
            }
            if new_shoe == shoe:
                assert burns <= {"??"}, "a burnt card was shown while its shoe is live"
                public_so_far |= cards_in(recall["events"])
                shoe_document = api.get(f"/shoes/{shoe}", table.tokens[f"ann{number}"]).json()
                assert "revealed" not in shoe_document and "seed" not in json.dumps(shoe_document)
            else:
                shoe, public_so_far = new_shoe, set()
        assert watcher.checked > 50
        assert FULL_DECK  # the regex covers the whole deck
        assert cards_in(list(FULL_DECK)) == FULL_DECK


def test_a_recalled_casino_holdem_game_shows_a_zone_only_its_own_hole_cards(api: Api) -> None:
    """R6 and Casino Hold'em Art. 9d ("no pueden ... mostrar sus cartas a los demás"): after the
    game, the recall gives each player the board, the dealer's cards and their own hole cards,
    never another zone's; the inspector (operator) sees them all."""
    table = Table(api, "casino-holdem-peru-2007", ["dia", "eli"])
    round_id = table.play_round(choose=lambda pending: "call")

    def hole_cards(document: dict[str, Any]) -> dict[int, list[str]]:
        cards: dict[int, list[str]] = {}
        for event in document["events"]:
            if event["kind"] == "CardDrawn" and event["purpose"] == "player":
                cards.setdefault(event["seat"], []).append(event["card"])
        return cards

    inspector = hole_cards(table.recall(round_id))
    assert all(card != "??" for cards in inspector.values() for card in cards)
    for name, seat in table.seat_of.items():
        seen = hole_cards(table.recall(round_id, name))
        assert seen[seat] == inspector[seat]
        others = [other for other in inspector if other != seat]
        assert others and all(seen[other] == ["??", "??"] for other in others)
