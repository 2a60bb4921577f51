"""D-CH-12: a Casino Hold'em deck's reveal is the inspector's and the operator's only.

Casino Hold'em Art. 9 d: a player's hole cards are shown to nobody else, during or after the
game. A Casino Hold'em deck is revealed after every game (one game per deck), and its seed and
order give every zone's hole cards: ``GET /shoes/{id}/export`` handed them to any signed-in
person, a stranger or the other player of the same game, while the recall masked them as
``??``. Now everyone but the staff keeps the commitment and the export answers a typed 403;
the inspector and the operator still export and verify it (R18). A blackjack or a baccarat
shoe is public after its reveal, as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from server_support import OPERATOR_TOKEN, Api, Table, one_deck_profile

from croupier.fairness import verify_export
from croupier.service.models import ShoeRecord

VERIFY = "from croupier.cli.main import main; main()"


def _inspector(api: Api, name: str) -> str:
    token = api.player(name)
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": name, "role": "inspector"})
    assert granted.status_code == 201, granted.text
    return token


def _verifies(export: dict[str, Any], folder: Path) -> None:
    assert verify_export(export) == []
    path = folder / f"shoe-{export['shoe']}.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", VERIFY, "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.startswith("verified"), done


def _hole_cards(events: list[dict[str, Any]]) -> dict[int, list[str]]:
    cards: dict[int, list[str]] = {}
    for event in events:
        if event.get("kind") == "CardDrawn" and event.get("purpose") == "player":
            cards.setdefault(event["seat"], []).append(event["card"])
    return cards


def test_a_casino_holdem_decks_reveal_goes_to_the_staff_only(api: Api, tmp_path: Path) -> None:
    table = Table(api, "casino-holdem-peru-2007", ["dia", "eli"])
    round_id = table.play_round(choose=lambda pending: "call")
    shoe = table.recall(round_id)["shoe"]
    holes = _hole_cards(table.recall(round_id)["events"])
    assert len(holes) == 2 and all("??" not in cards for cards in holes.values())
    stranger = api.player("sam")
    inspector = _inspector(api, "ivy")

    readers = {"stranger": stranger, "dia": table.tokens["dia"], "eli": table.tokens["eli"]}
    for name, token in readers.items():
        document = api.get(f"/shoes/{shoe}", token)
        assert document.status_code == 200, (name, document.text)
        body = document.json()
        assert body["is_revealed"] is True and len(body["commitment"]) == 64, name
        assert "revealed" not in body and "seed" not in json.dumps(body), (name, body)
        refused = api.get(f"/shoes/{shoe}/export", token)
        assert refused.status_code == 403, (name, refused.text)
        error = refused.json()
        assert error["code"] == "shoe_reveal_staff_only", error
        assert error["params"] == {"shoe": shoe}
        assert "Art. 9 d" in error["detail"] and "D-CH-12" in error["detail"]
        assert "seed" not in error["params"]

    # A player's own rounds still show only their own hole cards (Art. 9 d).
    for name, seat in table.seat_of.items():
        mine = api.get(f"/me/rounds?table_id={table.id}", table.tokens[name]).json()
        listed = next(item for item in mine["rounds"] if item["round"] == round_id)
        seen = _hole_cards(listed["events"])
        assert seen[seat] == holes[seat]
        assert all(seen[other] == ["??", "??"] for other in holes if other != seat), (name, seen)
        assert "seed" not in json.dumps(mine)

    for token in (OPERATOR_TOKEN, inspector):
        body = api.get(f"/shoes/{shoe}", token).json()
        assert len(body["revealed"]["seed"]) == 64
        export = api.get(f"/shoes/{shoe}/export", token)
        assert export.status_code == 200, export.text
        _verifies(export.json(), tmp_path)
        exported_holes = _hole_cards(export.json()["rounds"][0]["events"])
        assert exported_holes == holes


def test_a_blackjack_and_a_baccarat_shoe_are_public_after_their_reveal(
    api: Api, tmp_path: Path
) -> None:
    stranger = api.player("sam")
    blackjack = Table(api, one_deck_profile(tmp_path), ["ann"])
    first = blackjack.state()["table"]["shoe"]
    for _ in range(20):
        blackjack.play_round()
        if blackjack.state()["table"]["shoe"] != first:
            break
    baccarat = Table(api, "dragon-six-peru-2016", ["bea"])
    baccarat.play_round()
    second = baccarat.state()["table"]["shoe"]
    # The eight decks last 70-odd coups: the shoe's end is its record's reveal.
    api.server.uow.run(lambda s: setattr(s.get(ShoeRecord, second), "is_revealed", True))
    for shoe in (first, second):
        body = api.get(f"/shoes/{shoe}", stranger).json()
        assert body["is_revealed"] and len(body["revealed"]["seed"]) == 64
        export = api.get(f"/shoes/{shoe}/export", stranger)
        assert export.status_code == 200, export.text
        _verifies(export.json(), tmp_path)
