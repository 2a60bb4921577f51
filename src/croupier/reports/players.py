"""What each player did in a gaming day, for the operator's back office (issue 27, item 6):
rounds played, amount wagered, the net of play, the cashier's movements and the last
movement, each read from the player's wallet in the ledger (read-only).

The wagered amount is what the wallet put on the tables (stakes, doubles, splits and back
bets: the ``stake`` and ``back-bet`` movements, a void's return deducted), the net of play
every movement that names a round (settlements and corrections included).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.ledger.book import round_of_reference
from croupier.service.models import Account, LedgerEntry, LedgerTransaction, User

WAGERED_KINDS = frozenset({"stake", "back-bet", "void"})
"""Movements that put money on a table or took it back off unplayed (a void's return)."""

CASHIER_KINDS = frozenset({"credit", "debit"})


@dataclass
class PlayerDay:
    """One player's gaming day; money in minor units."""

    user: int
    username: str
    balance_minor: int
    rounds: int = 0
    wagered_minor: int = 0
    net_minor: int = 0
    cashier_minor: int = 0
    last_movement_at: float | None = None


def activity(session: Session, span: tuple[float, float]) -> list[PlayerDay]:
    """Every player (by name), with what their wallet did in ``span`` (``[from, to)``)."""
    wallets = {
        int(owner): (account_id, balance)
        for account_id, owner, balance in session.execute(
            select(Account.id, Account.owner, Account.balance).where(Account.kind == "wallet")
        ).all()
    }
    players = {
        user_id: PlayerDay(user_id, username, wallets.get(user_id, (None, 0))[1])
        for user_id, username in session.execute(
            select(User.id, User.username).where(User.role == "player").order_by(User.username)
        ).all()
    }
    owner_of = {account_id: user_id for user_id, (account_id, _) in wallets.items()}
    rounds: dict[int, set[int]] = defaultdict(set)
    for account_id, amount, kind, reference, at in session.execute(
        select(
            LedgerEntry.account_id,
            LedgerEntry.amount,
            LedgerTransaction.kind,
            LedgerTransaction.reference,
            LedgerTransaction.created_at,
        )
        .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
        .where(
            LedgerEntry.account_id.in_(list(owner_of)),
            LedgerTransaction.created_at >= span[0],
            LedgerTransaction.created_at < span[1],
        )
    ).all():
        player = players.get(owner_of[account_id])
        if player is None:
            continue  # a staff member's wallet: staff do not play (issue 25)
        round_id = round_of_reference(reference)
        if round_id is not None:
            rounds[player.user].add(round_id)
            player.net_minor += amount
        if kind in WAGERED_KINDS:
            player.wagered_minor -= amount
        elif kind in CASHIER_KINDS:
            player.cashier_minor += amount
        player.last_movement_at = max(player.last_movement_at or at, at)
    for user_id, played in rounds.items():
        players[user_id].rounds = len(played)
    return list(players.values())
