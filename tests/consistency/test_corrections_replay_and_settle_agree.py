"""docs/rules.md#D-GEN-14 and #D-GEN-5: a round with the dealer's corrections is still one
record. For every shipped profile, rounds dealt from seeded shoes with corrections given at
random legal moments (a card face up, a card dealt in error, an exposed card, a confused deal)
replay to the identical events, and the ``settle`` document ``document_of`` writes for them
(its ``corrections`` list) pays each seat exactly what the engine paid."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.games.base import GameRound
from croupier.games.commands import Command, ConfusedDeal, DealtInError, Exposed, FaceUp
from croupier.games.replay import replay
from croupier.games.settle_document import document_of
from croupier.money import json_number
from croupier.randomness import SeededRandomSource, uniform_below
from croupier.rules import load_profile
from croupier.rules.registry import shipped_profile_names
from croupier.settle import settle_document
from croupier.shoe import Shoe
from round_support import play

ROUNDS = 25


def _corrections(game: GameRound) -> list[Command]:
    legal: list[Command] = [c for c in (FaceUp(), DealtInError()) if game.can_correct(c)]
    legal += [Exposed(place) for place in game.face_down_places() if game.can_exposed(place)]
    return legal


def _random_round(name: str, source: SeededRandomSource) -> GameRound:
    profile = load_profile(name)
    shoe = Shoe.shuffled(profile.table.decks, source)
    game = play(profile, shoe, [])
    wager = next(iter(profile.table.wagers))
    for seat in range(1, max(2, profile.table.min_players) + 1):
        game.place_bet(seat, wager, 5)
    if uniform_below(source, 3) == 0:
        game.face_up()
    game.deal()
    while not game.is_done:
        options = _corrections(game)
        if uniform_below(source, 12) == 0 and game.can_correct(ConfusedDeal()):
            game.apply(ConfusedDeal())
        elif options and uniform_below(source, 4) == 0:
            game.apply(options[uniform_below(source, len(options))])
        else:
            decision = game.pending()
            assert decision is not None
            choice = decision.legal[uniform_below(source, len(decision.legal))]
            if choice.amount is not None:
                choice = type(choice)(choice.name, 1 + uniform_below(source, choice.amount))
            game.act(decision.seat, choice)
    return game


@pytest.mark.parametrize("name", shipped_profile_names())
def test_d_gen_14_corrected_rounds_replay_and_settle_as_the_engine_paid(name: str) -> None:
    source = SeededRandomSource(f"corrections {name}")
    corrected = 0
    for _ in range(ROUNDS):
        game = _random_round(name, source)
        assert replay(game.events).events == game.events
        document = document_of(game.events)
        corrected += bool(document.get("corrections"))
        settled = settle_document(document)
        result = game.results()
        paid = {seat["seat"]: seat["net"] for seat in settled["seats"]}
        assert paid == {seat: json_number(result.net(seat)) for seat in result.seats()}, document
        assert sum((result.net(seat) for seat in result.seats()), Fraction(0)) == -result.house_net
    assert corrected >= ROUNDS // 4  # the corrections did happen
