"""Late surrender in the engine (docs/rules.md#D-BJ-32): after the dealer's peek, on an unsplit
hand's first two cards, half the bet returned exactly; the settle JSON and the replay carry it.

The profile is a user's file, ``tests/oracles/six-deck-s17-das-peek-late-surrender.toml``; no
shipped profile offers surrender. Shoes are stacked in dealing order: box 1's first card, the
dealer's up card, box 1's second card, the hole card, then the draws.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.errors import IllegalActionError, ProfileError
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound, Phase
from croupier.games.events import Surrendered
from croupier.games.replay import replay
from croupier.games.settle_document import settle_document
from croupier.ledger import to_minor
from croupier.rules import load_profile
from croupier.rules.blackjack import BlackjackRules, HoleCard
from croupier.shoe import Shoe

LATE_SURRENDER = Path(__file__).parents[1] / "oracles/six-deck-s17-das-peek-late-surrender.toml"


def _profile() -> BlackjackRules:
    profile = load_profile(LATE_SURRENDER)
    assert isinstance(profile, BlackjackRules)
    return profile


def _round(
    shoe: str, bets: dict[int, int], profile: BlackjackRules | None = None
) -> BlackjackRound:
    rules = _profile() if profile is None else profile
    game = BlackjackRound(rules, Shoe.parse(shoe, decks=rules.decks))
    for seat, amount in bets.items():
        game.place_bet(seat, "main", amount)
    game.deal()
    return game


def test_d_bj_32_a_surrendered_16_against_a_ten_gets_half_its_bet_back_at_once() -> None:
    game = _round("Ts Kc 6d 7h 5c", {1: 10})
    assert [str(action) for action in game.legal_actions()] == [
        "hit",
        "stand",
        "double",
        "surrender",
    ]
    game.act(1, Action.parse("surrender"))
    assert game.is_done
    assert [(w.result, w.stake, w.payout) for w in game.results().wagers] == [
        ("surrender", Fraction(10), Fraction(5))
    ]
    # No hand is left: the dealer turns the hole card and draws nothing (the 5c stays).
    assert game.dealer_cards == ["Kc", "7h"]
    assert Surrendered(seat=1, hand=0) in game.events
    assert replay(game.events, game.profile).events == game.events


def test_d_bj_32_half_of_an_odd_bet_is_exact_in_minor_units() -> None:
    game = _round("Ts Kc 6d 7h", {1: 5})
    game.act(1, Action("surrender"))
    (wager,) = game.results().wagers
    assert wager.payout == Fraction(5, 2)
    assert to_minor(wager.payout) == 250


def test_d_bj_32_a_dealer_blackjack_ends_the_round_before_anyone_may_surrender() -> None:
    game = _round("Ts Kc 6d As 5c", {1: 10})
    assert game.is_done
    assert [(w.result, w.payout) for w in game.results().wagers] == [("lose", 0)]


def test_d_bj_32_an_insured_hand_may_surrender_after_the_peek() -> None:
    game = _round("Ts Ac 6d 7h 5c", {1: 10})
    assert game.phase is Phase.INSURANCE
    game.act(1, Action("insurance", 5))
    assert "surrender" in [str(action) for action in game.legal_actions()]
    game.act(1, Action("surrender"))
    assert sorted((w.wager, w.result, w.payout) for w in game.results().wagers) == [
        ("insurance", "lose", 0),
        ("main", "surrender", 5),
    ]


def test_d_bj_32_only_the_first_two_cards_may_surrender() -> None:
    game = _round("Ts Kc 3d 7h 2c", {1: 10})
    game.act(1, Action("hit"))
    assert "surrender" not in [str(action) for action in game.legal_actions()]
    with pytest.raises(IllegalActionError, match="only the first two cards"):
        game.act(1, Action("surrender"))


def test_d_bj_32_a_hand_made_by_a_split_may_not_surrender() -> None:
    # 8-8 against a ten, split: each 8 gets a 6 (14s), neither may surrender.
    game = _round("8s Kc 8d 7h 6c 6h", {1: 10})
    game.act(1, Action("split"))
    assert "surrender" not in [str(action) for action in game.legal_actions()]
    with pytest.raises(IllegalActionError, match="made by a split"):
        game.act(1, Action("surrender"))


def test_d_bj_32_a_profile_without_surrender_offers_none() -> None:
    peek = load_profile("peru-2016").model_copy(update={"hole_card": HoleCard.PEEK})
    assert isinstance(peek, BlackjackRules)
    game = _round("Ts Kc 6d 7h 5c", {1: 10}, peek)
    assert "surrender" not in [str(action) for action in game.legal_actions()]
    with pytest.raises(IllegalActionError, match="offers no surrender"):
        game.act(1, Action("surrender"))


def test_d_bj_32_late_surrender_without_a_peek_is_a_profile_error(tmp_path: Path) -> None:
    text = LATE_SURRENDER.read_text().replace('hole_card = "peek"', 'hole_card = "dealt"')
    path = tmp_path / "no-peek.toml"
    path.write_text(text)
    with pytest.raises(ProfileError, match=r"surrender: 'late' needs hole_card = 'peek'"):
        load_profile(path)


def test_d_bj_32_settle_reports_the_surrendered_hand() -> None:
    document = json.loads(
        json.dumps(
            {
                "game": "blackjack",
                "rules": str(LATE_SURRENDER),
                "shoe": ["Ts", "7h", "Kc", "6d", "9s", "5c", "4d"],
                "seats": [
                    {"seat": 1, "bets": {"main": 10}, "actions": ["surrender"]},
                    {"seat": 2, "bets": {"main": 10}, "actions": ["stand"]},
                ],
            }
        )
    )
    # Dealt seat 1, seat 2, the up card, seat 1, seat 2, the hole card: seat 1 holds Ts 6d,
    # seat 2 7h 9s, the dealer Kc 5c (no blackjack), who draws the 4d for 19.
    result = settle_document(document, _profile())
    seat_one, seat_two = result["seats"]
    assert seat_one["hands"] == [
        {
            "hand": 0,
            "cards": ["Ts", "6d"],
            "bet": 10,
            "total": 16,
            "result": "surrender",
            "payout": 5,
        }
    ]
    assert seat_two["hands"][0]["result"] == "lose"
    assert result["dealer"]["cards"] == ["Kc", "5c", "4d"]
    assert {"kind": "Surrendered", "seat": 1, "hand": 0} in result["events"]
