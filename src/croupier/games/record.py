"""A round's record: the events it has recorded, and the commands they were made by.

``RecordedRound`` is what every part of a round stands on: the profile and the shoe it deals
from, its ``phase``, the event log (``events``: the whole record), drawing a card with its
``Purpose``, and what the record says (the bets placed, the wagers settled). The state
machine (``games.base.GameRound``), the dealer's corrections (``games.corrections``) and the
view per viewer (``games.viewing``) are each built on it.

``commands_of`` reads back the commands a record was made by; ``give_again`` gives them to a
round again, which is how ``replay``, ``deal_on`` and a physical shoe's ``enter`` rebuild one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from croupier.cards import Card
from croupier.errors import (
    BetError,
    CardNeeded,
    CroupierError,
    IllegalActionError,
    ProfileError,
    ReplayError,
    ShoeError,
)
from croupier.games.commands import (
    Act,
    Action,
    Bet,
    Command,
    ConfusedDeal,
    Deal,
    DealtInError,
    Decision,
    Exposed,
    FaceUp,
    Return,
    Void,
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
)
from croupier.rules.base import ExposedCardRule, Profile
from croupier.shoe import Shoe

BETTING = "betting"
DONE = "done"
"""Every game's ``Phase`` has these two values: the first and the last."""


def passes(verify: Callable[[], object]) -> bool:
    """A ``can_x``: whether ``verify_x`` lets it through (the one convention)."""
    try:
        verify()
    except CroupierError:
        return False
    return True


class RecordedRound(ABC):
    """A round as its record: what it deals from, the events it recorded, and what they say."""

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
    """The game's own ``Phase`` (a ``StrEnum`` whose first value is ``betting``, last ``done``)."""
    card_needed: CardNeeded | None = None
    """A round dealt from a physical shoe that stopped at a card nobody has entered yet: where
    it goes. The round goes on only when it is rebuilt with that card (``deal_on``): the
    command that stopped is given again, through the same ``apply``."""

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
        self._given_at: dict[int, FaceUp | DealtInError] = {}
        """A replay's corrections made while a card was awaited, by the index of their first
        event: the draw that awaited that card is given each again there (``given_again``)."""
        self._record(RoundStarted(game=self.game, profile=profile.name))

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
            self.apply(correction)
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

    def label(self, seat: int) -> str:
        return f"{self.seat_noun} {seat}"

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

    def pending(self) -> Decision | None:
        """The decision the round waits for, or ``None`` (betting, or done)."""
        return None

    def settled(self) -> list[Settled]:
        """Every wager settled so far, in the order it was settled."""
        return [item for item in self.events if isinstance(item, Settled)]

    def _end(self) -> None:
        self.phase = type(self.phase)(DONE)
        self._record(RoundEnded())

    @abstractmethod
    def apply(self, command: Command) -> Sequence[Event]:
        """Carry out one command (``games.base.GameRound.apply``)."""


# --- the commands a record was made by, given again ----------------------------------------


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


def give_again(game: RecordedRound, record: Sequence[Event]) -> None:
    """Give ``game`` the commands of ``record`` it has not been given yet (``given_again``),
    or ``ReplayError`` where the record does not replay."""
    try:
        for command, following, stop in given_again(game, record):
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


def given_again(
    game: RecordedRound, record: Sequence[Event]
) -> Iterator[tuple[Command, Command | None, CardNeeded | ShoeError | None]]:
    """Give ``game`` the commands ``record`` was made by, in order, from the first whose
    events ``game`` has not recorded yet (a fresh round: every one; a round kept before a
    command that stopped for a card: that command on): each with the next one still to give
    (``None`` after the last) and where it stopped (a card needed, the shoe run out;
    ``None``: it did not). A correction made while a card was awaited is given where the
    record has it: by the draw that awaited the card (``RecordedRound.draw``), not here."""
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
