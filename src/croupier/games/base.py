"""The round every game is made of: one small state machine per round, laid out in order.

A round is made from a profile and a shoe (chance is injected, never global). Bets are placed,
``deal()`` closes them and plays every step that needs nobody, then the round waits on
``pending()``: the one decision it needs next, from which seat, with its legal actions and
the regulation's default if the seat's time runs out. ``act()`` applies a decision (or raises
``IllegalActionError`` and changes nothing). When ``is_done``, ``results()`` lists every
wager's stake and payout. ``apply(command)`` carries out any command (``games.commands``):
the one entry the live table, ``settle`` and ``replay`` use.

``GameRound`` is assembled from one module per concern, each built on the round's record
(``games.record``: the event log, drawing a card with its ``Purpose``, the bets placed):
the dealer's corrections and the void (``games.corrections``), what each viewer may see
(``games.viewing``), and here the state machine: checking a bet against the profile's table
record (``Profile.table``), the deal, the decisions, by the one legality convention
(``verify_x`` raises, ``can_x`` asks, ``x`` verifies then acts). ``games.replay`` rebuilds
any game's round from its events; ``games.settle_document`` is the ``croupier settle``
contract. A game's module holds only its own rules: its phases, its decisions and its payouts.
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, assert_never

from croupier.cards import Card
from croupier.errors import BetError, CardNeeded, IllegalActionError, ReplayError
from croupier.games.commands import (
    Act,
    Action,
    Bet,
    Command,
    ConfusedDeal,
    Correction,
    Deal,
    DealtInError,
    Decision,
    Exposed,
    FaceUp,
    Return,
    Void,
)
from croupier.games.corrections import DealerCorrections
from croupier.games.events import (
    BetPlaced,
    BetsClosed,
    BetsReturned,
    CardDrawn,
    DefaultApplied,
    Event,
    Operation,
    Purpose,
    RoundEnded,
    RoundVoided,
    Settled,
)
from croupier.games.record import give_again, passes
from croupier.games.viewing import RoundViews
from croupier.money import json_number, parse_amount
from croupier.randomness import RandomSource, uniform_below
from croupier.rules.base import Profile
from croupier.shoe import PhysicalShoe, Shoe

__all__ = [
    "Action",
    "GameRound",
    "RoundResult",
    "burns_to_enter",
    "decide_randomly",
    "has_burns",
    "place_random_bets",
    "random_choice",
    "random_round",
    "recorded_cards",
    "round_class_of",
]


@dataclass(frozen=True)
class RoundResult:
    """Every wager of a finished round: the ledger's postings derive from this."""

    wagers: tuple[Settled, ...]
    details: dict[str, Any] = field(default_factory=dict)

    def seats(self) -> list[int]:
        return sorted({wager.seat for wager in self.wagers})

    def staked(self, seat: int) -> Fraction:
        return sum((w.stake for w in self.wagers if w.seat == seat), Fraction(0))

    def returned(self, seat: int) -> Fraction:
        return sum((w.payout for w in self.wagers if w.seat == seat), Fraction(0))

    def net(self, seat: int) -> Fraction:
        return self.returned(seat) - self.staked(seat)

    def money(self, seat: int) -> dict[str, int | float]:
        """A seat's ``staked``, ``returned`` and ``net`` as ``croupier settle`` answers them."""
        return {
            "staked": json_number(self.staked(seat)),
            "returned": json_number(self.returned(seat)),
            "net": json_number(self.net(seat)),
        }

    def back_bet_payout(self, seat: int, amount: int) -> int:
        """What a back bet of ``amount`` (whole minor units) on ``seat``'s box returns
        (docs/rules.md#D-BJ-28): its stake times the box's return (what the box's wagers
        returned over what they staked, doubles and splits included), rounded down to the
        minor unit; a box that staked nothing returns the back bet."""
        staked = self.staked(seat)
        ratio = self.returned(seat) / staked if staked else Fraction(1)
        return int(amount * ratio)

    @property
    def house_net(self) -> Fraction:
        return -sum((self.net(seat) for seat in self.seats()), Fraction(0))


