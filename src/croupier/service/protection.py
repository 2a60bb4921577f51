"""Who may play, and how much: the house's staff not at all, and a player's protection
(issue 27, items 1 to 3: limits, reality checks, breaks and self-exclusion), each checked in
the transaction of the command that would cross it.

**The staff do not play** (docs/rules.md#D-GEN-17): the operator, a dealer or an inspector
takes no seat, bet or back bet anywhere on the casino (``verify_not_staff``), read in one
statement with whether the player has any limit or pause in force. The roles themselves are
``staff``'s, which refuses the other half of the rule: a staff role to a player who plays.

**Limits.** Deposit (the cashier's credits to the wallet), loss (net: what the wallet lost at
the tables, wins deducted, a stake still in play counted as lost until its round pays) and
wager (the amounts staked, a bet withdrawn while bets are open deducted), each per gaming
day, week and month; and a session's time. A period follows the house's gaming day
(``croupier.gaming_day``): the day is the gaming day, the week runs from Monday's gaming day
to the next Monday's, the month from the first day's to the next month's first day's. The
player's decrease applies at once, a raise or a removal 24 hours on (``COOLING_SECONDS``),
by itself (nothing runs then: the row's ``effective_at`` passes). The operator's limits apply
at once; the lower of the two binds.

**What is checked where** (each where its amount is known, inside the command's
transaction; a refusal raises before any posting, so nothing moves): a stake the engine adds
(a bet, a double, a split, insurance, a call: ``Money.collect_stakes``), a back bet asked and
consented (``Money.back_bet``, ``Money.consent``), a credit (``wallets.move``), a seat
(``Casino._verify_caller``, after ``verify_not_staff``).

**Breaks and self-exclusion** start at once and end only at their end: no route lifts one.
Meanwhile no seat, stake or credit (``verify_not_paused``); a debit, the cashier paying the
balance out, stays allowed.

>>> day = GamingDay.parse("06:00", "UTC")
>>> starts = {p: datetime.fromtimestamp(w[0], UTC).isoformat() for p, w in windows(
...     day, datetime(2026, 7, 1, 5, 0, tzinfo=UTC).timestamp()).items()}
>>> starts[Period.DAY], starts[Period.WEEK], starts[Period.MONTH]
('2026-06-30T06:00:00+00:00', '2026-06-29T06:00:00+00:00', '2026-06-01T06:00:00+00:00')
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, cast

from sqlalchemy import Table, bindparam, case, exists, func, or_, select
from sqlalchemy.orm import Session

from croupier.gaming_day import GamingDay
from croupier.ledger import book
from croupier.service.accounts import IDLE_SECONDS, Principal
from croupier.service.errors import Conflict, Forbidden, RequestError
from croupier.service.models import LedgerEntry, LedgerTransaction
from croupier.service.models import Session as SessionRecord
from croupier.service.protection_models import PlayerLimitRecord, PlayerPauseRecord
from croupier.service.staff_models import StaffRoleRecord

COOLING_SECONDS = 24 * 60 * 60
"""A player's raise or removal of a limit waits this long (AGCO Standard 2.24, UKGC RTS 12)."""

DEFAULT_REALITY_CHECK_MINUTES = 60
REALITY_CHECK_MINUTES = (10, 60)
"""The interval a player may choose: at least hourly (58 Pa. Code 814a.1), at most every 10
minutes."""
SESSION_MINUTES = (1, 24 * 60)
BREAK_DAYS = (1, 92)
"""A break of a day to three months (AGCO Standard 2.13)."""
EXCLUSION_MONTHS = (6, 12, 60)
"""Self-exclusion of six months, a year or five years (AGCO Standard 2.14)."""


class LimitKind(StrEnum):
    DEPOSIT = "deposit"
    LOSS = "loss"
    WAGER = "wager"
    SESSION = "session"
    """A session's time, in minutes."""
    REALITY_CHECK = "reality_check"
    """Not a limit: how often the player's pages are told the session's figures (minutes)."""


