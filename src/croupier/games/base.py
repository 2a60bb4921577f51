"""The round every game is made of: one small state machine per round, and its mechanics.

A round is made from a profile and a shoe (chance is injected, never global). Bets are placed,
``deal()`` closes them and plays every step that needs nobody, then the round waits on
``pending()``: the one decision it needs next, from which seat, with its legal actions and
the regulation's default if the seat's time runs out. ``act()`` applies a decision (or raises
``IllegalActionError`` and changes nothing). When ``is_done``, ``results()`` lists every
wager's stake and payout. ``events`` is the whole record; ``view(seat)`` is what that seat
may see now (``None``: the public at large).

``GameRound`` owns what every game does the same way: the event log, drawing a card with its
``Purpose``, checking a bet against the profile's table record (``Profile.table``), the one
legality convention (``verify_x`` raises, ``can_x`` asks, ``x`` verifies then acts), voiding,
and ``results`` and ``stakes`` read from the events. ``replay`` rebuilds any game's round from
its events, and ``views`` steps through one as a viewer saw it. A game's module holds only its
own rules: its phases, its decisions and its payouts.
"""

from __future__ import annotations

import copy
import dataclasses
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from croupier.cards import FULL_DECK, Card
from croupier.errors import (
    BetError,
    CardNeeded,
    CroupierError,
    IllegalActionError,
    NotationError,
    ProfileError,
    ReplayError,
    SettleInputError,
    ShoeError,
)
from croupier.games.commands import (
    Act,
    Action,
    Bet,
    Command,
    ConfusedDeal,
    Correction,
    Deal,
    DealtInError,
    Exposed,
    FaceUp,
    Return,
    Void,
    parse_command,
)
from croupier.games.events import (
    BetPlaced,
    BetsClosed,
    BetsReturned,
    CardDealtInError,
    CardDrawn,
    CardExposed,
    CardFoundFaceUp,
    DealConfused,
    Decided,
    DefaultApplied,
    Event,
    Operation,
    Purpose,
    RoundEnded,
    RoundStarted,
    RoundVoided,
    Settled,
    upgrade,
)
from croupier.money import json_number, parse_amount
from croupier.randomness import RandomSource, uniform_below
from croupier.rules.base import Corrections, ExposedCardRule, FaceUpCardRule, Profile
from croupier.shoe import PhysicalShoe, Shoe

__all__ = [
    "Action",
    "Decision",
    "GameRound",
    "RoundResult",
    "Step",
    "commands_of",
    "deal_on",
    "random_round",
    "replay",
    "settle_document",
    "steps",
    "views",
]

BETTING = "betting"
DONE = "done"
"""Every game's ``Phase`` has these two values: the first and the last."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What the round waits for: ``seat`` (and ``hand``) must choose one of ``legal``."""

    seat: int
    question: str
    legal: tuple[Action, ...]
    default: Action
    hand: int | None = None

    def allows(self, action: Action) -> bool:
        """``legal`` lists ``double`` for a ranged amount as ``Action('double', max)``."""
        for option in self.legal:
            if option.name != action.name:
                continue
            if option.amount is None:
                return action.amount is None
            return action.amount is None or 1 <= action.amount <= option.amount
        return False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "question": self.question,
            "hand": self.hand,
            "legal": [str(action) for action in self.legal],
        }


def wager_json(wager: Settled) -> dict[str, Any]:
    """A settled wager as the view lists it (every field, ``hand`` even when ``None``)."""
    return {
        "seat": wager.seat,
        "wager": wager.wager,
        "hand": wager.hand,
        "stake": json_number(wager.stake),
        "payout": json_number(wager.payout),
        "result": wager.result,
    }


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


_NOT_ON_TABLE = frozenset({Purpose.BURN, Purpose.REMOVED, Purpose.SHOWN_BURN})
CORRECTION_EVENTS = (CardFoundFaceUp, CardDealtInError, CardExposed, DealConfused, RoundVoided)
"""The events of the dealer's corrections (and of any void): public, every card in them seen."""

ROUND_CLASSES: dict[str, type[GameRound]] = {}
"""Each game's round class by its ``game`` (registered when its module is imported)."""


def _passes(verify: Callable[[], object]) -> bool:
    """A ``can_x``: whether ``verify_x`` lets it through (the one convention)."""
    try:
        verify()
    except CroupierError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class OpenWager:
    """A wager still in play: what a void returns."""

    seat: int
    wager: str
    stake: Fraction
    hand: int | None = None


