"""Issue 28, item 8: the pushes' JSON is written by orjson (``publishing._compact_json``), and
the WebSocket contract stays as it was: each text pushed reads as the same JSON value, and is
the same text, that ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` wrote
before, for every value a live round of each game encodes (a table's name in Spanish
included)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_support import Api, Table, make_api

from croupier.service import publishing


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    yield from make_api(f"sqlite:///{tmp_path / 'pushes.sqlite'}")


@pytest.mark.parametrize("profile", ["peru-2016", "dragon-six-peru-2016", "casino-holdem-standard"])
def test_every_pushed_value_is_the_text_json_wrote(
    api: Api, profile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: list[tuple[Any, str]] = []
    orjson_encoding = publishing._compact_json

    def recorded(value: Any) -> str:
        text = orjson_encoding(value)
        encoded.append((value, text))
        return text

    monkeypatch.setattr(publishing, "_compact_json", recorded)
    table = Table(api, profile, ["ana", "bruno", "carla"])
    # Shown to every seat: a name with accents, an eñe and a symbol past Latin-1.
    live = api.server.casino.tables[table.id]
    live.name = "Mesa Ñandú: apuesta mínima 10 €"
    api.server.casino.publish(live)
    sockets = [
        api.client.websocket_connect(f"/tables/{table.id}/ws?token={token}")
        for token in table.tokens.values()
    ]
    pushed: list[dict[str, Any]] = []
    for socket in sockets:
        socket.__enter__()
        pushed.append(json.loads(socket.receive_text()))
    try:
        for _ in range(3):
            table.play_round()
        for socket in sockets:
            pushed.append(json.loads(socket.receive_text()))
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)
    assert len(encoded) > 20
    for value, text in encoded:
        assert text == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert any("Ñandú" in text and "€" in text for _, text in encoded)
    assert all(message["type"] == "state" for message in pushed)
    assert {message["table"]["name"] for message in pushed} == {"Mesa Ñandú: apuesta mínima 10 €"}


def test_a_value_orjson_cannot_write_is_written_by_json() -> None:
    """An integer past 64 bits (no view holds one today): written all the same, as before."""
    value = {"big": 2**70, "seat": {1: "ana"}}
    assert publishing._compact_json(value) == '{"big":1180591620717411303424,"seat":{"1":"ana"}}'
