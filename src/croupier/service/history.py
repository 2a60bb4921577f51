"""Recall (R14) and the shoes' commitments and reveals (R18).

A round is shown whole (every event) only once it has ended; while it is under way the
table's snapshot is what a seat may see. Burnt cards stay hidden until their shoe is
revealed, and a live shoe shows only its commitment (R6).

The recall is served as the engine's own views, step by step (``games.replay.steps``): the
opening, each bet, the deal and each decision, each with the events it recorded and the
round as the viewer saw it then, masked exactly as at the live table (a hole card hidden
until the engine turns it; another zone's private cards never). The page only draws them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, true
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.fairness import revealed_document
from croupier.games.base import GameRound, round_class_of
from croupier.games.events import Event
from croupier.games.replay import steps
from croupier.ledger import book
from croupier.ledger.book import find_account, round_of_reference, round_reference
from croupier.service import physical, staff
from croupier.service.accounts import Principal
from croupier.service.errors import Conflict, Forbidden, NotFound, existing
from croupier.service.models import (
    IN_PROGRESS,
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

STATUS: dict[str, str] = {
    RoundStatus.BETTING: "in progress",
    RoundStatus.PLAYING: "in progress",
    RoundStatus.COMPLETE: "complete",
    RoundStatus.INTERRUPTED: "interrupted",
    RoundStatus.CANCELLED: "cancelled",
}
"""What a round's record says to its reader (the two steps under way read as one)."""


def recall_steps(
    game: type[GameRound],
    record: list[Event],
    *,
    viewer: int | None,
    seats: set[int] | None,
    shoe_revealed: bool,
) -> list[dict[str, Any]] | None:
    """The recorded round of ``game`` step by step as ``viewer`` saw it (``None``: a
    spectator): each step's command in notation (``None`` for the opening), its events as the
    holder of ``seats`` may read them (``None``: the inspector, every card) and the engine's view
    after it, both masked by the engine (``RoundViews.record_seen_by``, ``view``). ``None``
    when the record does not replay (the events alone are then all there is)."""
    everything = seats is None
    try:
        recalled = list(steps(record, viewer, everything=everything))
    except CroupierError:
        return None
    return [
        {
            "command": None if step.command is None else str(step.command),
            "events": game.record_seen_by(
                step.events, seats, shoe_revealed=shoe_revealed, record=record
            ),
            "view": step.view,
        }
        for step in recalled
    ]


def table_of_round(session: Session, round_id: int) -> int:
    """The table ``round_id`` was dealt at (``NotFound``: no such round)."""
    table_id = session.scalar(select(RoundRecord.table_id).where(RoundRecord.id == round_id))
    if table_id is None:
        raise NotFound(f"no round {round_id}")
    return table_id


