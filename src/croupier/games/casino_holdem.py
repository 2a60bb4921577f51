"""Casino Hold'em (Peru, 2007, and the common international game): one round, in the
regulation's order.

Description
    Each zone (one player per zone, Art. 9 a-b) places an Ante and may add the progressive
    bet (Art. 9 e); at least two players are needed (Art. 9). Two cards to each player and the
    dealer, in two rounds from the dealer's left to right, the dealer last in each round
    (Arts. 12, 13 a); the dealer burns one and lays the flop (Art. 13 c); each player in seat
    order calls (the Bet, twice the Ante) or folds and loses the Ante (Art. 13 d); the dealer
    burns one and lays the turn and river (Art. 13 e), then reveals and compares (Art. 13 f).
    Zone 1 is the zone at the dealer's left; "left to right" is zone order. Decision
    (croupier; the text is silent): when every player folds, the dealer still completes the
    board and reveals, so that every game's record has the same shape.
Actions
    ``call`` or ``fold``, asked of each seat in zone order after the flop; a seat whose time
    runs out folds (``Decision.default``).
Rewards
    The dealer qualifies with a pair of 4s or better (Art. 13 g; ``dealer_qualifier``). Not
    qualified: the Ante is paid 1:1 (Peru, Art. 13 g) or by the ante paytable (standard), the
    Bet is returned. Qualified: the better hand (Arts. 10-11, ``croupier.hands.poker``) wins:
    the Ante by the ante paytable (a class not listed pays the ``high card`` line), the Bet by
    ``call_pays``; the dealer's better hand takes both; equal hands push both.
Progressive (docs/rules.md §5 decision)
    Every progressive stake is collected; ``meter_contribution`` of each feeds the jackpot meter
    before any prize is paid. Prizes go on the player's best five of hole cards and flop, paid
    whether the player then calls or folds, in zone order: a share of the meter as it then
    stands (royal flush 100%, straight flush 10%) or a fixed number of units (four of a kind,
    full house, flush), the fixed prizes paid by the house. A meter a prize empties restarts
    at ``meter_seed``, which the house puts in. The meter is a value passed in and handed
    back (``meter``), never a global: the ledger keeps it as an account. Amounts stay exact
    ``Fraction``s (a tenth of a meter fed by halves is a twentieth): croupier rounds nothing.
Money and the meter
    ``results().details`` holds ``meter_before``, ``meter_after`` and ``house_net`` counted
    from the house's own flows (stakes kept, winnings paid, progressive shares kept, fixed
    prizes and reseeds paid), so that the players' nets + ``house_net`` + the meter's change
    is 0 for every round.
References
    ``regulations/casino-holdem-peru-2007.txt`` (Arts. 7-13); docs/rules.md §5 and §6.

A whole round on a stacked deck: seat 1 (Ante 10 and the progressive) makes three
kings on the flop, seat 2 (Ante 5) folds; the dealer's pair of 4s qualifies and loses.

>>> from croupier.rules.registry import load_profile_of
>>> profile = load_profile_of("casino-holdem", "casino-holdem-peru-2007")
>>> deck = Shoe.parse("Kh 2c 4s Kd 7c 4d 3s  Ks 9h 2d  5c  Jc Qd", decks=1)
>>> round_ = CasinoHoldemRound(profile, deck, meter=5000)
>>> _ = round_.place_bet(1, "ante", 10)
>>> _ = round_.place_bet(1, "progressive", 1)
>>> _ = round_.place_bet(2, "ante", 5)
>>> _ = round_.deal()
>>> [str(card) for card in round_.board]
['Ks', '9h', '2d']
>>> round_.pending()
Decision(seat=1, question='call or fold', legal=(Action.parse('call'), Action.parse('fold')), default=Action.parse('fold'), hand=None)
>>> _ = round_.act(1, Action("call"))
>>> _ = round_.act(2, Action("fold"))
>>> round_.is_done, round_.dealer_hand.category.value, round_.dealer_qualifies
(True, 'pair', True)
>>> [(w.seat, w.wager, w.stake, w.payout, w.result) for w in round_.results().wagers]
... # doctest: +NORMALIZE_WHITESPACE
[(1, 'progressive', Fraction(1, 1), Fraction(0, 1), 'lose'),
 (2, 'ante', Fraction(5, 1), Fraction(0, 1), 'fold'),
 (1, 'ante', Fraction(10, 1), Fraction(20, 1), 'win'),
 (1, 'bet', Fraction(20, 1), Fraction(40, 1), 'win')]
>>> round_.meter, round_.results().details["house_net"]
(Fraction(10001, 2), Fraction(-49, 2))
>>> from croupier.games.replay import replay
>>> replay(round_.events).events == round_.events
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from croupier.cards import FULL_DECK, Card, Rank, format_cards, parse_cards
from croupier.errors import (
    BetError,
    IllegalActionError,
    NotationError,
    ReplayError,
    SettleInputError,
    ShoeError,
)
from croupier.games.base import Action, GameRound, RoundResult
from croupier.games.commands import Decision
from croupier.games.corrections import OpenWager
from croupier.games.events import (
    Called,
    Event,
    Folded,
    Purpose,
    Settled,
    event,
)
from croupier.hands.poker import (
    CATEGORY_SHIFT,
    CODE_OF_CATEGORY,
    HandValue,
    category_of,
    evaluate,
    strength,
)
from croupier.money import json_number
from croupier.randomness import RandomSource
from croupier.rules.base import Profile
from croupier.rules.casino_holdem import (
    AnteWhenDealerDoesNotQualify,
    CasinoHoldemRules,
    PokerCategory,
)
from croupier.shoe import Shoe

GAME = "casino-holdem"
ANTE = "ante"
BET = "bet"
"""The call: ``call_multiple`` times the Ante (Art. 13 d: "un Bet, que es el doble del Ante")."""
PROGRESSIVE = "progressive"
CALL = Action("call")
FOLD = Action("fold")


class Phase(StrEnum):
    """The round's states, in the regulation's order."""

    BETTING = "betting"
    """Art. 9 e-f: each zone places its Ante and, if it likes, the progressive bet."""
    DEAL = "deal"
    """Arts. 12, 13 a: bets close, the meter is fed, two cards each, the dealer last."""
    FLOP = "flop"
    """Art. 13 c: burn one, three community cards."""
    PROGRESSIVE = "progressive"
    """docs/rules.md §5 decision: progressive prizes on hole cards and flop, in zone order."""
    DECISIONS = "decisions"
    """Art. 13 d: each player calls or folds, in zone order (the round waits here)."""
    TURN_AND_RIVER = "turn_and_river"
    """Art. 13 e: burn one, the last two community cards."""
    REVEAL = "reveal"
    """Art. 13 f-g: the dealer's two cards, the best five, qualification."""
    SETTLEMENT = "settlement"
    """Art. 13 g and docs/rules.md §5: each caller's Ante and Bet."""
    DONE = "done"


