"""The round as each viewer may see it: the live table's view, and the recall's record.

``view(viewer)`` is the round now as a seat (``None``: the public at large) may see it, as
JSON, the same shape for every game; ``record_seen_by`` is the round's record as a reader
may read it afterwards. A card a viewer may not see is ``??`` in both (R6), by the same
rules: the game's cards dealt face down (``face_down_until``) until they are turned, the
cards it keeps private to their seat (``private_card_purposes``), and burns, none of which
a player sees before the shoe is revealed. The inspector (``everything``) sees every card.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence, Set
from typing import Any

from croupier.games.commands import Decision
from croupier.games.corrections import CORRECTION_EVENTS
from croupier.games.events import CardDrawn, Event, Purpose, Settled
from croupier.games.record import RecordedRound
from croupier.money import json_number


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


class RoundViews(RecordedRound):
    """What a viewer may see of the round: now (``view``), and afterwards (``record_seen_by``)."""

    def view(self, viewer: int | None, *, everything: bool = False) -> dict[str, Any]:
        """The round as ``viewer`` (a seat; ``None``: the public at large) may see it now, as
        JSON, the same shape for every game: each seat's bets, hands and results, the house's
        cards (``dealer``, or baccarat's ``player`` and ``banker``), the pending decision, the
        viewer's legal actions, and every wager settled. A card the viewer may not see is
        ``??`` (R6), by the game's own rule; ``everything`` is the inspector's view (every
        card, as the record has it). The live table and the recall draw it; at the end it
        shows what ``settle`` answers (``tests/consistency/test_view_settle_replay_agree``).
        While a physical shoe's card is awaited (``card_needed``) no decision is pending."""
        return self.views([viewer], everything=everything)[viewer]

    def views(
        self, viewers: Iterable[int | None], *, everything: bool = False
    ) -> dict[int | None, dict[str, Any]]:
        """``view(viewer)`` for each of ``viewers``, what they all see alike worked out once:
        a live table draws every seat's view and the public's at each change, and each view
        worked out the settled wagers, the pending decision, the house and every seat's hands
        again (issue 28, item 8). Only the legal actions differ by viewer, and the hands of a
        game that keeps a seat's cards to that seat (``private_card_purposes``). The views
        share the parts they hold alike: read them, never change them."""
        decision = self._awaited()
        settled = self.settled()
        results = [wager_json(wager) for wager in settled]
        seats = self._seats_in_view()
        bets = self.bets  # read once: while betting, each reading works it out from the record
        seat_results: dict[int, list[dict[str, Any]]] = {seat: [] for seat in seats}
        for wager, shown in zip(settled, results, strict=True):
            if wager.seat in seat_results:
                seat_results[wager.seat].append(shown)

        def seats_seen_by(viewer: int | None) -> list[dict[str, Any]]:
            return [
                {
                    "seat": seat,
                    "bets": dict(bets.get(seat, {})),
                    "hands": self._hands_view(seat, viewer, everything),
                    "results": seat_results[seat],
                }
                for seat in seats
            ]

        alike = None if self.private_card_purposes and not everything else seats_seen_by(None)
        house = self._house_view(everything)
        pending = None if decision is None else decision.to_json()
        card_needed = None if self.card_needed is None else self.card_needed.to_json()
        legal = [] if decision is None else [str(action) for action in decision.legal]
        corrections = self.corrections_made()
        return {
            viewer: {
                "game": self.game,
                "rules": self.profile.name,
                "phase": str(self.phase),
                "viewer": viewer,
                "seats": alike if alike is not None else seats_seen_by(viewer),
                **house,
                "pending": pending,
                "card_needed": card_needed,
                "legal_actions": legal if decision is not None and decision.seat == viewer else [],
                "results": results,
                "corrections": corrections,
                "done": self.is_done,
            }
            for viewer in viewers
        }

    def _awaited(self) -> Decision | None:
        """The pending decision, but none while a physical shoe's card is awaited."""
        return None if self.card_needed is not None else self.pending()

    def _seats_in_view(self) -> list[int]:
        return sorted(self.bets)

    @abstractmethod
    def _hands_view(self, seat: int, viewer: int | None, everything: bool) -> list[dict[str, Any]]:
        """A seat's hands: ``hand``, ``cards`` (a hidden card as ``??``), ``total``, ``bet``,
        ``result`` and ``payout`` (``None`` until known). They differ by ``viewer`` only in a
        game that keeps a seat's cards to it (``private_card_purposes``): ``views`` draws them
        once for every viewer of any other game."""

    @abstractmethod
    def _house_view(self, everything: bool) -> dict[str, Any]:
        """The house's side: ``dealer`` (and ``board``), or ``player`` and ``banker``."""

    def corrections_made(self) -> list[dict[str, Any]]:
        """The dealer's corrections so far (and any void), as JSON: every card in them was
        seen by the table, so the view shows them to everyone."""
        return [item.to_json() for item in self.events if isinstance(item, CORRECTION_EVENTS)]

    # --- the record, read afterwards --------------------------------------------------------
    @classmethod
    def record_seen_by(
        cls,
        events: Iterable[Event],
        seats: Set[int] | None,
        *,
        shoe_revealed: bool,
        record: Sequence[Event] = (),
    ) -> list[dict[str, Any]]:
        """``events`` (of a round's ``record``; by default they are the whole record) as JSON,
        as the holder of ``seats`` may read them once the round is over (``None``: the
        inspector, who reads every card). A burn, and a card dealt face down that the round
        never turned (a hole card of a round voided first), show once the shoe is revealed;
        a card the game keeps private to its seat shows to that seat only (R6)."""
        listed = list(events)
        turned = {item.kind for item in (record or listed)}
        face_down = {purpose for purpose, turn in cls.face_down_until.items() if turn not in turned}

        def hidden(item: Event) -> bool:
            if seats is None or not isinstance(item, CardDrawn):
                return False
            if item.purpose is Purpose.BURN or item.purpose in face_down:
                return not shoe_revealed
            return item.purpose in cls.private_card_purposes and item.seat not in seats

        return [
            {**item.to_json(), "card": "??"} if hidden(item) else item.to_json() for item in listed
        ]
