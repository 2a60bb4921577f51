"""Dragon Six Baccarat Plus (Peru, 2016): one round, laid out in the regulation's order.

Description
    Zones bet on Player (Punto), Banker (Banca), Tie and the two pair bets (Art. 8); bets close
    when the first card leaves the shoe (Art. 7 d)); four cards are dealt P, B, P, B (Art. 10);
    third cards follow the tableau of Art. 11 (``croupier.hands.baccarat``); every wager is
    settled (Art. 8). Nobody decides anything: ``pending()`` is always ``None`` and ``deal()``
    plays the whole round.
Rewards
    Player 1:1; Banker 1:1 but 1:2 on a Banker win with a total of 6; Tie 8:1, Player and
    Banker push on a tie; each pair 11:1 (all from the profile's paytable).
Shoe
    ``new_shoe`` is the procedure of Art. 6 (shuffle, cut, cut card, burn); the round in which
    the cut card comes out is the last of its shoe (``LastRoundOfShoe``).
References
    ``regulations/dragon-six-baccarat-plus-peru-2016.txt``; docs/rules.md §4 and §6.

A whole round on a stacked shoe (Player K, 2 then 3 = 5; Banker 4, 2 = 6 stands on a Player
third card of 3), where the Banker wins with 6 and pays half:

>>> from croupier.rules.registry import load_profile_of
>>> profile = load_profile_of("baccarat", "dragon-six-peru-2016")
>>> round_ = BaccaratRound(profile, Shoe.parse("Ks 4h 2d 2c 3c 9s"))
>>> _ = round_.place_bet(1, "banker", 10)
>>> _ = round_.place_bet(1, "tie", 2)
>>> _ = round_.deal()
>>> [str(card) for card in round_.player_cards], [str(card) for card in round_.banker_cards]
(['Ks', '2d', '3c'], ['4h', '2c'])
>>> round_.player_total, round_.banker_total, round_.winner.value
(5, 6, 'banker')
>>> [(w.wager, w.stake, w.payout, w.result) for w in round_.results().wagers]
[('banker', Fraction(10, 1), Fraction(15, 1), 'win'), ('tie', Fraction(2, 1), Fraction(0, 1), 'lose')]
>>> round_.pending() is None and round_.is_done
True
>>> from croupier.games.replay import replay
>>> replay(round_.events).events == round_.events
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any

from croupier.cards import Card, format_cards
from croupier.errors import (
    BetError,
    IllegalActionError,
    ProfileError,
    SettleInputError,
    ShoeError,
)
from croupier.games.base import Action, GameRound, RoundResult, has_burns, recorded_cards
from croupier.games.corrections import OpenWager
from croupier.games.events import (
    CardDrawn,
    Event,
    Purpose,
    RoundVoided,
    event,
)
from croupier.hands.baccarat import (
    banker_draws,
    burn_count,
    play_coup,
    player_draws,
    points,
    total,
)
from croupier.money import json_number
from croupier.randomness import RandomSource
from croupier.rules.baccarat import BaccaratRules, BaccaratWager, PairBy
from croupier.rules.base import Profile
from croupier.shoe import Shoe

GAME = "baccarat"
WAGER_ORDER = tuple(BaccaratWager)
"""The order in which a zone's wagers are settled and listed."""


class Phase(StrEnum):
    """The round's states, in the regulation's order."""

    BETTING = "betting"
    """Art. 7 d), Art. 8: zones place their wagers until the first card leaves the shoe."""
    DEAL = "deal"
    """Art. 10: four cards, 1st and 3rd to Player, 2nd and 4th to Banker."""
    THIRD_CARDS = "third_cards"
    """Art. 11: Player's third card, then Banker's, by the tableau."""
    SETTLEMENT = "settlement"
    """Art. 8: every wager is paid or collected."""
    DONE = "done"


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


# --- events of this game -------------------------------------------------------------------


@event
class NewShoe(Event):
    """Art. 6 a)-c): a shoe was shuffled, cut, given its cut card and put in the shoe box."""

    decks: int
    cards: int
    cut_card_from_bottom: int


@event
class LastRoundOfShoe(Event):
    """Art. 6: the cut card has come out; after this round the shoe is replaced."""