class TooFewPlayersError(IllegalActionError):
    """Art. 9: "debe existir cuando menos dos jugadores"; the deal is refused."""


# --- events of this game -------------------------------------------------------------------


@event
class MeterOpened(Event):
    """The progressive meter as the round found it (the ledger's jackpot account)."""

    meter: Fraction


@event
class MeterFed(Event):
    """A progressive stake's set share went into the meter (docs/rules.md §5 decision)."""

    seat: int
    amount: Fraction
    meter: Fraction


@event
class ProgressivePrizeWon(Event):
    """A progressive prize on the best five of hole cards and flop; ``from_meter`` says whether
    it came out of the meter (a share) or from the house (fixed units)."""

    seat: int
    category: str
    amount: Fraction
    from_meter: bool
    meter: Fraction


@event
class MeterReseeded(Event):
    """A prize emptied the meter; the house restarted it at its seed (docs/rules.md §5)."""

    seed: Fraction
    meter: Fraction


@event
class DealerRevealed(Event):
    """Art. 13 f: the dealer turns up both cards; Art. 13 g: does the hand qualify?"""

    cards: tuple[Card, ...]
    hand: str
    qualifies: bool


# --- the round -----------------------------------------------------------------------------


class CasinoHoldemRound(GameRound):
    """One game of Casino Hold'em from a fresh deck; see the module docstring."""

    game = GAME
    rules = CasinoHoldemRules
    takes_meter = True
    # Art. 9d: a player's hole cards are never shown to the others, during or after the game.
    private_card_purposes = frozenset({Purpose.PLAYER.value})
    # Art. 13 f: the dealer's two cards lie face down until he turns them up.
    face_down_until: ClassVar[Mapping[str, str]] = {Purpose.DEALER.value: DealerRevealed.__name__}
    profile: CasinoHoldemRules

    def __init__(
        self, profile: CasinoHoldemRules, shoe: Shoe, *, meter: Fraction | int | None = None
    ) -> None:
        if isinstance(meter, float | bool):  # a float would round the meter: exact values only
            raise BetError(f"the progressive meter is an exact Fraction or int, not {meter!r}")
        opening = Fraction(profile.progressive.meter_seed if meter is None else meter)
        if opening < 0:
            raise BetError(f"the progressive meter cannot be negative: {opening}")
        self.phase = Phase.BETTING
        self.meter = opening
        self.meter_before = opening
        self.hole_cards: dict[int, tuple[Card, ...]] = {}
        self.dealer_cards: tuple[Card, ...] = ()
        self.board: tuple[Card, ...] = ()
        self.decisions: dict[int, Action] = {}
        self.dealer_hand: HandValue | None = None
        self.dealer_qualifies: bool | None = None
        self._hands: dict[tuple[int, int], HandValue] = {}
        """``hand_of`` by (seat, board size): every view shows it, and the cards never change."""
        super().__init__(profile, shoe)
        self._record(MeterOpened(meter=opening))

    @classmethod
    def _replay_options(cls, record: Sequence[Event]) -> dict[str, Any]:
        opened = record[1] if len(record) > 1 else None
        if not isinstance(opened, MeterOpened):
            raise ReplayError("a record's second event is MeterOpened (the meter it started from)")
        return {"meter": opened.meter}

    @classmethod
    def document_fields(cls, record: Sequence[Event]) -> dict[str, Any]:
        opened = next(item for item in record if isinstance(item, MeterOpened))
        return {"jackpot": json_number(opened.meter)}

    # --- betting (Art. 9) ----------------------------------------------------------------
    def _verify_wager(self, seat: int, wager: str, units: int) -> None:
        # The Ante's limits (Art. 9 f) are the table record's, checked by the base.
        if wager != ANTE and units not in (0, self.profile.progressive.bet):
            raise BetError(
                f"{self.label(seat)}: the progressive bet is exactly "
                f"{self.profile.progressive.bet} unit, not {units} (docs/rules.md §6)",
                code="progressive_is_fixed",
                amount=units,
                stake=self.profile.progressive.bet,
            )

    @property
    def antes(self) -> dict[int, int]:
        return {seat: bets[ANTE] for seat, bets in self.bets.items() if ANTE in bets}

    @property
    def progressive_bets(self) -> dict[int, int]:
        return {seat: bets[PROGRESSIVE] for seat, bets in self.bets.items() if PROGRESSIVE in bets}

    @property
    def players(self) -> list[int]:
        """The zones in play, in dealing order (Art. 12: from the dealer's left)."""
        return sorted(self.antes)

    main_wager = ANTE
    main_wager_needed = (
        "a progressive bet needs an Ante (Art. 9 e: 'Para participar los jugadores "
        "deben colocar el Ante')"
    )

    def _verify_deal(self) -> None:
        antes = self.antes
        if len(antes) < self.profile.min_players:
            raise TooFewPlayersError(
                f"{len(antes)} player(s) with an Ante: a game needs at least "
                f"{self.profile.min_players} (Art. 9)",
                code="too_few_players",
                players=len(antes),
                needed=self.profile.min_players,
            )
        needed = 2 * (len(antes) + 1) + 1 + 3 + 1 + 2
        if self.shoe.remaining < needed:
            raise ShoeError(f"the shoe holds {self.shoe.remaining} cards; this game deals {needed}")

    # --- the deal and the flop (Arts. 12, 13 a-c) ----------------------------------------
    def _deal(self) -> None:
        """Feed the meter, deal two rounds, burn, lay the flop, pay progressives."""
        self.phase = Phase.DEAL
        players = self.players
        self._feed_meter()
        for _ in range(2):  # Arts. 12, 13 a: two rounds, left to right, the dealer last
            for seat in players:
                self._draw(Purpose.PLAYER, seat)
            self._draw(Purpose.DEALER)
        self.phase = Phase.FLOP
        self._draw(Purpose.BURN)  # Art. 13 c
        for _ in range(3):
            self._draw(Purpose.BOARD)
        self.phase = Phase.PROGRESSIVE
        self._pay_progressives()
        self.phase = Phase.DECISIONS

    def _draw(self, purpose: Purpose, seat: int | None = None) -> None:
        card = self.draw(purpose, seat)
        if purpose is Purpose.PLAYER:
            assert seat is not None
            self.hole_cards[seat] = (*self.hole_cards.get(seat, ()), card)
        elif purpose is Purpose.DEALER:
            self.dealer_cards = (*self.dealer_cards, card)
        elif purpose is Purpose.BOARD:
            self.board = (*self.board, card)

    # --- the progressive (docs/rules.md §5 decision) -----------------------------------------
    def _feed_meter(self) -> None:
        share = self.profile.progressive.meter_contribution
        for seat, stake in sorted(self.progressive_bets.items()):
            fed = share * stake
            self.meter += fed
            self._record(MeterFed(seat=seat, amount=fed, meter=self.meter))

    def _pay_progressives(self) -> None:
        progressive = self.profile.progressive
        for seat in self.players:  # prizes in zone order, each on the meter as it stands
            stake = self.progressive_bets.get(seat, 0)
            if not stake:
                continue
            category = category_of(strength([*self.hole_cards[seat], *self.board]))
            prize_line = progressive.paytable.get(category)
            prize = Fraction(0)
            if prize_line is not None:
                if prize_line.meter_share is not None:
                    prize = prize_line.meter_share * self.meter
                    self.meter -= prize
                else:
                    assert prize_line.units is not None
                    prize = Fraction(prize_line.units)
                self._record(
                    ProgressivePrizeWon(
                        seat=seat,
                        category=category.value,
                        amount=prize,
                        from_meter=prize_line.meter_share is not None,
                        meter=self.meter,
                    )
                )
                if self.meter == 0:
                    seed = Fraction(progressive.meter_seed)
                    self.meter = seed
                    self._record(MeterReseeded(seed=seed, meter=self.meter))
            self._settle_wager(seat, PROGRESSIVE, stake, prize, "win" if prize else "lose")

    # --- the players' decisions (Art. 13 d) ----------------------------------------------
    def pending(self) -> Decision | None:
        if self.phase is not Phase.DECISIONS:
            return None
        seat = next(seat for seat in self.players if seat not in self.decisions)
        return Decision(seat=seat, question="call or fold", legal=(CALL, FOLD), default=FOLD)

    def _act(self, seat: int, action: Action) -> None:
        """``call`` (the Bet, ``call_multiple`` x the Ante) or ``fold`` (the Ante is lost)."""
        self.decisions[seat] = action
        ante = self.antes[seat]
        if action == CALL:
            self._record(Called(seat=seat, amount=Fraction(ante * self.profile.call_multiple)))
        else:  # Art. 13 d: "se retiran perdiendo su Ante ... recogido por el Dealer"
            self._record(Folded(seat=seat))
            self._settle_wager(seat, ANTE, ante, Fraction(0), "fold")
        if len(self.decisions) == len(self.players):
            self._showdown()

    # --- turn, river, the dealer and settlement (Art. 13 e-g) ----------------------------
    def _showdown(self) -> None:
        self.phase = Phase.TURN_AND_RIVER
        self._draw(Purpose.BURN)  # Art. 13 e
        for _ in range(2):
            self._draw(Purpose.BOARD)
        self.phase = Phase.REVEAL
        dealer = evaluate([*self.dealer_cards, *self.board])
        self.dealer_hand = dealer
        self.dealer_qualifies = dealer.strength >= self.qualifying_strength
        self._record(
            DealerRevealed(
                cards=self.dealer_cards,
                hand=dealer.category.value,
                qualifies=self.dealer_qualifies,
            )
        )
        self.phase = Phase.SETTLEMENT
        for seat in self.players:
            if self.decisions[seat] == CALL:
                self._settle_caller(seat, dealer)
        self._end()

    @property
    def qualifying_strength(self) -> int:
        """The weakest qualifying hand as a strength: with ``pair`` and ``4``, any pair of 4s
        (Art. 13 g: "un par de cuatros '4' o más"); any better class qualifies too."""
        rule = self.profile.dealer_qualifier
        rank = Rank.parse(rule.pair_rank_at_least).value - 2
        return (CODE_OF_CATEGORY[rule.category] << CATEGORY_SHIFT) | (rank << 16)

    def _ante_paytable_payout(self, ante: int, category: PokerCategory) -> Fraction:
        table = self.profile.ante_paytable
        ratio = table.get(category, table[PokerCategory.HIGH_CARD])
        return ratio.payout(ante)

    def _settle_caller(self, seat: int, dealer: HandValue) -> None:
        ante = self.antes[seat]
        bet = ante * self.profile.call_multiple
        player = strength([*self.hole_cards[seat], *self.board])
        category = category_of(player)
        if not self.dealer_qualifies:  # Art. 13 g: only the Ante is paid; the Bet returns
            if (
                self.profile.ante_when_dealer_does_not_qualify
                is AnteWhenDealerDoesNotQualify.EVEN_MONEY
            ):
                ante_payout = Fraction(2 * ante)
            else:
                ante_payout = self._ante_paytable_payout(ante, category)
            outcomes = ((ante_payout, "win"), (Fraction(bet), "push"))
        elif player > dealer.strength:
            ante_payout = self._ante_paytable_payout(ante, category)
            outcomes = ((ante_payout, "win"), (self.profile.call_pays.payout(bet), "win"))
        elif player < dealer.strength:
            outcomes = ((Fraction(0), "lose"), (Fraction(0), "lose"))
        else:
            outcomes = ((Fraction(ante), "push"), (Fraction(bet), "push"))
        for (wager, stake), (payout, result) in zip(
            ((ANTE, ante), (BET, bet)), outcomes, strict=True
        ):
            self._settle_wager(seat, wager, stake, payout, result)

    def _open_wagers(self) -> Iterable[OpenWager]:
        settled = {(wager.seat, wager.wager) for wager in self.settled()}
        for seat, bets in sorted(self.bets.items()):
            for wager, units in bets.items():
                if (seat, wager) not in settled:
                    yield OpenWager(seat, wager, Fraction(units))
            called = self.decisions.get(seat) == CALL and (seat, BET) not in settled
            if called:
                yield OpenWager(seat, BET, Fraction(bets[ANTE] * self.profile.call_multiple))

    # --- reading the round ---------------------------------------------------------------
    def hand_of(self, seat: int) -> HandValue:
        """The zone's best five of its two cards and the board as dealt so far."""
        key = (seat, len(self.board))
        if key not in self._hands:
            self._hands[key] = evaluate([*self.hole_cards[seat], *self.board])
        return self._hands[key]

    def seat_result(self, seat: int) -> str:
        """``fold``, or the Ante's result for a caller: ``win``, ``lose`` or ``push``."""
        if self.decisions.get(seat) == FOLD:
            return "fold"
        for wager in self.settled():
            if wager.seat == seat and wager.wager == ANTE:
                return wager.result
        raise IllegalActionError(f"{self.label(seat)} is not settled yet")

    def _details(self) -> dict[str, Any]:
        """The house's own flows: stakes kept and winnings paid on the Ante and the Bet, the
        progressive stakes less what fed the meter, fixed prizes and reseeds paid."""
        house = Fraction(0)
        for item in self.events:
            if isinstance(item, Settled):
                kept_at_meter = item.wager == PROGRESSIVE and item.result != "void"
                house += item.stake - (0 if kept_at_meter else item.payout)
            elif isinstance(item, MeterFed) or (
                isinstance(item, ProgressivePrizeWon) and not item.from_meter
            ):
                house -= item.amount
            elif isinstance(item, MeterReseeded):
                house -= item.seed
        return {"meter_before": self.meter_before, "meter_after": self.meter, "house_net": house}

    # --- the dealer's corrections (docs/rules.md#D-CH-11) -----------------------------------
    def face_down_places(self) -> dict[str, Card]:
        """While the zones decide, the dealer's two cards (``dealer 1``, ``dealer 2``) and each
        zone's hole cards (``seat 3 card 1``) lie face down (Art. 12)."""
        if self.phase is not Phase.DECISIONS:
            return {}
        places = {f"dealer {n}": card for n, card in enumerate(self.dealer_cards, start=1)}
        for seat, cards in sorted(self.hole_cards.items()):
            for n, card in enumerate(cards, start=1):
                places[f"seat {seat} card {n}"] = card
        return places

    # --- croupier settle (the fixed contract) ----------------------------------------------
    document_keys = ("game", "rules", "shoe", "seats", "jackpot")

    @classmethod
    def from_document(
        cls, profile: Profile, shoe: Shoe, document: Mapping[str, Any]
    ) -> CasinoHoldemRound:
        """The game a document describes, from its ``jackpot`` (the meter; the profile's seed
        when left out). Its shoe lists the cards in draw order: each zone's first card then
        the dealer's, each zone's second card then the dealer's, a burn, the flop, a burn,
        the turn and the river (cards after those are left undealt)."""
        assert isinstance(profile, CasinoHoldemRules)
        value = document.get("jackpot", profile.progressive.meter_seed)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettleInputError(f"'jackpot' must be a number of units, not {value!r}")
        try:
            meter = Fraction(str(value))  # the decimal as written: 5000.5 is 10001/2 exactly
        except ValueError:
            raise SettleInputError(f"'jackpot' must be a finite number, not {value!r}") from None
        if meter < 0:
            raise SettleInputError(f"'jackpot' cannot be negative: {value!r}")
        return cls(profile, shoe, meter=meter)

    def _house_document(self) -> dict[str, Any]:
        # A game voided by a correction (docs/rules.md#D-CH-11, #D-GEN-13) ends before the
        # dealer shows his hand: it is read from his cards and the board as they lay
        # ("qualifies": null).
        dealer_hand = self.dealer_hand or evaluate([*self.dealer_cards, *self.board])
        return {
            "dealer": {
                "cards": format_cards(self.dealer_cards),
                "hand": dealer_hand.category.value,
                "qualifies": self.dealer_qualifies,
            },
            "board": format_cards(self.board),
        }

    def _document_seats(self, listed: list[int]) -> list[int]:
        return self.players

    def _seat_document(self, seat: int, result: RoundResult) -> dict[str, Any]:
        wagers = {w.wager: w for w in result.wagers if w.seat == seat}

        def entry(name: str) -> dict[str, int | float]:
            wager = wagers.get(name)
            if wager is None:
                return {"bet": 0, "payout": 0}
            return {"bet": json_number(wager.stake), "payout": json_number(wager.payout)}

        document: dict[str, Any] = {
            "hand": self.hand_of(seat).category.value,
            "result": self.seat_result(seat),
            "bets": {name: entry(name) for name in (ANTE, BET, PROGRESSIVE)},
            **result.money(seat),
        }
        if PROGRESSIVE in wagers:
            flop_hand = evaluate([*self.hole_cards[seat], *self.board[:3]])
            document["progressive_hand"] = flop_hand.category.value
        return document

    def _closing_document(self, result: RoundResult) -> dict[str, Any]:
        return {"jackpot": json_number(self.meter)}

    def _seats_in_view(self) -> list[int]:
        return sorted(set(self.antes) | set(self.progressive_bets))

    def _hands_view(self, seat: int, viewer: int | None, everything: bool) -> list[dict[str, Any]]:
        cards = self.hole_cards.get(seat, ())
        if not cards:
            return []
        shown = everything or seat == viewer
        wagers = {w.wager: w for w in self.settled() if w.seat == seat}
        ante = self.antes.get(seat, 0)
        called = self.decisions.get(seat) == CALL
        settled = ANTE in wagers
        payout = sum((w.payout for w in wagers.values() if w.wager != PROGRESSIVE), Fraction(0))
        return [
            {
                "hand": 0,
                "cards": format_cards(cards) if shown else len(cards) * ["??"],
                # A hand is valued from five cards: a physical shoe's deal may stop short.
                "total": self.hand_of(seat).category.value
                if shown and len(cards) + len(self.board) >= 5
                else None,
                "bet": ante * (1 + self.profile.call_multiple) if called else ante,
                "result": self.seat_result(seat) if settled else None,
                "payout": json_number(payout) if settled else None,
            }
        ]

    def _house_view(self, everything: bool) -> dict[str, Any]:
        revealed = everything or self.dealer_qualifies is not None
        return {
            "dealer": {
                "cards": format_cards(self.dealer_cards)
                if revealed
                else len(self.dealer_cards) * ["??"],
                "total": self.dealer_hand.category.value if self.dealer_hand else None,
                "hand": self.dealer_hand.category.value if self.dealer_hand else None,
                "qualifies": self.dealer_qualifies,
            },
            "board": format_cards(self.board),
            "meter": json_number(self.meter),
        }


