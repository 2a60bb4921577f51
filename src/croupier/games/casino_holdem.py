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
Progressive (RULES.md §5 decision)
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
    ``regulations/casino-holdem-peru-2007.txt`` (Arts. 7-13); RULES.md §5 and §6.

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
>>> replay(round_.events).events == round_.events
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any

from croupier.cards import FULL_DECK, Card, Rank, format_cards, parse_cards
from croupier.errors import (
    BetError,
    IllegalActionError,
    NotationError,
    ProfileError,
    ReplayError,
    SettleInputError,
    ShoeError,
)
from croupier.games.base import Action, Decision, GameRound, RoundResult, WagerResult
from croupier.games.events import (
    BetPlaced,
    BetsClosed,
    BetsReturned,
    CardDrawn,
    Decided,
    Event,
    RoundEnded,
    RoundStarted,
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
from croupier.money import json_number, parse_amount
from croupier.randomness import RandomSource, uniform_below
from croupier.rules.casino_holdem import (
    AnteWhenDealerDoesNotQualify,
    CasinoHoldemRules,
    PokerCategory,
)
from croupier.rules.registry import load_profile_of
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
    """RULES.md §5 decision: progressive prizes on hole cards and flop, in zone order."""
    DECISIONS = "decisions"
    """Art. 13 d: each player calls or folds, in zone order (the round waits here)."""
    TURN_AND_RIVER = "turn_and_river"
    """Art. 13 e: burn one, the last two community cards."""
    REVEAL = "reveal"
    """Art. 13 f-g: the dealer's two cards, the best five, qualification."""
    SETTLEMENT = "settlement"
    """Art. 13 g and RULES.md §5: each caller's Ante and Bet."""
    DONE = "done"


class Purpose(StrEnum):
    """Where a card goes: the ``purpose`` of its ``CardDrawn`` event."""

    PLAYER = "player"
    DEALER = "dealer"
    BURN = "burn"
    BOARD = "board"


class TooFewPlayersError(IllegalActionError):
    """Art. 9: "debe existir cuando menos dos jugadores"; the deal is refused."""


# --- events of this game -------------------------------------------------------------------


@event
class MeterOpened(Event):
    """The progressive meter as the round found it (the ledger's jackpot account)."""

    meter: Fraction


@event
class MeterFed(Event):
    """A progressive stake's set share went into the meter (RULES.md §5 decision)."""

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
    """A prize emptied the meter; the house restarted it at its seed (RULES.md §5)."""

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
    # Art. 9d: a player's hole cards are never shown to the others, during or after the game.
    private_card_purposes = frozenset({Purpose.PLAYER.value})

    def __init__(
        self, profile: CasinoHoldemRules, shoe: Shoe, *, meter: Fraction | int | None = None
    ) -> None:
        if not isinstance(profile, CasinoHoldemRules):
            raise ProfileError(f"profile {getattr(profile, 'name', profile)!r} is not {GAME}")
        if shoe.decks != profile.decks:
            raise ShoeError(f"a {GAME} shoe holds {profile.decks} deck, not {shoe.decks}")
        if isinstance(meter, float | bool):  # a float would round the meter: exact values only
            raise BetError(f"the progressive meter is an exact Fraction or int, not {meter!r}")
        opening = Fraction(profile.progressive.meter_seed if meter is None else meter)
        if opening < 0:
            raise BetError(f"the progressive meter cannot be negative: {opening}")
        self.profile: CasinoHoldemRules = profile
        self.shoe = shoe
        self.phase = Phase.BETTING
        self.events: list[Event] = []
        self.meter = opening
        self.meter_before = opening
        self.antes: dict[int, int] = {}
        self.progressive_bets: dict[int, int] = {}
        self.hole_cards: dict[int, tuple[Card, ...]] = {}
        self.dealer_cards: tuple[Card, ...] = ()
        self.board: tuple[Card, ...] = ()
        self.decisions: dict[int, Action] = {}
        self.dealer_hand: HandValue | None = None
        self.dealer_qualifies: bool | None = None
        self._wagers: list[WagerResult] = []
        self._house_net = Fraction(0)
        self._hands: dict[tuple[int, int], HandValue] = {}
        """``hand_of`` by (seat, board size): every view shows it, and the cards never change."""
        self._record(RoundStarted(game=GAME, profile=profile.name), MeterOpened(meter=opening))

    def _record(self, *new: Event) -> list[Event]:
        self.events.extend(new)
        return list(new)

    # --- betting (Art. 9) ----------------------------------------------------------------
    def verify_zone(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise BetError(f"a zone is a whole number 1..{self.profile.zones}, not {seat!r}")
        if not 1 <= seat <= self.profile.zones:
            raise BetError(f"zone {seat} does not exist: this table has 1..{self.profile.zones}")
        return seat

    def verify_bet(self, seat: object, wager: str, amount: object) -> tuple[int, int]:
        """The zone and amount of a legal bet; raises naming what is wrong."""
        if self.phase is not Phase.BETTING:
            raise IllegalActionError(f"no more bets: the round is in {self.phase.value}")
        zone = self.verify_zone(seat)
        units = parse_amount(amount, f"zone {zone} {wager}")
        if wager == ANTE:
            limits = self.profile.ante_limits
            if units and not limits.allows(units):
                raise BetError(
                    f"zone {zone}: Ante {units} outside the limits "
                    f"{limits.minimum}..{limits.maximum} (Art. 9 f)"
                )
        elif wager == PROGRESSIVE:
            if units not in (0, self.profile.progressive.bet):
                raise BetError(
                    f"zone {zone}: the progressive bet is exactly "
                    f"{self.profile.progressive.bet} unit, not {units} (RULES.md §6)"
                )
        else:
            raise BetError(f"unknown wager {wager!r}: Casino Hold'em takes 'ante', 'progressive'")
        return zone, units

    def can_bet(self, seat: object, wager: str, amount: object) -> bool:
        try:
            self.verify_bet(seat, wager, amount)
        except (BetError, IllegalActionError, ValueError):
            return False
        return True

    def place_bet(self, seat: int, wager: str, amount: int) -> list[Event]:
        """Place (or, at 0, withdraw) the Ante or the progressive bet of a zone."""
        zone, units = self.verify_bet(seat, wager, amount)
        bets = self.antes if wager == ANTE else self.progressive_bets
        if units:
            bets[zone] = units
        else:
            bets.pop(zone, None)
        return self._record(BetPlaced(seat=zone, wager=wager, amount=Fraction(units)))

    @property
    def players(self) -> list[int]:
        """The zones in play, in dealing order (Art. 12: from the dealer's left)."""
        return sorted(self.antes)

    def undealable(self) -> dict[int, str]:
        return {
            zone: "a progressive bet needs an Ante (Art. 9 e: 'Para participar los jugadores "
            "deben colocar el Ante')"
            for zone in sorted(set(self.progressive_bets) - set(self.antes))
        }

    def return_bets(self, seat: int, reason: str) -> list[Event]:
        if self.phase is not Phase.BETTING:
            raise IllegalActionError(f"zone {seat}: bets are closed: nothing to return")
        self.antes.pop(seat, None)
        self.progressive_bets.pop(seat, None)
        return self._record(BetsReturned(seat=seat, reason=reason))

    def verify_deal(self) -> None:
        if self.phase is not Phase.BETTING:
            raise IllegalActionError(f"the cards are already dealt ({self.phase.value})")
        for zone, reason in sorted(self.undealable().items()):
            raise BetError(f"zone {zone}: {reason}")
        if len(self.antes) < self.profile.min_players:
            raise TooFewPlayersError(
                f"{len(self.antes)} player(s) with an Ante: a game needs at least "
                f"{self.profile.min_players} (Art. 9)"
            )
        needed = 2 * (len(self.antes) + 1) + 1 + 3 + 1 + 2
        if self.shoe.remaining < needed:
            raise ShoeError(f"the shoe holds {self.shoe.remaining} cards; this game deals {needed}")

    def can_deal(self) -> bool:
        try:
            self.verify_deal()
        except (BetError, IllegalActionError, ShoeError):
            return False
        return True

    # --- the deal and the flop (Arts. 12, 13 a-c) ----------------------------------------
    def deal(self) -> list[Event]:
        """Close bets, feed the meter, deal two rounds, burn, lay the flop, pay progressives."""
        self.verify_deal()
        self.phase = Phase.DEAL
        new = self._record(BetsClosed())
        new += self._feed_meter()
        for _ in range(2):  # Arts. 12, 13 a: two rounds, left to right, the dealer last
            for seat in self.players:
                new += self._draw(Purpose.PLAYER, seat)
            new += self._draw(Purpose.DEALER)
        self.phase = Phase.FLOP
        new += self._draw(Purpose.BURN)  # Art. 13 c
        for _ in range(3):
            new += self._draw(Purpose.BOARD)
        self.phase = Phase.PROGRESSIVE
        new += self._pay_progressives()
        self.phase = Phase.DECISIONS
        return new

    def _draw(self, purpose: Purpose, seat: int | None = None) -> list[Event]:
        card = self.shoe.draw()
        if purpose is Purpose.PLAYER:
            assert seat is not None
            self.hole_cards[seat] = (*self.hole_cards.get(seat, ()), card)
        elif purpose is Purpose.DEALER:
            self.dealer_cards = (*self.dealer_cards, card)
        elif purpose is Purpose.BOARD:
            self.board = (*self.board, card)
        return self._record(CardDrawn(card=card, purpose=purpose.value, seat=seat))

    # --- the progressive (RULES.md §5 decision) -----------------------------------------
    def _feed_meter(self) -> list[Event]:
        new: list[Event] = []
        share = self.profile.progressive.meter_contribution
        for seat in self.players:
            stake = self.progressive_bets.get(seat, 0)
            if stake:
                fed = share * stake
                self.meter += fed
                self._house_net += stake - fed
                new += self._record(MeterFed(seat=seat, amount=fed, meter=self.meter))
        return new

    def _pay_progressives(self) -> list[Event]:
        new: list[Event] = []
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
                    self._house_net -= prize
                new += self._record(
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
                    self._house_net -= seed
                    new += self._record(MeterReseeded(seed=seed, meter=self.meter))
            new += self._settle(seat, PROGRESSIVE, stake, prize, "win" if prize else "lose")
        return new

    # --- the players' decisions (Art. 13 d) ----------------------------------------------
    def pending(self) -> Decision | None:
        if self.phase is not Phase.DECISIONS:
            return None
        seat = next(seat for seat in self.players if seat not in self.decisions)
        return Decision(seat=seat, question="call or fold", legal=(CALL, FOLD), default=FOLD)

    def verify_act(self, seat: int, action: Action) -> None:
        decision = self.pending()
        if decision is None:
            raise IllegalActionError(f"no decision is asked for now ({self.phase.value})")
        if seat != decision.seat:
            raise IllegalActionError(f"it is zone {decision.seat}'s turn, not zone {seat}'s")
        if not decision.allows(action):
            raise IllegalActionError(
                f"zone {seat}: {str(action)!r} is not allowed; choose 'call' or 'fold'"
            )

    def can_act(self, seat: int, action: Action) -> bool:
        try:
            self.verify_act(seat, action)
        except IllegalActionError:
            return False
        return True

    def act(self, seat: int, action: Action) -> list[Event]:
        """``call`` (the Bet, ``call_multiple`` x the Ante) or ``fold`` (the Ante is lost)."""
        self.verify_act(seat, action)
        self.decisions[seat] = action
        new = self._record(Decided(seat=seat, action=str(action)))
        ante = self.antes[seat]
        if action == CALL:
            bet = Fraction(ante * self.profile.call_multiple)
            new += self._record(BetPlaced(seat=seat, wager=BET, amount=bet))
        else:  # Art. 13 d: "se retiran perdiendo su Ante ... recogido por el Dealer"
            new += self._settle(seat, ANTE, ante, Fraction(0), "fold")
        if len(self.decisions) == len(self.players):
            new += self._showdown()
        return new

    def call(self, seat: int) -> list[Event]:
        return self.act(seat, CALL)

    def fold(self, seat: int) -> list[Event]:
        return self.act(seat, FOLD)

    # --- turn, river, the dealer and settlement (Art. 13 e-g) ----------------------------
    def _showdown(self) -> list[Event]:
        self.phase = Phase.TURN_AND_RIVER
        new = self._draw(Purpose.BURN)  # Art. 13 e
        for _ in range(2):
            new += self._draw(Purpose.BOARD)
        self.phase = Phase.REVEAL
        dealer = evaluate([*self.dealer_cards, *self.board])
        self.dealer_hand = dealer
        self.dealer_qualifies = dealer.strength >= self.qualifying_strength
        new += self._record(
            DealerRevealed(
                cards=self.dealer_cards,
                hand=dealer.category.value,
                qualifies=self.dealer_qualifies,
            )
        )
        self.phase = Phase.SETTLEMENT
        for seat in self.players:
            if self.decisions[seat] == CALL:
                new += self._settle_caller(seat, dealer)
        self.phase = Phase.DONE
        return new + self._record(RoundEnded())

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

    def _settle_caller(self, seat: int, dealer: HandValue) -> list[Event]:
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
            return self._settle(seat, ANTE, ante, ante_payout, "win") + self._settle(
                seat, BET, bet, Fraction(bet), "push"
            )
        if player > dealer.strength:
            return self._settle(
                seat, ANTE, ante, self._ante_paytable_payout(ante, category), "win"
            ) + self._settle(seat, BET, bet, self.profile.call_pays.payout(bet), "win")
        if player < dealer.strength:
            return self._settle(seat, ANTE, ante, Fraction(0), "lose") + self._settle(
                seat, BET, bet, Fraction(0), "lose"
            )
        return self._settle(seat, ANTE, ante, Fraction(ante), "push") + self._settle(
            seat, BET, bet, Fraction(bet), "push"
        )

    def _settle(
        self, seat: int, wager: str, stake: int, payout: Fraction, result: str
    ) -> list[Event]:
        stake_value = Fraction(stake)
        self._wagers.append(WagerResult(seat, wager, stake_value, payout, result))
        if wager != PROGRESSIVE:  # the progressive's stake and prize are counted at the meter
            self._house_net += stake_value - payout
        return self._record(
            Settled(seat=seat, wager=wager, stake=stake_value, payout=payout, result=result)
        )

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
        for wager in self._wagers:
            if wager.seat == seat and wager.wager == ANTE:
                return wager.result
        raise IllegalActionError(f"zone {seat} is not settled yet")

    @property
    def is_done(self) -> bool:
        return self.phase is Phase.DONE

    def results(self) -> RoundResult:
        if not self.is_done:
            raise IllegalActionError(f"the round is not over ({self.phase.value})")
        return RoundResult(
            tuple(self._wagers),
            {
                "meter_before": self.meter_before,
                "meter_after": self.meter,
                "house_net": self._house_net,
            },
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now: its own hole cards, never another zone's, never the
        dealer's before the reveal, never the shoe (R6)."""
        revealed = self.dealer_qualifies is not None
        decision = self.pending()
        return {
            "game": GAME,
            "profile": self.profile.name,
            "phase": self.phase.value,
            "meter": json_number(self.meter),
            "zones": [
                {
                    "seat": zone,
                    "ante": self.antes.get(zone, 0),
                    "progressive": self.progressive_bets.get(zone, 0),
                    "cards": (
                        format_cards(self.hole_cards.get(zone, ()))
                        if zone == seat
                        else len(self.hole_cards.get(zone, ())) * ["??"]
                    ),
                    "hand": (
                        self.hand_of(zone).category.value
                        if zone == seat and zone in self.hole_cards
                        else None
                    ),
                    "decision": str(self.decisions[zone]) if zone in self.decisions else None,
                }
                for zone in sorted(set(self.antes) | set(self.progressive_bets))
            ],
            "dealer": {
                "cards": (
                    format_cards(self.dealer_cards) if revealed else len(self.dealer_cards) * ["??"]
                ),
                "hand": self.dealer_hand.category.value if self.dealer_hand else None,
                "qualifies": self.dealer_qualifies,
            },
            "board": format_cards(self.board),
            "pending": (
                None
                if decision is None
                else {"seat": decision.seat, "legal": [str(a) for a in decision.legal]}
            ),
            "results": (
                [
                    {
                        "seat": w.seat,
                        "wager": w.wager,
                        "stake": json_number(w.stake),
                        "payout": json_number(w.payout),
                        "result": w.result,
                    }
                    for w in self._wagers
                ]
                if self.is_done
                else None
            ),
        }


def new_shoe(source: RandomSource) -> Shoe:
    """Art. 7 a-b: one deck shuffled completely and at random, then cut, for every game."""
    return Shoe.shuffled(1, source)


def random_round(
    profile: CasinoHoldemRules,
    shoe: Shoe,
    source: RandomSource,
    *,
    new_shoe: bool = True,
    most_ante: int = 100,
    meter: Fraction | int | None = None,
) -> CasinoHoldemRound:
    """A game with random zones (at least ``min_players``), Antes, progressive bets and
    call/fold decisions, every choice drawn from ``source`` and taken from
    ``legal_actions()`` (benchmarks, property tests). ``new_shoe`` is accepted for the
    benchmark's common signature: every Casino Hold'em game is dealt from a fresh deck."""
    game = CasinoHoldemRound(profile, shoe, meter=meter)
    zones = list(range(1, profile.zones + 1))
    seated = [zone for zone in zones if uniform_below(source, 2)]
    while len(seated) < profile.min_players:  # Art. 9: fill up to two players
        seated = sorted({*seated, zones[uniform_below(source, len(zones))]})
    top = min(most_ante, profile.ante_limits.maximum) - profile.ante_limits.minimum + 1
    for zone in seated:
        game.place_bet(zone, ANTE, profile.ante_limits.minimum + uniform_below(source, top))
        if uniform_below(source, 2):
            game.place_bet(zone, PROGRESSIVE, profile.progressive.bet)
    game.deal()
    while (decision := game.pending()) is not None:
        game.act(decision.seat, decision.legal[uniform_below(source, len(decision.legal))])
    return game


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


# --- replay (RULES.md §6: every round can be rebuilt from its record) ----------------------


def replay(events: Sequence[Event], profile: CasinoHoldemRules | None = None) -> CasinoHoldemRound:
    """Rebuild a round from its events through the engine; the rebuilt round's events must be
    exactly ``events`` or ``ReplayError`` says where they part."""
    if not events or not isinstance(events[0], RoundStarted) or events[0].game != GAME:
        raise ReplayError(f"a {GAME} round's record starts with RoundStarted(game={GAME!r})")
    if profile is None:
        loaded = load_profile_of(GAME, events[0].profile)
        assert isinstance(loaded, CasinoHoldemRules)
        profile = loaded
    elif profile.name != events[0].profile:
        raise ReplayError(f"record is of profile {events[0].profile!r}, not {profile.name!r}")
    opened = events[1] if len(events) > 1 else None
    if not isinstance(opened, MeterOpened):
        raise ReplayError("a record's second event is MeterOpened (the meter it started from)")
    cards = [item.card for item in events if isinstance(item, CardDrawn)]
    try:
        rebuilt = CasinoHoldemRound(profile, Shoe.stacked(cards, profile.decks), meter=opened.meter)
        for item in events:
            if isinstance(item, BetPlaced) and rebuilt.phase is Phase.BETTING:
                rebuilt.place_bet(item.seat, item.wager, int(item.amount))
            elif isinstance(item, BetsReturned):
                rebuilt.return_bets(item.seat, item.reason)
            elif isinstance(item, BetsClosed):
                rebuilt.deal()
            elif isinstance(item, Decided):
                rebuilt.act(item.seat, Action.parse(item.action))
    except (BetError, IllegalActionError, ShoeError, NotationError) as error:
        raise ReplayError(f"the record does not replay: {error}") from None
    for index, (recorded, replayed) in enumerate(zip(events, rebuilt.events, strict=False)):
        if recorded != replayed:
            raise ReplayError(f"event {index}: recorded {recorded!r}, replayed {replayed!r}")
    if len(events) != len(rebuilt.events):
        raise ReplayError(f"the record has {len(events)} events, its replay {len(rebuilt.events)}")
    return rebuilt


# --- croupier settle (the fixed contract) --------------------------------------------------

_DOCUMENT_FIELDS = frozenset({"game", "rules", "shoe", "seats", "jackpot"})
_SEAT_FIELDS = frozenset({"seat", "bets", "actions"})
_BET_FIELDS = frozenset({ANTE, PROGRESSIVE})


def _meter_of(value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SettleInputError(f"'jackpot' must be a number of units, not {value!r}")
    try:
        amount = Fraction(str(value))  # the decimal as written: 5000.5 is 10001/2 exactly
    except ValueError:
        raise SettleInputError(f"'jackpot' must be a finite number, not {value!r}") from None
    if amount < 0:
        raise SettleInputError(f"'jackpot' cannot be negative: {value!r}")
    return amount


def settle_document(document: Mapping[str, Any], profile: CasinoHoldemRules) -> dict[str, Any]:
    """Settle one game described in JSON. The shoe lists the cards in draw order: each zone's
    first card then the dealer's, each zone's second card then the dealer's, a burn, the
    flop, a burn, the turn and the river (cards after those are left undealt)."""
    if not isinstance(profile, CasinoHoldemRules):
        raise ProfileError(f"profile {getattr(profile, 'name', profile)!r} is not {GAME}")
    unknown = sorted(set(document) - _DOCUMENT_FIELDS)
    if unknown:
        raise SettleInputError(
            f"unknown field {unknown[0]!r} (known: game, rules, shoe, seats, jackpot)"
        )
    listed = document.get("shoe")
    if not isinstance(listed, list):
        raise SettleInputError(f"'shoe' must be a list of cards such as 'Td', not {listed!r}")
    shoe = Shoe.stacked(parse_cards(listed), profile.decks)
    meter = _meter_of(document.get("jackpot", profile.progressive.meter_seed))
    seats = document.get("seats")
    if not isinstance(seats, list):
        raise SettleInputError(
            f"'seats' must be a list of {{'seat', 'bets', 'actions'}}, not {seats!r}"
        )
    game = CasinoHoldemRound(profile, shoe, meter=meter)
    actions: dict[int, list[Action]] = {}
    for entry in seats:
        if not isinstance(entry, dict):
            raise SettleInputError(f"a seat is an object with 'seat', 'bets', not {entry!r}")
        extra = sorted(set(entry) - _SEAT_FIELDS)
        if extra:
            raise SettleInputError(
                f"seat entry: unknown field {extra[0]!r} (known: seat, bets, actions)"
            )
        seat = game.verify_zone(entry.get("seat"))
        if seat in actions:
            raise SettleInputError(f"seat {seat} is listed twice")
        bets = entry.get("bets", {})
        if not isinstance(bets, dict):
            raise SettleInputError(f"seat {seat}: 'bets' must be an object, not {bets!r}")
        wrong = sorted(set(bets) - _BET_FIELDS)
        if wrong:
            raise SettleInputError(
                f"seat {seat}: unknown wager {wrong[0]!r} (known: ante, progressive)"
            )
        for wager in (ANTE, PROGRESSIVE):
            if wager in bets:
                game.place_bet(seat, wager, bets[wager])
        listed_actions = entry.get("actions", [])
        if not isinstance(listed_actions, list):
            raise SettleInputError(
                f"seat {seat}: 'actions' must be a list such as ['call'], not {listed_actions!r}"
            )
        actions[seat] = [Action.parse(text) for text in listed_actions]
    game.deal()
    while (decision := game.pending()) is not None:
        queue = actions[decision.seat]
        if not queue:
            raise SettleInputError(f"seat {decision.seat}: no action listed for 'call or fold'")
        game.act(decision.seat, queue.pop(0))
    for seat, left in sorted(actions.items()):
        if left:
            raise SettleInputError(
                f"seat {seat}: action {str(left[0])!r} left over: the seat had nothing to decide"
            )
    assert game.dealer_hand is not None
    result = game.results()
    return {
        "dealer": {
            "cards": format_cards(game.dealer_cards),
            "hand": game.dealer_hand.category.value,
            "qualifies": game.dealer_qualifies,
        },
        "board": format_cards(game.board),
        "seats": [_seat_document(game, result, seat) for seat in game.players],
        "jackpot": json_number(game.meter),
        "events": [item.to_json() for item in game.events],
    }


def _seat_document(game: CasinoHoldemRound, result: RoundResult, seat: int) -> dict[str, Any]:
    wagers = {w.wager: w for w in result.wagers if w.seat == seat}

    def entry(name: str) -> dict[str, int | float]:
        wager = wagers.get(name)
        if wager is None:
            return {"bet": 0, "payout": 0}
        return {"bet": json_number(wager.stake), "payout": json_number(wager.payout)}

    document: dict[str, Any] = {
        "seat": seat,
        "hand": game.hand_of(seat).category.value,
        "result": game.seat_result(seat),
        "bets": {name: entry(name) for name in (ANTE, BET, PROGRESSIVE)},
        "staked": json_number(result.staked(seat)),
        "returned": json_number(result.returned(seat)),
        "net": json_number(result.net(seat)),
    }
    if PROGRESSIVE in wagers:
        flop_hand = evaluate([*game.hole_cards[seat], *game.board[:3]])
        document["progressive_hand"] = flop_hand.category.value
    return document