@event
class CoupDecided(Event):
    """Art. 8: the higher total wins; equal totals are a tie."""

    winner: str
    player_total: int
    banker_total: int


# --- the new-shoe procedure (Art. 6) -------------------------------------------------------


def burn(shoe: Shoe) -> tuple[CardDrawn, ...]:
    """Art. 6 d): the dealer draws one card; its value (A=1, 2-9 face, ten and faces = 10) is
    how many further cards are burnt. Every card taken out is a ``burn`` event."""
    first = shoe.draw()
    burnt = [CardDrawn(card=first, purpose=Purpose.BURN)]
    for _ in range(burn_count(first)):
        burnt.append(CardDrawn(card=shoe.draw(), purpose=Purpose.BURN))
    return tuple(burnt)


def new_shoe(profile: BaccaratRules, source: RandomSource) -> tuple[Shoe, tuple[Event, ...]]:
    """Art. 6: shuffle, cut, place the cut card, burn. Returns the shoe and its events.

    The table calls this before the first round and after every round whose
    ``is_last_round_of_shoe`` is true.
    """
    rules = profile.shoe
    if rules.cut_card_from_bottom < rules.minimum_cut_card_from_bottom:
        # The profile model refuses this already; a shoe must never be made without it.
        raise ProfileError(
            f"shoe.cut_card_from_bottom {rules.cut_card_from_bottom}: Art. 6 b) needs at "
            f"least {rules.minimum_cut_card_from_bottom}"
        )
    shoe = Shoe.shuffled(profile.decks, source, cut_card_from_bottom=rules.cut_card_from_bottom)
    events: list[Event] = [
        NewShoe(
            decks=profile.decks, cards=shoe.size, cut_card_from_bottom=rules.cut_card_from_bottom
        )
    ]
    if rules.burn_by_first_card_value:
        events.extend(burn(shoe))
    return shoe, tuple(events)


# --- settlement of one wager (Art. 8) ------------------------------------------------------


def decide_coup(player_total: int, banker_total: int) -> CoupDecided:
    """Art. 8: the higher total wins; equal totals are a tie."""
    if player_total == banker_total:
        winner = Winner.TIE
    else:
        winner = Winner.PLAYER if player_total > banker_total else Winner.BANKER
    return CoupDecided(winner=winner.value, player_total=player_total, banker_total=banker_total)


def is_pair(cards: Sequence[Card], pair_by: PairBy) -> bool:
    """Art. 8 d): the first two cards make a pair (docs/rules.md §4 decision: by rank)."""
    first, second = cards[0], cards[1]
    if pair_by is PairBy.RANK:
        return first.rank == second.rank
    return points(first) == points(second)


def settle_wager(
    profile: BaccaratRules,
    wager: BaccaratWager,
    stake: Fraction,
    coup: CoupDecided,
    *,
    player_pair: bool,
    banker_pair: bool,
) -> tuple[Fraction, str]:
    """All that ``stake`` on ``wager`` returns (stake included) and ``win``/``lose``/``push``."""
    paytable = profile.paytable
    winner = Winner(coup.winner)
    lost = (Fraction(0), "lose")
    if wager in (BaccaratWager.PLAYER, BaccaratWager.BANKER):
        if winner is Winner.TIE:
            # docs/rules.md §4 decision: Player and Banker bets push on a tie.
            return (stake, "push") if profile.player_and_banker_push_on_tie else lost
        if winner.value != wager.value:
            return lost
        if wager is BaccaratWager.PLAYER:
            return paytable.player.payout(stake), "win"
        if coup.banker_total == 6:
            # Art. 8 b): "cuando la Banca gana con el puntaje de seis" it pays half.
            return paytable.banker_win_with_six.payout(stake), "win"
        return paytable.banker.payout(stake), "win"
    if wager is BaccaratWager.TIE:
        return (paytable.tie.payout(stake), "win") if winner is Winner.TIE else lost
    if wager is BaccaratWager.PLAYER_PAIR:
        return (paytable.player_pair.payout(stake), "win") if player_pair else lost
    return (paytable.banker_pair.payout(stake), "win") if banker_pair else lost


# --- the round -----------------------------------------------------------------------------


