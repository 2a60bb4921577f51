"""The blackjack round's machinery beyond the shipped profiles: the peek deal, H17, the
strict state machine (R12) and what a seat may see (R6)."""

from __future__ import annotations

import copy

import pytest

from croupier.cards import parse_cards
from croupier.errors import AmountError, BetError, IllegalActionError, ReplayError
from croupier.games.base import Action
from croupier.games.blackjack import BlackjackRound, Phase
from croupier.games.events import Settled
from croupier.games.replay import replay
from croupier.hands.blackjack import dealer_should_draw, hand_value, is_hard_total_in
from croupier.randomness import SeededRandomSource, uniform_below
from croupier.rules import load_profile
from croupier.rules.blackjack import BlackjackRules, HoleCard
from croupier.shoe import Shoe


def _profile(name: str = "peru-2016", **changes: object) -> BlackjackRules:
    profile = load_profile(name)
    assert isinstance(profile, BlackjackRules)
    return profile.model_copy(update=changes) if changes else profile


def _round(profile: BlackjackRules, shoe: str, bets: dict[int, int]) -> BlackjackRound:
    game = BlackjackRound(profile, Shoe.parse(shoe, decks=profile.decks))
    for seat, amount in bets.items():
        game.place_bet(seat, "main", amount)
    game.deal()
    return game


def _snapshot(game: BlackjackRound) -> tuple[object, ...]:
    return (
        list(game.events),
        game.phase,
        copy.deepcopy(game.boxes),
        list(game.dealer),
        game.shoe.position,
    )


# --- peek ------------------------------------------------------------------------------------


def test_peek_under_a_ten_a_dealer_blackjack_ends_the_round_at_once():
    game = _round(_profile(hole_card=HoleCard.PEEK), "9s Kc 9d As 5h", {1: 10})
    assert game.is_done
    assert [(w.result, w.payout) for w in game.results().wagers] == [("lose", 0)]
    assert game.shoe.position == 4  # nobody drew


def test_peek_under_an_ace_the_round_ends_after_insurance():
    game = _round(_profile(hole_card=HoleCard.PEEK), "9s Ac 9d Kh 5h", {1: 10})
    assert game.phase is Phase.INSURANCE
    game.act(1, Action("insurance", 5))
    assert game.is_done
    assert [(w.wager, w.result, w.payout) for w in game.results().wagers] == [
        ("insurance", "win", 15),
        ("main", "lose", 0),
    ]


def test_peek_without_a_blackjack_play_goes_on_and_the_hole_card_stays_hidden():
    game = _round(_profile(hole_card=HoleCard.PEEK), "9s Ac 9d 7h 5h", {1: 10})
    game.act(1, Action("insurance", 5))
    assert game.phase is Phase.PLAYER_TURNS
    assert next(e for e in game.events if isinstance(e, Settled)).result == "lose"
    assert game.view(1)["dealer"]["cards"] == ["Ac", "??"]
    game.act(1, Action("stand"))
    assert game.dealer_cards == ["Ac", "7h"]


def test_dealer_hits_soft_17_where_the_profile_says_so():
    profile = _profile(dealer_hits_soft_17=True)
    assert dealer_should_draw(parse_cards("As 6d"), profile)
    assert not dealer_should_draw(parse_cards("As 6d"), _profile())
    assert not dealer_should_draw(parse_cards("Ts 7d"), profile)
    game = _round(profile, "Th 6c 9d As 2s", {1: 10})
    game.act(1, Action("stand"))
    assert game.dealer_cards == ["6c", "As", "2s"]


def test_hand_values():
    assert hand_value(parse_cards("As Ad")) == (12, True)
    assert hand_value(parse_cards("As Ad Kc")) == (12, False)
    assert hand_value(parse_cards("As 5d 5c")) == (21, True)
    assert not is_hard_total_in(parse_cards("As 8d"), 9, 11)
    assert is_hard_total_in(parse_cards("4s 5d"), 9, 11)


# --- R12: the strict state machine ---------------------------------------------------------


def test_bets_after_no_more_bets_are_refused_and_change_nothing():
    game = _round(_profile(), "Th 9c 9d 7s Kd", {1: 10})
    before = _snapshot(game)
    with pytest.raises(IllegalActionError, match="bets are closed"):
        game.place_bet(2, "main", 10)
    with pytest.raises(IllegalActionError, match="not betting"):
        game.deal()
    assert _snapshot(game) == before