class Period(StrEnum):
    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    SESSION = "session"


class Setter(StrEnum):
    PLAYER = "player"
    OPERATOR = "operator"


class PauseKind(StrEnum):
    BREAK = "break"
    SELF_EXCLUSION = "self_exclusion"


MONEY_KINDS = (LimitKind.DEPOSIT, LimitKind.LOSS, LimitKind.WAGER)
PERIODS = (Period.DAY, Period.WEEK, Period.MONTH)
PAUSED = {PauseKind.BREAK: "on_break", PauseKind.SELF_EXCLUSION: "self_excluded"}

CASHIER_KINDS = frozenset({"credit", "debit"})
"""Ledger transactions that are the cashier's, not play: outside a loss."""
STAKE_KINDS = frozenset({"stake", "back-bet"})
"""Ledger transactions that stake (or, positive, give a withdrawn bet back)."""


# --- periods -----------------------------------------------------------------------------------
def windows(day: GamingDay, now: float) -> dict[Period, tuple[float, float]]:
    """The gaming day, week (from Monday) and month that ``now`` falls in, ``[start, end)``."""
    today = day.day_of(now)
    monday = today - timedelta(days=today.weekday())
    first = today.replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    return {
        Period.DAY: day.window(today),
        Period.WEEK: (day.opening(monday), day.opening(monday + timedelta(days=7))),
        Period.MONTH: (day.opening(first), day.opening(following)),
    }


def months_on(day: GamingDay, now: float, months: int) -> float:
    """``now`` moved ``months`` calendar months on in the house's zone (the 31st of a month
    that has none is its last day)."""
    local = datetime.fromtimestamp(now, UTC).astimezone(day.tz())
    index = local.month - 1 + months
    year, month = local.year + index // 12, index % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return local.replace(year=year, month=month, day=min(local.day, last)).timestamp()


# --- what is set --------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerLimits:
    """Every limit row of one player, oldest first: what applies at any time is read from it."""

    rows: tuple[PlayerLimitRecord, ...]

    def _of(self, setter: Setter, kind: LimitKind, period: Period) -> list[PlayerLimitRecord]:
        return [
            row
            for row in self.rows
            if row.setter == setter and row.kind == kind and row.period == period
        ]

    def in_force(
        self, setter: Setter, kind: LimitKind, period: Period, now: float
    ) -> PlayerLimitRecord | None:
        """The latest setting that applies by ``now``: a later decrease replaces a raise
        still waiting; ``None`` when none was ever set."""
        applied = [row for row in self._of(setter, kind, period) if row.effective_at <= now]
        return applied[-1] if applied else None

    def amount(self, setter: Setter, kind: LimitKind, period: Period, now: float) -> int | None:
        row = self.in_force(setter, kind, period, now)
        return None if row is None else row.amount

    def waiting(self, kind: LimitKind, period: Period, now: float) -> list[PlayerLimitRecord]:
        """The player's raises and removals not yet in force (and not replaced)."""
        current = self.in_force(Setter.PLAYER, kind, period, now)
        after = -1 if current is None else current.id
        return [
            row
            for row in self._of(Setter.PLAYER, kind, period)
            if row.id > after and row.effective_at > now
        ]

    def applying(self, kind: LimitKind, period: Period, now: float) -> int | None:
        """The lower of the player's and the operator's limit; ``None``: no limit."""
        amounts = [self.amount(setter, kind, period, now) for setter in Setter]
        present = [amount for amount in amounts if amount is not None]
        return min(present) if present else None


def settings_of(session: Session, user_id: int) -> PlayerLimits:
    rows = session.scalars(
        select(PlayerLimitRecord)
        .where(PlayerLimitRecord.user_id == user_id)
        .order_by(PlayerLimitRecord.id)
    )
    return PlayerLimits(tuple(rows))


