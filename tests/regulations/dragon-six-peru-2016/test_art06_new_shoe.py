"""Art. 6, "De los procedimientos obligatorios cuando aparece el cortador": shuffle, cut,
place the cut card "a no menos de 12 cartas de la base", and burn: "sacar una carta la cual
indicará el número de cartas que tendrá que quemar" (docs/rules.md §4: A=1, 2-9 face value, ten
and faces = 10). The round in which the cut card appears is the last of its shoe."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.cards import Card
from croupier.errors import CardNeeded, ProfileError
from croupier.games.baccarat import BaccaratRound, LastRoundOfShoe, NewShoe, burn, new_shoe
from croupier.games.events import CardDrawn
from croupier.games.replay import deal_on, replay
from croupier.randomness import SeededRandomSource
from croupier.rules.registry import parse_profile
from croupier.shoe import PhysicalShoe, Shoe

PROFILE_FILE = (
    Path(__file__).resolve().parents[3] / "src/croupier/rules/profiles/dragon-six-peru-2016.toml"
)

BURNS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9}
BURNS |= {"T": 10, "J": 10, "Q": 10, "K": 10}


@pytest.mark.parametrize(("rank", "burnt"), BURNS.items())
def test_art06_d_the_first_card_burns_as_many_more_as_its_value(rank: str, burnt: int) -> None:
    cards = f"{rank}s " + " ".join(["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh"])
    shoe = Shoe.parse(cards + " Ad Kd", decks=8)
    events = burn(shoe)
    assert [(str(e.card), e.purpose) for e in events] == [
        (card, "burn") for card in cards.split()[: 1 + burnt]
    ]
    assert shoe.position == 1 + burnt
    assert str(shoe).startswith(cards.split()[1 + burnt] if burnt < 10 else "Ad")


def test_art06_a_to_d_a_new_shoe_is_shuffled_cut_card_placed_and_burnt(profile) -> None:
    shoe, events = new_shoe(profile, SeededRandomSource(b"art06"))
    assert shoe.size == 8 * 52
    assert events[0] == NewShoe(decks=8, cards=416, cut_card_from_bottom=16)
    # Art. 6 b): the cut card "a no menos de 12 cartas de la base" (decision: 16).
    assert shoe.cut_card_at is not None
    assert shoe.size - shoe.cut_card_at == profile.shoe.cut_card_from_bottom == 16
    assert profile.shoe.minimum_cut_card_from_bottom == 12
    drawn = [event for event in events[1:] if isinstance(event, CardDrawn)]
    first = drawn[0].card
    expected = 1 if first.rank.symbol == "A" else min(first.rank.value, 10)
    assert len(drawn) == 1 + expected == shoe.position
    assert all(event.purpose == "burn" for event in drawn)
    assert [event.card for event in drawn] == list(shoe.peek_order()[: shoe.position])


def test_art06_b_the_same_seed_makes_the_same_shoe(profile) -> None:
    first, first_events = new_shoe(profile, SeededRandomSource(b"same"))
    again, again_events = new_shoe(profile, SeededRandomSource(b"same"))
    other, _ = new_shoe(profile, SeededRandomSource(b"other"))
    assert first.peek_order() == again.peek_order() != other.peek_order()
    assert first_events == again_events


@pytest.mark.parametrize("from_bottom", [11, 0])
def test_art06_b_a_profile_with_the_cut_card_under_12_from_the_bottom_is_refused(
    from_bottom: int,
) -> None:
    text = PROFILE_FILE.read_text(encoding="utf-8").replace(
        "cut_card_from_bottom = 16", f"cut_card_from_bottom = {from_bottom}"
    )
    with pytest.raises(ProfileError, match=r"Art\. 6 needs at least 12"):
        parse_profile(text, "short-cut.toml")


def test_art06_b_twelve_from_the_bottom_is_allowed() -> None:
    text = PROFILE_FILE.read_text(encoding="utf-8").replace(
        "cut_card_from_bottom = 16", "cut_card_from_bottom = 12"
    )
    profile = parse_profile(text, "twelve.toml")
    shoe, _ = new_shoe(profile, SeededRandomSource(b"twelve"))  # type: ignore[arg-type]
    assert shoe.size - shoe.cut_card_at == 12


def test_art06_the_round_in_which_the_cut_card_appears_is_the_last(profile) -> None:
    """ "Cuando en una partida aparece el cortador y antes de empezar otra partida" the new
    shoe is prepared: the signal comes right after the card behind which the cut card sat."""
    cards = [
        Card.parse(text) for text in ["9s", "7h", "Ts", "Kh", "2s", "3h", "4d", "5c", "9d", "9c"]
    ]
    shoe = Shoe(cards, decks=8, cut_card_at=7)
    first = BaccaratRound(profile, shoe)
    first.deal()  # P 9, B 7: four cards
    assert not first.is_last_round_of_shoe
    assert not any(isinstance(event, LastRoundOfShoe) for event in first.events)
    second = BaccaratRound(profile, shoe)
    second.deal()  # P 2+4 = 6 stands, B 3+5 = 8 natural: four cards, the cut card after 7
    assert second.is_last_round_of_shoe
    kinds = [event.kind for event in second.events]
    signal = kinds.index("LastRoundOfShoe")
    assert [e.card for e in second.events[:signal] if isinstance(e, CardDrawn)][-1] == cards[6]
    assert kinds.count("LastRoundOfShoe") == 1


def test_art06_a_round_begun_after_the_cut_card_came_out_says_so_at_once(profile) -> None:
    shoe = Shoe([Card.parse(text) for text in ["9s", "7h", "Ts", "Kh"]], decks=8, cut_card_at=0)
    coup = BaccaratRound(profile, shoe)
    assert [event.kind for event in coup.events] == ["RoundStarted", "LastRoundOfShoe"]
    assert coup.is_last_round_of_shoe


def test_art06_d_the_first_round_of_a_fresh_shoe_opens_with_the_burn(profile) -> None:
    """ "Antes de iniciar la partida, el dealer procederá a sacar una carta la cual indicará el
    número de cartas que tendrá que quemar": in the round's own record, before any bet."""
    shoe = Shoe.parse("3d 9s 9h 9c 8s 7h Ts Kh")
    coup = BaccaratRound(profile, shoe, new_shoe=True)
    assert [(e.kind, getattr(e, "purpose", None)) for e in coup.events] == [
        ("RoundStarted", None),
        ("CardDrawn", "burn"),
        ("CardDrawn", "burn"),
        ("CardDrawn", "burn"),
        ("CardDrawn", "burn"),
    ]
    coup.place_bet(1, "player", 10)
    coup.deal()
    assert [str(card) for card in coup.player_cards] == ["8s", "Ts"]
    assert coup.results().returned(1) == 20
    again = replay(coup.events)
    assert again.events == coup.events