@pytest.mark.parametrize(
    ("seat", "wager", "amount", "error", "why"),
    [
        (0, "main", 10, BetError, "boxes are numbered 1 to 7"),
        (8, "main", 10, BetError, "boxes are numbered 1 to 7"),
        (1, "tie", 10, BetError, "unknown wager 'tie'"),
        (1, "main", 10001, BetError, "outside the limits 1 to 10000"),
        (1, "main", -1, AmountError, "negative"),
        (1, "main", 2.5, AmountError, "not a whole number"),
        (1, "main", float("nan"), AmountError, "not a finite number"),
        (1, "main", True, AmountError, "not a number"),
    ],
)
def test_bad_bets_are_refused_and_change_nothing(seat, wager, amount, error, why):
    game = BlackjackRound(_profile(), Shoe.parse("Th 9c 9d 7s", decks=6))
    before = _snapshot(game)
    with pytest.raises(error, match=why):
        game.place_bet(seat, wager, amount)
    assert _snapshot(game) == before


def test_no_side_bet_where_the_profile_has_none():
    game = BlackjackRound(_profile("spain-1979"), Shoe.parse("Th 9c 9d 7s", decks=6))
    with pytest.raises(BetError, match="unknown wager '21\\+3' under spain-1979"):
        game.place_bet(1, "21+3", 5)


def test_actions_after_stand_or_bust_or_after_the_round_are_refused():
    game = _round(_profile(), "Th 9c 6d 7s 5d Kd Ts 4h", {1: 10, 2: 10})
    game.act(1, Action("stand"))
    with pytest.raises(IllegalActionError, match="seat 1: hit refused: it is seat 2's turn"):
        game.act(1, Action("hit"))
    game.act(2, Action("hit"))  # 9 5 T: bust; the dealer plays against seat 1
    assert game.is_done
    before = _snapshot(game)
    with pytest.raises(IllegalActionError, match="no decision is awaited: the round is in done"):
        game.act(2, Action("stand"))
    assert _snapshot(game) == before


def test_double_after_hit_refused_and_unknown_actions_refused():
    game = _round(_profile(), "5h 9c 4d 7s 2c Kd", {1: 10})
    game.act(1, Action("hit"))
    before = _snapshot(game)
    for action in (Action("double"), Action("surrender"), Action("hit", 5), Action("insurance", 5)):
        with pytest.raises(IllegalActionError, match=f"seat 1: {action} refused"):
            game.act(1, action)
    assert _snapshot(game) == before
    assert [str(a) for a in game.legal_actions()] == ["hit", "stand"]


def test_results_before_the_end_are_refused():
    game = _round(_profile(), "Th 9c 9d 7s Kd", {1: 10})
    with pytest.raises(IllegalActionError, match="no results yet"):
        game.results()


# --- R6: what a seat may see ---------------------------------------------------------------


def test_view_hides_the_hole_card_and_the_shoe_until_revealed():
    game = _round(_profile(), "Th 9c 9d Qs 5h 4h", {1: 10})
    view = game.view(1)
    assert view["dealer"] == {"cards": ["9c", "??"], "total": 9}
    assert "Qs" not in str(view) and "5h" not in str(view)
    assert view["legal_actions"] == ["hit", "stand", "double 10"]
    assert game.view(2)["legal_actions"] == []  # not seat 2's decision
    game.act(1, Action("stand"))
    assert game.view(None)["dealer"] == {"cards": ["9c", "Qs"], "total": 19}


def test_replay_refuses_a_tampered_record():
    game = _round(_profile(), "Th 9c 9d 7s Kd", {1: 10})
    game.act(1, Action("stand"))
    tampered = list(game.events)
    last_settled = max(i for i, e in enumerate(tampered) if isinstance(e, Settled))
    item = tampered[last_settled]
    assert isinstance(item, Settled)
    tampered[last_settled] = Settled(
        seat=item.seat,
        wager=item.wager,
        stake=item.stake,
        payout=item.payout * 2,
        result=item.result,
        hand=item.hand,
    )
    with pytest.raises(Exception, match="diverges at event"):
        replay(tampered)


# --- a round that cannot go on (R11; Veintiuno Real sheet item 14) ------------------------


def test_void_returns_every_stake_still_in_play_and_replays():
    """A bust and a settled 21+3 stand; the split hand still in play is returned."""
    profile = _profile()
    game = BlackjackRound(profile, Shoe.parse("8s 6c 8h Td 6d Kc 3h", decks=6))
    game.place_bet(1, "main", 10)
    game.place_bet(1, "21+3", 5)
    game.deal()
    game.act(1, Action("split"))
    game.act(1, Action("hit"))  # 8s 6d Kc: bust, lost at once
    assert game.pending() is not None and game.pending().hand == 1
    game.void("confused deal")
    assert game.is_done
    assert [(w.wager, w.hand, w.result, w.stake, w.payout) for w in game.results().wagers] == [
        ("21+3", None, "none", 5, 0),
        ("main", 0, "bust", 10, 0),
        ("main", 1, "void", 10, 10),
    ]
    assert replay(game.events).events == game.events
    with pytest.raises(IllegalActionError, match="already over"):
        game.void("again")


