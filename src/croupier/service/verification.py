"""A round's verification, made from the database alone (issue 14, item 4): what the ledger
paid each player, what ``croupier settle`` pays for the round's record, what corrections have
given since and whether the shoe keeps its commitment. The inspector reads it beside every
dispute (``disputes``), payout correction (``payout_corrections``) and request for approval
(``approvals``), and it says what a round still owes each player (``owed_of``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError, ShoeError
from croupier.fairness import commitment, revealed_document
from croupier.games.base import ROUND_CLASSES
from croupier.games.events import CardDrawn, Event, Purpose
from croupier.games.replay import replay
from croupier.games.settle_document import document_of, settle
from croupier.ledger.book import round_reference, to_minor
from croupier.rules.base import Profile
from croupier.service import physical, table_rules
from croupier.service.accounts import usernames
from croupier.service.errors import existing
from croupier.service.history import STATUS
from croupier.service.models import (
    IN_PROGRESS,
    Account,
    BackBet,
    BackBetStatus,
    GameTable,
    LedgerEntry,
    LedgerTransaction,
    RoundPlayer,
    RoundRecord,
    RoundStatus,
    ShoeRecord,
    User,
)
from croupier.service.staff import DisputeStatus
from croupier.service.staff_models import DisputeRecord, PayoutCorrectionRecord
from croupier.shoe import PhysicalShoe


def _to_wallets(session: Session, *transactions: ColumnElement[bool]) -> dict[str, int]:
    """Minor units the ledger transactions ``transactions`` select moved into each player's
    wallet (negative: out of it), by user name."""
    rows = session.execute(
        select(Account.owner, LedgerEntry.amount)
        .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
        .join(Account, Account.id == LedgerEntry.account_id)
        .where(*transactions, Account.kind == "wallet")
    ).all()
    names = usernames(session, {int(owner) for owner, _amount in rows})
    moved: dict[str, int] = defaultdict(int)
    for owner, amount in rows:
        moved[names[int(owner)]] += int(amount)
    return dict(moved)


def paid_for(session: Session, round_id: int) -> dict[str, int]:
    """Minor units the ledger paid each participant for the round: its settlement, or the
    stakes a void gave back (the transactions referenced ``round:N``)."""
    return _to_wallets(session, LedgerTransaction.reference == round_reference(round_id))


def staked_for(session: Session, round_id: int) -> dict[str, int]:
    """Minor units each participant staked in the round (its stakes and back bets, the
    transactions of those kinds referenced ``round:N:...``; a correction's is not one), as
    positive amounts."""
    staked = _to_wallets(
        session,
        LedgerTransaction.reference.startswith(f"{round_reference(round_id)}:"),
        LedgerTransaction.kind.in_(("stake", "back-bet")),
    )
    return {name: -amount for name, amount in staked.items()}


def corrected_for(session: Session, round_id: int) -> dict[str, int]:
    """What upheld disputes and confirmed payout corrections (``payout_corrections``) of the
    round have corrected so far, by participant."""
    corrected: dict[str, int] = defaultdict(int)
    for corrections in session.scalars(
        select(DisputeRecord.corrections).where(
            DisputeRecord.round_id == round_id, DisputeRecord.status == DisputeStatus.UPHELD
        )
    ):
        for item in corrections:
            corrected[str(item["username"])] += int(item["amount"])
    for name, amount in session.execute(
        select(User.username, PayoutCorrectionRecord.amount)
        .join(User, User.id == PayoutCorrectionRecord.user_id)
        .where(
            PayoutCorrectionRecord.round_id == round_id,
            PayoutCorrectionRecord.status == "confirmed",
        )
    ):
        corrected[str(name)] += int(amount)
    return dict(corrected)


def _without_opening_burns(events: Sequence[Event], game: str) -> list[Event]:
    """A first round of a shoe starts with the new-shoe burns (Spain V.3.c: five cards); a
    ``settle`` document describes a round dealt mid-shoe, so they are left out of it."""
    if not ROUND_CLASSES[game].takes_new_shoe:
        return list(events)
    kept: list[Event] = []
    opening = True
    for event in events:
        if opening and isinstance(event, CardDrawn):
            if event.purpose is Purpose.BURN:
                continue
            opening = False
        kept.append(event)
    return kept


def resettled_for(
    session: Session, record: RoundRecord, table: GameTable, profile: Profile
) -> dict[str, int]:
    """What the engine pays each participant for the round's recorded cards and decisions:
    the round ``croupier settle`` deals from the round's document (a voided round: the replay
    of its record, which returns every stake), read from its ``results()`` in exact
    fractions. Back bets share their box's fortune by the one rule the table settles them by
    (``RoundResult.back_bet_payout``)."""
    events = [Event.from_json(item) for item in record.events]
    owners = dict(
        session.execute(
            select(RoundPlayer.seat, User.username)
            .join(User, User.id == RoundPlayer.user_id)
            .where(RoundPlayer.round_id == record.id, RoundPlayer.role == "owner")
        ).all()
    )
    if record.status == RoundStatus.COMPLETE:
        document = document_of(_without_opening_burns(events, table.game), profile)
        results = settle(document, profile)[0].results()
    else:
        results = replay(events, profile).results()
    paid: dict[str, int] = defaultdict(int)
    for seat in results.seats():
        if seat in owners:
            paid[str(owners[seat])] += to_minor(results.returned(seat))
    for back, username in session.execute(
        select(BackBet, User.username)
        .join(User, User.id == BackBet.user_id)
        .where(
            BackBet.round_id == record.id,
            BackBet.status.in_((str(BackBetStatus.SETTLED), str(BackBetStatus.REFUNDED))),
        )
    ).all():
        if back.status == BackBetStatus.REFUNDED:
            paid[str(username)] += back.amount
        else:
            paid[str(username)] += results.back_bet_payout(back.seat, back.amount)
    return {name: amount for name, amount in paid.items() if amount}


def commitment_check(session: Session, record: RoundRecord) -> dict[str, Any]:
    """The shoe's commitment check (R18): its seed and order hash to the commitment, and the
    round's cards are the shoe's next cards from where the round started."""
    shoe = session.get(ShoeRecord, record.shoe_id)
    assert shoe is not None
    if shoe.procedures is not None:
        return _physical_check(session, shoe)
    document = revealed_document(
        bytes.fromhex(shoe.seed_hex), shoe.decks, shoe.cut_card_from_bottom, shoe.rules_version
    )
    cards = [str(item["card"]) for item in record.events if item.get("kind") == "CardDrawn"]
    order = document["order"]
    start = record.start_position
    return {
        "shoe": shoe.id,
        "commitment": shoe.commitment,
        "is_revealed": shoe.is_revealed,
        "commitment_holds": commitment(document) == shoe.commitment,
        "cards_follow_the_shoe": cards == order[start : start + len(cards)],
    }


def _physical_check(session: Session, shoe: ShoeRecord) -> dict[str, Any]:
    """A physical shoe commits to nothing (its order exists only as the dealer deals it):
    the check is that every card of its record, burns and rounds, is one its decks could
    hold (docs/rules.md §6); the R15 chain covers the cards as they were entered."""
    cards = physical.shoe_of(session, shoe).entered
    try:
        PhysicalShoe(cards, shoe.decks)
        possible = True
    except ShoeError:
        possible = False
    return {
        "shoe": shoe.id,
        "physical": True,
        "commitment": "",
        "is_revealed": shoe.is_revealed,
        "commitment_holds": None,
        "cards_follow_the_shoe": possible,
    }


def verification(session: Session, record: RoundRecord) -> dict[str, Any]:
    """``paid``, ``resettled``, ``corrected`` and the commitment check of one round."""
    table = session.get(GameTable, record.table_id)
    assert table is not None
    check: dict[str, Any] = {
        "round_status": STATUS[record.status],
        "paid": paid_for(session, record.id),
        "corrected": corrected_for(session, record.id),
        "resettled": None,
        "problem": None,
        "commitment": commitment_check(session, record),
    }
    if record.status in IN_PROGRESS:
        check["problem"] = f"round {record.id} is in progress: it is re-settled when it ends"
        return check
    try:
        profile = table_rules.rules_of(session, record.rules_version)
        check["resettled"] = resettled_for(session, record, table, profile)
    except (CroupierError, ValueError, KeyError) as error:
        check["problem"] = f"the record does not re-settle: {error}"
    check["agrees"] = check["resettled"] == check["paid"]
    return check


def owed_of(check: dict[str, Any]) -> dict[str, int] | None:
    """What the round still owes each player by its verification: re-settled minus paid,
    minus what corrections have given since (negative: paid over); ``None`` where the round
    does not re-settle (in progress, or a record the engine refuses)."""
    resettled = check["resettled"]
    if resettled is None:
        return None
    names = set(resettled) | set(check["paid"]) | set(check["corrected"])
    owed = {
        name: resettled.get(name, 0) - check["paid"].get(name, 0) - check["corrected"].get(name, 0)
        for name in names
    }
    return {name: amount for name, amount in sorted(owed.items()) if amount}


def verifications(session: Session, round_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Each round's ``verification``, once per round (a queue lists several of one round)."""
    return {
        round_id: verification(session, existing(session, RoundRecord, round_id, "round"))
        for round_id in dict.fromkeys(round_ids)
    }
