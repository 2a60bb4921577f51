"""The table's people: the roles of the house and what each may do (issue 14, item 1).

Four roles with separated duties. A *player* plays; the *operator* runs the casino (tables,
wallets) and grants or removes the two staff roles; a *dealer* acts only at the tables the
operator assigned them to (Spain 1979, III: the croupier mixes, deals, pays and collects at
a table); an *inspector* resolves the problems that arise (Spain 1979, III: "el inspector o
jefe de mesa ... controlar el juego y resolver los problemas"; Dragon Six, Peru 2016, Art. 12)
and moves money only through a dispute decision: the wallet routes are the operator's alone.

A staff role is granted to an existing account (a person signs up, the operator grants the
role): the account signs in as any player does. Every staff action is recorded with who did
it and when (``staff_actions``), in the transaction of the action itself.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from sqlalchemy import bindparam, delete, select
from sqlalchemy.orm import Session

from croupier.service.accounts import USERNAME, Principal
from croupier.service.errors import Conflict, Forbidden, NotFound, RequestError, existing
from croupier.service.models import (
    IN_PROGRESS,
    BackBet,
    GameTable,
    RoundPlayer,
    RoundRecord,
    User,
)
from croupier.service.staff_models import DealerAssignment, StaffActionRecord, StaffRoleRecord


class StaffRole(StrEnum):
    """The roles the operator grants (``POST /operator/staff``)."""

    DEALER = "dealer"
    INSPECTOR = "inspector"


class StaffAction(StrEnum):
    """What the staff's record holds, one kind per action."""

    GRANTED = "role-granted"
    REMOVED = "role-removed"
    ASSIGNED = "dealer-assigned"
    UNASSIGNED = "dealer-unassigned"
    DISPUTE_DECIDED = "dispute-decided"
    CORRECTION_PROPOSED = "correction-proposed"
    CORRECTION_DECIDED = "correction-decided"
    ROUND_VOIDED = "round-voided"
    ROUND_CORRECTED = "round-corrected"
    """A dealer's correction of a round's cards, or its void (docs/rules.md#D-GEN-14)."""
    CARD_ENTERED = "card-entered"
    """A card a dealer entered at a physical-shoe table, and where it went (issue 14)."""
    APPROVAL_ASKED = "approval-asked"
    """A request that waits for a second member of staff (issue 25: four eyes)."""
    APPROVAL_DECIDED = "approval-decided"


class DisputeStatus(StrEnum):
    """Where a dispute stands (``service.disputes``)."""

    OPEN = "open"
    AWAITING_APPROVAL = "awaiting_approval"
    """Upheld with corrections beyond what the round owes: a second inspector answers
    (``service.approvals``); nothing has moved."""
    UPHELD = "upheld"
    REJECTED = "rejected"


class ApprovalKind(StrEnum):
    """What waits for a second member of staff (``service.approvals``)."""

    DISPUTE = "dispute"
    """A dispute decision whose corrections pay beyond what the round still owes."""
    VOID = "void"
    """A void of a round after a card of it was dealt."""


class ApprovalStatus(StrEnum):
    AWAITING = "awaiting"
    APPROVED = "approved"
    REFUSED = "refused"


class ApprovalDecision(StrEnum):
    APPROVED = "approved"
    REFUSED = "refused"


class CorrectionDecision(StrEnum):
    """An inspector's decision of a proposed payout correction (``payout_corrections``)."""

    CONFIRMED = "confirmed"
    REFUSED = "refused"


def record_action(
    session: Session,
    actor: Principal,
    action: StaffAction,
    subject: str,
    detail: dict[str, Any],
    *,
    now: float,
) -> int:
    """Note a staff action with who and when, in the caller's transaction; the R15 chain
    covers the row as it is written (revision 0006's audit triggers)."""
    row = StaffActionRecord(
        actor_id=actor.user_id,
        action=str(action),
        subject=subject,
        detail={"actor": actor.username, **detail},
        created_at=now,
    )
    session.add(row)
    session.flush()
    return row.id


def _account(session: Session, username: str) -> User:
    if not USERNAME.fullmatch(username):  # no such account; and a NUL byte is PostgreSQL's 500
        raise NotFound(f"no account {username!r}")
    user = session.scalar(select(User).where(User.username == username))
    if user is None:
        raise NotFound(f"no account {username!r}")
    if user.role != "player":
        raise RequestError(f"{username!r} is the operator: staff roles go to a person's account")
    return user


ROLES_OF = select(StaffRoleRecord.role).where(StaffRoleRecord.user_id == bindparam("user_id"))
"""Built once: a dealer's and an inspector's every command asks it."""


