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

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from croupier.cards import Card
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
from croupier.games.commands import Act, Action, Bet, Command, Deal, Return, Void
from croupier.games.events import (
    BetPlaced,
    BetsClosed,
    BetsReturned,
    CardDrawn,
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
from croupier.rules.base import Profile
from croupier.shoe import Shoe

__all__ = [
    "Action",
    "Decision",
    "GameRound",
    "RoundResult",
    "Step",
    "WagerResult",
    "commands_of",
    "deal_on",
    "replay",
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


@dataclass(frozen=True, slots=True)
class WagerResult:
    seat: int
    wager: str
    stake: Fraction
    payout: Fraction
    result: str
    hand: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "wager": self.wager,
            "hand": self.hand,
            "stake": json_number(self.stake),
            "payout": json_number(self.payout),
            "result": self.result,
        }


@dataclass(frozen=True)
class RoundResult:
    """Every wager of a finished round: the ledger's postings derive from this."""

    wagers: tuple[WagerResult, ...]
    details: dict[str, Any] = field(default_factory=dict)

    def seats(self) -> list[int]:
        return sorted({wager.seat for wager in self.wagers})

    def staked(self, seat: int) -> Fraction:
        return sum((w.stake for w in self.wagers if w.seat == seat), Fraction(0))

    def returned(self, seat: int) -> Fraction:
        return sum((w.payout for w in self.wagers if w.seat == seat), Fraction(0))

    def net(self, seat: int) -> Fraction:
        return self.returned(seat) - self.staked(seat)

    @property
    def house_net(self) -> Fraction:
        return -sum((self.net(seat) for seat in self.seats()), Fraction(0))


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
    takes_new_shoe: ClassVar[bool] = False
    """The constructor takes ``new_shoe=True`` to run the new-shoe procedure (its burns)."""
    takes_meter: ClassVar[bool] = False
    """The constructor takes the progressive ``meter=`` it starts from."""
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
        self._record(RoundStarted(game=self.game, profile=profile.name))

    # --- the record ---------------------------------------------------------------------
    def _record(self, *new: Event) -> tuple[Event, ...]:
        self.events.extend(new)
        return new

    def _since(self, start: int) -> tuple[Event, ...]:
        return tuple(self.events[start:])

    def draw(self, purpose: Purpose, seat: int | None = None, hand: int | None = None) -> Card:
        """The next card from the shoe, recorded with where it goes. A physical shoe without
        the card raises ``CardNeeded`` naming where it goes, and nothing is recorded."""
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
        self._record(
            Settled(
                seat=seat,
                wager=wager,
                stake=Fraction(stake),
                payout=payout,
                result=result,
                hand=hand,
            )
        )

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
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise BetError(
                f"a {self.seat_noun} is a whole number: {self.seat_noun} {seat!r} does not exist: "
                f"{self.seats_are} 1 to {count}",
                code="no_such_seat",
                seat=str(seat),
                seats=count,
            )
        if not 1 <= seat <= count:
            raise BetError(
                f"{self.seat_noun} {seat!r} does not exist: {self.seats_are} 1 to {count}",
                code="no_such_seat",
                seat=str(seat),
                seats=count,
            )
        return seat

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
        without the main wager it rides on. ``deal()`` refuses while any is left; a live table
        refuses the bet that makes one, and at its deadline returns what is left
        (``return_bets``). A game without such a bet has none."""
        return {}

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

    def can_deal(self) -> bool:
        return _passes(self.verify_deal)

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

    def act(self, seat: int, action: Action, *, by_default: bool = False) -> Sequence[Event]:
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
        """Carry out one command (what the live table, ``settle`` and ``replay`` give)."""
        if isinstance(command, Bet):
            return self.place_bet(command.seat, command.wager, command.amount)
        if isinstance(command, Deal):
            return self.deal()
        if isinstance(command, Act):
            return self.act(command.seat, command.action, by_default=command.by_default)
        if isinstance(command, Return):
            return self.return_bets(command.seat, command.reason)
        return self.void(command.reason)

    # --- a round that cannot go on ----------------------------------------------------------
    def verify_void(self) -> None:
        if self.is_done:
            raise IllegalActionError("void refused: the round is already over (already settled)")

    def can_void(self) -> bool:
        return _passes(self.verify_void)

    def void(self, reason: str) -> Sequence[Event]:
        """End a round that cannot go on (a confused deal, an interrupted round that cannot
        be restored, R11): every stake still in play is returned. What was already settled
        (a side bet, a bust, a blackjack paid at once) stands."""
        self.verify_void()
        start = len(self.events)
        self._record(RoundVoided(reason=reason))
        for wager in self._open_wagers():
            self._settle_wager(
                wager.seat, wager.wager, wager.stake, wager.stake, "void", hand=wager.hand
            )
        self._end()
        return self._since(start)

    @abstractmethod
    def _open_wagers(self) -> Iterable[OpenWager]:
        """Every wager still in play, in the order a void returns them."""

    def _end(self) -> None:
        self.phase = type(self.phase)(DONE)
        self._record(RoundEnded())

    # --- reading the round --------------------------------------------------------------
    def settled(self) -> list[WagerResult]:
        """Every wager settled so far, in the order it was settled."""
        return [
            WagerResult(item.seat, item.wager, item.stake, item.payout, item.result, item.hand)
            for item in self.events
            if isinstance(item, Settled)
        ]

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
        decision = None if self.card_needed is not None else self.pending()
        settled = self.settled()
        seats = []
        for seat in self._seats_in_view():
            seats.append(
                {
                    "seat": seat,
                    "bets": dict(self.bets.get(seat, {})),
                    "hands": self._hands_view(seat, viewer, everything),
                    "results": [w.to_json() for w in settled if w.seat == seat],
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
            "results": [wager.to_json() for wager in settled],
            "done": self.is_done,
        }

    def legal_for(self, viewer: int | None) -> list[str]:
        """The legal actions in notation when the round waits on ``viewer``, else none."""
        decision = None if self.card_needed is not None else self.pending()
        if decision is None or decision.seat != viewer:
            return []
        return [str(action) for action in decision.legal]

    def _seats_in_view(self) -> list[int]:
        return sorted(self.bets)

    @abstractmethod
    def _hands_view(self, seat: int, viewer: int | None, everything: bool) -> list[dict[str, Any]]:
        """A seat's hands: ``hand``, ``cards`` (a hidden card as ``??``), ``total``, ``bet``,
        ``result`` and ``payout`` (``None`` until known)."""

    @abstractmethod
    def _house_view(self, everything: bool) -> dict[str, Any]:
        """The house's side: ``dealer`` (and ``board``), or ``player`` and ``banker``."""

    # --- rebuilding from a record ---------------------------------------------------------
    @classmethod
    def document_fields(cls, record: Sequence[Event]) -> dict[str, Any]:
        """What a ``settle`` document of this game holds besides shoe and seats."""
        return {}

    @classmethod
    def for_replay(cls, profile: Profile, record: Sequence[Event], shoe: Shoe | None) -> GameRound:
        """A fresh round that will deal the recorded cards (from ``shoe`` when given)."""
        dealing = (
            Shoe.stacked(recorded_cards(record), profile.table.decks) if shoe is None else shoe
        )
        return cls(profile, dealing, **cls._replay_options(record))

    @classmethod
    def _replay_options(cls, record: Sequence[Event]) -> dict[str, Any]:
        """The game's constructor options a record implies (a new shoe's burns, a meter)."""
        return {}


# --- commands from a record, and one replay for every game ---------------------------------


def commands_of(events: Iterable[Event]) -> Iterator[Command]:
    """The commands a record was made by: its bets, its deal, each decision, a void."""
    closed = by_default = False
    for item in events:
        if isinstance(item, DefaultApplied):
            by_default = True
        elif isinstance(item, BetPlaced) and not closed:
            yield Bet(item.seat, item.wager, int(item.amount))
        elif isinstance(item, BetsReturned) and not closed:
            yield Return(item.seat, item.reason)
        elif isinstance(item, BetsClosed):
            closed = True
            yield Deal()
        elif isinstance(item, Operation):
            yield Act(item.seat, item.action, by_default)
            by_default = False
        elif isinstance(item, Decided):
            yield Act(item.seat, Action.parse(item.action), by_default)
            by_default = False
        elif isinstance(item, RoundVoided):
            yield Void(item.reason)


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


def recorded_cards(events: Iterable[Event]) -> list[Card]:
    return [item.card for item in events if isinstance(item, CardDrawn)]


def has_burns(events: Iterable[Event]) -> bool:
    return any(isinstance(item, CardDrawn) and item.purpose is Purpose.BURN for item in events)


def _start(record: Sequence[Event], profile: Profile | None) -> tuple[type[GameRound], Profile]:
    from croupier.games import game_module
    from croupier.rules.registry import load_profile_of

    first = record[0] if record else None
    if not isinstance(first, RoundStarted):
        raise ReplayError("a round's record starts with RoundStarted")
    game_module(first.game)  # registers the game's round class and events
    cls = ROUND_CLASSES[first.game]
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
    commands = list(commands_of(record))
    try:
        game = cls.for_replay(profile, record, shoe)
        for index, command in enumerate(commands):
            try:
                game.apply(command)
            except CardNeeded:
                # A physical shoe's round waits for the dealer's card where it stopped; only
                # the last command may have stopped so (any other was given its cards).
                if index + 1 < len(commands):
                    raise ReplayError(
                        f"the record does not replay: {command} stopped for a card "
                        f"({game.card_needed}) but commands follow it"
                    ) from None
            except ShoeError:
                # Only a round voided next may have run out of cards (what it dealt stays).
                following = commands[index + 1] if index + 1 < len(commands) else None
                if not isinstance(following, Void):
                    raise
    except (BetError, IllegalActionError, ShoeError, ValueError) as error:
        raise ReplayError(f"the record does not replay: {error}") from None
    return game, record


def play(profile: Profile, shoe: Shoe, commands: Iterable[Command], **options: Any) -> GameRound:
    """A round of ``profile``'s game dealt from ``shoe`` and given ``commands`` in order
    (``options``: the game's own, such as ``new_shoe`` or ``meter``)."""
    from croupier.games import game_module

    game_module(profile.game)  # registers the game's round class
    game = ROUND_CLASSES[profile.game](profile, shoe, **options)
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
    for command in commands_of(record):
        try:
            game.apply(command)
        except ShoeError:
            continue  # what was drawn before the shoe ran out goes with the void that follows
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


# --- croupier settle: a round described in JSON --------------------------------------------


def settle(
    document: Any,
    profile: Profile,
    make: Callable[[Shoe], GameRound],
    *,
    fields: Sequence[str] = ("game", "rules", "shoe", "seats"),
    seat_fields: Sequence[str] = ("seat", "bets", "actions"),
) -> tuple[GameRound, list[int]]:
    """Deal and play the round a ``croupier settle`` document describes: its shoe (the cards
    in the order they leave it), each seat's bets (placed in the table's wager order) and the
    seat's decisions, given as the round asks for them. Returns the finished round and the
    seats in the order listed. Every bad input raises a ``CroupierError`` naming it."""
    if not isinstance(document, Mapping):
        raise SettleInputError("a round is a JSON object with 'game', 'rules', 'shoe' and 'seats'")
    unknown = sorted(set(document) - set(fields))
    if unknown:
        raise SettleInputError(f"unknown field {unknown[0]!r} (fields: {', '.join(fields)})")
    shoe = Shoe.stacked(_shoe_cards(document.get("shoe")), profile.table.decks)
    seats = document.get("seats")
    if not isinstance(seats, list):
        raise SettleInputError(f"'seats' must be a list of seats, not {seats!r}")
    game = make(shoe)
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
    game.deal()
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
    for seat, queue in actions.items():
        if queue:
            raise SettleInputError(
                f"seat {seat}: actions not asked for: {len(queue)} action(s) left over, "
                f"from {str(queue[0])!r}"
            )
    return game, list(actions)


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


def seat_money(result: RoundResult, seat: int) -> dict[str, int | float]:
    """A seat's ``staked``, ``returned`` and ``net`` in the ``settle`` output."""
    return {
        "staked": json_number(result.staked(seat)),
        "returned": json_number(result.returned(seat)),
        "net": json_number(result.net(seat)),
    }


def document_of(events: Iterable[Event], profile: Profile | None = None) -> dict[str, Any]:
    """The ``croupier settle`` document of a recorded round dealt mid-shoe (no opening burn):
    its cards as the shoe, each seat's bets and decisions in order, and what else the game's
    document holds (Casino Hold'em's ``jackpot``). A dispute is settled from it. ``profile``
    is needed only for rules that are not shipped (the record names them)."""
    record = upgrade(events)
    cls, profile = _start(record, profile)
    seats: dict[int, dict[str, Any]] = {}
    for command in commands_of(record):
        if isinstance(command, Bet):
            seats.setdefault(command.seat, {"seat": command.seat, "bets": {}})
            seats[command.seat]["bets"][command.wager] = command.amount
        elif isinstance(command, Act):
            seats[command.seat].setdefault("actions", []).append(str(command.action))
    return {
        "game": profile.game,
        "rules": profile.name,
        "shoe": [str(card) for card in recorded_cards(record)],
        "seats": [seats[seat] for seat in sorted(seats)],
        **cls.document_fields(record),
    }