def round_document(
    session: Session, round_id: int, who: Principal | None, *, with_steps: bool = True
) -> dict[str, Any]:
    """A finished round's record as ``who`` may read it and, with ``with_steps``, its recall
    step by step (``recall_steps``): a player sees it from their own seat, the operator sees
    every card, anyone else what a spectator saw."""
    record = existing(session, RoundRecord, round_id, "round")
    players = session.execute(
        select(RoundPlayer.seat, RoundPlayer.user_id, RoundPlayer.role).where(
            RoundPlayer.round_id == round_id
        )
    ).all()
    names: dict[int, str] = {
        user: name
        for user, name in session.execute(
            select(User.id, User.username).where(User.id.in_({user for _s, user, _r in players}))
        )
    }
    # The table's dealer reads its rounds too, as a spectator saw them (a correction is
    # proposed from the recall: issue 14, item 3). The inspector, who decides disputes and
    # confirms payout corrections, recalls any round whole, as the operator does (R14).
    is_dealer = who is not None and staff.can_deal_at(session, who, record.table_id)
    is_inspector = who is not None and (
        who.is_operator or staff.has_role(session, who, staff.StaffRole.INSPECTOR)
    )
    if (
        who is not None
        and not is_inspector
        and who.user_id not in {user for _s, user, _r in players}
        and not is_dealer
    ):
        raise Forbidden(f"round {round_id} is not one of yours")
    if record.status in IN_PROGRESS:
        raise Conflict(f"round {round_id} is in progress: its record opens when it ends")
    table = session.get(GameTable, record.table_id)
    shoe = session.get(ShoeRecord, record.shoe_id)
    assert table is not None and shoe is not None
    own_seats = sorted(
        seat for seat, user, _r in players if who is not None and user == who.user_id
    )
    # The inspector (operator) sees every card; a player sees burns once the shoe is
    # revealed, and never another zone's private cards (R6): the engine masks the record.
    game = round_class_of(table.game)
    events = [Event.from_json(item) for item in record.events]
    seats = None if is_inspector else set(own_seats)
    document = {
        "round": record.id,
        "status": STATUS[record.status],
        "table": table.name,
        "table_id": table.id,
        "game": table.game,
        "rules_version": record.rules_version,
        "shoe": record.shoe_id,
        "start_position": record.start_position,
        # Each seat's player by name too: the recall names them as the table did.
        "seats": [
            {"seat": s, "user": u, "username": names[u], "role": r} for s, u, r in sorted(players)
        ],
        "events": game.record_seen_by(events, seats, shoe_revealed=shoe.is_revealed),
        "inputs": record.inputs,
        "back_bets": back_bets_of(session, round_id),
        "started_at": record.created_at,
        "ended_at": record.ended_at,
    }
    # Corrections of what the round paid, found later (issue 14, item 3): the reader's own
    # confirmed ones, with their reason; the operator every one. Imported here: the
    # corrections read the disputes, which read this module.
    from croupier.service.payout_corrections import of_round

    document["corrections"] = of_round(session, record.id, who)
    if is_inspector and shoe.procedures is not None:
        # A physical shoe's round: each card with the dealer who entered it (issue 14).
        document["cards_entered"] = physical.cards_entered(session, round_reference(record.id))
    document["may_propose_correction"] = who is not None and (who.is_operator or is_dealer)
    if document["may_propose_correction"]:
        # Whom a correction may go to: the round's players, by name (staff only).
        document["players"] = sorted(
            set(
                session.scalars(
                    select(User.username)
                    .join(RoundPlayer, RoundPlayer.user_id == User.id)
                    .where(RoundPlayer.round_id == record.id)
                )
            )
        )
    if with_steps:
        # A player with several boxes sees the round from the first: no game keeps a card
        # private to one box of a player who holds more than one.
        document["steps"] = recall_steps(
            game,
            events,
            viewer=own_seats[0] if own_seats and not is_inspector else None,
            seats=seats,
            shoe_revealed=shoe.is_revealed,
        )
    return document


def back_bets_of(session: Session, round_id: int) -> list[dict[str, Any]]:
    """The round's back bets that counted (spain-1979, docs/rules.md#D-BJ-28): accepted, then
    settled by their box's return or refunded by a void, each with its backer and, once
    settled, what it paid back (minor units). Those asked and refused moved no money."""
    rows = session.execute(
        select(BackBet, User.username)
        .join(User, User.id == BackBet.user_id)
        .where(
            BackBet.round_id == round_id,
            BackBet.status.in_(
                (
                    str(BackBetStatus.ACCEPTED),
                    str(BackBetStatus.SETTLED),
                    str(BackBetStatus.REFUNDED),
                )
            ),
        )
        .order_by(BackBet.id)
    ).all()
    return [
        {
            "id": back.id,
            "seat": back.seat,
            "user": back.user_id,
            "backer": username,
            "wager": back.wager,
            "amount_minor": back.amount,
            "payout_minor": back.amount if back.status == BackBetStatus.REFUNDED else back.payout,
            "status": back.status,
        }
        for back, username in rows
    ]


def nets_of(session: Session, user_id: int, round_ids: list[int]) -> dict[int, int]:
    """What each round moved in the player's wallet, in minor units: stakes, winnings, back
    bets and refunds alike, read from the ledger itself (0 for a push or a void)."""
    wallet = find_account(session, *book.wallet(user_id))
    if wallet is None or not round_ids:
        return {}
    wanted = set(round_ids)
    nets: dict[int, int] = dict.fromkeys(round_ids, 0)
    rows = session.execute(
        select(LedgerTransaction.reference, LedgerEntry.amount)
        .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
        .where(LedgerEntry.account_id == wallet, LedgerTransaction.reference.like("round:%"))
    ).all()
    for reference, amount in rows:
        round_id = round_of_reference(reference)
        if round_id in wanted:
            nets[round_id] += amount
    return nets


