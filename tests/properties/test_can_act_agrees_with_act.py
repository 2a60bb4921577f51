"""``can_act`` says yes exactly when ``act`` takes the action (issue 28, item 4; STYLE: one
legality convention, ``can_x`` asks what ``x`` checks).

Random rounds of every shipped profile (random seats and bets, then random legal decisions),
dealt from a seeded shoe or card by card from a physical shoe that stops for each card: at
every state of the round, for every seat of the table and every action of the game's
catalogue (``envs.actions``: each decision by name, with no amount and with amounts around
the legal range, and a name no game knows), ``can_act`` is True if and only if ``act`` does
not refuse it. A refusal changes nothing; an action ``can_act`` allows is taken on a copy
of the round. A physical shoe's round waiting for a card refuses every decision (``act``
asks for the card first), though a decision is pending underneath.

CI runs a few rounds per profile; ``-m slow`` (``benchmarks/slow_checks.py``) runs many.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card
from croupier.envs.actions import Kind, catalogue_of
from croupier.errors import CardNeeded, CroupierError, ShoeError
from croupier.games.base import (
    Action,
    GameRound,
    place_random_bets,
    random_choice,
    round_class_of,
)
from croupier.games.commands import Act, Command, Deal
from croupier.randomness import SeededRandomSource
from croupier.rules import load_profile, shipped_profile_names
from croupier.shoe import PhysicalShoe, Shoe

PROFILES = shipped_profile_names()


def _catalogue_actions(game: GameRound) -> list[Action]:
    """Every action of the game's catalogue by name, bare and with amounts: none, 0, 1, the
    largest a pending decision allows and one more; and an unknown name."""
    names = [
        entry.action for entry in catalogue_of(game.game).entries if entry.kind is Kind.DECISION
    ]
    decision = game.pending()
    largest = {
        option.name: option.amount
        for option in (decision.legal if decision is not None else ())
        if option.amount is not None
    }
    actions = [Action("dance")]
    for name in dict.fromkeys(names):
        top = largest.get(name, 5)
        actions += [Action(name), *(Action(name, amount) for amount in (0, 1, top, top + 1))]
    return actions


def _refused(game: GameRound, seat: int, action: Action) -> bool:
    """Whether ``act`` refuses ``action`` (a rule's refusal: not a card awaited or the shoe
    run out, which stop an action already taken). A refusal changes nothing; an action
    taken is taken on a copy."""
    if not game.can_act(seat, action):
        before = list(game.events)
        try:
            game.act(seat, action)
        except (CardNeeded, ShoeError):
            return False
        except CroupierError:
            assert game.events == before, f"{action} from {seat} refused, yet recorded"
            return True
        return False
    try:
        copy.deepcopy(game).act(seat, action)
    except (CardNeeded, ShoeError):
        return False
    except CroupierError:
        return True
    return False


def _check_every_action(game: GameRound) -> None:
    for seat in range(0, game.profile.table.seats + 2):
        for action in _catalogue_actions(game):
            assert game.can_act(seat, action) is not _refused(game, seat, action), (
                f"{game.profile.name}: can_act({seat}, {action}) is {game.can_act(seat, action)} "
                f"in {game.phase} (card needed: {game.card_needed})"
            )


def _given(game: GameRound, command: Command, shoe_cards: Sequence[Card]) -> GameRound:
    """``game`` given ``command``; a physical shoe's round that stops for a card is checked
    while it waits, then dealt on with the next card (``enter``), as the dealer would."""
    with contextlib.suppress(CardNeeded):  # the round waits for a card: checked below
        game.apply(command)
    while game.card_needed is not None:
        _check_every_action(game)
        assert isinstance(game.shoe, PhysicalShoe)
        game = game.enter(shoe_cards[len(game.shoe.entered)])
    return game


def _play_checking(name: str, seed: int, physical: bool) -> None:
    profile = load_profile(name)
    source = SeededRandomSource(f"can-act {name} {seed}".encode())
    stacked = Shoe.shuffled(profile.table.decks, source)
    cards = stacked.undealt()
    shoe = PhysicalShoe(decks=profile.table.decks) if physical else stacked
    game = round_class_of(profile.game)(profile, shoe)
    place_random_bets(game, source)
    _check_every_action(game)  # betting: nothing to decide
    game = _given(game, Deal(), cards)
    while (decision := game.pending()) is not None:
        _check_every_action(game)
        game = _given(game, Act(decision.seat, random_choice(decision, source)), cards)
    _check_every_action(game)  # done
    assert game.is_done


@pytest.mark.parametrize("name", PROFILES)
@settings(max_examples=3)
@given(seed=st.integers(0, 2**32 - 1), physical=st.booleans())
def test_can_act_is_act_s_own_check(name: str, seed: int, physical: bool) -> None:
    _play_checking(name, seed, physical)


@pytest.mark.parametrize("name", PROFILES)
def test_a_round_waiting_for_a_card_refuses_decisions_in_can_act_too(name: str) -> None:
    """The case ``can_act`` once missed: a decision pending underneath a card awaited."""
    for seed in range(4):
        _play_checking(name, seed, physical=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", PROFILES)
@settings(max_examples=150)
@given(seed=st.integers(0, 2**32 - 1), physical=st.booleans())
def test_can_act_is_act_s_own_check_at_length(name: str, seed: int, physical: bool) -> None:
    _play_checking(name, seed, physical)
