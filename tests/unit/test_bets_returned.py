"""Bets that can never be dealt are given back on the shared round base (issue 11 merged with
harden-state): a side bet left without the main wager it rides on makes its seat undealable
(blackjack: 21+3 rides on the main bet, croupier decision; Casino Hold'em Art. 9 e: no
progressive bet without an Ante), ``deal()`` refuses while one is left, ``return_bets``
records ``BetsReturned`` and the round goes on without the seat, and the record replays
through the one ``replay`` as the ``return`` command."""

from __future__ import annotations

import pytest

from croupier.errors import BetError, IllegalActionError, NotationError
from croupier.games.base import decide_randomly
from croupier.games.commands import Bet, Return, from_step, parse_command
from croupier.games.events import BetsReturned
from croupier.games.record import commands_of
from croupier.games.replay import replay
from croupier.randomness import SeededRandomSource
from croupier.rules.registry import load_profile
from croupier.shoe import Shoe
from round_support import play

CASES = [
    ("peru-2016", "main", "21+3", 5),
    ("casino-holdem-peru-2007", "ante", "progressive", 1),
]


@pytest.mark.parametrize(("name", "main", "side", "side_amount"), CASES)
def test_a_side_bet_alone_is_returned_and_the_round_replays_without_it(
    name: str, main: str, side: str, side_amount: int
) -> None:
    profile = load_profile(name)
    source = SeededRandomSource(f"bets returned {name}".encode())
    shoe = Shoe.shuffled(profile.table.decks, source)
    game = play(profile, shoe, [Bet(1, main, 10), Bet(2, main, 10), Bet(3, side, side_amount)])
    assert set(game.undealable()) == {3}
    with pytest.raises(BetError, match=r"^\w+ 3: "):
        game.deal()
    returned = game.apply(Return(3, "the betting deadline passed"))
    assert returned == (BetsReturned(seat=3, reason="the betting deadline passed"),)
    assert game.undealable() == {}
    assert sorted(game.bets) == [1, 2]
    game.deal()
    with pytest.raises(IllegalActionError):
        game.return_bets(1, "too late")
    decide_randomly(game, source)
    assert game.is_done
    assert game.results().seats() == [1, 2]
    assert 3 not in game.stakes()
    assert "return 3 the betting deadline passed" in [str(c) for c in commands_of(game.events)]
    assert replay(game.events).events == game.events


def test_the_return_command_round_trips_and_is_read_from_a_stored_step() -> None:
    command = parse_command("return 2 the betting deadline passed: 21+3 needs a main bet")
    assert command == Return(2, "the betting deadline passed: 21+3 needs a main bet")
    assert parse_command(str(command)) == command
    assert from_step({"op": "return", "seat": 2, "reason": command.reason}) == command


@pytest.mark.parametrize("text", ["bet 1 main ²", "bet 1 main ５", "act ３ hit", "act 1 double ５"])
def test_only_ascii_digits_are_numbers_in_a_command(text: str) -> None:
    with pytest.raises(NotationError):
        parse_command(text)
