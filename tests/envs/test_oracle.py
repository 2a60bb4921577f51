"""The exact answer beside each step (issue 30, item 2): ``oracle=True``'s values against the
analysis they come from, and against the engine itself, dealt out over every card the dealer
may draw."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis import blackjack_exact as exact
from croupier.analysis.blackjack import Game
from croupier.analysis.dealer import full_shoe
from croupier.cards import Card
from croupier.envs.oracle import analysis_rank
from croupier.envs.table import CroupierEnv, Stage
from croupier.errors import SettleInputError, ShoeError
from croupier.rules import load_profile
from croupier.settle import settle_document

RULES = "peru-2016"
RANK_CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
TENS = ("T", "J", "Q", "K")
SUITS = "cdhs"


def _first_play_decision(seed: int) -> tuple[CroupierEnv, dict]:
    """The first round of a fresh shoe at its first hand decision (no insurance asked)."""
    env = CroupierEnv(RULES, oracle=True)
    while True:
        _, info = env.reset(seed=seed)
        _, _, done, _, info = env.step(env.catalogue.index("bet-1x"))
        if (
            not done
            and "stand" in info["legal_actions"]
            and len(env.game_round.current()[1].cards) == 2
        ):
            return env, info
        seed += 1


def test_values_off_the_top_are_the_analysis_s():
    """A fresh shoe's first hand: the box has seen its two cards and the up card only (the
    burn is face down), so its shoe is the analysis's full shoe less the up card."""
    env, info = _first_play_decision(11)
    hand = env.game_round.current()[1].cards
    up = analysis_rank(env.game_round.up_card.rank)
    rules = Game.of(load_profile(RULES)).exact_rules()
    values = exact.up_card(rules, up).optimal()
    index = exact.compositions().of(*(analysis_rank(card.rank) for card in hand))
    names = env.catalogue.names
    given = {names[i]: value for i, value in info["action_values"].items()}
    assert given["stand"] == pytest.approx(values[0, index], abs=1e-12)
    assert given["hit"] == pytest.approx(values[1, index], abs=1e-12)
    assert given["double"] == pytest.approx(values[2, index], abs=1e-12)
    # A double for less lies between one card on the stake alone and the full double.
    assert (
        given["double"] < given["double-3/4"] < given["double-1/2"]
        or given["double"] > given["double-3/4"] > given["double-1/2"]
    )


def test_regret_is_the_best_value_less_the_chosen_one():
    env, info = _first_play_decision(40)
    values = info["action_values"]
    worst = min(values, key=values.get)
    best = max(values.values())
    _, _, _, _, after = env.step(worst)
    assert after["regret"] == pytest.approx(best - values[worst], abs=0)
    assert after["regret"] > 0


def _card(rank: int, used: dict[str, int]) -> str:
    """A card of analysis rank ``rank`` not given yet as often as six decks hold it."""
    labels = TENS if rank == 9 else (RANK_CARDS[rank],)
    for label in labels:
        for suit in SUITS:
            text = label + suit
            if used.get(text, 0) < 6:
                used[text] = used.get(text, 0) + 1
                return text
    raise AssertionError("no card left")


def _stand_by_the_engine(hand: list[str], up: str, unknown: np.ndarray) -> Fraction:
    """The stand's expected net per unit, the dealer's hole card and draws dealt from the
    unknown cards in every order the engine asks for them, each round settled by
    ``croupier settle`` (Peru 2016: hole card dealt, Art. 13; the dealer's drawing, Art. 14)."""

    def walk(drawn: list[int], counts: np.ndarray) -> Fraction:
        used: dict[str, int] = {}
        for text in (*hand, up):
            used[text] = used.get(text, 0) + 1
        dealer = [_card(rank, used) for rank in drawn]
        shoe = [hand[0], up, hand[1], *dealer]
        document = {
            "game": "blackjack",
            "rules": RULES,
            "shoe": shoe,
            "seats": [{"seat": 1, "bets": {"main": 1}, "actions": ["stand"]}],
        }
        try:
            return Fraction(settle_document(document)["seats"][0]["net"])
        except (ShoeError, SettleInputError) as error:
            assert "shoe" in str(error) or "ran out" in str(error) or "empty" in str(error), error
        total = int(counts.sum())
        value = Fraction(0)
        for rank in range(10):
            if counts[rank]:
                rest = counts.copy()
                rest[rank] -= 1
                value += Fraction(int(counts[rank]), total) * walk([*drawn, rank], rest)
        return value

    return walk([], unknown.copy())


def test_stand_value_is_the_engine_s_own_expectation():
    """The oracle's stand against every order of the dealer's cards through the engine (3c
    Js against a King: 321 rounds settled)."""
    env, info = _first_play_decision(3)
    game_round = env.game_round
    hand = [str(card) for card in game_round.current()[1].cards]
    up = str(game_round.up_card)
    unknown = full_shoe(6)
    for text in (*hand, up):
        unknown[analysis_rank(Card.parse(text).rank)] -= 1
    expected = _stand_by_the_engine(hand, up, unknown)
    stand = info["action_values"][env.catalogue.index("stand")]
    assert math.isclose(stand, float(expected), abs_tol=1e-12)
    assert env.stage == Stage.DECIDE