def reality_check_minutes(settings: PlayerLimits, now: float) -> int:
    chosen = settings.amount(Setter.PLAYER, LimitKind.REALITY_CHECK, Period.SESSION, now)
    return DEFAULT_REALITY_CHECK_MINUTES if chosen is None else chosen


def set_limit(  # noqa: PLR0917 - one setting's every part
    session: Session,
    user_id: int,
    by: int,
    setter: Setter,
    kind: LimitKind,
    period: Period,
    amount: int | None,
    now: float,
) -> dict[str, Any]:
    """Record a limit; answer ``{"kind", "period", "amount", "effective_at"}``. The player's
    decrease (or a first limit) applies ``now``; a raise or a removal 24 hours on. The
    operator's applies ``now``."""
    _verify_shape(kind, period, amount)
    effective_at = now
    if setter is Setter.PLAYER:
        current = settings_of(session, user_id).amount(setter, kind, period, now)
        loosens = current is not None and (amount is None or amount > current)
        if loosens and kind is not LimitKind.REALITY_CHECK:
            effective_at = now + COOLING_SECONDS
    session.add(
        PlayerLimitRecord(
            user_id=user_id,
            setter=str(setter),
            kind=str(kind),
            period=str(period),
            amount=amount,
            set_by=by,
            created_at=now,
            effective_at=effective_at,
        )
    )
    session.flush()
    return {
        "kind": str(kind),
        "period": str(period),
        "amount": amount,
        "effective_at": effective_at,
    }


def _verify_shape(kind: LimitKind, period: Period, amount: int | None) -> None:
    per_session = kind in {LimitKind.SESSION, LimitKind.REALITY_CHECK}
    if per_session != (period is Period.SESSION):
        raise RequestError(
            f"a {kind} limit is per {'session' if per_session else 'day, week or month'}, "
            f"not per {period}",
            code="limit_period",
            kind=str(kind),
            period=str(period),
        )
    bounds = {LimitKind.SESSION: SESSION_MINUTES, LimitKind.REALITY_CHECK: REALITY_CHECK_MINUTES}
    if kind in bounds and amount is not None:
        low, high = bounds[kind]
        if not low <= amount <= high:
            raise RequestError(
                f"{kind}: {amount} minutes; from {low} to {high}",
                code="limit_minutes",
                kind=str(kind),
                minimum=low,
                maximum=high,
            )
    if kind is LimitKind.REALITY_CHECK and amount is None:
        low, high = REALITY_CHECK_MINUTES
        raise RequestError(
            "a reality check cannot be turned off",
            code="limit_minutes",
            kind=str(kind),
            minimum=low,
            maximum=high,
        )


# --- breaks and self-exclusion -----------------------------------------------------------------
def pause_of(session: Session, user_id: int, now: float) -> PlayerPauseRecord | None:
    """The break or self-exclusion in force, if any (a self-exclusion first, then the one
    that ends last)."""
    rows = list(
        session.scalars(
            select(PlayerPauseRecord).where(
                PlayerPauseRecord.user_id == user_id,
                PlayerPauseRecord.starts_at <= now,
                PlayerPauseRecord.ends_at > now,
            )
        )
    )
    if not rows:
        return None
    return max(rows, key=lambda row: (row.kind == PauseKind.SELF_EXCLUSION, row.ends_at))


def take_pause(
    session: Session, user_id: int, kind: PauseKind, ends_at: float, now: float
) -> dict[str, Any]:
    """A break or a self-exclusion from ``now`` to ``ends_at``: nothing lifts it before."""
    row = PlayerPauseRecord(
        user_id=user_id,
        kind=str(kind),
        starts_at=now,
        ends_at=ends_at,
        set_by=user_id,
        created_at=now,
    )
    session.add(row)
    session.flush()
    return pause_json(row)


