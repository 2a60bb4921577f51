"""Helpers the tests share about rounds and their records (nothing in ``src`` calls them)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from croupier.errors import NotationError
from croupier.games.base import GameRound, round_class_of
from croupier.games.commands import Command
from croupier.games.events import EVENT_KINDS, JSON, Decided, Event, Operation, upgrade
from croupier.rules.base import Profile
from croupier.shoe import Shoe


def play(profile: Profile, shoe: Shoe, commands: Iterable[Command], **options: Any) -> GameRound:
    """A round of ``profile``'s game dealt from ``shoe`` and given ``commands`` in order
    (``options``: the game's own, such as ``new_shoe`` or ``meter``)."""
    game = round_class_of(profile.game)(profile, shoe, **options)
    for command in commands:
        game.apply(command)
    return game


def upgrade_json(documents: Iterable[dict[str, JSON]]) -> list[dict[str, JSON]]:
    """``upgrade`` for a record stored as JSON (the server's rounds)."""
    return [item.to_json() for item in upgrade(Event.from_json(document) for document in documents)]


def operations(events: Iterable[Event]) -> Iterator[Operation]:
    return (item for item in events if isinstance(item, Operation))


def is_decision(document: dict[str, JSON]) -> bool:
    """A record of a seat's decision, read from JSON (an operation record or an old one)."""
    cls = EVENT_KINDS.get(str(document.get("kind")))
    return cls is not None and (issubclass(cls, Operation) or cls is Decided)


def action_of(document: dict[str, JSON]) -> str:
    """The notation of the decision a JSON record says was taken (``hit``, ``double 10``)."""
    item = Event.from_json(document)
    if isinstance(item, Decided):
        return item.action
    if not isinstance(item, Operation):
        raise NotationError(f"a {item.kind} is not a decision")
    return str(item.action)