class GameRound(ABC):
    """One round of one game under one profile: the mechanics every game shares."""

    game: ClassVar[str]
    rules: ClassVar[type[Profile]]
    """The profile model of the game's rules."""
    private_card_purposes: ClassVar[frozenset[str]] = frozenset()
    """``CardDrawn`` purposes whose cards stay their seat's own even after the round (Casino
    Hold'em's hole cards: Art. 9d forbids showing them to others); views and recall mask them."""
    face_down_until: ClassVar[Mapping[str, str]] = {}
    """``CardDrawn`` purposes dealt face down, each with the kind of the event that turns them
    up (blackjack's hole card, Casino Hold'em's dealer cards): in a record without that event
    (a round voided first) they stay face down in the recall until their shoe is revealed."""
    takes_new_shoe: ClassVar[bool] = False
    """The constructor takes ``new_shoe=True`` to run the new-shoe procedure (its burns)."""
    takes_meter: ClassVar[bool] = False
    """The constructor takes the progressive ``meter=`` it starts from."""
    main_wager: ClassVar[str | None] = None
    """The wager every other wager of a seat rides on (blackjack's main bet, Casino Hold'em's
    Ante); ``None``: each wager stands alone (baccarat)."""
    main_wager_needed: ClassVar[str] = ""
    """Why a seat with bets but not the ``main_wager`` cannot be dealt (``undealable``)."""
    document_keys: ClassVar[tuple[str, ...]] = ("game", "rules", "shoe", "seats")
    seat_keys: ClassVar[tuple[str, ...]] = ("seat", "bets", "actions")
    """The fields of a ``croupier settle`` document of this game, and of each of its seats."""
    seat_noun: ClassVar[str] = "zone"
    seats_are: ClassVar[str] = "zones are"
    limits_noun: ClassVar[str] = "table limits"
    """The regulation's words for one seat, all of them and the limits, for messages."""

    profile: Profile
    shoe: Shoe
    events: list[Event]
    phase: Any
    card_needed: CardNeeded | None = None
    """A round dealt from a physical shoe that stopped at a card nobody has entered yet: where
    it goes. The round goes on only when it is rebuilt with that card (``deal_on``): the
    command that stopped is given again, through the same ``apply``."""
    """The game's own ``Phase`` (a ``StrEnum`` whose first value is ``betting``, last ``done``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game" in vars(cls):
            ROUND_CLASSES[cls.game] = cls

    def __init__(self, profile: Profile, shoe: Shoe) -> None:
        if not isinstance(profile, self.rules):
            raise ProfileError(f"profile {getattr(profile, 'name', profile)!r} is not {self.game}")
        decks = profile.table.decks
        if shoe.decks != decks:
            raise ShoeError(
                f"a shoe of {shoe.decks} decks under a profile of {decks}: a {profile.name} "
                f"shoe holds {decks} deck{'s' if decks > 1 else ''}, not {shoe.decks}"
            )
        self.profile = profile
        self.shoe = shoe
        self.events = []
        self._closed_bets: dict[int, dict[str, int]] | None = None
        self.resumable = shoe.is_physical
        """A command that stops for a card keeps the round as it stood before it
        (``apply``), so that ``enter`` carries on from there (a live physical shoe's round)."""
        self._resume_from: tuple[GameRound, int] | None = None
        """The round before the command that stopped for a card, and the shoe's position then."""
        self._given_at: dict[int, FaceUp | DealtInError] = {}
        """A replay's corrections made while a card was awaited, by the index of their first
        event: the draw that awaited that card is given each again there (``_given_again``)."""
        self._record(RoundStarted(game=self.game, profile=profile.name))

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

    # --- the record ---------------------------------------------------------------------
    def _record(self, *new: Event) -> tuple[Event, ...]:
        self.events.extend(new)
        return new

    def _since(self, start: int) -> tuple[Event, ...]:
        return tuple(self.events[start:])

    def draw(self, purpose: Purpose, seat: int | None = None, hand: int | None = None) -> Card:
        """The next card from the shoe, recorded with where it goes. A physical shoe without
        the card raises ``CardNeeded`` naming where it goes, and nothing is recorded. In a
        replay, a correction the record made while this card was awaited is made first."""
        while (correction := self._given_at.pop(len(self.events), None)) is not None:
            self.card_needed = CardNeeded(str(purpose), seat, hand)  # as when it was made
            self.correct(correction)
            self.card_needed = None
        try:
            card = self.shoe.draw()
        except CardNeeded:
            self.card_needed = CardNeeded(str(purpose), seat, hand)
            raise self.card_needed from None
        self._record(CardDrawn(card=card, purpose=purpose, seat=seat, hand=hand))
        self._after_draw()
        return card

    def _settle_wager(
        self,
        seat: int,
        wager: str,
        stake: Fraction | int,
        payout: Fraction,
        result: str,
        *,
        hand: int | None = None,
    ) -> None:
        """Record one wager settled: what it staked and all it returns (stake included)."""
        self._record(Settled(seat, wager, Fraction(stake), payout, result, hand))

    def _after_draw(self) -> None:  # noqa: B027 - a hook a game may fill
        """What a game does after every card (baccarat: announce the cut card)."""

    @property
    def is_betting(self) -> bool:
        return bool(self.phase == BETTING)

    @property
    def is_done(self) -> bool:
        return bool(self.phase == DONE)

    # --- bets -----------------------------------------------------------------------------
    def label(self, seat: int) -> str:
        return f"{self.seat_noun} {seat}"

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

    def _verify_wager(self, seat: int, wager: str, units: int) -> None:  # noqa: B027 - a hook a game may fill
        """A game's own rule on a bet (a forbidden combination, an exact amount)."""

    def can_bet(self, seat: object, wager: str, amount: object) -> bool:
        return _passes(lambda: self.verify_bet(seat, wager, amount))

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

    @property
    def bets(self) -> dict[int, dict[str, int]]:
        """Each seat's wagers as placed (the last ``BetPlaced`` of each before the deal)."""
        if self._closed_bets is not None:
            return self._closed_bets
        placed: dict[int, dict[str, int]] = {}
        for item in self.events:
            if isinstance(item, BetsClosed):
                break
            if isinstance(item, BetsReturned):
                placed.pop(item.seat, None)
            elif isinstance(item, BetPlaced):
                wagers = placed.setdefault(item.seat, {})
                wagers[item.wager] = int(item.amount)
                if not item.amount:
                    del wagers[item.wager]
                if not wagers:
                    del placed[item.seat]
        return placed

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

    def _verify_deal(self) -> None:  # noqa: B027 - a hook a game may fill
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

    def pending(self) -> Decision | None:
        """The decision the round waits for, or ``None`` (betting, or done)."""
        return None

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
        return self.why_not(seat, action) is None

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

    def apply(self, command: Command) -> Sequence[Event]:
        """Carry out one command (what the live table, ``settle`` and ``replay`` give): the
        round's method for its kind (``MADE_BY``), given the command's fields in order. A
        ``resumable`` round's command that stops for a card nobody has entered yet keeps the
        round as it stood before it, for ``enter``."""
        make = getattr(self, MADE_BY[type(command)])
        if not self.resumable or self.card_needed is not None or isinstance(command, DRAW_NONE):
            made: Sequence[Event] = make(*_fields_of(command))
            return made
        # A round carried on (``enter``) gives again first the command it was kept before.
        before = self._resume_from or (self._copy(), self.shoe.position)
        self._resume_from = None
        try:
            made = make(*_fields_of(command))
        except CardNeeded:
            self._resume_from = before
            raise
        return made

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
        _give_again(game, record)
        if game.events[: len(record)] != record:
            raise ReplayError("the round dealt on does not start with its record")
        return game

    # --- a round that cannot go on ----------------------------------------------------------
    def verify_void(self, reason: str = "") -> None:
        """Raise unless the round may be void now (for any ``reason``: the dealer's own)."""
        if self.is_done:
            raise IllegalActionError("void refused: the round is already over (already settled)")

    def can_void(self) -> bool:
        return _passes(self.verify_void)

    def void(self, reason: str) -> Sequence[Event]:
        """End a round that cannot go on (a round the dealer cannot finish, an interrupted
        round that cannot be restored, R11): every stake still in play is returned. What was
        already settled (a side bet, a bust, a blackjack paid at once) stands."""
        self.verify_void()
        return self._void(reason)

    def _void(self, reason: str) -> Sequence[Event]:
        start = len(self.events)
        self._record(RoundVoided(reason=reason))
        for wager in self._open_wagers():
            self._settle_wager(
                wager.seat, wager.wager, wager.stake, wager.stake, "void", hand=wager.hand
            )
        self._end()
        return self._since(start)

    # --- the dealer's corrections of the cards (docs/rules.md §6, D-GEN-11 to D-GEN-14) ----
    def _corrections(self, what: str) -> Corrections:
        rules = self.profile.corrections
        if rules is None:
            raise IllegalActionError(
                f"{what} refused: the rules {self.profile.name!r} were stored before "
                "corrections existed: such a round takes only a void",
                code="no_corrections_in_rules",
            )
        return rules

    def _verify_not_over(self, what: str) -> None:
        if self.is_done:
            raise IllegalActionError(
                f"{what} refused: the round is already over", code="round_over"
            )

    def _verify_dealing(self, what: str) -> None:
        self._verify_not_over(what)
        if self.is_betting:
            raise IllegalActionError(
                f"{what} refused: no card is dealt yet, the round is still taking bets",
                code="nothing_dealt_yet",
            )

    def _verify_next_card_out(self, command: FaceUp | DealtInError) -> None:
        """A correction that takes the shoe's next card out (``command.card``, if named). At
        a physical shoe with no card entered past the round's (a card awaited, or between
        commands) the card is the one the dealer names and holds: one its decks can hold."""
        what, card = str(command), command.card
        if isinstance(command, FaceUp):
            self._verify_not_over(what)
        else:
            self._verify_dealing(what)
        self._corrections(what)
        if self.shoe.remaining == 0:
            raise IllegalActionError(f"{what} refused: the shoe is empty", code="shoe_empty")
        if isinstance(self.shoe, PhysicalShoe) and not self.shoe.undealt():
            if card is None:
                raise IllegalActionError(
                    f"{what}: at a physical shoe the dealer names the card", code="card_to_name"
                )
            self.shoe.verify_enter(card)
        elif card is not None and self.shoe.undealt()[0] != card:
            # Names only the card given: the shoe's order is secret (R6).
            raise IllegalActionError(
                f"{what} refused: {card} is not the shoe's next card",
                code="not_the_next_card",
                card=str(card),
            )

    def verify_face_up(self, card: Card | None = None) -> None:
        """A card may be found face up in the shoe at any time before the round ends
        (D-GEN-11); ``card``, if given, must be the shoe's next card."""
        self._verify_next_card_out(FaceUp(card))

    def face_up(self, card: Card | None = None) -> Sequence[Event]:
        """The shoe's next card was found face up: it leaves the shoe, removed (Spain V.3.c)
        or burnt in view, as the profile says; the round goes on with the card after it."""
        self.verify_face_up(card)
        start = len(self.events)
        disposal = self._corrections("face-up").face_up_in_shoe
        removed = disposal is FaceUpCardRule.REMOVED
        drawn, awaited = self._take_out(card, Purpose.REMOVED if removed else Purpose.SHOWN_BURN)
        self._record(CardFoundFaceUp(card=drawn, disposal=disposal.value, awaited=awaited))
        return self._since(start)

    def verify_dealt_in_error(self, card: Card | None = None) -> None:
        """Only while cards are dealt: after bets close, before the round ends (D-GEN-12)."""
        self._verify_next_card_out(DealtInError(card))

    def dealt_in_error(self, card: Card | None = None) -> Sequence[Event]:
        """The shoe's next card left it where the round called for none: burnt in view, and
        the round goes on as it stood (D-GEN-12)."""
        self.verify_dealt_in_error(card)
        start = len(self.events)
        drawn, awaited = self._take_out(card, Purpose.SHOWN_BURN)
        self._record(CardDealtInError(card=drawn, awaited=awaited))
        return self._since(start)

    def _take_out(self, card: Card | None, purpose: Purpose) -> tuple[Card, str | None]:
        """Draw the card a correction takes out of the shoe, and where the card the round
        awaits goes (``None``: none is awaited). A physical shoe's card the dealer named and
        holds is entered first; the round still awaits the same card after it (D-GEN-11,
        D-GEN-12: Spain 1979 Art. 03 V.3.c removes a card found face up)."""
        awaited = None if self.card_needed is None else self.card_needed.where
        if card is not None and isinstance(self.shoe, PhysicalShoe) and not self.shoe.undealt():
            self.shoe.enter(card)
        return self.draw(purpose), awaited

    def face_down_places(self) -> dict[str, Card]:
        """The cards lying face down now, by the place ``exposed PLACE`` names (the hole
        card, a double's card, a hole card of Casino Hold'em); a game that deals no card
        face down has none."""
        return {}

    def verify_exposed(self, place: str) -> None:
        """A card may be exposed in error only where one lies face down now, under rules
        that deal one (``corrections.exposed_card`` is not ``none``)."""
        what = f"exposed {place}"
        self._verify_dealing(what)
        if self.card_needed is not None:
            raise IllegalActionError(
                f"{what} refused: the round waits for a card ({self.card_needed}): enter it first",
                code="card_needed_first_correction",
            )
        rule = self._corrections(what).exposed_card
        if rule is ExposedCardRule.NONE:
            raise IllegalActionError(
                f"{what} refused: no card is dealt face down under {self.profile.name}",
                code="nothing_face_down",
            )
        places = self.face_down_places()
        if place not in places:
            listed = ", ".join(places) or "none"
            raise IllegalActionError(
                f"{what} refused: no card lies face down at {place!r} (face down now: {listed})",
                code="not_face_down",
                place=place,
            )

    def can_exposed(self, place: str) -> bool:
        return _passes(lambda: self.verify_exposed(place))

    def exposed(self, place: str) -> Sequence[Event]:
        """The face-down card at ``place`` was shown in error: ``CardExposed``, then what the
        profile says: replaced by the next card of the shoe (D-BJ-31), or the round void with
        every stake still in play returned (D-CH-11)."""
        self.verify_exposed(place)
        start = len(self.events)
        rule = self._corrections(f"exposed {place}").exposed_card
        card = self.face_down_places()[place]
        self._record(CardExposed(place=place, card=card, outcome=rule.value))
        if rule is ExposedCardRule.REPLACED:
            self._replace_face_down(place)
        else:
            self._void(f"card exposed in error: {place}")
        return self._since(start)

    def _replace_face_down(self, place: str) -> None:
        """Deal the next card, face down, in place of the one exposed at ``place``."""
        raise IllegalActionError(
            f"{self.game} replaces no exposed card", code="not_face_down", place=place
        )

    def verify_confused_deal(self) -> None:
        """A deal may be confused once cards are dealt, until the round ends (D-GEN-13)."""
        self._verify_dealing("confused-deal")
        self._corrections("confused-deal")

    def confused_deal(self) -> Sequence[Event]:
        """The deal was confused (the Veintiuno Real sheet, item 14): every card on the table
        is burnt, never reconstructed (``DealConfused``), and the round is void, every stake
        still in play returned; what was already settled stands (D-GEN-6, D-GEN-13)."""
        self.verify_confused_deal()
        start = len(self.events)
        self._record(DealConfused(cards=self.cards_on_table()))
        self._void("confused deal")
        return self._since(start)

    def cards_on_table(self) -> tuple[Card, ...]:
        """The cards dealt since bets closed, in order, but for burns and cards taken out:
        an exposed card that was replaced is already burnt."""
        dealt: list[Card] = []
        closed = False
        for item in self.events:
            if isinstance(item, BetsClosed):
                closed = True
            elif closed and isinstance(item, CardDrawn) and item.purpose not in _NOT_ON_TABLE:
                dealt.append(item.card)
            elif isinstance(item, CardExposed) and item.outcome == ExposedCardRule.REPLACED:
                dealt.remove(item.card)
        return tuple(dealt)

    def verify_correction(self, command: Correction) -> None:
        """Raise unless the dealer's correction ``command`` may be made now."""
        getattr(self, f"verify_{MADE_BY[type(command)]}")(*_fields_of(command))

    def can_correct(self, command: Correction) -> bool:
        return _passes(lambda: self.verify_correction(command))

    def correct(self, command: Correction) -> Sequence[Event]:
        """Make the dealer's correction ``command`` (one entry point for every kind, a void
        included); a refused one raises and changes nothing."""
        return self.apply(command)

    def legal_corrections(self) -> list[Correction]:
        """The corrections of the cards the dealer may make now, from the same ``can_*``
        checks the corrections make; it names where a face-down card lies, never the card.
        (A void, whose reason is the dealer's, is ``can_void``.) At a physical shoe a card
        taken out is the dealer's to name: its kind is legal when naming one is all it lacks."""
        legal: list[Correction] = [FaceUp(), DealtInError()]
        legal += [Exposed(place) for place in self.face_down_places()]
        legal.append(ConfusedDeal())
        return [command for command in legal if self._lacks_at_most_a_card(command)]

    def _lacks_at_most_a_card(self, command: Correction) -> bool:
        try:
            self.verify_correction(command)
        except IllegalActionError as error:
            return error.code == "card_to_name"  # the last check: every other one passed
        except CroupierError:
            return False
        return True

    def corrections_events(self) -> list[Event]:
        """The dealer's corrections so far (and any void): every card in them was seen by the
        table, so the view shows them to everyone."""
        return [item for item in self.events if isinstance(item, CORRECTION_EVENTS)]

    def corrections_made(self) -> list[dict[str, Any]]:
        """``corrections_events`` as JSON, as the view shows them."""
        return [item.to_json() for item in self.corrections_events()]

    @abstractmethod
    def _open_wagers(self) -> Iterable[OpenWager]:
        """Every wager still in play, in the order a void returns them."""

    def _end(self) -> None:
        self.phase = type(self.phase)(DONE)
        self._record(RoundEnded())

    # --- reading the round --------------------------------------------------------------
    def settled(self) -> list[Settled]:
        """Every wager settled so far, in the order it was settled."""
        return [item for item in self.events if isinstance(item, Settled)]

    def results(self) -> RoundResult:
        """Every wager's stake and payout, once the round is done (from its ``Settled``)."""
        if not self.is_done:
            raise IllegalActionError(
                f"the round is in {self.phase}: it has not been settled yet: no results yet"
            )
        return RoundResult(tuple(self.settled()), self._details())

    def _details(self) -> dict[str, Any]:
        return {}

    # --- what a viewer may see ----------------------------------------------------------
    def view(self, viewer: int | None, *, everything: bool = False) -> dict[str, Any]:
        """The round as ``viewer`` (a seat; ``None``: the public at large) may see it now, as
        JSON, the same shape for every game: each seat's bets, hands and results, the house's
        cards (``dealer``, or baccarat's ``player`` and ``banker``), the pending decision, the
        viewer's legal actions, and every wager settled. A card the viewer may not see is
        ``??`` (R6), by the game's own rule; ``everything`` is the inspector's view (every
        card, as the record has it). The live table and the recall draw it; at the end it
        shows what ``settle`` answers (``tests/consistency/test_view_settle_replay_agree``).
        While a physical shoe's card is awaited (``card_needed``) no decision is pending."""
        decision = self._awaited()
        settled = self.settled()
        seats = []
        for seat in self._seats_in_view():
            seats.append(
                {
                    "seat": seat,
                    "bets": dict(self.bets.get(seat, {})),
                    "hands": self._hands_view(seat, viewer, everything),
                    "results": [wager_json(w) for w in settled if w.seat == seat],
                }
            )
        return {
            "game": self.game,
            "rules": self.profile.name,
            "phase": str(self.phase),
            "viewer": viewer,
            "seats": seats,
            **self._house_view(everything),
            "pending": None if decision is None else decision.to_json(),
            "card_needed": None if self.card_needed is None else self.card_needed.to_json(),
            "legal_actions": self.legal_for(viewer),
            "results": [wager_json(wager) for wager in settled],
            "corrections": self.corrections_made(),
            "done": self.is_done,
        }

    def legal_for(self, viewer: int | None) -> list[str]:
        """The legal actions in notation when the round waits on ``viewer``, else none."""
        decision = self._awaited()
        if decision is None or decision.seat != viewer:
            return []
        return [str(action) for action in decision.legal]

    def _awaited(self) -> Decision | None:
        """The pending decision, but none while a physical shoe's card is awaited."""
        return None if self.card_needed is not None else self.pending()

    def _seats_in_view(self) -> list[int]:
        return sorted(self.bets)

    @abstractmethod
    def _hands_view(self, seat: int, viewer: int | None, everything: bool) -> list[dict[str, Any]]:
        """A seat's hands: ``hand``, ``cards`` (a hidden card as ``??``), ``total``, ``bet``,
        ``result`` and ``payout`` (``None`` until known)."""

    @abstractmethod
    def _house_view(self, everything: bool) -> dict[str, Any]:
        """The house's side: ``dealer`` (and ``board``), or ``player`` and ``banker``."""

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


# --- commands from a record, and one replay for every game ---------------------------------

MADE_BY: dict[type[Command], str] = {
    Bet: "place_bet",
    Deal: "deal",
    Act: "act",
    Return: "return_bets",
    Void: "void",
    FaceUp: "face_up",
    DealtInError: "dealt_in_error",
    Exposed: "exposed",
    ConfusedDeal: "confused_deal",
}
"""The round's method that makes each kind of command, given the command's fields in order;
a correction's check is ``verify_`` and the same name (``verify_correction``)."""


DRAW_NONE = (Bet, Return, Void, ConfusedDeal)
"""The commands that never draw a card, so never stop for one: ``apply`` keeps no copy."""


def _fields_of(command: Command) -> tuple[Any, ...]:
    return tuple(getattr(command, item.name) for item in dataclasses.fields(command))


def commands_of(events: Iterable[Event]) -> Iterator[Command]:
    """The commands a record was made by: its bets, its deal, each decision, each of the
    dealer's corrections, a void."""
    return (command for _, command in placed_commands(events))


def placed_commands(events: Iterable[Event]) -> Iterator[tuple[int, Command]]:
    """``commands_of``, each with the index of an event it recorded: where in the record it
    was given. A card taken out by a correction is its ``CardDrawn`` just before it, which
    lies inside the events of the command that stopped for a card if one was awaited."""
    closed = by_default = voided_by_correction = False
    for index, item in enumerate(events):
        if isinstance(item, CardFoundFaceUp):
            yield index - 1, FaceUp(item.card)
        elif isinstance(item, CardDealtInError):
            yield index - 1, DealtInError(item.card)
        elif isinstance(item, CardExposed):
            yield index, Exposed(item.place)
            voided_by_correction = item.outcome == ExposedCardRule.VOID
        elif isinstance(item, DealConfused):
            yield index, ConfusedDeal()
            voided_by_correction = True
        elif isinstance(item, RoundVoided) and voided_by_correction:
            voided_by_correction = False  # the correction's own void, not a command
        elif isinstance(item, DefaultApplied):
            by_default = True
        elif isinstance(item, BetPlaced) and not closed:
            yield index, Bet(item.seat, item.wager, int(item.amount))
        elif isinstance(item, BetsReturned) and not closed:
            yield index, Return(item.seat, item.reason)
        elif isinstance(item, BetsClosed):
            closed = True
            yield index, Deal()
        elif isinstance(item, Operation):
            yield index, Act(item.seat, item.action, by_default)
            by_default = False
        elif isinstance(item, Decided):
            yield index, Act(item.seat, Action.parse(item.action), by_default)
            by_default = False
        elif isinstance(item, RoundVoided):
            yield index, Void(item.reason)


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


def _rest_of_decks(used: Sequence[Card], decks: int) -> list[Card]:
    left = Counter({card: decks for card in FULL_DECK})
    left.subtract(used)
    return [card for card in FULL_DECK for _ in range(max(left[card], 0))]


def recorded_cards(events: Iterable[Event]) -> list[Card]:
    return [item.card for item in events if isinstance(item, CardDrawn)]


def has_burns(events: Iterable[Event]) -> bool:
    return any(isinstance(item, CardDrawn) and item.purpose is Purpose.BURN for item in events)


def round_class_of(game: str) -> type[GameRound]:
    """The round class of ``game``: importing its module registers it (and its events)."""
    from croupier.games import game_module

    game_module(game)
    return ROUND_CLASSES[game]


def _start(record: Sequence[Event], profile: Profile | None) -> tuple[type[GameRound], Profile]:
    from croupier.rules.registry import load_profile_of

    first = record[0] if record else None
    if not isinstance(first, RoundStarted):
        raise ReplayError("a round's record starts with RoundStarted")
    cls = round_class_of(first.game)
    if profile is None:
        profile = load_profile_of(first.game, first.profile)
    elif profile.name != first.profile:
        raise ReplayError(f"record is of profile {first.profile!r}, not {profile.name!r}")
    if profile.game != first.game:
        raise ReplayError(f"record is of {first.game}, not {profile.game}")
    return cls, profile


def _rebuild(
    events: Iterable[Event], profile: Profile | None, shoe: Shoe | None
) -> tuple[GameRound, list[Event]]:
    record = upgrade(events)
    cls, profile = _start(record, profile)
    try:
        game = cls.for_replay(profile, record, shoe)
    except (BetError, IllegalActionError, ShoeError, ValueError) as error:
        raise ReplayError(f"the record does not replay: {error}") from None
    _give_again(game, record)
    return game, record


def _give_again(game: GameRound, record: Sequence[Event]) -> None:
    """Give ``game`` the commands of ``record`` it has not been given yet (``_given_again``),
    or ``ReplayError`` where the record does not replay."""
    try:
        for command, following, stop in _given_again(game, record):
            if isinstance(stop, CardNeeded):
                # A physical shoe's round waits for the dealer's card where it stopped; only
                # the last command may have stopped so (any other was given its cards), or one
                # a void or a confused deal follows (the round could not be dealt on).
                if following is not None and not isinstance(following, Void | ConfusedDeal):
                    raise ReplayError(
                        f"the record does not replay: {command} stopped for a card "
                        f"({game.card_needed}) but commands follow it"
                    )
            elif stop is not None and not isinstance(following, Void):
                raise stop  # only a round voided next may have run out of cards
    except (BetError, IllegalActionError, ShoeError, ValueError) as error:
        raise ReplayError(f"the record does not replay: {error}") from None


def _given_again(
    game: GameRound, record: Sequence[Event]
) -> Iterator[tuple[Command, Command | None, CardNeeded | ShoeError | None]]:
    """Give ``game`` the commands ``record`` was made by, in order, from the first whose
    events ``game`` has not recorded yet (a fresh round: every one; a round kept before a
    command that stopped for a card: that command on): each with the next one still to give
    (``None`` after the last) and where it stopped (a card needed, the shoe run out;
    ``None``: it did not). A correction made while a card was awaited is given where the
    record has it: by the draw that awaited the card (``GameRound.draw``), not here."""
    given = len(game.events)
    placed = [(at, command) for at, command in placed_commands(record) if at >= given]
    game._given_at = {at: item for at, item in placed if isinstance(item, FaceUp | DealtInError)}
    for number, (at, command) in enumerate(placed):
        if isinstance(command, FaceUp | DealtInError) and game._given_at.pop(at, None) is None:
            continue  # made already, by the draw that awaited a card
        stop: CardNeeded | ShoeError | None = None
        try:
            game.apply(command)
        except (CardNeeded, ShoeError) as error:
            stop = error
        later = (item for at, item in placed[number + 1 :] if at >= len(game.events))
        yield command, next(later, None), stop


def play(profile: Profile, shoe: Shoe, commands: Iterable[Command], **options: Any) -> GameRound:
    """A round of ``profile``'s game dealt from ``shoe`` and given ``commands`` in order
    (``options``: the game's own, such as ``new_shoe`` or ``meter``)."""
    game = round_class_of(profile.game)(profile, shoe, **options)
    for command in commands:
        game.apply(command)
    return game


def replay(
    events: Iterable[Event], profile: Profile | None = None, *, shoe: Shoe | None = None
) -> GameRound:
    """Rebuild a round from its events alone, for any game: the shoe stacked from the cards
    drawn, then the commands the record was made by given again. The rebuilt round must
    record the identical events (an old record is compared in today's events: ``upgrade``)
    or ``ReplayError`` says where they part.

    ``profile`` is needed only for a profile that is not shipped (the record names it). To
    recover an unfinished round and go on with it (R11), pass the live ``shoe`` as it stood
    when the round started (rebuilt from its seed): the replay deals from it, checks every
    card against the record, and leaves the round waiting where it was."""
    game, record = _rebuild(events, profile, shoe)
    for index, (recorded, replayed) in enumerate(zip(record, game.events, strict=False)):
        if recorded != replayed:
            raise ReplayError(
                f"the record diverges at event {index}: recorded {recorded!r}, "
                f"replayed {replayed!r}"
            )
    if len(record) != len(game.events):
        raise ReplayError(f"the record has {len(record)} events, its replay {len(game.events)}")
    return game


def deal_on(events: Iterable[Event], shoe: Shoe, profile: Profile | None = None) -> GameRound:
    """A physical shoe's round carried on with the cards it now holds: the record's commands
    given again (the one ``apply``) from ``shoe`` at the round's start, which holds the
    recorded cards and the dealer's new ones. The record must be where the rebuilt round
    starts (its events a prefix of the new ones, or ``ReplayError``); the round stops at the
    next card nobody has entered yet (``card_needed``) or wherever a decision is awaited."""
    game, record = _rebuild(events, profile, shoe)
    if game.events[: len(record)] != record:
        raise ReplayError("the round dealt on does not start with its record")
    return game


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a recalled round: the ``command`` given (``None`` for the opening), the
    ``events`` it recorded and the round's ``view`` after it."""

    command: Command | None
    events: tuple[Event, ...]
    view: dict[str, Any]


def steps(
    events: Iterable[Event],
    viewer: int | None,
    profile: Profile | None = None,
    *,
    everything: bool = False,
) -> Iterator[Step]:
    """The round as ``viewer`` saw it after each command of its record (the recall): the
    opening, every bet, the deal and each decision, to the end. Each view is the engine's
    own ``view``, masked as it was then."""
    record = upgrade(events)
    cls, profile = _start(record, profile)
    game = cls.for_replay(profile, record, None)
    yield Step(None, game._since(0), game.view(viewer, everything=everything))
    start = len(game.events)
    for command, following, stop in _given_again(game, record):
        if isinstance(stop, ShoeError) or (stop is not None and following is not None):
            # What was drawn before the shoe ran out (or a card was needed) goes with the
            # void that follows; a round still waiting for its dealer's card is seen as it is.
            continue
        yield Step(command, game._since(start), game.view(viewer, everything=everything))
        start = len(game.events)


def views(
    events: Iterable[Event],
    viewer: int | None,
    profile: Profile | None = None,
    *,
    everything: bool = False,
) -> Iterator[dict[str, Any]]:
    """The views of ``steps``: the round after each command, as ``viewer`` saw it."""
    return (step.view for step in steps(events, viewer, profile, everything=everything))


def decide_randomly(game: GameRound, source: RandomSource) -> GameRound:
    """Answer every decision with a legal action drawn from ``source`` (a ranged amount,
    ``double N`` or ``insurance N``, uniformly within its range), to the end of the round."""
    while (decision := game.pending()) is not None:
        choice = decision.legal[uniform_below(source, len(decision.legal))]
        if choice.amount is not None:
            choice = Action(choice.name, 1 + uniform_below(source, choice.amount))
        game.act(decision.seat, choice)
    return game


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
    table = profile.table
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
    game.deal()
    return decide_randomly(game, source)


# --- croupier settle: a round described in JSON --------------------------------------------


def settle_document(document: Any, profile: Profile) -> dict[str, Any]:
    """Settle one round described as JSON (the fixed ``croupier settle`` contract), for any
    game: the game's house part (the dealer, or baccarat's Player and Banker), each seat's
    own part with what it staked, got back and netted, the game's closing part, the events."""
    game, listed = settle(document, profile)
    result = game.results()
    return {
        **game._house_document(),
        "seats": [
            {"seat": seat, **game._seat_document(seat, result)}
            for seat in game._document_seats(listed)
        ],
        **game._closing_document(result),
        "events": [item.to_json() for item in game.events],
    }


def settle(document: Any, profile: Profile) -> tuple[GameRound, list[int]]:
    """Deal and play the round a ``croupier settle`` document describes: its shoe (the cards
    in the order they leave it), each seat's bets (placed in the table's wager order) and the
    seat's decisions, given as the round asks for them. Returns the finished round and the
    seats in the order listed. Every bad input raises a ``CroupierError`` naming it. The
    document's fields are the game's ``document_keys`` and ``seat_keys``; the round is made
    by its ``from_document``.

    An optional ``corrections`` lists the dealer's corrections (docs/rules.md#D-GEN-14), each
    ``{"after": "bets" | N, "correction": "exposed hole"}``: made once every bet is placed,
    before the deal, or once ``N`` decisions have been given after it (0: right after the
    deal)."""
    if not isinstance(document, Mapping):
        raise SettleInputError("a round is a JSON object with 'game', 'rules', 'shoe' and 'seats'")
    cls = round_class_of(profile.game)
    fields, seat_fields = cls.document_keys, cls.seat_keys
    corrections = _settle_corrections(document.get("corrections", []))
    unknown = sorted(set(document) - set(fields) - {"corrections"})
    if unknown:
        raise SettleInputError(f"unknown field {unknown[0]!r} (fields: {', '.join(fields)})")
    listed = _shoe_cards(document.get("shoe"))
    if corrections:
        # A correction may void the round part-way, short of the cards its deal asks the
        # shoe to hold (Casino Hold'em counts them first): the rest of the decks stand
        # behind the listed cards, and drawing one of them is running out (checked below).
        Shoe.stacked(listed, profile.table.decks)  # the listed cards alone are a real shoe
        shoe = Shoe.stacked(
            [*listed, *_rest_of_decks(listed, profile.table.decks)], profile.table.decks
        )
    else:
        shoe = Shoe.stacked(listed, profile.table.decks)
    seats = document.get("seats")
    if not isinstance(seats, list):
        raise SettleInputError(f"'seats' must be a list of seats, not {seats!r}")
    game = cls.from_document(profile, shoe, document)
    if not seats and game.seat_noun == "seat":
        raise SettleInputError("'seats' must be a non-empty list of seats")
    actions: dict[int, list[Action]] = {}
    bets: dict[int, dict[str, Any]] = {}
    for entry in seats:
        if not isinstance(entry, dict):
            raise SettleInputError(f"a seat is an object with {', '.join(seat_fields)}: {entry!r}")
        unknown = sorted(set(entry) - set(seat_fields))
        if unknown:
            raise SettleInputError(f"seat {entry.get('seat')!r}: unknown field {unknown[0]!r}")
        seat = game.verify_seat(entry.get("seat"))
        if seat in actions:
            raise SettleInputError(f"seat {seat} is listed twice")
        bets[seat], listed_actions = entry.get("bets", {}), entry.get("actions", [])
        if not isinstance(bets[seat], dict):
            raise SettleInputError(f"seat {seat}: 'bets' must be an object of wager: amount")
        if not isinstance(listed_actions, list):
            raise SettleInputError(f"seat {seat}: 'actions' must be a list such as ['hit']")
        actions[seat] = [Action.parse(text) for text in listed_actions]
    order = list(profile.table.wagers)
    for seat, wagers in sorted(bets.items()):
        for wager in sorted(wagers, key=lambda name: order.index(name) if name in order else -1):
            game.place_bet(seat, wager, wagers[wager])

    def correct(after: str | int) -> None:
        while corrections and corrections[0][0] == after:
            game.correct(corrections.pop(0)[1])

    correct("bets")
    game.deal()
    made = 0
    correct(made)
    while (decision := game.pending()) is not None:
        queue = actions.get(decision.seat, [])
        if not queue:
            what = decision.question if decision.hand is None else f"hand {decision.hand}"
            legal = ", ".join(str(option) for option in decision.legal)
            raise SettleInputError(
                f"seat {decision.seat}: no action listed for {decision.question!r}: a decision "
                f"is needed on {what} ({legal}) but no action is left"
            )
        game.act(decision.seat, queue.pop(0))
        made += 1
        correct(made)
    if shoe.position > len(listed):
        raise ShoeError(f"the shoe is empty after {len(listed)} cards")
    if corrections:
        after, command = corrections[0]
        raise SettleInputError(
            f"correction {str(command)!r} after {after} decision(s) was not reached: the round "
            f"ended after {made}"
        )
    for seat, queue in actions.items():
        if queue:
            raise SettleInputError(
                f"seat {seat}: actions not asked for: {len(queue)} action(s) left over, "
                f"from {str(queue[0])!r}"
            )
    return game, list(actions)


def _settle_corrections(listed: object) -> list[tuple[str | int, Correction]]:
    """A ``settle`` document's ``corrections``, checked and in the order they are made."""
    if not isinstance(listed, list):
        raise SettleInputError(
            '\'corrections\' must be a list such as [{"after": 0, "correction": "face-up"}]'
        )
    made: list[tuple[str | int, Correction]] = []
    for entry in listed:
        if not isinstance(entry, dict) or set(entry) != {"after", "correction"}:
            raise SettleInputError(
                f"a correction is an object with 'after' and 'correction', not {entry!r}"
            )
        after, text = entry["after"], entry["correction"]
        if after != "bets" and (not isinstance(after, int) or isinstance(after, bool) or after < 0):
            raise SettleInputError(
                f"correction 'after' is 'bets' or a count of decisions (0 or more), not {after!r}"
            )
        command = parse_command(text) if isinstance(text, str) else None
        if not isinstance(command, FaceUp | DealtInError | Exposed | ConfusedDeal | Void):
            raise SettleInputError(
                f"unknown correction {text!r}: expected 'face-up', 'dealt-in-error', "
                "'exposed PLACE', 'confused-deal' or 'void REASON'"
            )
        made.append((after, command))
    order = [-1 if after == "bets" else int(after) for after, _ in made]
    if order != sorted(order):
        raise SettleInputError("'corrections' must be listed in the order they are made")
    return made


def _shoe_cards(listed: object) -> list[Card]:
    if not isinstance(listed, list):
        raise SettleInputError(f"'shoe' must be a list of cards such as \"Th\", not {listed!r}")
    cards = []
    for position, text in enumerate(listed, start=1):
        if not isinstance(text, str):
            raise SettleInputError(
                f"'shoe' must be a list of cards such as \"Th\": "
                f"shoe card {position}: unknown card {text!r}"
            )
        try:
            cards.append(Card.parse(text))
        except NotationError as error:
            raise NotationError(f"shoe card {position}: {error}") from None
    return cards


def document_of(events: Iterable[Event], profile: Profile | None = None) -> dict[str, Any]:
    """The ``croupier settle`` document of a recorded round dealt mid-shoe (no opening burn):
    its cards as the shoe, each seat's bets and decisions in order, and what else the game's
    document holds (Casino Hold'em's ``jackpot``). A dispute is settled from it. ``profile``
    is needed only for rules that are not shipped (the record names them).

    A card found face up or dealt in error while a card was awaited is left out, card and
    correction: a document places a correction only between commands, and that card touched
    no hand (the round dealt on as if it never was), so the payouts are the round's."""
    record = upgrade(events)
    cls, profile = _start(record, profile)
    aside = {
        at
        for index, item in enumerate(record)
        if isinstance(item, CardFoundFaceUp | CardDealtInError) and item.awaited is not None
        for at in (index - 1, index)
    }
    record = [item for index, item in enumerate(record) if index not in aside]
    seats: dict[int, dict[str, Any]] = {}
    corrections: list[dict[str, Any]] = []
    after: str | int = "bets"
    for command in commands_of(record):
        if isinstance(command, Bet):
            seats.setdefault(command.seat, {"seat": command.seat, "bets": {}})
            seats[command.seat]["bets"][command.wager] = command.amount
        elif isinstance(command, Deal):
            after = 0
        elif isinstance(command, Act):
            seats[command.seat].setdefault("actions", []).append(str(command.action))
            after = after + 1 if isinstance(after, int) else after
        elif isinstance(command, FaceUp | DealtInError | Exposed | ConfusedDeal):
            corrections.append({"after": after, "correction": str(command)})
    return {
        "game": profile.game,
        "rules": profile.name,
        "shoe": [str(card) for card in recorded_cards(record)],
        "seats": [seats[seat] for seat in sorted(seats)],
        **cls.document_fields(record),
        **({"corrections": corrections} if corrections else {}),
    }