def take_break(session: Session, user_id: int, days: int, now: float) -> dict[str, Any]:
    low, high = BREAK_DAYS
    if not low <= days <= high:
        raise RequestError(
            f"a break of {days} days: from {low} to {high}",
            code="break_days",
            minimum=low,
            maximum=high,
        )
    return take_pause(session, user_id, PauseKind.BREAK, now + days * 86_400, now)


def self_exclude(
    session: Session, user_id: int, months: int, now: float, day: GamingDay
) -> dict[str, Any]:
    if months not in EXCLUSION_MONTHS:
        raise RequestError(
            f"self-exclusion of {months} months: 6, 12 or 60", code="exclusion_months"
        )
    ends_at = months_on(day, now, months)
    return take_pause(session, user_id, PauseKind.SELF_EXCLUSION, ends_at, now)


def pause_json(row: PlayerPauseRecord) -> dict[str, Any]:
    return {"kind": row.kind, "starts_at": row.starts_at, "ends_at": row.ends_at}


def verify_not_paused(
    session: Session, user_id: int, now: float, refused: str = "no seat, bet or back bet"
) -> None:
    """``on_break`` or ``self_excluded`` (409) while one is in force; ``refused`` says what."""
    if user_id in unprotected_in(session):
        return  # read in this transaction: no pause in force
    pause = pause_of(session, user_id, now)
    if pause is None:
        return
    if pause.kind == PauseKind.BREAK:
        raise Conflict(
            f"the player is on a break until {pause.ends_at:.0f}: {refused}",
            code="on_break",
            until=int(pause.ends_at),
        )
    raise Conflict(
        f"the player is self-excluded until {pause.ends_at:.0f}: {refused}",
        code="self_excluded",
        until=int(pause.ends_at),
    )


# --- what is used ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Used:
    """What a period's ledger says, in minor units: credited, lost (net), staked."""

    deposit: int = 0
    loss: int = 0
    wager: int = 0

    def of(self, kind: LimitKind) -> int:
        return int(getattr(self, str(kind)))


def used_since(session: Session, user_id: int, starts: Iterable[float]) -> dict[float, Used]:
    """What the wallet's movements since each of ``starts`` add up to (one statement)."""
    starts = sorted(set(starts))
    wallet = book.find_account(session, *book.wallet(user_id))
    if wallet is None or not starts:
        return dict.fromkeys(starts, Used())
    entry, transaction = LedgerEntry, LedgerTransaction
    sums = [
        func.coalesce(func.sum(case((transaction.created_at >= start, entry.amount), else_=0)), 0)
        for start in starts
    ]
    rows = session.execute(
        select(transaction.kind, *sums)
        .join(transaction, transaction.id == entry.transaction_id)
        .where(entry.account_id == wallet, transaction.created_at >= starts[0])
        .group_by(transaction.kind)
    ).all()
    found = {}
    for index, start in enumerate(starts):
        by_kind = {str(row[0]): int(row[index + 1]) for row in rows}
        found[start] = Used(
            deposit=by_kind.get("credit", 0),
            loss=-sum(v for k, v in by_kind.items() if k not in CASHIER_KINDS),
            wager=-sum(v for k, v in by_kind.items() if k in STAKE_KINDS),
        )
    return found


def session_started(session: Session, user_id: int, now: float) -> float:
    """When the player's session began: the earliest of their sign-ins still live (not ended,
    not idle); ``now`` when none is."""
    started = session.scalar(
        select(func.min(SessionRecord.created_at)).where(
            SessionRecord.user_id == user_id,
            SessionRecord.ended.is_(False),
            SessionRecord.last_seen_at >= now - IDLE_SECONDS,
        )
    )
    return now if started is None else min(float(started), now)


