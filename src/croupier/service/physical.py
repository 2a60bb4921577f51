"""A table dealt from a physical shoe: the dealer's procedures and the cards the dealer enters.

The operator opens such a table with ``"shoe": "physical"``: no random shoe is made for it
and nothing is committed before the deal; its dealer confirms the shoe's making, each step
recorded with who and when in the shoe's row (``ShoeRecord.procedures``, covered by the R15
chain): ``shuffled``, ``cut``, ``cut_card_placed`` (a game with a cut card), then the burns
the profile's procedure asks for (``games.base.burns_to_enter``: Spain 1979 five cards,
Dragon Six the first card and as many as its value), each entered as a card and kept in the
shoe's ``opening``. Only then may a round of that shoe be dealt. ``cut_card_out`` says the
cut card came out: the round under way is the shoe's last (docs/rules.md §6).

The round itself runs as at any table, the one engine dealing from a ``PhysicalShoe``: when
it needs a card nobody has entered, the command stops (``CardNeeded``: which box, hand, the
dealer, a burn, the board) and the round waits; the dealer's card is checked against what the
shoe's decks can still hold, and the round is dealt on from the command that stopped, given
again by the one ``apply`` (``GameRound.enter``). While a card is awaited no decision's clock runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from croupier.cards import Card
from croupier.games.base import burns_to_enter, recorded_cards
from croupier.games.events import CardDrawn, Event, Purpose
from croupier.ledger.book import round_reference
from croupier.rules.base import Profile
from croupier.service import staff
from croupier.service.accounts import Principal
from croupier.service.errors import Conflict
from croupier.service.live import ROUNDS, LiveTable
from croupier.service.models import RoundRecord, ShoeRecord
from croupier.service.staff_models import StaffActionRecord
from croupier.shoe import PhysicalShoe

PHYSICAL = "physical"
RANDOM = "random"
SHOE_KINDS = (RANDOM, PHYSICAL)


class Procedure(StrEnum):
    """What the dealer confirms of a physical shoe, in the order it is done."""

    SHUFFLED = "shuffled"
    CUT = "cut"
    CUT_CARD_PLACED = "cut_card_placed"
    CUT_CARD_OUT = "cut_card_out"


def making(profile: Profile) -> tuple[Procedure, ...]:
    """The procedures a new shoe of ``profile`` needs before its burns: a game dealt from a
    fresh deck every round (Casino Hold'em) places no cut card."""
    steps = [Procedure.SHUFFLED, Procedure.CUT]
    if profile.table.cut_card_from_bottom is not None:
        steps.append(Procedure.CUT_CARD_PLACED)
    return tuple(steps)


def confirmed(record: ShoeRecord) -> list[str]:
    return [str(item["procedure"]) for item in record.procedures or []]


def cut_card_at(record: ShoeRecord) -> int | None:
    """The shoe's cut card position, once the dealer saw it come out: the next card past the
    ``cards_out`` recorded then (``PhysicalShoe.cut_card_out``); ``None`` before."""
    for item in record.procedures or []:
        if item.get("procedure") == Procedure.CUT_CARD_OUT and "cards_out" in item:
            return int(item["cards_out"]) + 1
    return None


def opening_cards(record: ShoeRecord) -> list[Card]:
    return recorded_cards(Event.from_json(item) for item in record.opening or [])


def next_procedure(live: LiveTable) -> Procedure | None:
    """The next procedure of the shoe's making still to confirm, or ``None``."""
    done = set(live.procedures)
    return next((step for step in making(live.profile) if step not in done), None)


def burns_left(live: LiveTable) -> int:
    return burns_to_enter(live.profile, live.opening)


def is_ready(live: LiveTable) -> bool:
    """The shoe is made and burnt: its rounds may be dealt."""
    return next_procedure(live) is None and burns_left(live) == 0


def shoe_of(session: Session, record: ShoeRecord) -> PhysicalShoe:
    """The physical shoe as its record and its rounds hold it: the opening burns and every
    card of its rounds, all out of the shoe."""
    cards = opening_cards(record)
    query = select(RoundRecord.events).where(RoundRecord.shoe_id == record.id)
    for events in session.scalars(query.order_by(RoundRecord.id)):
        cards += recorded_cards(Event.from_json(item) for item in events)
    shoe = PhysicalShoe(cards, record.decks, position=len(cards))
    shoe.cut_card_at = cut_card_at(record)
    return shoe


def restore(session: Session, live: LiveTable, record: ShoeRecord) -> None:
    live.procedures = confirmed(record)
    live.opening = opening_cards(record)


# --- the dealer's commands ------------------------------------------------------------------
def verify_physical(live: LiveTable) -> PhysicalShoe:
    shoe = live.shoe
    if not isinstance(shoe, PhysicalShoe):
        raise Conflict(
            f"table {live.name!r} deals from its own random shoe: no card is entered there",
            code="not_a_physical_shoe",
            table=live.id,
        )
    return shoe


def confirm(
    session: Session, live: LiveTable, procedure: Procedure, by: str, rounds: Any
) -> dict[str, Any]:
    """Record one procedure of the shoe as the dealer confirms it, in its order."""
    verify_physical(live)
    expected = next_procedure(live)
    if procedure is Procedure.CUT_CARD_OUT:
        if not is_ready(live) or live.profile.table.cut_card_from_bottom is None:
            raise Conflict(
                "the cut card cannot come out of a shoe not yet made and burnt",
                code="procedure_out_of_order",
                procedure=str(procedure),
                expected=str(expected or "cards"),
            )
        if Procedure.CUT_CARD_OUT in live.procedures:
            raise Conflict(
                "the cut card is out already",
                code="procedure_done",
                procedure=str(procedure),
            )
    elif procedure != expected:
        raise Conflict(
            f"{procedure}: the shoe's next step is {expected or 'none: it is made'}",
            code="procedure_out_of_order" if expected is not None else "procedure_done",
            procedure=str(procedure),
            expected=str(expected or "cards"),
        )
    record = session.get(ShoeRecord, live.shoe_id)
    assert record is not None
    entry: dict[str, Any] = {"procedure": str(procedure), "by": by, "at": rounds.clock.now()}
    if procedure is Procedure.CUT_CARD_OUT:
        shoe = verify_physical(live)
        entry["cards_out"] = shoe.position  # where the cut card sits: after these cards
        shoe.cut_card_out()
    record.procedures = [*(record.procedures or []), entry]
    live.procedures = [*live.procedures, str(procedure)]
    _deal_when_ready(session, live, rounds)
    return {"procedure": str(procedure), "by": by, **dealer_state(live)}


def enter(
    session: Session, live: LiveTable, card: Card, rounds: Any, by: Principal
) -> dict[str, Any]:
    """The dealer ``by``'s next card: a burn of the new shoe, or where the round asked for
    it, recorded with who entered it and when (``cards_entered``). Refused, changing nothing:
    a card nobody asked for, a card the decks cannot hold any more, a card before the shoe's
    making is confirmed."""
    position, round_id = verify_physical(live).position, live.round_id
    answer = _enter(session, live, card, rounds)  # the round's last card opens the next
    is_burn = answer["went"]["purpose"] == Purpose.BURN
    subject = None if is_burn else round_reference(round_id)
    detail = {
        "table": live.id,
        "round": None if is_burn else round_id,
        "shoe": live.shoe_id,
        "position": position,
        "card": str(card),
        "went": answer["went"],
    }
    staff.record_action(
        session,
        by,
        staff.StaffAction.CARD_ENTERED,
        subject or shoe_reference(live.shoe_id),
        detail,
        now=rounds.clock.now(),
    )
    return answer


def shoe_reference(shoe_id: int) -> str:
    return f"shoe:{shoe_id}"


def cards_entered(session: Session, subject: str) -> list[dict[str, Any]]:
    """Every card entered for ``subject`` (a round's reference, or a shoe's for its burns),
    in order: the card, where it went, the dealer who entered it and when. Staff only: the
    cards include the face-down ones and the burns (R6)."""
    rows = session.scalars(
        select(StaffActionRecord)
        .where(
            StaffActionRecord.action == str(staff.StaffAction.CARD_ENTERED),
            StaffActionRecord.subject == subject,
        )
        .order_by(StaffActionRecord.id)
    )
    return [
        {
            "card": row.detail["card"],
            "went": row.detail["went"],
            "position": row.detail["position"],
            "by": row.detail["actor"],
            "at": row.created_at,
            "action": row.id,
        }
        for row in rows
    ]


def _enter(session: Session, live: LiveTable, card: Card, rounds: Any) -> dict[str, Any]:
    shoe = verify_physical(live)
    step = next_procedure(live)
    if step is not None:
        raise Conflict(
            f"{card}: confirm the shoe's making first (next: {step})",
            code="procedure_first",
            card=str(card),
            expected=str(step),
        )
    if burns_left(live):
        answer = _burn(session, live, shoe, card)
        _deal_when_ready(session, live, rounds)
        return answer
    game_round = live.game_round
    needed = game_round.card_needed
    if needed is None:
        raise Conflict(
            f"{card}: no card is needed now (round {live.round_id} is {live.status})",
            code="no_card_needed",
            card=str(card),
            status=live.status,
        )
    round_id = live.round_id
    # The command that stopped is given again from where it began, not the whole round; a
    # card the decks cannot hold is refused there, nothing changed.
    live.round = game_round.enter(card)
    live.shoe = live.round.shoe
    rounds.advance(session, live)
    if live.round_id == round_id:
        rounds.save(session, live)
    return {
        "card": str(card),
        "went": needed.to_json(),
        "round": round_id,
        **dealer_state(live),
    }


def _burn(session: Session, live: LiveTable, shoe: PhysicalShoe, card: Card) -> dict[str, Any]:
    if live.round_id and not live.game_round.is_betting:
        raise Conflict("a burn comes before the shoe's first round is dealt", code="no_card_needed")
    shoe.enter(card)
    shoe.draw()
    burnt = CardDrawn(card=card, purpose=Purpose.BURN)
    record = session.get(ShoeRecord, live.shoe_id)
    assert record is not None
    record.opening = [*(record.opening or []), burnt.to_json()]
    record.position = shoe.position
    live.opening = [*live.opening, card]
    # The first round of the shoe starts after its burns (its cards follow them).
    live.start_position = shoe.position
    session.flush()
    session.connection().execute(
        update(ROUNDS).where(ROUNDS.c.id == live.round_id).values(start_position=shoe.position)
    )
    return {
        "card": str(card),
        "went": {"purpose": str(Purpose.BURN), "seat": None, "hand": None},
        "round": live.round_id,
        **dealer_state(live),
    }


def _deal_when_ready(session: Session, live: LiveTable, rounds: Any) -> None:
    """A round whose betting closed while the shoe was being made (its deadline passed, or
    every seated player said ready) is dealt at the next tick."""
    closed = live.deadline is None or set(live.seats.values()) <= live.ready
    if is_ready(live) and live.game_round.is_betting and live.held and closed:
        live.deadline = rounds.clock.now()
        rounds.save(session, live)


# --- what the dealer's console shows ----------------------------------------------------------
def shoe_document(live: LiveTable) -> dict[str, Any]:
    step = next_procedure(live)
    shoe = live.shoe
    return {
        "shoe": live.shoe_id,
        "procedures": list(live.procedures),
        "next_procedure": None if step is None else str(step),
        "burns_left": burns_left(live) if step is None else None,
        "burnt": [str(card) for card in live.opening],
        "is_ready": is_ready(live),
        "cards_out": 0 if shoe is None else shoe.position,
        "cut_card_out": Procedure.CUT_CARD_OUT in live.procedures,
    }


def next_card(live: LiveTable) -> dict[str, Any] | None:
    """Where the dealer's next card goes: a burn of the new shoe, or what the round needs."""
    if not isinstance(live.shoe, PhysicalShoe) or next_procedure(live) is not None:
        return None
    if burns_left(live):
        return {"purpose": str(Purpose.BURN), "seat": None, "hand": None}
    needed = None if live.round is None else live.round.card_needed
    return None if needed is None else needed.to_json()


def dealer_state(live: LiveTable) -> dict[str, Any]:
    """The table as its dealer sees it: the shoe, the next card's place and the round. At a
    physical shoe the dealer handles every card, so the view is the inspector's; at a random
    shoe's table the server deals and the dealer sees what a spectator sees (R6: a hole card,
    Casino Hold'em's dealer and player cards stay face down to the dealer as to everyone)."""
    game_round = live.round
    return {
        "table": live.id,
        "name": live.name,
        "game": live.profile.game,
        "profile": live.profile.name,
        "status": live.status,
        "round": live.round_id,
        "shoe_kind": PHYSICAL if live.is_physical else RANDOM,
        "shoe": shoe_document(live),
        "next_card": next_card(live),
        "void_waiting": live.void_waiting,
        "view": None if game_round is None else game_round.view(None, everything=live.is_physical),
    }


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)
