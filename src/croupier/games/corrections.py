"""The dealer's corrections, for every game: a void, and those of the cards (docs/rules.md §6).

A round that cannot go on is void (``void``: every stake still in play returned, R11). A
card found face up in the shoe (``face_up``), a card dealt where none was due
(``dealt_in_error``), a face-down card shown in error (``exposed``) and a confused deal
(``confused_deal``) are corrected each by the one convention (``verify_x`` raises, ``can_x`` asks, ``x``
verifies then acts). What each does is the profile's ``corrections`` record; where a game's
cards lie face down is the game's own (``face_down_places``, ``_replace_face_down``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import assert_never

from croupier.cards import Card
from croupier.errors import CroupierError, IllegalActionError
from croupier.games.commands import ConfusedDeal, Correction, DealtInError, Exposed, FaceUp, Void
from croupier.games.events import (
    BetsClosed,
    CardDealtInError,
    CardDrawn,
    CardExposed,
    CardFoundFaceUp,
    DealConfused,
    Event,
    Purpose,
    RoundVoided,
)
from croupier.games.record import RecordedRound, passes
from croupier.rules.base import Corrections, ExposedCardRule, FaceUpCardRule
from croupier.shoe import PhysicalShoe

_NOT_ON_TABLE = frozenset({Purpose.BURN, Purpose.REMOVED, Purpose.SHOWN_BURN})
CORRECTION_EVENTS = (CardFoundFaceUp, CardDealtInError, CardExposed, DealConfused, RoundVoided)
"""The events of the dealer's corrections (and of any void): public, every card in them seen."""


@dataclass(frozen=True, slots=True)
class OpenWager:
    """A wager still in play: what a void returns."""

    seat: int
    wager: str
    stake: Fraction
    hand: int | None = None


class DealerCorrections(RecordedRound):
    """The dealer's corrections: the void of a round that cannot go on, and those of the cards."""

    # --- a round that cannot go on ----------------------------------------------------------
    def verify_void(self, reason: str = "") -> None:
        """Raise unless the round may be void now (for any ``reason``: the dealer's own)."""
        if self.is_done:
            raise IllegalActionError("void refused: the round is already over (already settled)")

    def can_void(self) -> bool:
        return passes(self.verify_void)

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

    @abstractmethod
    def _open_wagers(self) -> Iterable[OpenWager]:
        """Every wager still in play, in the order a void returns them."""

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
        return passes(lambda: self.verify_exposed(place))

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
        match command:
            case FaceUp(card):
                self.verify_face_up(card)
            case DealtInError(card):
                self.verify_dealt_in_error(card)
            case Exposed(place):
                self.verify_exposed(place)
            case ConfusedDeal():
                self.verify_confused_deal()
            case Void(reason):
                self.verify_void(reason)
            case _:
                assert_never(command)

    def can_correct(self, command: Correction) -> bool:
        return passes(lambda: self.verify_correction(command))

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