def test_void_returns_an_open_insurance_bet():
    game = _round(_profile(), "9s Ac 9d 7h", {1: 10})
    game.act(1, Action("insurance", 5))
    game.void("interrupted and not restorable")
    assert [(w.wager, w.result, w.payout) for w in game.results().wagers] == [
        ("insurance", "void", 5),
        ("main", "void", 10),
    ]
    assert replay(game.events).events == game.events


def test_can_act_agrees_with_legal_actions():
    game = _round(_profile(), "8s As 8h Kd 3c", {1: 10})

    def can(seat: int, text: str) -> bool:
        return game.can_act(seat, Action.parse(text))

    assert can(1, "insurance") and can(1, "insurance 5") and not can(1, "insurance 6")
    assert not can(1, "even-money") and not can(1, "hit")
    game.act(1, Action("no-insurance"))
    assert all(can(1, text) for text in ("hit", "stand", "double", "double 10", "split"))
    assert not can(1, "double 11") and not can(2, "hit")
    assert [str(a) for a in game.legal_actions()] == ["hit", "stand", "double 10", "split"]


def test_a_bust_under_a_face_down_double_card_is_settled_when_turned():
    """A profile that doubles any two cards face down: nobody knows of the bust until the
    card is turned, so the dealer plays on and the bust is settled with the others (still a
    bust: final, whatever the dealer holds)."""
    profile = _profile(double_card_face_down=True)
    game = _round(profile, "Th 9c 6d 7h Ks 2c", {1: 10})
    game.act(1, Action("double"))
    assert game.is_done
    assert game.dealer_cards == ["9c", "7h", "2c"]  # the dealer drew against a hidden hand
    kinds = [e.kind for e in game.events]
    assert kinds.index("HoleCardRevealed") < kinds.index("Settled")
    assert [(w.result, w.stake, w.payout) for w in game.results().wagers] == [("bust", 20, 0)]
    assert replay(game.events, profile).events == game.events


def test_a_profile_whose_dealer_draws_with_no_hand_left():
    """``dealer_draws_when_no_hand_remains = true`` (no shipped profile): the dealer plays his
    hand out even when every hand is settled; without it he only reveals."""
    shoe = "Th 6c 6d Tc Ks 5h"
    drawing = _round(_profile(dealer_draws_when_no_hand_remains=True), shoe, {1: 10})
    drawing.act(1, Action("hit"))
    assert drawing.dealer_cards == ["6c", "Tc", "5h"]
    revealing = _round(_profile(), shoe, {1: 10})
    revealing.act(1, Action("hit"))
    assert revealing.dealer_cards == ["6c", "Tc"]
    spain = _profile("spain-1979", dealer_draws_when_no_hand_remains=True)
    game = _round(spain, "Th 6c 6d Ks 5h 9d", {1: 10})
    game.act(1, Action("hit"))
    assert game.dealer_cards == ["6c", "5h", "9d"]


def test_an_unfinished_round_recovers_on_the_live_shoe_and_goes_on():
    """R11/R14: the record of a round interrupted mid-play, replayed on the shoe rebuilt from
    its seed, is the same round waiting for the same decision; it then finishes exactly as the
    uninterrupted round does."""
    profile = _profile("peru-2016")

    def shoe() -> Shoe:
        return Shoe.shuffled(6, SeededRandomSource("recovery"), cut_card_from_bottom=78)

    original = BlackjackRound(profile, shoe(), new_shoe=True)
    for seat in (2, 4, 6):
        original.place_bet(seat, "main", 10)
    original.deal()
    interrupted_at = list(original.events)
    recovered = replay(interrupted_at, shoe=shoe())
    assert recovered.events == interrupted_at
    assert recovered.pending() == original.pending()
    choices = SeededRandomSource("choices")
    while not original.is_done:
        decision = original.pending()
        assert decision is not None
        action = decision.legal[uniform_below(choices, len(decision.legal))]
        original.act(decision.seat, action)
        recovered.act(decision.seat, action)
    assert recovered.events == original.events
    assert recovered.results() == original.results()


def test_an_edited_record_does_not_replay() -> None:
    """docs/rules.md §6: the record replays and audits; an edit (here, a payout) is caught."""
    profile = load_profile("peru-2016")
    assert isinstance(profile, BlackjackRules)
    game = BlackjackRound(profile, Shoe.parse("Th 9c 9d 7s Kd", decks=6))
    game.place_bet(1, "main", 10)
    game.deal()
    game.act(1, Action("stand"))
    edited = [
        Settled(
            seat=e.seat,
            wager=e.wager,
            stake=e.stake,
            payout=e.payout + 1,
            result=e.result,
            hand=e.hand,
        )
        if isinstance(e, Settled)
        else e
        for e in game.events
    ]
    with pytest.raises(ReplayError, match="diverges at event"):
        replay(edited)
    with pytest.raises(ReplayError, match="starts with RoundStarted"):
        replay(game.events[1:])