ROUND_CLASSES: dict[str, type[GameRound]] = {}
"""Each game's round class by its ``game`` (registered when its module is imported)."""

DRAWS_NO_CARD = (Bet, Return, Void, ConfusedDeal)
"""The commands that never draw a card, so never stop for one: ``apply`` keeps no copy."""


class GameRound(DealerCorrections, RoundViews):
    """One round of one game under one profile: the mechanics every game shares."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game" in vars(cls):
            ROUND_CLASSES[cls.game] = cls

    def __init__(self, profile: Profile, shoe: Shoe) -> None:
        self.resumable = shoe.is_physical
        """A command that stops for a card keeps the round as it stood before it
        (``apply``), so that ``enter`` carries on from there (a live physical shoe's round)."""
        self._resume_from: tuple[GameRound, int] | None = None
        """The round before the command that stopped for a card, and the shoe's position then."""
        super().__init__(profile, shoe)

    @classmethod
    def opened(
        cls,
        profile: Profile,
        shoe: Shoe,
        *,
        new_shoe: bool = False,
        meter: Fraction | int | None = None,
    ) -> GameRound:
        """A round of this game given what its constructor takes: ``new_shoe`` (the shoe's
        new-shoe procedure opens the round) where ``takes_new_shoe``, ``meter`` (the
        progressive it starts from; ``None``: the profile's seed) where ``takes_meter``."""
        options: dict[str, Any] = {}
        if cls.takes_new_shoe:
            options["new_shoe"] = new_shoe
        if cls.takes_meter:
            options["meter"] = meter
        return cls(profile, shoe, **options)

    # --- bets -----------------------------------------------------------------------------
    def verify_seat(self, seat: object) -> int:
        """A seat of this table (1 to the table record's ``seats``), or ``BetError``."""
        count = self.profile.table.seats
        whole = isinstance(seat, int) and not isinstance(seat, bool)
        if isinstance(seat, int) and whole and 1 <= seat <= count:
            return seat
        raise BetError(
            ("" if whole else f"a {self.seat_noun} is a whole number: ")
            + f"{self.seat_noun} {seat!r} does not exist: {self.seats_are} 1 to {count}",
            code="no_such_seat",
            seat=str(seat),
            seats=count,
        )

    def verify_bet(self, seat: object, wager: str, amount: object) -> tuple[int, str, int]:
        """The bet as (seat, wager, whole units), or a typed error naming what is wrong: bets
        closed, no such seat or wager, a fraction of a unit, outside the wager's limits, or a
        rule of the game's own (``_verify_wager``)."""
        if not self.is_betting:
            raise IllegalActionError(
                f"{self.label(seat) if isinstance(seat, int) else seat!r} {wager}: no more bets: "
                f"bets are closed, the round is past betting ({self.phase})",
                code="bets_closed",
            )
        seat = self.verify_seat(seat)
        wagers = self.profile.table.wagers
        if wager not in wagers:
            raise BetError(
                f"{self.label(seat)}: unknown wager {wager!r} under {self.profile.name} "
                f"(wagers: {', '.join(wagers)})",
                code="unknown_wager",
                wager=str(wager),
            )
        units = parse_amount(amount, f"{self.label(seat)} {wager}")
        self._verify_wager(seat, wager, units)
        limits = wagers[wager]
        if units and not limits.allows(units):
            raise BetError(
                f"{self.label(seat)} {wager}: {units} is outside the {self.limits_noun} "
                f"{limits.minimum} to {limits.maximum}",
                code="bet_outside_limits",
                seat=seat,
                wager=wager,
                amount=units,
                minimum=limits.minimum,
                maximum=limits.maximum,
            )
        return seat, wager, units

    def _verify_wager(self, seat: int, wager: str, units: int) -> None:
        """A game's own rule on a bet (a forbidden combination, an exact amount)."""

    def can_bet(self, seat: object, wager: str, amount: object) -> bool:
        return passes(lambda: self.verify_bet(seat, wager, amount))

    def place_bet(self, seat: int, wager: str, amount: int | Fraction) -> Sequence[Event]:
        """Set a wager on a seat to ``amount`` while bets are open: a later bet on the same
        wager replaces the earlier one, and 0 withdraws it (docs/rules.md §6: 0 is no wager). The
        last ``BetPlaced`` of each wager before ``BetsClosed`` is its stake; withdrawing a
        wager not placed records nothing."""
        seat, wager, units = self.verify_bet(seat, wager, amount)
        if not units and wager not in self.bets.get(seat, {}):
            return ()
        return self._record(BetPlaced(seat=seat, wager=wager, amount=Fraction(units)))

    def undealable(self) -> dict[int, str]:
        """Seats whose bets cannot be dealt as they stand, each with the reason: a side bet
        without the ``main_wager`` it rides on. ``deal()`` refuses while any is left; a live
        table refuses the bet that makes one, and at its deadline returns what is left
        (``return_bets``). A game without a main wager has none."""
        if self.main_wager is None:
            return {}
        return {
            seat: self.main_wager_needed
            for seat, wagers in sorted(self.bets.items())
            if self.main_wager not in wagers
        }

    def return_bets(self, seat: int, reason: str) -> Sequence[Event]:
        """Give back every bet of ``seat`` while bets are open (``BetsReturned``): the round
        goes on without the seat."""
        if not self.is_betting:
            raise IllegalActionError(
                f"{self.label(seat)}: bets are closed: nothing to return ({self.phase})",
                code="bets_closed",
            )
        return self._record(BetsReturned(seat=seat, reason=reason))

    def stakes(self) -> dict[int, Fraction]:
        """What each seat has at stake so far: its bets and what its decisions added (a
        double, a split, insurance, a call); once the round is done, what was settled."""
        totals: dict[int, Fraction] = {}
        if self.is_done:
            for wager in self.results().wagers:
                totals[wager.seat] = totals.get(wager.seat, Fraction(0)) + wager.stake
            return totals
        for seat, wagers in self.bets.items():
            totals[seat] = Fraction(sum(wagers.values()))
        for item in self.events:
            if isinstance(item, Operation) and item.adds_stake:
                amount: Fraction = getattr(item, "amount")  # noqa: B009 - every adds_stake has one
                totals[item.seat] = totals.get(item.seat, Fraction(0)) + amount
        return {seat: amount for seat, amount in totals.items() if amount}

    # --- the deal and the decisions -------------------------------------------------------
    def verify_deal(self) -> None:
        """Raise unless the round may be dealt now."""
        if not self.is_betting:
            raise IllegalActionError(
                f"deal refused: the round is in {self.phase}, not betting: it is past betting, "
                "the cards are already dealt",
                code="bets_closed",
            )
        for seat, reason in sorted(self.undealable().items()):
            raise BetError(f"{self.label(seat)}: {reason}")
        self._verify_deal()

    def _verify_deal(self) -> None:
        """A game's own conditions for a deal (a main bet on every box, two players)."""

    def deal(self) -> Sequence[Event]:
        """Close bets and play on until a decision is needed or the round is done."""
        self.verify_deal()
        start = len(self.events)
        self._record(BetsClosed())
        self._closed_bets = self.bets  # what the deal closed: no event can change it now
        self._deal()
        return self._since(start)

    @abstractmethod
    def _deal(self) -> None:
        """The game's deal, once bets are closed."""

    def legal_actions(self) -> tuple[Action, ...]:
        decision = self.pending()
        return () if decision is None else decision.legal

    def verify_act(self, seat: int, action: Action) -> None:
        """Raise ``IllegalActionError`` unless ``seat`` may take ``action`` now."""
        if self.card_needed is not None:
            raise IllegalActionError(
                f"{self.label(seat)}: {action} refused: the dealer has a card to deal first "
                f"({self.card_needed})",
                code="card_needed_first",
                seat=seat,
                action=str(action),
            )
        decision = self.pending()
        if decision is None:
            raise IllegalActionError(
                f"{self.label(seat)}: {action} refused: no decision is awaited: "
                f"the round is in {self.phase}",
                code="no_decision_awaited",
                seat=seat,
                action=str(action),
            )
        if seat != decision.seat:
            raise IllegalActionError(
                f"{self.label(seat)}: {action} refused: it is {self.label(decision.seat)}'s "
                f"turn, not {self.label(seat)}'s",
                code="not_your_turn",
                seat=seat,
                turn=decision.seat,
            )
        reason = self.why_not(seat, action)
        if reason is not None:
            raise IllegalActionError(
                f"{self.label(seat)}: {action} refused: {reason}",
                code="action_refused",
                seat=seat,
                action=str(action),
            )

    def why_not(self, seat: int, action: Action) -> str | None:
        """Why ``action`` from ``seat`` is illegal now, or ``None`` when it is legal."""
        decision = self.pending()
        if decision is None:
            return f"no decision is awaited: the round is in {self.phase}"
        if seat != decision.seat:
            return f"it is {self.label(decision.seat)}'s turn, not {self.label(seat)}'s"
        if not decision.allows(action):
            legal = ", ".join(str(option) for option in decision.legal)
            return f"{str(action)!r} is not allowed; choose {legal}"
        return None

    def can_act(self, seat: int, action: Action) -> bool:
        """Whether ``act`` takes ``action`` from ``seat`` now: its own check (``verify_act``),
        so that a card awaited first says no as ``act`` does."""
        return passes(lambda: self.verify_act(seat, action))

    def act(self, seat: int, action: Action, by_default: bool = False) -> Sequence[Event]:
        """Apply ``seat``'s decision; an illegal one raises and changes nothing.
        ``by_default``: the seat's time ran out and ``action`` is the default applied for it
        (``DefaultApplied``, then the operation)."""
        self.verify_act(seat, action)
        decision = self.pending()
        if by_default and (decision is None or action != decision.default):
            raise IllegalActionError(f"{self.label(seat)}: {action} is not the default")
        start = len(self.events)
        if by_default:
            self._record(DefaultApplied(seat=seat))
        self._act(seat, action)
        return self._since(start)

    def _act(self, seat: int, action: Action) -> None:
        raise IllegalActionError(f"{self.game} has no decisions")

    # --- any command ----------------------------------------------------------------------
    def apply(self, command: Command) -> Sequence[Event]:
        """Carry out one command (what the live table, ``settle`` and ``replay`` give) by the
        round's method for its kind (``_carry_out``). A ``resumable`` round's command that
        stops for a card nobody has entered yet keeps the round as it stood before it, for
        ``enter``."""
        if not self.resumable or self.card_needed is not None or isinstance(command, DRAWS_NO_CARD):
            return self._carry_out(command)
        # A round carried on (``enter``) gives again first the command it was kept before.
        before = self._resume_from or (self._copy(), self.shoe.position)
        self._resume_from = None
        try:
            return self._carry_out(command)
        except CardNeeded:
            self._resume_from = before
            raise

    def _carry_out(self, command: Command) -> Sequence[Event]:
        match command:
            case Bet(seat, wager, amount):
                return self.place_bet(seat, wager, amount)
            case Deal():
                return self.deal()
            case Act(seat, action, by_default):
                return self.act(seat, action, by_default)
            case Return(seat, reason):
                return self.return_bets(seat, reason)
            case Void(reason):
                return self.void(reason)
            case FaceUp(card):
                return self.face_up(card)
            case DealtInError(card):
                return self.dealt_in_error(card)
            case Exposed(place):
                return self.exposed(place)
            case ConfusedDeal():
                return self.confused_deal()
            case _:
                assert_never(command)

    def correct(self, command: Correction) -> Sequence[Event]:
        """Make the dealer's correction ``command`` (one entry point for every kind, a void
        included); a refused one raises and changes nothing."""
        return self.apply(command)

    def _copy(self) -> GameRound:
        """The round as it stands, apart: its own state, sharing what never changes (the
        profile, the frozen events and their cards) and the shoe, which ``enter`` replaces."""
        memo: dict[int, Any] = {id(self.profile): self.profile, id(self.shoe): self.shoe}
        for item in self.events:
            memo[id(item)] = item
            if isinstance(item, CardDrawn):
                memo[id(item.card)] = item.card
        memo[id(self._resume_from)] = None
        copied: GameRound = copy.deepcopy(self, memo)
        return copied

    def enter(self, card: Card) -> GameRound:
        """The round carried on with the dealer's ``card``, the one it stopped for
        (``card_needed``): the command that stopped is given again from the round as it stood
        before it (``apply`` kept it), with any correction made while the card was awaited,
        on the shoe with ``card`` entered; the new round stops at the next card nobody has
        entered yet or wherever a decision is awaited. A card the shoe's decks cannot hold
        is refused and nothing changes (this round stays as it is). The same round as
        ``deal_on`` rebuilds from the whole record, but for one command instead of all."""
        if self.card_needed is None or self._resume_from is None:
            raise IllegalActionError(f"{card}: no card is awaited", code="no_card_needed")
        assert isinstance(self.shoe, PhysicalShoe)
        start, position = self._resume_from
        shoe = self.shoe.at(position)
        shoe.enter(card)
        game = start._copy()
        game.shoe = shoe
        game._resume_from = self._resume_from  # kept, should the command stop again
        record = list(self.events)
        give_again(game, record)
        if game.events[: len(record)] != record:
            raise ReplayError("the round dealt on does not start with its record")
        return game

    # --- reading the round --------------------------------------------------------------
    def results(self) -> RoundResult:
        """Every wager's stake and payout, once the round is done (from its ``Settled``)."""
        if not self.is_done:
            raise IllegalActionError(
                f"the round is in {self.phase}: it has not been settled yet: no results yet"
            )
        return RoundResult(tuple(self.settled()), self._details())

    def _details(self) -> dict[str, Any]:
        return {}

    # --- croupier settle: the game's parts of the document --------------------------------
    @classmethod
    def from_document(cls, profile: Profile, shoe: Shoe, document: Mapping[str, Any]) -> GameRound:
        """The round a ``settle`` document deals from ``shoe`` (Casino Hold'em: its meter)."""
        return cls(profile, shoe)

    @abstractmethod
    def _house_document(self) -> dict[str, Any]:
        """The settled round's house part, first in the document: the dealer's cards, or the
        coup's two hands."""

    def _document_seats(self, listed: list[int]) -> list[int]:
        """The seats the document answers for, in its order (``listed``: as the input had them)."""
        return sorted(listed)

    @abstractmethod
    def _seat_document(self, seat: int, result: RoundResult) -> dict[str, Any]:
        """A seat's part of the document after its number: its hands and wagers, its money."""

    def _closing_document(self, result: RoundResult) -> dict[str, Any]:
        """What the document holds after the seats (the house's net, a jackpot)."""
        return {}

    # --- rebuilding from a record ---------------------------------------------------------
    @classmethod
    def document_fields(cls, record: Sequence[Event]) -> dict[str, Any]:
        """What a ``settle`` document of this game holds besides shoe and seats."""
        return {}

    @classmethod
    def for_replay(cls, profile: Profile, record: Sequence[Event], shoe: Shoe | None) -> GameRound:
        """A fresh round that will deal the recorded cards (from ``shoe`` when given)."""
        cards = recorded_cards(record)
        ended = bool(record) and isinstance(record[-1], RoundEnded)
        dealing: Shoe
        if shoe is not None:
            dealing = shoe
        elif not ended or any(isinstance(item, RoundVoided) for item in record):
            # A round voided part-way (a correction, D-GEN-13) or not over yet recorded fewer
            # cards than its deal asks the shoe to hold (Casino Hold'em counts them first): the
            # rest of the decks stand behind them, never drawn. A draw past the recorded cards
            # stops for a card (a physical shoe's round waiting for its dealer stops there)
            # instead of dealing one nobody saw.
            dealing = PhysicalShoe(cards, profile.table.decks)
        else:
            dealing = Shoe.stacked(cards, profile.table.decks)
        game = cls(profile, dealing, **cls._replay_options(record))
        game.resumable = shoe is not None and shoe.is_physical  # a live shoe's, not the record's
        return game

    @classmethod
    def _replay_options(cls, record: Sequence[Event]) -> dict[str, Any]:
        """The game's constructor options a record implies (a new shoe's burns, a meter)."""
        return {}


def recorded_cards(events: Iterable[Event]) -> list[Card]:
    return [item.card for item in events if isinstance(item, CardDrawn)]


def has_burns(events: Iterable[Event]) -> bool:
    return any(isinstance(item, CardDrawn) and item.purpose is Purpose.BURN for item in events)


def burns_to_enter(profile: Profile, burnt: Sequence[Card]) -> int:
    """How many more cards a new physical shoe burns before its first round, after ``burnt``:
    the profile's shoe procedure (``Profile.table.burn``): blackjack a fixed number (Spain
    1979 Art. 03: five), Dragon Six the first card and as many more as its value (Art. 6 d),
    Casino Hold'em none (its burns belong to the deal, Art. 13 c)."""
    from croupier.hands.baccarat import burn_count
    from croupier.rules.base import Burn

    table = profile.table
    if table.burn is Burn.FIXED:
        return max(table.burn_cards - len(burnt), 0)
    if table.burn is Burn.BY_FIRST_CARD_VALUE:
        return 1 if not burnt else max(1 + burn_count(burnt[0]) - len(burnt), 0)
    return 0


def round_class_of(game: str) -> type[GameRound]:
    """The round class of ``game``: importing its module registers it (and its events)."""
    from croupier.games import game_module

    game_module(game)
    return ROUND_CLASSES[game]


def decide_randomly(game: GameRound, source: RandomSource) -> GameRound:
    """Answer every decision with a legal action drawn from ``source`` (``random_choice``),
    to the end of the round."""
    while (decision := game.pending()) is not None:
        game.act(decision.seat, random_choice(decision, source))
    return game


def random_choice(decision: Decision, source: RandomSource) -> Action:
    """A legal action of ``decision`` drawn from ``source`` (a ranged amount, ``double N`` or
    ``insurance N``, uniformly within its range)."""
    choice = decision.legal[uniform_below(source, len(decision.legal))]
    if choice.amount is not None:
        choice = Action(choice.name, 1 + uniform_below(source, choice.amount))
    return choice


def random_round(
    profile: Profile,
    shoe: Shoe,
    source: RandomSource,
    *,
    new_shoe: bool = False,
    most_bet: int = 100,
    meter: Fraction | int | None = None,
) -> GameRound:
    """A round of ``profile``'s game with random seats, bets and decisions, every choice
    drawn from ``source`` (simulation checks, property tests, benchmarks), from the table
    record alone: each seat bets with even odds, at least the table's ``min_players`` do;
    a seat places its ``main_wager`` and each other wager with even odds, an amount within
    the wager's limits (up to ``most_bet``) that the round allows (``can_bet``: a pair of
    wagers the game forbids together is left out); then ``decide_randomly``. ``new_shoe``
    and ``meter`` go to a game that takes them (``GameRound.opened``)."""
    game = round_class_of(profile.game).opened(profile, shoe, new_shoe=new_shoe, meter=meter)
    place_random_bets(game, source, most_bet=most_bet)
    game.deal()
    return decide_randomly(game, source)


def place_random_bets(game: GameRound, source: RandomSource, *, most_bet: int = 100) -> None:
    """``random_round``'s bets: random seats, each placing its wagers at random amounts."""
    table = game.profile.table
    seats = [seat for seat in range(1, table.seats + 1) if uniform_below(source, 2)]
    while len(seats) < max(table.min_players, 1):
        seats = sorted({*seats, 1 + uniform_below(source, table.seats)})
    for seat in seats:
        for wager, limits in table.wagers.items():
            if wager != game.main_wager and not uniform_below(source, 2):
                continue
            span = max(min(most_bet, limits.maximum) - limits.minimum + 1, 1)
            amount = limits.minimum + uniform_below(source, span)
            if game.can_bet(seat, wager, amount):
                game.place_bet(seat, wager, amount)
