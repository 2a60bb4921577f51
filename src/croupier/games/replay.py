"""One replay for every game: a round rebuilt from its events, and recalled step by step.

``replay`` deals the recorded cards again and gives the round the commands its record was
made by (``games.record.commands_of``): the rebuilt round must record the identical events.
``deal_on`` carries a physical shoe's round on with the cards the dealer has entered since;
``steps`` (and ``views``) walk through a finished round as one viewer saw it (the recall).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.errors import BetError, IllegalActionError, ReplayError, ShoeError
from croupier.games.base import GameRound, round_class_of
from croupier.games.commands import Command
from croupier.games.events import Event, RoundStarted, upgrade
from croupier.games.record import give_again, given_again
from croupier.rules.base import Profile
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe


def start_of(record: Sequence[Event], profile: Profile | None) -> tuple[type[GameRound], Profile]:
    first = record[0] if record else None
    if not isinstance(first, RoundStarted):
        raise ReplayError("a round's record starts with RoundStarted")
    cls = round_class_of(first.game)
    if profile is None:
        profile = load_profile_of(first.game, first.profile)
    elif profile.name != first.profile:
        raise ReplayError(f"record is of profile {first.profile!r}, not {profile.name!r}")
    if profile.game != first.game:
        raise ReplayError(f"record is of {first.game}, not {profile.game}")
    return cls, profile


def _rebuild(
    events: Iterable[Event], profile: Profile | None, shoe: Shoe | None
) -> tuple[GameRound, list[Event]]:
    record = upgrade(events)
    cls, profile = start_of(record, profile)
    try:
        game = cls.for_replay(profile, record, shoe)
    except (BetError, IllegalActionError, ShoeError, ValueError) as error:
        raise ReplayError(f"the record does not replay: {error}") from None
    give_again(game, record)
    return game, record


def replay(
    events: Iterable[Event], profile: Profile | None = None, *, shoe: Shoe | None = None
) -> GameRound:
    """Rebuild a round from its events alone, for any game: the shoe stacked from the cards
    drawn, then the commands the record was made by given again. The rebuilt round must
    record the identical events (an old record is compared in today's events: ``upgrade``)
    or ``ReplayError`` says where they part.

    ``profile`` is needed only for a profile that is not shipped (the record names it). To
    recover an unfinished round and go on with it (R11), pass the live ``shoe`` as it stood
    when the round started (rebuilt from its seed): the replay deals from it, checks every
    card against the record, and leaves the round waiting where it was."""
    game, record = _rebuild(events, profile, shoe)
    for index, (recorded, replayed) in enumerate(zip(record, game.events, strict=False)):
        if recorded != replayed:
            raise ReplayError(
                f"the record diverges at event {index}: recorded {recorded!r}, "
                f"replayed {replayed!r}"
            )
    if len(record) != len(game.events):
        raise ReplayError(f"the record has {len(record)} events, its replay {len(game.events)}")
    return game


def deal_on(events: Iterable[Event], shoe: Shoe, profile: Profile | None = None) -> GameRound:
    """A physical shoe's round carried on with the cards it now holds: the record's commands
    given again (the one ``apply``) from ``shoe`` at the round's start, which holds the
    recorded cards and the dealer's new ones. The record must be where the rebuilt round
    starts (its events a prefix of the new ones, or ``ReplayError``); the round stops at the
    next card nobody has entered yet (``card_needed``) or wherever a decision is awaited."""
    game, record = _rebuild(events, profile, shoe)
    if game.events[: len(record)] != record:
        raise ReplayError("the round dealt on does not start with its record")
    return game


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a recalled round: the ``command`` given (``None`` for the opening), the
    ``events`` it recorded and the round's ``view`` after it."""

    command: Command | None
    events: tuple[Event, ...]
    view: dict[str, Any]


def steps(
    events: Iterable[Event],
    viewer: int | None,
    profile: Profile | None = None,
    *,
    everything: bool = False,
) -> Iterator[Step]:
    """The round as ``viewer`` saw it after each command of its record (the recall): the
    opening, every bet, the deal and each decision, to the end. Each view is the engine's
    own ``view``, masked as it was then."""
    record = upgrade(events)
    cls, profile = start_of(record, profile)
    game = cls.for_replay(profile, record, None)
    yield Step(None, game._since(0), game.view(viewer, everything=everything))
    start = len(game.events)
    for command, following, stop in given_again(game, record):
        if isinstance(stop, ShoeError) or (stop is not None and following is not None):
            # What was drawn before the shoe ran out (or a card was needed) goes with the
            # void that follows; a round still waiting for its dealer's card is seen as it is.
            continue
        yield Step(command, game._since(start), game.view(viewer, everything=everything))
        start = len(game.events)


def views(
    events: Iterable[Event],
    viewer: int | None,
    profile: Profile | None = None,
    *,
    everything: bool = False,
) -> Iterator[dict[str, Any]]:
    """The views of ``steps``: the round after each command, as ``viewer`` saw it."""
    return (step.view for step in steps(events, viewer, profile, everything=everything))