def test_art06_a_physical_shoes_cut_card_seen_by_the_dealer_makes_the_round_its_last(
    profile,
) -> None:
    """Art. 6 at a table dealt by hand: the dealer sees the cut card come out mid-coup
    (``PhysicalShoe.cut_card_out``) and the coup records ``LastRoundOfShoe`` right after the
    next card, as a random shoe's coup does; the record replays with the signal in place."""
    shoe = PhysicalShoe(decks=8)
    coup = BaccaratRound(profile, shoe)
    coup.place_bet(1, "banker", 10)
    for card in ("2s", "3h"):
        shoe.enter(Card.parse(card))
    with pytest.raises(CardNeeded):
        coup.deal()
    assert not coup.is_last_round_of_shoe
    shoe.cut_card_out()  # seen after two cards: the third is past it
    for card in ("4d", "5c"):  # P 2+4 = 6 stands, B 3+5 = 8 natural
        shoe.enter(Card.parse(card))
        dealt = deal_on(coup.events, shoe.at(0), profile)
        assert isinstance(dealt, BaccaratRound)
        coup, shoe = dealt, dealt.shoe  # type: ignore[assignment]
    assert coup.is_done and coup.is_last_round_of_shoe
    kinds = [event.kind for event in coup.events]
    signal = kinds.index("LastRoundOfShoe")
    assert [e.card for e in coup.events[:signal] if isinstance(e, CardDrawn)] == [
        Card.parse(text) for text in ("2s", "3h", "4d")
    ]
    assert kinds.count("LastRoundOfShoe") == 1
    assert replay(coup.events).events == coup.events