# --- the checks --------------------------------------------------------------------------------
def _refuse(kind: LimitKind, period: Period, limit: int, left: int, asked: int) -> Conflict:
    """The refusal of a stake or credit of ``asked`` minor units past ``limit`` (``left``)."""
    text = f"{kind} limit per {period} of {limit} minor units reached: {left} left, {asked} asked"
    match kind:
        case LimitKind.DEPOSIT:
            code = "deposit_limit_reached"
        case LimitKind.LOSS:
            code = "loss_limit_reached"
        case _:
            code = "wager_limit_reached"
    return Conflict(
        text,
        code=code,
        period=str(period),
        limit_minor=limit,
        left_minor=left,
        amount_minor=asked,
    )


LIMITS = cast(Table, PlayerLimitRecord.__table__)
PAUSES = cast(Table, PlayerPauseRecord.__table__)
HAS_PROTECTION = or_(
    exists().where(LIMITS.c.user_id == bindparam("user_id")),
    exists().where(
        PAUSES.c.user_id == bindparam("user_id"),
        PAUSES.c.starts_at <= bindparam("now"),
        PAUSES.c.ends_at > bindparam("now"),
    ),
)
"""Whether a player (bound as ``user_id``) has any limit, or a pause in force at ``now``."""
PROTECTED = select(HAS_PROTECTION)
"""``HAS_PROTECTION`` as one read, built once, for the many stakes of the many players who
have neither (issue 28, item 8). The database answers, not a cache: a limit set through
another server process binds at once."""

_UNPROTECTED = "croupier.unprotected"


def unprotected_in(session: Session) -> set[int]:
    """The players this transaction has read to have no limit and no pause in force: a seat's,
    a bet's or a back bet's check of the staff reads it beside their roles
    (``verify_not_staff``), so that the stakes the command then adds ask no more.

    Kept on the session, which the unit of work makes for one transaction (a retry gets a
    fresh one): the answer is the database's, read in the command's own transaction, as
    ``PROTECTED`` would give it there (issue 27: a limit set through another process is
    seen by the next command that stakes)."""
    found: set[int] = session.info.setdefault(_UNPROTECTED, set())
    return found


STAFF_AND_PROTECTED = select(
    exists().where(StaffRoleRecord.user_id == bindparam("user_id")), HAS_PROTECTION
)
"""Whether a player holds a staff role, and whether they have a limit or a pause in force:
the two things a seat, a bet and a back bet ask of their player, in one read built once
(issue 28, item 8)."""


def verify_not_staff(session: Session, who: Principal, now: float) -> None:
    """Raise ``Forbidden`` if ``who`` is one of the house's people: the operator, a dealer or
    an inspector holds no seat, bet or back bet anywhere on the casino they work for
    (docs/rules.md#D-GEN-17), so neither at a table they deal.

    Read in the command's transaction, with whether the player has any limit or pause in
    force at ``now``: when not, the command's own checks of them need not read again
    (``unprotected_in``)."""
    is_staff = True
    if not who.is_operator:
        found = session.execute(STAFF_AND_PROTECTED, {"user_id": who.user_id, "now": now}).first()
        is_staff, is_protected = found or (False, False)
        if not is_protected:
            unprotected_in(session).add(who.user_id)
    if is_staff:
        raise Forbidden(
            f"{who.username!r} works for this casino: its staff do not play here",
            code="staff_may_not_play",
        )


def verify_stake(session: Session, user_id: int, minor: int, now: float, day: GamingDay) -> None:
    """A stake of ``minor`` more: refused while on a break or self-excluded, past the
    session's time, or where it would take a loss or wager limit past its amount."""
    if user_id in unprotected_in(session):
        return
    if not session.scalar(PROTECTED, {"user_id": user_id, "now": now}):
        return
    verify_not_paused(session, user_id, now)
    settings = settings_of(session, user_id)
    if not settings.rows:
        return
    minutes = settings.applying(LimitKind.SESSION, Period.SESSION, now)
    if minutes is not None and now - session_started(session, user_id, now) >= minutes * 60:
        raise Conflict(
            f"session limit of {minutes} minutes reached: no stake until the next session",
            code="session_limit_reached",
            limit_minutes=minutes,
            left_minutes=0,
        )
    _verify_money(session, user_id, settings, (LimitKind.LOSS, LimitKind.WAGER), minor, now, day)