def roles_of(session: Session, user_id: int) -> set[StaffRole]:
    return {StaffRole(role) for role in session.scalars(ROLES_OF, {"user_id": user_id})}


def has_role(session: Session, who: Principal, role: StaffRole) -> bool:
    return not who.is_operator and role in roles_of(session, who.user_id)


def verify_role(session: Session, who: Principal, role: StaffRole) -> None:
    """Raise ``Forbidden`` unless ``who`` holds ``role`` (the operator holds no staff role:
    the duties are separated)."""
    if not has_role(session, who, role):
        raise Forbidden(f"only an account with the {role} role may do this")


def grant(
    session: Session, operator: Principal, username: str, role: StaffRole, now: float
) -> dict[str, Any]:
    user = _account(session, username)
    if role in roles_of(session, user.id):
        raise Conflict(f"{username!r} is already a {role}")
    seated = playing_at(session, user.id)
    if seated:
        # Staff play nowhere on this casino (docs/rules.md#D-GEN-17): the role waits until
        # the player has left their seats and their rounds have ended.
        raise Conflict(
            f"{username!r} plays at table {seated[0]}: a player takes a staff role once they "
            "have left the tables",
            code="staff_role_while_playing",
            username=username,
            table=seated[0],
        )
    session.add(
        StaffRoleRecord(
            user_id=user.id, role=str(role), granted_by=operator.user_id, granted_at=now
        )
    )
    record_action(
        session, operator, StaffAction.GRANTED, f"user:{user.id}", _who(user, role), now=now
    )
    return {"username": username, "role": str(role), "granted": True}


def remove(
    session: Session, operator: Principal, username: str, role: StaffRole, now: float
) -> dict[str, Any]:
    """Remove a staff role; a dealer's table assignments go with it (each recorded)."""
    user = _account(session, username)
    if role not in roles_of(session, user.id):
        raise Conflict(f"{username!r} is not a {role}")
    if role is StaffRole.DEALER:
        for table_id in dealer_tables(session, user.id):
            unassign_dealer(session, operator, table_id, username, now)
    removed = session.execute(
        delete(StaffRoleRecord).where(
            StaffRoleRecord.user_id == user.id, StaffRoleRecord.role == str(role)
        )
    )
    if removed.rowcount != 1:  # type: ignore[attr-defined]
        # Another removal deleted it since the read above (PostgreSQL): one is recorded.
        raise Conflict(f"{username!r} is not a {role}")
    record_action(
        session, operator, StaffAction.REMOVED, f"user:{user.id}", _who(user, role), now=now
    )
    return {"username": username, "role": str(role), "granted": False}


def _who(user: User, role: StaffRole) -> dict[str, Any]:
    return {"username": user.username, "role": str(role)}


def assign_dealer(
    session: Session, operator: Principal, table_id: int, username: str, now: float
) -> dict[str, Any]:
    table = existing(session, GameTable, table_id, "table")
    user = _account(session, username)
    if StaffRole.DEALER not in roles_of(session, user.id):
        raise RequestError(f"{username!r} is not a dealer: grant the role first")
    if session.get(DealerAssignment, (user.id, table_id)) is not None:
        raise Conflict(f"{username!r} already deals at table {table_id}")
    if table_id in playing_at(session, user.id):
        # Never the dealer of a table where one plays (docs/rules.md#D-GEN-17); the route runs
        # under the table's lock, so a seat taken at the same moment is seen here.
        raise Conflict(
            f"{username!r} plays at table {table_id}: the dealer of a table holds no seat, "
            "bet or back bet there",
            code="dealer_plays_at_table",
            username=username,
            table=table_id,
        )
    session.add(
        DealerAssignment(
            user_id=user.id, table_id=table_id, assigned_by=operator.user_id, assigned_at=now
        )
    )
    detail = {"username": username, "table": table_id, "table_name": table.name}
    record_action(session, operator, StaffAction.ASSIGNED, f"table:{table_id}", detail, now=now)
    return {"table": table_id, "dealers": table_dealers(session, table_id)}


def unassign_dealer(
    session: Session, operator: Principal, table_id: int, username: str, now: float
) -> dict[str, Any]:
    table = existing(session, GameTable, table_id, "table")
    user = _account(session, username)
    # The delete says whether it deleted: of removals at once, the one that did is recorded.
    removed = session.execute(
        delete(DealerAssignment).where(
            DealerAssignment.user_id == user.id, DealerAssignment.table_id == table_id
        )
    )
    if removed.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict(f"{username!r} does not deal at table {table_id}")
    detail = {"username": username, "table": table_id, "table_name": table.name}
    record_action(session, operator, StaffAction.UNASSIGNED, f"table:{table_id}", detail, now=now)
    return {"table": table_id, "dealers": table_dealers(session, table_id)}