class BaccaratRound(GameRound):
    """One coup of Dragon Six Baccarat Plus on ``shoe`` under ``profile``."""

    game = GAME
    rules = BaccaratRules
    takes_new_shoe = True
    profile: BaccaratRules

    def __init__(self, profile: BaccaratRules, shoe: Shoe, *, new_shoe: bool = False) -> None:
        """``new_shoe=True``: the shoe is fresh from its shuffle and cut (``Shoe.shuffled``), so
        the Art. 6 d) burn opens this round's record (as a blackjack round burns). A table that
        keeps the shoe's record apart uses the function ``new_shoe`` instead."""
        self.phase = Phase.BETTING
        self.player_cards: list[Card] = []
        self.banker_cards: list[Card] = []
        self._last_round_signalled = False
        super().__init__(profile, shoe)
        # Art. 6: a shoe whose cut card is already out may finish this one round.
        self._after_draw()
        if new_shoe and profile.shoe.burn_by_first_card_value:
            # Art. 6 d): "Antes de iniciar la partida", before any bet of the first round.
            self._record(*burn(shoe))
            self._after_draw()

    @classmethod
    def for_replay(
        cls, profile: Profile, record: Sequence[Event], shoe: Shoe | None
    ) -> BaccaratRound:
        assert isinstance(profile, BaccaratRules)
        cards = recorded_cards(record)
        cut_card_at = next(
            (
                len(recorded_cards(record[:index]))
                for index, item in enumerate(record)
                if isinstance(item, LastRoundOfShoe)
            ),
            None,
        )
        dealing = Shoe(cards, profile.decks, cut_card_at=cut_card_at) if shoe is None else shoe
        return cls(profile, dealing, new_shoe=has_burns(record))

    # --- betting (Art. 7 d), Art. 8) ---------------------------------------------------------
    def _verify_wager(self, seat: int, wager: str, units: int) -> None:
        held = set(self.bets.get(seat, {}))
        held = held | {wager} if units else held - {wager}
        for combination in self.profile.forbidden_combinations:
            if set(combination) <= held:
                names = " and ".join(item.value for item in combination)
                raise BetError(f"{self.label(seat)}: {names} may not be bet together (Art. 8)")

    # --- the deal (Art. 10) and third cards (Art. 11) ----------------------------------------
    def _after_draw(self) -> None:
        if self.shoe.is_cut_card_out and not self._last_round_signalled:
            self._last_round_signalled = True
            self._record(LastRoundOfShoe())

    def _draw(self, purpose: Purpose) -> None:
        hand = self.player_cards if purpose is Purpose.PLAYER else self.banker_cards
        hand.append(self.draw(purpose))

    def _deal(self) -> None:
        """Deal, draw third cards by the tableau and settle: the whole round. Bets close
        with the first card (Art. 7 d): "hasta que se extrae la primera carta del zapato")."""
        self.phase = Phase.DEAL
        for purpose in (Purpose.PLAYER, Purpose.BANKER, Purpose.PLAYER, Purpose.BANKER):
            self._draw(purpose)
        self.phase = Phase.THIRD_CARDS
        player_two, banker_two = total(self.player_cards), total(self.banker_cards)
        player_third: int | None = None
        if player_draws(player_two, banker_two):
            self._draw(Purpose.PLAYER)
            player_third = points(self.player_cards[2])
        if banker_draws(banker_two, player_two, player_third):
            self._draw(Purpose.BANKER)
        self.phase = Phase.SETTLEMENT
        self._settle()
        self._end()

    # --- settlement (Art. 8) -----------------------------------------------------------------
    def _settle(self) -> None:
        coup = decide_coup(self.player_total, self.banker_total)
        self._record(coup)
        player_pair = is_pair(self.player_cards, self.profile.pair_by)
        banker_pair = is_pair(self.banker_cards, self.profile.pair_by)
        for zone, wagers in sorted(self.bets.items()):
            for kind in WAGER_ORDER:
                if kind.value not in wagers:
                    continue
                stake = Fraction(wagers[kind.value])
                payout, result = settle_wager(
                    self.profile,
                    kind,
                    stake,
                    coup,
                    player_pair=player_pair,
                    banker_pair=banker_pair,
                )
                self._settle_wager(zone, kind.value, stake, payout, result)

    def _details(self) -> dict[str, Any]:
        coup = self.coup
        if coup is None:
            voided = next(item for item in self.events if isinstance(item, RoundVoided))
            return {"voided": voided.reason}
        return {
            "player": format_cards(self.player_cards),
            "banker": format_cards(self.banker_cards),
            "player_total": coup.player_total,
            "banker_total": coup.banker_total,
            "winner": coup.winner,
        }

    # --- a round that cannot go on (docs/rules.md §6; RELIABILITY R11) --------------------------
    def verify_void(self, reason: str = "") -> None:
        """A round may be voided (a shoe that ran out, an interrupted round) at any point
        before it is settled, for any ``reason``."""
        if self.phase in (Phase.SETTLEMENT, Phase.DONE):
            raise IllegalActionError("the round is already settled: it cannot be voided")

    def _open_wagers(self) -> Iterable[OpenWager]:
        for zone, wagers in sorted(self.bets.items()):
            for kind in BaccaratWager:
                if kind.value in wagers:
                    yield OpenWager(zone, kind.value, Fraction(wagers[kind.value]))

    # --- the interface -----------------------------------------------------------------------
    def why_not(self, seat: int, action: Action) -> str | None:
        return f"{action} is not a baccarat action; third cards follow Art. 11"

    def verify_act(self, seat: int, action: Action) -> None:
        """Baccarat has no decisions: Art. 11 draws by rule."""
        raise IllegalActionError(f"{self.label(seat)}: {self.why_not(seat, action)}")

    @property
    def player_total(self) -> int:
        return total(self.player_cards)

    @property
    def banker_total(self) -> int:
        return total(self.banker_cards)

    @property
    def coup(self) -> CoupDecided | None:
        return next((item for item in self.events if isinstance(item, CoupDecided)), None)

    @property
    def winner(self) -> Winner:
        coup = self.coup
        if coup is None:
            raise IllegalActionError("the coup has not been decided yet")
        return Winner(coup.winner)

    @property
    def is_last_round_of_shoe(self) -> bool:
        """Art. 6: the cut card came out; the table makes a new shoe before the next round."""
        return self._last_round_signalled

    # --- croupier settle: the coup, and each zone's wagers ----------------------------------
    seat_keys = ("seat", "bets")

    @classmethod
    def from_document(
        cls, profile: Profile, shoe: Shoe, document: Mapping[str, Any]
    ) -> BaccaratRound:
        """The shoe lists P1, B1, P2, B2 and then any third cards in order (mid-shoe, no
        burn): too few for the coup the tableau deals is said before anything is dealt."""
        assert isinstance(profile, BaccaratRules)
        listed = document["shoe"]
        try:
            play_coup([points(Card.parse(text)) for text in listed])
        except ShoeError as error:
            raise SettleInputError(f"shoe: too few cards: {error}") from None
        return cls(profile, shoe)

    def _house_document(self) -> dict[str, Any]:
        return {
            "player": {"cards": format_cards(self.player_cards), "total": self.player_total},
            "banker": {"cards": format_cards(self.banker_cards), "total": self.banker_total},
            "winner": self.winner.value,
        }

    def _document_seats(self, listed: list[int]) -> list[int]:
        return listed

    def _seat_document(self, seat: int, result: RoundResult) -> dict[str, Any]:
        bets = {
            wager.wager: {
                "bet": json_number(wager.stake),
                "payout": json_number(wager.payout),
                "result": wager.result,
            }
            for wager in result.wagers
            if wager.seat == seat
        }
        return {"bets": bets, **result.money(seat)}

    def _hands_view(self, seat: int, viewer: int | None, everything: bool) -> list[dict[str, Any]]:
        return []  # a zone bets on the coup's two hands: it holds no cards of its own

    def _house_view(self, everything: bool) -> dict[str, Any]:
        coup = self.coup
        return {
            "player": {"cards": format_cards(self.player_cards), "total": self.player_total},
            "banker": {"cards": format_cards(self.banker_cards), "total": self.banker_total},
            "winner": None if coup is None else coup.winner,
        }
