"""Commands (issue 11, item 2): frozen values whose notation round-trips, and one ``apply``
that the live table's stored steps, ``settle`` and ``replay`` all go through."""

from __future__ import annotations

import dataclasses

import pytest

from croupier.errors import IllegalActionError, NotationError
from croupier.games.blackjack import BlackjackRound
from croupier.games.commands import Act, Action, Bet, Deal, Void, from_step, parse_command
from croupier.games.record import commands_of
from croupier.games.replay import replay
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe
from round_support import play

NOTATIONS = [
    "bet 1 main 10",
    "bet 3 21+3 5",
    "deal",
    "act 2 hit",
    "act 1 double 5",
    "act 2 stand (default)",
    "void shoe ran out",
]


@pytest.mark.parametrize("text", NOTATIONS)
def test_the_notation_round_trips(text: str) -> None:
    command = parse_command(text)
    assert str(command) == text
    assert repr(command) == f"parse_command({text!r})"
    assert parse_command(str(command)) == command


def test_commands_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Bet(1, "main", 10).amount = 20  # type: ignore[misc]


@pytest.mark.parametrize("text", ["", "bet one main 10", "bet 1 main", "deal now", "act 1", "fold"])
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_command(text)


def test_stored_steps_are_the_same_commands() -> None:
    assert from_step({"op": "bet", "seat": 2, "wager": "main", "amount": 10}) == Bet(2, "main", 10)
    assert from_step({"op": "deal"}) == Deal()
    assert from_step({"op": "act", "seat": 2, "action": "double 5"}) == Act(2, Action("double", 5))
    assert from_step({"op": "void", "reason": "interrupted"}) == Void("interrupted")
    timed_out = {"op": "act", "seat": 1, "action": "stand", "timeout": True}
    assert from_step(timed_out) == Act(1, Action("stand"), by_default=True)


def test_a_default_applied_at_a_deadline_is_recorded_and_replays() -> None:
    """Peru 2016, Th 9c 9d 7s Kd: seat 1's time runs out on 19, and the house stands for it
    (the decision's default): the record says so before the ``Stood``, and gives it back."""
    profile = load_profile_of("blackjack", "peru-2016")
    game = BlackjackRound(profile, Shoe.parse("Th 9c 9d 7s Kd", decks=profile.decks))
    game.apply(parse_command("bet 1 main 10"))
    game.apply(parse_command("deal"))
    with pytest.raises(IllegalActionError, match="not the default"):
        game.apply(parse_command("act 1 hit (default)"))
    recorded = game.apply(parse_command("act 1 stand (default)"))
    assert [item.kind for item in recorded[:2]] == ["DefaultApplied", "Stood"]
    assert [str(command) for command in commands_of(game.events)][-1] == "act 1 stand (default)"
    assert replay(game.events).events == game.events


def test_a_round_made_by_commands_gives_them_back_and_replays() -> None:
    """Peru 2016: Th 9c 9d 7s Kd: seat 1 stands on 19 against a dealer 16 who draws to bust."""
    profile = load_profile_of("blackjack", "peru-2016")
    game = BlackjackRound(profile, Shoe.parse("Th 9c 9d 7s Kd", decks=profile.decks))
    commands = [parse_command(text) for text in ("bet 1 main 10", "deal", "act 1 stand")]
    for command in commands:
        game.apply(command)
    assert game.is_done and [w.result for w in game.results().wagers] == ["win"]
    assert list(commands_of(game.events)) == commands
    assert replay(game.events).events == game.events
    with pytest.raises(IllegalActionError):
        game.apply(parse_command("act 1 hit"))


def test_play_gives_a_round_its_commands_and_replay_rebuilds_it_from_its_events() -> None:
    """Spain 1979, Art. 03 (no hole card): the box's 9s 8h stands on 17; the dealer's up card
    Ts takes its second card, 8c, after the players, and 18 beats 17."""
    profile = load_profile_of("blackjack", "spain-1979")
    shoe = Shoe.parse("9s Ts 8h 8c", decks=profile.decks)
    game = play(profile, shoe, [Bet(1, "main", 10), Deal(), Act(1, Action("stand"))])
    assert game.is_done
    assert [(w.result, w.payout) for w in game.results().wagers] == [("lose", 0)]
    assert replay(game.events).events == game.events


@pytest.mark.parametrize(
    "text",
    [
        "return 2 21+3 needs a main bet",
        "face-up",
        "face-up Td",
        "dealt-in-error 9c",
        "exposed seat 2 hand 0",
        "confused-deal",
    ],
)
def test_the_returns_and_the_dealers_corrections_round_trip(text: str) -> None:
    """docs/rules.md §6 (D-GEN-11 to D-GEN-13): each correction is written as the dealer
    names it, a card left out where none is named, and read back as the same command."""
    command = parse_command(text)
    assert str(command) == text
    assert repr(command) == f"parse_command({text!r})"


def test_a_round_opened_with_no_command_yet_replays() -> None:
    """A round that has only opened (a live table's round waiting for its first bet) is
    its RoundStarted alone: it has no command to give again, and replays as it stands."""
    profile = load_profile_of("blackjack", "peru-2016")
    game = BlackjackRound(profile, Shoe.parse("Th 9c 9d 7s Kd", decks=profile.decks))
    assert list(commands_of(game.events)) == []
    assert replay(game.events).events == game.events
    assert replay(game.events, shoe=Shoe.parse("Th 9c", decks=profile.decks)).is_betting