def dealer_tables(session: Session, user_id: int) -> list[int]:
    return list(
        session.scalars(
            select(DealerAssignment.table_id)
            .where(DealerAssignment.user_id == user_id)
            .order_by(DealerAssignment.table_id)
        )
    )


def table_dealers(session: Session, table_id: int) -> list[str]:
    return list(
        session.scalars(
            select(User.username)
            .join(DealerAssignment, DealerAssignment.user_id == User.id)
            .where(DealerAssignment.table_id == table_id)
            .order_by(User.username)
        )
    )


def can_deal_at(session: Session, who: Principal, table_id: int) -> bool:
    """Whether ``who`` is a dealer assigned to ``table_id`` (the dealer's console asks)."""
    return (
        has_role(session, who, StaffRole.DEALER)
        and session.get(DealerAssignment, (who.user_id, table_id)) is not None
    )


def verify_runs_table(
    session: Session, who: Principal, table_id: int, doing: str, *, code: str
) -> None:
    """The operator, or a dealer assigned to ``table_id`` (Spain 1979, III: the croupier runs
    the game at their table), may propose a payout correction or void a round; anyone else,
    an inspector too, is refused with ``code`` (``doing`` says what only they do)."""
    if who.is_operator or can_deal_at(session, who, table_id):
        return
    raise Forbidden(
        f"{who.username!r} is not a dealer of table {table_id}: its dealer or the operator {doing}",
        code=code,
    )


def verify_dealer_at(session: Session, who: Principal, table_id: int) -> None:
    """Raise ``Forbidden`` unless ``who`` deals at ``table_id``: every dealer's command goes
    through this before it reaches the table."""
    existing(session, GameTable, table_id, "table")
    if not can_deal_at(session, who, table_id):
        raise Forbidden(f"{who.username!r} is not a dealer assigned to table {table_id}")


# --- a player takes no staff role (docs/rules.md#D-GEN-17) ----------------------------------
# The rule's other half, that the staff take no seat, bet or back bet, is asked with the
# player's own standing, where a seat and a stake are checked: ``protection.verify_not_staff``.


def playing_at(session: Session, user_id: int) -> list[int]:
    """The tables where ``user_id`` holds a seat, or a stake or a back bet in the round under
    way, in order."""
    tables = {
        table.id
        for table in session.scalars(select(GameTable))
        if user_id in {int(owner) for owner in (table.seats or {}).values()}
    }
    tables.update(
        session.scalars(
            select(RoundRecord.table_id)
            .join(RoundPlayer, RoundPlayer.round_id == RoundRecord.id)
            .where(RoundPlayer.user_id == user_id, RoundRecord.status.in_(IN_PROGRESS))
        )
    )
    tables.update(
        session.scalars(
            select(RoundRecord.table_id)
            .join(BackBet, BackBet.round_id == RoundRecord.id)
            .where(BackBet.user_id == user_id, RoundRecord.status.in_(IN_PROGRESS))
        )
    )
    return sorted(tables)


def staff_document(session: Session) -> dict[str, Any]:
    """Every staff account, its roles and (for a dealer) its tables."""
    rows = session.execute(
        select(User.id, User.username, StaffRoleRecord.role)
        .join(StaffRoleRecord, StaffRoleRecord.user_id == User.id)
        .order_by(User.username, StaffRoleRecord.role)
    ).all()
    staff: dict[str, dict[str, Any]] = {}
    for user_id, username, role in rows:
        entry = staff.setdefault(username, {"username": username, "roles": [], "tables": []})
        entry["roles"].append(role)
        if role == StaffRole.DEALER:
            entry["tables"] = dealer_tables(session, user_id)
    return {"staff": list(staff.values())}


def actions_document(session: Session, limit: int) -> dict[str, Any]:
    """The staff's record, newest first."""
    rows = session.execute(
        select(StaffActionRecord, User.username)
        .join(User, User.id == StaffActionRecord.actor_id)
        .order_by(StaffActionRecord.id.desc())
        .limit(limit)
    ).all()
    return {
        "actions": [
            {
                "action": row.id,
                "kind": row.action,
                "by": username,
                "at": row.created_at,
                "subject": row.subject,
                "detail": row.detail,
            }
            for row, username in rows
        ]
    }