def verify_deposit(session: Session, user_id: int, minor: int, now: float, day: GamingDay) -> None:
    """A credit of ``minor``: refused while on a break or self-excluded (as a stake is), or
    where it would take a deposit limit past its amount. A debit is never refused: the
    cashier may always pay a paused player's balance out."""
    verify_not_paused(session, user_id, now, "no deposit")
    settings = settings_of(session, user_id)
    if settings.rows:
        _verify_money(session, user_id, settings, (LimitKind.DEPOSIT,), minor, now, day)


def _verify_money(  # noqa: PLR0917 - the check's whole context
    session: Session,
    user_id: int,
    settings: PlayerLimits,
    kinds: tuple[LimitKind, ...],
    minor: int,
    now: float,
    day: GamingDay,
) -> None:
    limits = {
        (kind, period): amount
        for kind in kinds
        for period in PERIODS
        if (amount := settings.applying(kind, period, now)) is not None
    }
    if not limits:
        return
    spans = windows(day, now)
    used = used_since(session, user_id, (spans[period][0] for _k, period in limits))
    for (kind, period), limit in limits.items():
        spent = used[spans[period][0]].of(kind)
        if spent + minor > limit:
            raise _refuse(kind, period, limit, max(0, limit - spent), minor)


# --- what the player reads --------------------------------------------------------------------
def state(session: Session, user_id: int, now: float, day: GamingDay) -> dict[str, Any]:
    """``GET /me/protection``: every limit with what applies (the lower of the player's and
    the operator's), what is used and left in the period and when it ends; the raises
    waiting; the session's time; the reality check's interval; a break or exclusion."""
    settings = settings_of(session, user_id)
    spans = windows(day, now)
    used = used_since(session, user_id, (start for start, _end in spans.values()))
    started = session_started(session, user_id, now)
    played_minutes = int((now - started) // 60)
    limits = []
    waiting = []
    for kind in (*MONEY_KINDS, LimitKind.SESSION):
        for period in PERIODS if kind in MONEY_KINDS else (Period.SESSION,):
            amount = settings.applying(kind, period, now)
            if kind is LimitKind.SESSION:
                spent, resets_at = played_minutes, None
            else:
                spent, resets_at = used[spans[period][0]].of(kind), spans[period][1]
            limits.append(
                {
                    "kind": str(kind),
                    "period": str(period),
                    "amount": amount,
                    "player_amount": settings.amount(Setter.PLAYER, kind, period, now),
                    "operator_amount": settings.amount(Setter.OPERATOR, kind, period, now),
                    "used": spent,
                    "left": None if amount is None else max(0, amount - spent),
                    "resets_at": resets_at,
                }
            )
            waiting += [
                {
                    "kind": row.kind,
                    "period": row.period,
                    "amount": row.amount,
                    "effective_at": row.effective_at,
                }
                for row in settings.waiting(kind, period, now)
            ]
    pause = pause_of(session, user_id, now)
    return {
        "limits": limits,
        "pending": waiting,
        "session": {"started_at": started, "played_minutes": played_minutes},
        "reality_check_minutes": reality_check_minutes(settings, now),
        "pause": None if pause is None else pause_json(pause),
    }


def reality(session: Session, user_id: int, now: float) -> dict[str, Any]:
    """A reality check's figures: the session's time played, and the net and the amount
    wagered since it began (minor units), with the interval the next one comes after."""
    started = session_started(session, user_id, now)
    used = used_since(session, user_id, [started])[started]
    return {
        "type": "reality_check",
        "started_at": started,
        "played_seconds": int(now - started),
        "net_minor": -used.loss,
        "wagered_minor": used.wager,
        "interval_minutes": reality_check_minutes(settings_of(session, user_id), now),
    }
