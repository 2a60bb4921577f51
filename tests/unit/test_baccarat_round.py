"""The baccarat round as a state machine: phases, what each seat may see (R6), and replay of
its record, which refuses a record that the rules do not reproduce (R14)."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest

from croupier.cards import Card
from croupier.errors import IllegalActionError, ProfileError, ReplayError, ShoeError
from croupier.games.baccarat import BaccaratRound, Phase
from croupier.games.events import CardDrawn, Event, RoundStarted, Settled
from croupier.games.replay import replay
from croupier.hands.baccarat import play_coup
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.registry import load_profile_of
from croupier.shoe import Shoe

PROFILE = load_profile_of("baccarat", "dragon-six-peru-2016")
assert isinstance(PROFILE, BaccaratRules)


def dealt_round(shoe: str = "Ks 4h 2d 2c 3c 9s 8h") -> BaccaratRound:
    coup = BaccaratRound(PROFILE, Shoe.parse(shoe))
    coup.place_bet(1, "banker", 10)
    coup.place_bet(2, "player", 4)
    coup.place_bet(2, "player_pair", 1)
    coup.deal()
    return coup


def test_phases_run_in_regulation_order() -> None:
    coup = BaccaratRound(PROFILE, Shoe.parse("9s 7h Ts Kh"))
    assert coup.phase is Phase.BETTING
    assert not coup.is_done
    with pytest.raises(IllegalActionError, match="not been settled"):
        coup.results()
    with pytest.raises(IllegalActionError, match="not been decided"):
        _ = coup.winner
    coup.deal()
    assert coup.phase is Phase.DONE and coup.is_done
    with pytest.raises(IllegalActionError, match="past betting"):
        coup.deal()


def test_a_round_with_no_bets_is_dealt_and_settles_nothing() -> None:
    coup = BaccaratRound(PROFILE, Shoe.parse("9s 7h Ts Kh"))
    coup.deal()
    assert coup.results().wagers == ()
    assert coup.winner.value == "player"


def test_the_view_shows_the_cards_dealt_the_bets_on_the_layout_and_nothing_of_the_shoe() -> None:
    """Art. 10: every card is dealt face up and the bets lie on the layout for all to see; of
    the shoe, nothing (the cut card's signal is an event of the record)."""
    coup = BaccaratRound(PROFILE, Shoe.parse("Ks 4h 2d 2c 3c 9s 8h"))
    coup.place_bet(1, "banker", 10)
    coup.place_bet(2, "tie", 3)
    before = coup.view(1)
    assert before["player"] == {"cards": [], "total": 0}
    assert [(s["seat"], s["bets"]) for s in before["seats"]] == [
        (1, {"banker": 10}),
        (2, {"tie": 3}),
    ]
    assert before["winner"] is None
    coup.deal()
    seat_two = coup.view(2)
    assert seat_two["player"] == {"cards": ["Ks", "2d", "3c"], "total": 5}
    assert seat_two["banker"] == {"cards": ["4h", "2c"], "total": 6}
    assert seat_two["winner"] == "banker"
    tie = {"seat": 2, "wager": "tie", "hand": None, "stake": 3, "payout": 0, "result": "lose"}
    assert seat_two["seats"][1]["results"] == [tie]
    public = coup.view(None)
    assert public["seats"] == seat_two["seats"] and public["viewer"] is None
    # The undealt 9s and 8h appear nowhere.
    for view in (before, seat_two, public):
        text = json.dumps(view)
        assert "9s" not in text and "8h" not in text


def test_a_profile_of_another_game_or_a_shoe_of_other_decks_is_refused() -> None:
    blackjack = load_profile_of("blackjack", "peru-2016")
    with pytest.raises(ProfileError, match="not baccarat"):
        BaccaratRound(blackjack, Shoe.parse("9s 7h Ts Kh"))  # type: ignore[arg-type]
    with pytest.raises(ShoeError, match="a shoe of 6 decks under a profile of 8"):
        BaccaratRound(PROFILE, Shoe.parse("9s 7h Ts Kh", decks=6))


def test_a_shoe_that_runs_out_mid_coup_is_a_shoe_error() -> None:
    coup = BaccaratRound(PROFILE, Shoe.parse("Ks Kh 2d 2c"))
    with pytest.raises(ShoeError, match="empty"):
        coup.deal()


def test_replay_rebuilds_the_identical_round() -> None:
    coup = dealt_round()
    again = replay(coup.events)
    assert again.events == coup.events
    assert again.results() == coup.results()
    assert again.view(2) == coup.view(2)


def test_replay_of_a_round_still_in_betting() -> None:
    coup = BaccaratRound(PROFILE, Shoe.parse("Ks 4h 2d 2c 3c"))
    coup.place_bet(1, "tie", 5)
    again = replay(coup.events)
    assert again.phase is Phase.BETTING
    assert again.bets == {1: {"tie": 5}}


def tampered(events: list[Event], index: int, **changes: object) -> list[Event]:
    edited = list(events)
    edited[index] = dataclasses.replace(edited[index], **changes)  # type: ignore[type-var]
    return edited


def test_replay_refuses_a_changed_payout() -> None:
    events = dealt_round().events
    index = next(i for i, e in enumerate(events) if isinstance(e, Settled))
    with pytest.raises(ReplayError, match=f"event {index}: recorded Settled"):
        replay(tampered(events, index, payout=Fraction(20)))


def test_replay_refuses_a_card_moved_to_the_other_side() -> None:
    events = dealt_round().events
    index = next(i for i, e in enumerate(events) if isinstance(e, CardDrawn))
    with pytest.raises(ReplayError, match=f"event {index}"):
        replay(tampered(events, index, purpose="banker"))


def test_replay_refuses_a_card_the_tableau_would_not_draw() -> None:
    """Banker 6 stood on a Player third card of 3 (Art. 11): a recorded Banker third card
    cannot be."""
    events = dealt_round().events
    at = max(i for i, e in enumerate(events) if isinstance(e, CardDrawn)) + 1
    extra = CardDrawn(card=Card.parse("9s"), purpose="banker")
    with pytest.raises(ReplayError, match=f"event {at}"):
        replay([*events[:at], extra, *events[at:]])


def test_replay_refuses_a_truncated_record_and_a_foreign_one() -> None:
    events = dealt_round().events
    assert len(events) == 15
    with pytest.raises(ReplayError, match="has 14 events, its replay 15"):
        replay(events[:-1])
    # A record that names another game is replayed as that game, and its events part at once.
    with pytest.raises(ReplayError, match=r"does not replay|diverges"):
        replay([RoundStarted(game="blackjack", profile="peru-2016"), *events[1:]])
    with pytest.raises(ReplayError, match="starts with RoundStarted"):
        replay([])


def test_replay_refuses_an_illegal_recorded_bet() -> None:
    events = dealt_round().events
    index = next(i for i, e in enumerate(events) if e.kind == "BetPlaced")
    with pytest.raises(ReplayError, match="does not replay: zone 1 banker: 20000"):
        replay(tampered(events, index, amount=Fraction(20000)))


def test_play_coup_needs_the_cards_the_tableau_asks_for() -> None:
    with pytest.raises(ShoeError, match="at least 4 cards, not 3"):
        play_coup([1, 2, 3])
    with pytest.raises(ShoeError, match="Banker's third card is card 6: only 5 given"):
        play_coup([0, 0, 2, 2, 5])


def test_a_voided_round_returns_every_stake() -> None:
    """docs/rules.md §6 and R11: a round that cannot go on returns every stake, on the record."""
    coup = BaccaratRound(PROFILE, Shoe.parse("9s 7h Ts Kh"))
    coup.place_bet(1, "banker", 10)
    coup.place_bet(1, "tie", 2)
    coup.void("table closed")
    assert coup.is_done
    assert [(w.wager, w.payout, w.result) for w in coup.results().wagers] == [
        ("banker", Fraction(10), "void"),
        ("tie", Fraction(2), "void"),
    ]
    assert coup.results().net(1) == 0
    assert [e.kind for e in coup.events][-4:] == ["RoundVoided", "Settled", "Settled", "RoundEnded"]
    assert replay(coup.events).events == coup.events
    with pytest.raises(IllegalActionError, match="bets are closed"):
        coup.place_bet(1, "tie", 2)


def test_a_shoe_that_runs_out_mid_coup_can_be_voided_and_replayed() -> None:
    coup = BaccaratRound(PROFILE, Shoe.parse("Ks Kh 2d 2c"))
    coup.place_bet(3, "player", 5)
    with pytest.raises(ShoeError):
        coup.deal()
    coup.void("the shoe ran out")
    assert coup.results().returned(3) == 5
    assert replay(coup.events).events == coup.events


def test_a_settled_round_cannot_be_voided() -> None:
    coup = dealt_round()
    with pytest.raises(IllegalActionError, match="already settled"):
        coup.void("too late")


def test_random_rounds_are_legal_reproducible_and_replay() -> None:
    """``random_round`` (benchmarks) bets legally from its source alone; a fresh shoe is burnt
    first (Art. 6 d))."""
    from croupier.games.base import random_round
    from croupier.randomness import SeededRandomSource

    def session(seed: str) -> list[list[Event]]:
        source = SeededRandomSource(seed)
        shoe = Shoe.shuffled(8, source, cut_card_from_bottom=16)
        first = shoe.peek_order()[0]
        rounds = [random_round(PROFILE, shoe, source, new_shoe=True, most_bet=20)]
        burnt = 1 + (1 if first.rank.symbol == "A" else min(first.rank.value, 10))
        dealt = [e for e in rounds[0].events if isinstance(e, CardDrawn)]
        assert [e.purpose for e in dealt[: burnt + 1]] == ["burn"] * burnt + ["player"]
        assert [e.card for e in dealt] == list(shoe.peek_order()[: len(dealt)])
        rounds += [random_round(PROFILE, shoe, source, most_bet=20) for _ in range(30)]
        for coup in rounds:
            assert replay(coup.events).events == coup.events
            for zone, bets in coup.bets.items():
                assert not {"player", "banker"} <= set(bets)
                assert all(1 <= units <= 20 for units in bets.values()), zone
        return [coup.events for coup in rounds]

    first = session("random")
    assert first == session("random")
    assert first != session("other")
    assert sum(e.kind == "Settled" for coup in first for e in coup) > 30


def test_a_round_interrupted_in_betting_is_recovered_on_its_live_shoe() -> None:
    """R11: the record of a round whose bets were open, replayed on the live shoe as it stood
    when the round started, gives back the round ready to go on, and it deals what the
    uninterrupted round would have dealt."""
    from croupier.randomness import SeededRandomSource

    def live_shoe() -> Shoe:
        return Shoe.shuffled(8, SeededRandomSource(b"interrupted"), cut_card_from_bottom=16)

    original = BaccaratRound(PROFILE, live_shoe(), new_shoe=True)
    original.place_bet(4, "banker", 25)
    recovered = replay(list(original.events), shoe=live_shoe())
    assert recovered.phase is Phase.BETTING
    assert recovered.bets == {4: {"banker": 25}}
    recovered.place_bet(5, "tie", 1)
    original.place_bet(5, "tie", 1)
    recovered.deal()
    original.deal()
    assert recovered.events == original.events
    with pytest.raises(ReplayError, match="event"):
        replay(list(original.events), shoe=Shoe.shuffled(8, SeededRandomSource(b"other")))