def new_shoe(source: RandomSource) -> Shoe:
    """Art. 7 a-b: one deck shuffled completely and at random, then cut, for every game."""
    return Shoe.shuffled(1, source)


def stacked_deck(
    holes: Mapping[int, str], dealer: str, board: str, burns: str | None = None
) -> Shoe:
    """A deck that deals ``holes`` (zone -> two cards), the ``dealer``'s two cards and the five
    ``board`` cards, laid out in the draw order of Arts. 12-13: each zone's first card then
    the dealer's, each zone's second card then the dealer's, a burn, the flop, a burn, the
    turn and the river. ``burns`` defaults to the first two cards of the deck not in play.

    >>> str(stacked_deck({1: "Ah Kh", 3: "2c 2d"}, "Qs Qd", "Jh Th 9h 8h 7h", "5s 5h"))
    'Ah 2c Qs Kh 2d Qd 5s Jh Th 9h 5h 8h 7h'
    """
    seat_cards = {seat: parse_cards(text) for seat, text in sorted(holes.items())}
    dealer_cards, board_cards = parse_cards(dealer), parse_cards(board)
    if any(len(cards) != 2 for cards in [*seat_cards.values(), dealer_cards]):
        raise NotationError("each zone and the dealer receive exactly two cards (Art. 12)")
    if len(board_cards) != 5:
        raise NotationError(f"the board is five cards (Art. 12), not {len(board_cards)}")
    in_play = {card for cards in seat_cards.values() for card in cards}
    in_play |= {*dealer_cards, *board_cards}
    if burns is None:
        burn_cards = tuple(card for card in FULL_DECK if card not in in_play)[:2]
    else:
        burn_cards = parse_cards(burns)
        if len(burn_cards) != 2:
            raise NotationError(f"a game burns two cards (Art. 13 c, e), not {len(burn_cards)}")
    order: list[Card] = []
    for round_ in range(2):
        order += [cards[round_] for cards in seat_cards.values()]
        order.append(dealer_cards[round_])
    order += [burn_cards[0], *board_cards[:3], burn_cards[1], *board_cards[3:]]
    return Shoe.stacked(order, decks=1)


# --- croupier settle (the fixed contract) --------------------------------------------------