def rounds_of(
    session: Session, user_id: int, limit: int, offset: int = 0, table_id: int | None = None
) -> list[dict[str, Any]]:
    """The player's rounds, newest first by the time they were played: those under way,
    then the others by when they ended (a round waits open for bets as long as a table is
    quiet, so when it opened is not when it was played; issue 26) (``offset`` pages back),
    each with ``net_minor`` (what it moved in the wallet) and, once it has ended, its whole
    record; with ``table_id``, only those played at that table (a table page recalls its
    own last round, not one the player has played since at another table)."""
    mine = RoundRecord.id.in_(select(RoundPlayer.round_id).where(RoundPlayer.user_id == user_id))
    at_table = RoundRecord.table_id == table_id if table_id is not None else true()
    round_ids = list(
        session.scalars(
            select(RoundRecord.id)
            .where(mine, at_table)
            .order_by(
                RoundRecord.ended_at.is_(None).desc(),
                func.coalesce(RoundRecord.ended_at, RoundRecord.created_at).desc(),
                RoundRecord.id.desc(),
            )
            .limit(limit)
            .offset(offset)
        ).all()
    )
    nets = nets_of(session, user_id, round_ids)
    documents = []
    for round_id in round_ids:
        record = session.get(RoundRecord, round_id)
        assert record is not None
        if record.status in IN_PROGRESS:
            document = {"round": round_id, "status": "in progress", "started_at": record.created_at}
        else:
            player = Principal(user_id, "", "player")
            document = round_document(session, round_id, player, with_steps=False)
        documents.append({**document, "net_minor": nets.get(round_id, 0)})
    return documents


def may_read_reveal(session: Session, who: Principal, game: str) -> bool:
    """Whether ``who`` may read a revealed shoe's seed, order and rounds (R18). Anyone, unless
    the game keeps its seats' cards private after the game (Casino Hold'em Art. 9 d): a deck
    that dealt one game gives every zone's hole cards, so its reveal is the inspector's and
    the operator's only (docs/rules.md#D-CH-12)."""
    if not round_class_of(game).private_card_purposes:
        return True
    return who.is_operator or staff.has_role(session, who, staff.StaffRole.INSPECTOR)


def shoe_document(
    session: Session, shoe_id: int, who: Principal, *, with_rounds: bool
) -> dict[str, Any]:
    """A shoe's commitment; once it ended, its reveal and (for export) its rounds, to whoever
    ``may_read_reveal``: anyone else keeps the commitment, and the export is refused."""
    shoe = existing(session, ShoeRecord, shoe_id, "shoe")
    table = session.get(GameTable, shoe.table_id)
    assert table is not None
    document: dict[str, Any] = {
        "shoe": shoe.id,
        "table": table.name,
        "commitment": shoe.commitment,
        "rules_version": shoe.rules_version,
        "is_revealed": shoe.is_revealed,
    }
    if not shoe.is_revealed:
        if with_rounds:
            raise Conflict(f"shoe {shoe_id} is still being dealt: it is revealed when it ends")
        return document
    if not may_read_reveal(session, who, table.game):
        if with_rounds:
            raise Forbidden(
                f"shoe {shoe_id} dealt Casino Hold'em: its seed, order and rounds give every "
                "player's hole cards, which are shown to nobody else, during or after the game "
                "(Art. 9 d, docs/rules.md#D-CH-12); its reveal is the inspector's and the "
                "operator's, who verify it",
                code="shoe_reveal_staff_only",
                shoe=shoe_id,
            )
        return document
    if shoe.procedures is not None:
        # A physical shoe has no seed to reveal: its making as the dealer confirmed it.
        document["physical"] = {"procedures": shoe.procedures, "opening": shoe.opening}
    else:
        document["revealed"] = revealed_document(
            bytes.fromhex(shoe.seed_hex), shoe.decks, shoe.cut_card_from_bottom, shoe.rules_version
        )
    if with_rounds:
        document["opening"] = shoe.opening
        document["rounds"] = [
            {
                "round": r.id,
                "start_position": r.start_position,
                "status": STATUS[r.status],
                "events": r.events,
            }
            for r in session.scalars(
                select(RoundRecord).where(RoundRecord.shoe_id == shoe.id).order_by(RoundRecord.id)
            )
        ]
    return document
