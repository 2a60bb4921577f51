"""Blackjack: one round as an explicit state machine in regulation order (docs/rules.md §1-3).

Phases follow the regulation: betting, the deal, the 21+3 side bet, insurance (and even
money), each player's hands in turn from the dealer's left, the dealer, settlement. Every
step appends frozen events; ``replay(events)`` rebuilds the round from them alone.

A whole round on a stacked shoe (peru-2016: hole card dealt, revealed after the players):

>>> from croupier.rules import load_profile
>>> from croupier.shoe import Shoe
>>> profile = load_profile("peru-2016")
>>> shoe = Shoe.parse("Th 9c 9d 7s Kd", decks=profile.decks)
>>> game = BlackjackRound(profile, shoe)
>>> _ = game.place_bet(1, "main", 10)
>>> _ = game.deal()
>>> game.phase, [str(action) for action in game.legal_actions()]
(<Phase.PLAYER_TURNS: 'player_turns'>, ['hit', 'stand', 'double 10'])
>>> _ = game.act(1, Action.parse("stand"))
>>> game.is_done, game.dealer_cards
(True, ['9c', '7s', 'Kd'])
>>> [(w.result, w.stake, w.payout) for w in game.results().wagers]
[('win', Fraction(10, 1), Fraction(20, 1))]
>>> from croupier.games.replay import replay
>>> replay(game.events).events == game.events
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from croupier.cards import Card, Rank, format_cards
from croupier.errors import (
    BetError,
)
from croupier.games.base import Action, GameRound, RoundResult, has_burns
from croupier.games.commands import Decision
from croupier.games.corrections import OpenWager
from croupier.games.events import (
    Doubled,
    EvenMoneyTaken,
    Event,
    Hit,
    InsuranceDeclined,
    InsuranceTaken,
    Purpose,
    Split,
    Stood,
    Surrendered,
    event,
)
from croupier.hands.blackjack import (
    BLACKJACK,
    dealer_should_draw,
    hand_total,
    hand_value,
    is_bust,
    is_hard_total_in,
    is_natural,
    is_pair,
    is_veintiuno_real,
)
from croupier.hands.three_card import classify_three_card
from croupier.money import json_number
from croupier.rules.blackjack import (
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    Surrender,
)
from croupier.shoe import Shoe

MAIN = "main"
TWENTY_ONE_PLUS_THREE = "21+3"
INSURANCE = "insurance"

HIT = "hit"
STAND = "stand"
DOUBLE = "double"
SPLIT = "split"
SURRENDER = "surrender"
NO_INSURANCE = "no-insurance"
EVEN_MONEY = "even-money"

INSURANCE_ACTIONS = (INSURANCE, NO_INSURANCE, EVEN_MONEY)


class Phase(StrEnum):
    """The phases of a round, in the order the regulation deals them."""

    BETTING = "betting"
    DEAL = "deal"
    SIDE_BETS = "side_bets"
    INSURANCE = "insurance"
    PLAYER_TURNS = "player_turns"
    DEALER = "dealer"
    SETTLEMENT = "settlement"
    DONE = "done"


class Result(StrEnum):
    """What a main-bet hand came to (the ``result`` of ``croupier settle``)."""

    BLACKJACK = "blackjack"
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
    BUST = "bust"
    VEINTIUNO_REAL = "veintiuno-real"
    EVEN_MONEY = "even-money"
    SURRENDER = "surrender"
    """Given up for half the bet (late surrender, docs/rules.md#D-BJ-32)."""
    VOID = "void"


# --- events of this game --------------------------------------------------------------------


@event
class HoleCardRevealed(Event):
    """The dealer turns the hole card over (Peru Art. 13: after every player has finished,
    or at once under an Ace or ten where the profile peeks)."""

    card: Card


# --- pure settlement rules of the side bets -------------------------------------------------


def insurance_payout(amount: int, dealer_blackjack: bool, profile: BlackjackRules) -> Fraction:
    """Art. 10: insurance pays ``insurance_pays`` on a dealer blackjack, else it is lost."""
    return profile.insurance_pays.payout(amount) if dealer_blackjack else Fraction(0)


def twenty_one_plus_three(
    player_cards: Sequence[Card], up_card: Card, stake: int, profile: BlackjackRules
) -> tuple[str, Fraction]:
    """Arts. 18-20: the category (or ``none``) and the payout of a 21+3 bet."""
    side = profile.twenty_one_plus_three
    if side is None:
        raise BetError(f"{profile.name} has no 21+3 side bet")
    category = classify_three_card((*player_cards[:2], up_card), side.ace_low_straight)
    if category is None:
        return "none", Fraction(0)
    return str(category), side.paytable[category].payout(stake)


# --- the round's state ----------------------------------------------------------------------


@dataclass
class Hand:
    """One hand of a box; a split makes more. ``number`` is its order of creation."""

    number: int
    cards: list[Card]
    stake: int
    from_split: bool = False
    split_aces: bool = False
    increment: int = 0
    finished: bool = False
    result: Result | None = None
    payout: Fraction | None = None
    face_down_card: int | None = None
    """Index of a card dealt face down (a split Ace's or a double's, where the profile says
    so), hidden from every view until the dealer turns it after the players."""

    @property
    def is_settled(self) -> bool:
        return self.result is not None

    @property
    def total_stake(self) -> int:
        return self.stake + self.increment


@dataclass
class Box:
    """A betting box (a seat): its wagers and its hands in the order they are played."""

    seat: int
    bets: dict[str, int] = field(default_factory=dict)
    hands: list[Hand] = field(default_factory=list)
    insurance: int = 0
    insurance_decided: bool = False
    side_payout: Fraction | None = None
    insurance_payout: Fraction | None = None
    dealt: tuple[Card, ...] = ()
    """The box's first two cards (what 21+3 reads), kept as dealt whatever splits follow."""

    @property
    def main(self) -> int:
        return self.bets.get(MAIN, 0)


class BlackjackRound(GameRound):
    """One round of blackjack under ``profile``, dealt from ``shoe``.

    ``new_shoe=True`` starts the shoe: the profile's burn cards leave it first (Spain: five).
    """

    game: ClassVar[str] = "blackjack"
    rules = BlackjackRules
    takes_new_shoe = True
    # Art. 13: the hole card lies face down until the dealer turns it.
    face_down_until: ClassVar[Mapping[str, str]] = {Purpose.HOLE.value: HoleCardRevealed.__name__}

    profile: BlackjackRules
    seat_noun = "seat"
    seats_are = "boxes are numbered"
    limits_noun = "limits"

    def __init__(self, profile: BlackjackRules, shoe: Shoe, *, new_shoe: bool = False) -> None:
        self.phase = Phase.BETTING
        self.boxes: dict[int, Box] = {}
        self.dealer: list[Card] = []
        self.hole_card_revealed = False
        self._turn: tuple[int, int] | None = None  # (seat, index into box.hands)
        super().__init__(profile, shoe)
        if new_shoe:
            for _ in range(profile.shoe.burn_on_new_shoe):
                self.draw(Purpose.BURN)

    @classmethod
    def _replay_options(cls, record: Sequence[Event]) -> dict[str, Any]:
        return {"new_shoe": has_burns(record)}

    @property
    def is_last_round_of_shoe(self) -> bool:
        """The cut card has come out: this round is the shoe's last (Spain Art. 03)."""
        return self.shoe.is_cut_card_out

    # === Phase BETTING =======================================================================
    # Decision (croupier): a side bet rides on a main bet on the same box.
    main_wager = MAIN
    main_wager_needed = "21+3 needs a main bet on the box (place the main bet first)"

    def _verify_deal(self) -> None:
        if not self.bets:
            raise BetError("deal refused: no box has a main bet")

    # === Phase DEAL ==========================================================================
    def _deal(self) -> None:
        """Deal: a card to each box from the dealer's left, the dealer's up card, a second
        card to each box, then the hole card where the profile has one."""
        self.phase = Phase.DEAL
        self.boxes = {seat: Box(seat, dict(bets)) for seat, bets in sorted(self.bets.items())}
        for box in self.boxes.values():
            box.hands.append(Hand(0, [], box.main))
        for box in self.boxes.values():
            box.hands[0].cards.append(self.draw(Purpose.PLAYER, box.seat, 0))
        self.dealer.append(self.draw(Purpose.DEALER))
        for box in self.boxes.values():
            box.hands[0].cards.append(self.draw(Purpose.PLAYER, box.seat, 0))
        if self.profile.hole_card is not HoleCard.NONE:
            self.dealer.append(self.draw(Purpose.HOLE))
        for box in self.boxes.values():
            box.dealt = tuple(box.hands[0].cards)
        self._settle_side_bets()
        self._proceed()

    @property
    def up_card(self) -> Card:
        return self.dealer[0]

    # === Phase SIDE_BETS =====================================================================
    def _settle_side_bets(self) -> None:
        """Arts. 19-20: 21+3 is settled right after the deal, before insurance, 'de derecha a
        izquierda' (from the dealer's right: the highest seat first)."""
        self.phase = Phase.SIDE_BETS
        for box in reversed(self.boxes.values()):
            stake = box.bets.get(TWENTY_ONE_PLUS_THREE, 0)
            if not stake:
                continue
            result, payout = twenty_one_plus_three(box.dealt, self.up_card, stake, self.profile)
            box.side_payout = payout
            self._settle_wager(box.seat, TWENTY_ONE_PLUS_THREE, Fraction(stake), payout, result)

    # --- moving on until somebody must decide --------------------------------------------
    def _proceed(self) -> None:
        """Play every step that needs no decision, until one is needed or the round ends."""
        if self.phase is Phase.SIDE_BETS:
            if self._offers_insurance():
                self.phase = Phase.INSURANCE
            else:
                self._after_insurance()
        if self.phase is Phase.INSURANCE:
            if self._insurance_seat() is not None:
                return
            self._after_insurance()
        if self.phase is Phase.PLAYER_TURNS:
            if self._next_turn():
                return
            self.phase = Phase.DEALER
        if self.phase is Phase.DEALER:
            self._play_dealer()
            self.phase = Phase.SETTLEMENT
        if self.phase is Phase.SETTLEMENT:
            self._settle()
            self._end()

    def _after_insurance(self) -> None:
        if self._peeks() and self._dealer_has_blackjack():
            # Peek: the dealer's blackjack ends the round before anyone plays.
            self._reveal_hole_card()
            self._settle_insurance()
            self.phase = Phase.SETTLEMENT
            return
        if self._peeks():
            self._settle_insurance()  # the hole card is known not to make a blackjack
        self._pay_blackjacks_at_once()
        self.phase = Phase.PLAYER_TURNS

    # === Phase INSURANCE =====================================================================
    def _offers_insurance(self) -> bool:
        """Art. 10: insurance (and Art. 13 even money) when the dealer's up card is an Ace."""
        return self.profile.insurance and self.up_card.rank is Rank.ACE

    def _insurance_seat(self) -> int | None:
        for box in self.boxes.values():
            if not box.insurance_decided:
                return box.seat
        return None

    def max_insurance(self, seat: int) -> int:
        """Art. 10: up to ``insurance_max`` of the original bet, in whole units."""
        return int(self.profile.insurance_max * self.boxes[seat].main)

    def _why_not_insurance(self, seat: int, action: Action) -> str | None:
        if action.name not in INSURANCE_ACTIONS:
            return f"the round is asking about insurance, not {action.name!r}"
        if self._insurance_seat() != seat:
            return f"it is seat {self._insurance_seat()}'s turn to answer insurance"
        box = self.boxes[seat]
        if action.name == INSURANCE:
            most = self.max_insurance(seat)
            if most < 1:
                return f"{self.profile.insurance_max} of a bet of {box.main} is less than one unit"
            if action.amount is not None and not 1 <= action.amount <= most:
                return (
                    f"insurance is 1 to {most} units "
                    f"({self.profile.insurance_max} of the original bet), not {action.amount}"
                )
            return None
        if action.name == EVEN_MONEY:
            if not self.profile.even_money:
                return f"{self.profile.name} offers no even money"
            if not self._is_blackjack(box.hands[0]):
                return "even money is for a blackjack"
            return None if action.amount is None else "even money takes no amount"
        return None if action.amount is None else "no-insurance takes no amount"

    def _insurance_options(self, seat: int) -> tuple[Action, ...]:
        options = [
            Action(INSURANCE, self.max_insurance(seat)),
            Action(EVEN_MONEY),
            Action(NO_INSURANCE),
        ]
        return tuple(option for option in options if self._why_not_insurance(seat, option) is None)

    def _answer_insurance(self, seat: int, action: Action) -> None:
        box = self.boxes[seat]
        box.insurance_decided = True
        if action.name == INSURANCE:
            # 'insurance' with no amount insures the most allowed (half the original bet).
            box.insurance = self.max_insurance(seat) if action.amount is None else action.amount
            self._record(InsuranceTaken(seat=seat, amount=Fraction(box.insurance)))
        elif action.name == NO_INSURANCE:
            self._record(InsuranceDeclined(seat=seat))
        else:
            # Art. 13: even money, 1:1 at once, before the voluntary draw.
            self._record(EvenMoneyTaken(seat=seat))
            self._settle_hand_now(box, box.hands[0], Result.EVEN_MONEY, Fraction(2 * box.main))

    def _settle_insurance(self) -> None:
        dealer_blackjack = self._dealer_has_blackjack()
        for box in reversed(self.boxes.values()):
            if box.insurance and box.insurance_payout is None:
                box.insurance_payout = insurance_payout(
                    box.insurance, dealer_blackjack, self.profile
                )
                self._settle_wager(
                    box.seat,
                    INSURANCE,
                    Fraction(box.insurance),
                    box.insurance_payout,
                    "win" if dealer_blackjack else "lose",
                )

    # === Phase PLAYER_TURNS ==================================================================
    def _is_blackjack(self, hand: Hand) -> bool:
        """Art. 13: a natural on the unsplit hand; a split Ace + ten only where the profile
        says so (Veintiuno Real sheet item 10c)."""
        if not is_natural(hand.cards):
            return False
        if not hand.from_split:
            return True
        return self.profile.split_ace_ten_is_blackjack and hand.split_aces

    def _is_veintiuno_real(self, hand: Hand) -> bool:
        rule = self.profile.veintiuno_real
        if rule is None or not is_veintiuno_real(hand.cards):
            return False
        return not (rule.unsplit_hand_only and hand.from_split)

    def _pays_blackjack_at_once(self) -> bool:
        """Art. 13: paid at once unless the dealer's up card is an Ace or ten-valued."""
        up = self.up_card.rank
        return self.profile.blackjack_paid_at_once and not (up is Rank.ACE or up.is_ten_valued)

    def _pay_blackjacks_at_once(self) -> None:
        if not self._pays_blackjack_at_once():
            return
        for box in self.boxes.values():
            hand = box.hands[0]
            if not hand.is_settled and self._is_blackjack(hand):
                payout = self.profile.blackjack_pays.payout(hand.stake)
                self._settle_hand_now(box, hand, Result.BLACKJACK, payout)

    def _settle_hand_now(self, box: Box, hand: Hand, result: Result, payout: Fraction) -> None:
        hand.finished = True
        hand.result, hand.payout = result, payout
        self._settle_wager(box.seat, MAIN, hand.total_stake, payout, str(result), hand=hand.number)

    def _next_turn(self) -> bool:
        """Advance to the next hand that needs a decision, dealing and closing hands that
        need none. ``False`` when every hand is finished."""
        for box in self.boxes.values():
            index = 0
            while index < len(box.hands):
                hand = box.hands[index]
                if not hand.finished:
                    if len(hand.cards) == 1:
                        # Art. 11: a split hand receives its second card when its turn comes.
                        self._deal_second_card(box, hand)
                    self._close_if_nothing_to_decide(box, hand)
                    if not hand.finished:
                        self._turn = (box.seat, index)
                        return True
                index += 1
        self._turn = None
        return False

    def _deal_to(self, box: Box, hand: Hand, *, face_down: bool = False) -> None:
        hand.cards.append(self.draw(Purpose.PLAYER, box.seat, hand.number))
        if face_down:
            hand.face_down_card = len(hand.cards) - 1

    def _deal_second_card(self, box: Box, hand: Hand) -> None:
        """A split hand's second card; a split Ace's is face down where the profile says so
        (Veintiuno Real item 10c)."""
        self._deal_to(
            box, hand, face_down=hand.split_aces and self.profile.split_ace_card_face_down
        )

    def _close_if_nothing_to_decide(self, box: Box, hand: Hand) -> None:
        total = hand_total(hand.cards)
        if total > BLACKJACK and hand.face_down_card is not None:
            # Nobody knows of a bust under a face-down card until it is turned after the
            # players: it is settled, as a bust, with the others.
            hand.finished = True
        elif total > BLACKJACK:
            # Arts. 11, 14: a bust loses at once, whatever the dealer does.
            self._settle_hand_now(box, hand, Result.BUST, Fraction(0))
        elif total == BLACKJACK:
            hand.finished = True  # docs/rules.md §1 decision: 21 stands automatically
        elif (
            hand.split_aces and len(hand.cards) >= 2 and self._why_not_split(box, hand) is not None
        ):
            hand.finished = True  # Art. 11: split Aces get exactly one more card each

    def current(self) -> tuple[Box, Hand] | None:
        if self.phase is not Phase.PLAYER_TURNS or self._turn is None:
            return None
        seat, index = self._turn
        box = self.boxes[seat]
        return box, box.hands[index]

    # --- the legality of each decision, in one place ------------------------------------
    def _why_not_double(self, box: Box, hand: Hand, amount: int | None) -> str | None:
        rules = self.profile
        if len(hand.cards) != 2:
            return "a double is made on the first two cards (Art. 12)"
        if hand.split_aces:
            return "split Aces receive exactly one card (Art. 11)"
        if hand.from_split and not rules.double_after_split:
            return f"{rules.name} allows no double after a split"
        if rules.double_on is DoubleOn.HARD_9_TO_11 and not is_hard_total_in(hand.cards, 9, 11):
            return f"{rules.name} doubles only a hard 9, 10 or 11"
        if amount is not None and amount != hand.stake:  # "double 10" on 10 is the full double
            if not rules.double_for_less:
                return f"{rules.name} doubles for the full bet only (write 'double', no amount)"
            if not 1 <= amount <= hand.stake:
                return f"a double is 1 to {hand.stake} units (up to the original bet), not {amount}"
        return None

    def _why_not_split(self, box: Box, hand: Hand) -> str | None:
        rules = self.profile
        if len(hand.cards) != 2:
            return "only the first two cards of a hand may be split (Art. 11)"
        if not is_pair(hand.cards, rules.split_by):
            return f"{format_cards(hand.cards)} is not a pair by {rules.split_by}"
        limit = rules.max_hands_per_box
        if limit is not None and len(box.hands) >= limit:
            return f"a box may split into at most {limit} hands"
        if hand.split_aces and not rules.resplit_aces:
            return f"{rules.name} does not re-split Aces"
        return None

    def _why_not_surrender(self, hand: Hand) -> str | None:
        """docs/rules.md#D-BJ-32: late surrender, on an unsplit hand's first two cards. The
        dealer has already checked for blackjack: a peek game reaches the turns only without
        one (a profile allows late surrender only where the dealer peeks)."""
        rules = self.profile
        if rules.surrender is not Surrender.LATE:
            return f"{rules.name} offers no surrender"
        if hand.from_split:
            return "a hand made by a split may not surrender (docs/rules.md#D-BJ-32)"
        if len(hand.cards) != 2:
            return "only the first two cards may be surrendered (docs/rules.md#D-BJ-32)"
        return None

    def _why_not_play(self, seat: int, action: Action) -> str | None:
        turn = self.current()
        assert turn is not None
        box, hand = turn
        if box.seat != seat:
            return f"it is seat {box.seat}'s turn"
        if action.name == DOUBLE:
            return self._why_not_double(box, hand, action.amount)
        if action.amount is not None:
            return f"{action.name!r} takes no amount"
        if action.name == HIT and hand.split_aces:
            return "split Aces receive exactly one card (Art. 11)"
        if action.name in (HIT, STAND):
            return None
        if action.name == SPLIT:
            return self._why_not_split(box, hand)
        if action.name == SURRENDER:
            return self._why_not_surrender(hand)
        return f"{action.name!r} is not a decision of a hand (hit, stand, double, split, surrender)"

    def _play_options(self, seat: int) -> tuple[Action, ...]:
        turn = self.current()
        assert turn is not None
        hand = turn[1]
        options = [Action(HIT), Action(STAND)]
        options.append(
            Action(DOUBLE, hand.stake) if self.profile.double_for_less else Action(DOUBLE)
        )
        options.append(Action(SPLIT))
        options.append(Action(SURRENDER))
        return tuple(option for option in options if self._why_not_play(seat, option) is None)

    def _apply_play(self, box: Box, hand: Hand, action: Action) -> None:
        if action.name == HIT:
            self._record(Hit(seat=box.seat, hand=hand.number))
            hand.cards.append(self.draw(Purpose.PLAYER, box.seat, hand.number))
        elif action.name == STAND:
            self._record(Stood(seat=box.seat, hand=hand.number))
            hand.finished = True
        elif action.name == DOUBLE:
            amount = hand.stake if action.amount is None else action.amount
            hand.increment = amount
            self._record(Doubled(seat=box.seat, hand=hand.number, amount=Fraction(amount)))
            self._deal_to(box, hand, face_down=self.profile.double_card_face_down)
            hand.finished = True
        elif action.name == SPLIT:
            # Art. 11: the original bet stays on this hand, an equal bet goes on the new one,
            # which is played right after the hand it came from.
            aces = hand.cards[0].rank is Rank.ACE
            new = Hand(
                number=max(h.number for h in box.hands) + 1,
                cards=[hand.cards.pop()],
                stake=hand.stake,
                from_split=True,
                split_aces=aces,
            )
            hand.from_split = True
            hand.split_aces = aces
            box.hands.insert(box.hands.index(hand) + 1, new)
            self._record(
                Split(
                    seat=box.seat,
                    hand=hand.number,
                    new_hand=new.number,
                    amount=Fraction(new.stake),
                )
            )
            self._deal_second_card(box, hand)
        elif action.name == SURRENDER:
            # docs/rules.md#D-BJ-32: half the bet comes back at once, exactly (whole units
            # hold a whole number of minor units in a half).
            self._record(Surrendered(seat=box.seat, hand=hand.number))
            self._settle_hand_now(box, hand, Result.SURRENDER, Fraction(hand.stake, 2))
            return
        self._close_if_nothing_to_decide(box, hand)

    # --- the interface: pending decision, legal actions, acting -------------------------
    def pending(self) -> Decision | None:
        if self.phase is Phase.INSURANCE:
            seat = self._insurance_seat()
            assert seat is not None
            return Decision(
                seat=seat,
                question="insurance",
                legal=self._insurance_options(seat),
                default=Action(NO_INSURANCE),
            )
        turn = self.current()
        if turn is None:
            return None
        box, hand = turn
        return Decision(
            seat=box.seat,
            question="play",
            legal=self._play_options(box.seat),
            default=Action(STAND),
            hand=hand.number,
        )

    def why_not(self, seat: int, action: Action) -> str | None:
        """Why ``action`` from ``seat`` is illegal now, or ``None`` when it is legal."""
        if self.phase is Phase.INSURANCE:
            return self._why_not_insurance(seat, action)
        if self.phase is Phase.PLAYER_TURNS:
            return self._why_not_play(seat, action)
        return f"no decision is awaited: the round is in {self.phase}"

    def _act(self, seat: int, action: Action) -> None:
        """Apply a decision (``verify_act`` has allowed it)."""
        if self.phase is Phase.INSURANCE:
            self._answer_insurance(seat, action)
        else:
            turn = self.current()
            assert turn is not None
            self._apply_play(*turn, action)
        self._proceed()

    # === Phase DEALER ========================================================================
    def _peeks(self) -> bool:
        up = self.up_card.rank
        return self.profile.hole_card is HoleCard.PEEK and (up is Rank.ACE or up.is_ten_valued)

    def _dealer_has_blackjack(self) -> bool:
        return is_natural(self.dealer[:2]) if len(self.dealer) >= 2 else False

    def _reveal_hole_card(self) -> None:
        if self.profile.hole_card is not HoleCard.NONE and not self.hole_card_revealed:
            self.hole_card_revealed = True
            self._record(HoleCardRevealed(card=self.dealer[1]))

    def _hands_in_play(self) -> bool:
        return any(not hand.is_settled for box in self.boxes.values() for hand in box.hands)

    def _play_dealer(self) -> None:
        """Art. 14: after every player, the dealer reveals and draws to 17 (S17 or H17).

        With no hand left in play the dealer draws nothing (``dealer_draws_when_no_hand_remains``);
        without a hole card he still draws his second card if an insurance bet waits on it.
        """
        self._reveal_hole_card()
        hands_left = self._hands_in_play() or self.profile.dealer_draws_when_no_hand_remains
        insurance_left = any(
            box.insurance and box.insurance_payout is None for box in self.boxes.values()
        )
        if len(self.dealer) == 1 and (hands_left or insurance_left):
            self.dealer.append(self.draw(Purpose.DEALER))
        self._settle_insurance()
        if not hands_left or self._dealer_has_blackjack():
            return
        while dealer_should_draw(self.dealer, self.profile):
            self.dealer.append(self.draw(Purpose.DEALER))

    # === Phase SETTLEMENT ====================================================================
    def _settle(self) -> None:
        """Pay and collect from the dealer's right to his left, the highest seat first (Spain
        Art. 03 V.1.a 'de derecha a izquierda', as Peru Art. 19 does for 21+3)."""
        self._settle_insurance()
        dealer_blackjack = self._dealer_has_blackjack()
        for box in reversed(self.boxes.values()):
            for hand in box.hands:
                if hand.is_settled:
                    continue
                if is_bust(hand.cards):  # a face-down card turned over: still final
                    self._settle_hand_now(box, hand, Result.BUST, Fraction(0))
                    continue
                self._settle_hand_now(box, hand, *self._main_result(hand, dealer_blackjack))

    def _main_result(self, hand: Hand, dealer_blackjack: bool) -> tuple[Result, Fraction]:
        """The result and payout (stake included) of a hand still in play at settlement.
        A bust never reaches here: it lost at once (Arts. 11, 14)."""
        profile, stake = self.profile, Fraction(hand.total_stake)
        is_blackjack = self._is_blackjack(hand)
        if dealer_blackjack:
            if is_blackjack:
                return Result.PUSH, stake  # Art. 13: a player blackjack pushes a dealer blackjack
            if profile.dealer_blackjack_takes is DealerBlackjackTakes.ALL_BETS:
                return Result.LOSE, Fraction(0)
            # OBO (Art. 13, docs/rules.md §1 decision): only the original stake on the first
            # hand is lost; doubling increments and the other split hands' bets are returned.
            if hand.number == 0:
                return Result.LOSE, Fraction(hand.increment)
            return Result.PUSH, stake
        if is_blackjack:
            return Result.BLACKJACK, profile.blackjack_pays.payout(stake)
        if self._is_veintiuno_real(hand) and profile.veintiuno_real is not None:
            # Veintiuno Real loses only to a dealer blackjack (sheet item 13).
            return Result.VEINTIUNO_REAL, profile.veintiuno_real.pays.payout(stake)
        player, dealer = hand_total(hand.cards), hand_total(self.dealer)
        if dealer > BLACKJACK or player > dealer:
            return Result.WIN, 2 * stake  # Art. 15: wins pay 1:1
        if player == dealer:
            return Result.PUSH, stake  # Art. 17
        return Result.LOSE, Fraction(0)  # Art. 16

    # --- a round that cannot go on --------------------------------------------------------
    def _open_wagers(self) -> Iterable[OpenWager]:
        """A void (a confused deal, Veintiuno Real sheet item 14; an interrupted round, R11)
        returns, from the dealer's right, each box's unsettled 21+3, insurance and hands; a
        box voided before the deal returns its main bet as hand 0."""
        settled = {(w.seat, w.wager, w.hand) for w in self.settled()}
        boxes = self.boxes or {seat: Box(seat, dict(bets)) for seat, bets in self.bets.items()}
        for box in reversed(sorted(boxes.values(), key=lambda item: item.seat)):
            side = box.bets.get(TWENTY_ONE_PLUS_THREE, 0)
            if side and (box.seat, TWENTY_ONE_PLUS_THREE, None) not in settled:
                yield OpenWager(box.seat, TWENTY_ONE_PLUS_THREE, Fraction(side))
            if box.insurance and (box.seat, INSURANCE, None) not in settled:
                yield OpenWager(box.seat, INSURANCE, Fraction(box.insurance))
            for hand in box.hands or [Hand(0, [], box.main)]:
                if (box.seat, MAIN, hand.number) not in settled:
                    yield OpenWager(box.seat, MAIN, Fraction(hand.total_stake), hand.number)

    def _end(self) -> None:
        self._turn = None
        super()._end()

    # --- the dealer's corrections (docs/rules.md#D-BJ-31) -----------------------------------
    def face_down_places(self) -> dict[str, Card]:
        """The hole card (``hole``) until it is turned, and while the players play a card
        dealt face down to a split Ace or a double (``seat 2 hand 1``: Veintiuno Real items
        10c, 12)."""
        places: dict[str, Card] = {}
        if (
            self.profile.hole_card is not HoleCard.NONE
            and len(self.dealer) > 1
            and not self.hole_card_revealed
        ):
            places["hole"] = self.dealer[1]
        if self.phase in (Phase.INSURANCE, Phase.PLAYER_TURNS):
            for box in self.boxes.values():
                for hand in box.hands:
                    if hand.face_down_card is not None:
                        place = f"seat {box.seat} hand {hand.number}"
                        places[place] = hand.cards[hand.face_down_card]
        return places

    def _replace_face_down(self, place: str) -> None:
        if place == "hole":
            self.dealer[1] = self.draw(Purpose.HOLE)
            return
        _, seat, _, number = place.split()
        box = self.boxes[int(seat)]
        hand = next(hand for hand in box.hands if hand.number == int(number))
        assert hand.face_down_card is not None
        hand.cards[hand.face_down_card] = self.draw(Purpose.PLAYER, box.seat, hand.number)

    # === Phase DONE ==========================================================================
    @property
    def dealer_cards(self) -> list[str]:
        return format_cards(self.dealer)

    def _details(self) -> dict[str, Any]:
        return {"dealer": self.dealer_cards}

    # --- croupier settle ----------------------------------------------------------------
    def _house_document(self) -> dict[str, Any]:
        return {
            "dealer": {
                "cards": self.dealer_cards,
                "total": hand_total(self.dealer),
                "blackjack": self._dealer_has_blackjack(),
            }
        }

    def _seat_document(self, seat: int, result: RoundResult) -> dict[str, Any]:
        box = self.boxes.get(seat)
        hands = []  # each as a view shows it after the round: every card face up
        side: dict[str, Any] = {}
        insurance: dict[str, int | float] = {"bet": 0, "payout": 0}
        if box is not None:
            # The settle contract's hand fields are fixed: the view's ``soft`` (for the felt's
            # "7/17") stays out of it.
            views = (_hand_view(hand, face_down_hidden=False) for hand in box.hands)
            hands = [{k: v for k, v in view.items() if k != "soft"} for view in views]
            insurance = {
                "bet": box.insurance,
                "payout": json_number(box.insurance_payout or Fraction(0)),
            }
            side_rules = self.profile.twenty_one_plus_three
            if side_rules is not None:
                category = classify_three_card(
                    (*box.dealt, self.up_card), side_rules.ace_low_straight
                )
                side[TWENTY_ONE_PLUS_THREE] = {
                    "bet": box.bets.get(TWENTY_ONE_PLUS_THREE, 0),
                    "result": "none" if category is None else str(category),
                    "payout": json_number(box.side_payout or Fraction(0)),
                }
        return {"hands": hands, "side_bets": side, "insurance": insurance, **result.money(seat)}

    def _closing_document(self, result: RoundResult) -> dict[str, Any]:
        return {"house_net": json_number(result.house_net)}

    # --- what a seat may see --------------------------------------------------------------
    def _hands_view(self, seat: int, viewer: int | None, everything: bool) -> list[dict[str, Any]]:
        box = self.boxes.get(seat)
        hidden = not everything and self.phase in (Phase.INSURANCE, Phase.PLAYER_TURNS)
        return [] if box is None else [_hand_view(hand, hidden) for hand in box.hands]

    def _house_view(self, everything: bool) -> dict[str, Any]:
        hole_hidden = (
            not everything
            and self.profile.hole_card is not HoleCard.NONE
            and not self.hole_card_revealed
        )
        shown = self.dealer[:1] if hole_hidden else self.dealer
        cards = format_cards(shown) + (["??"] if hole_hidden and len(self.dealer) > 1 else [])
        return {"dealer": {"cards": cards, "total": hand_total(shown) if shown else None}}


def _hand_view(hand: Hand, face_down_hidden: bool) -> dict[str, Any]:
    """A hand as the view shows it: a card dealt face down (Veintiuno Real items 10c, 12)
    is ``??`` in its place until the turns are over, and the total waits for it. ``soft``:
    an Ace counts 11 in the total (it may still count 1: a soft 17 is also a 7)."""
    hidden = hand.face_down_card if face_down_hidden else None
    cards = format_cards(hand.cards)
    if hidden is not None:
        cards[hidden] = "??"
    return {
        "hand": hand.number,
        "cards": cards,
        "bet": hand.total_stake,
        "total": None if hidden is not None else hand_total(hand.cards),
        "soft": hidden is None and hand_value(hand.cards).soft,
        "result": None if hand.result is None else str(hand.result),
        "payout": None if hand.payout is None else json_number(hand.payout),
    }
