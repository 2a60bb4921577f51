"""The regulator's daily report: per table and gaming day, what was played, what the house
won, and whether that is where the exact math says it must be (issue 27, item 4;
docs/reports.md has every field and formula).

Read from the records alone, in one read-only transaction, writing nothing:

- a table's **rounds** are those that ended (settled) in the window; their ``Settled``
  events give the **handle** per wager (all money wagered, doubles, splits, the Casino
  Hold'em Bet and accepted back bets included); a voided wager (``result == "void"``) is
  no handle;
- the **win** is the house account's movement in the window in the ledger transactions of
  the table's rounds (settlements, and the corrections of disputes and payouts, which name
  their round: ``ledger.book.round_reference``), so the day's total is the house
  account's movement for the day, to the minor unit;
- the **drop** is what the players' wallets put on the table (the net of the ``stake`` and
  ``back-bet`` postings into the table's escrow, a void's return deducted): a remote table
  has no drop box;
- the **theoretical win** is, over every wager initially placed, its stake times the house
  edge of the round's own rules (``reports.returns``), and its variance the stake squared
  times the wager's variance per unit: the initial-bet model the analysis gives, where a
  blackjack double or split and the Casino Hold'em call are inside the initial wager's
  figures, and insurance (taken apart from the chart) is its own wager;
- the **hold** is what the players lost over the handle, and
  ``z = (players' loss - theoretical win) / sqrt(variance)``: the players' loss is the win
  plus the movement of the table's progressive meter (Casino Hold'em), which the house seeds
  from its own account (a first day's seed is no loss at play) and which is the house's until
  a player wins it; at every other table it is the win. A table outside its 99% band
  (``|z| > Z_99``) is **flagged**.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.gaming_day import GamingDay
from croupier.ledger import book
from croupier.ledger.book import MINOR_PER_UNIT, round_of_reference
from croupier.reports import retention
from croupier.reports.retention import DEFAULT_RETENTION_YEARS
from croupier.reports.returns import TableReturns
from croupier.rules import Profile
from croupier.service import table_rules
from croupier.service.models import (
    Account,
    BackBet,
    GameTable,
    LedgerEntry,
    LedgerTransaction,
    RoundRecord,
)
from croupier.service.staff_models import DisputeRecord, PayoutCorrectionRecord

Z_99 = 2.576
"""The two-sided 99% point of the normal distribution: a hold this many standard deviations
from its theoretical value or more happens by chance about once in a hundred table-days."""

ENDED = ("complete", "interrupted")
"""Round statuses whose stakes were settled: complete, or voided after some wagers were."""

ReturnsOf = Callable[[Profile], TableReturns | None]
"""Each profile's figures (``reports.returns.Returns.of`` or ``.compute``)."""


@dataclass
class Tally:
    """A table's (or every table's) figures over a span of gaming days."""

    rounds: int = 0
    handle_minor: int = 0
    drop_minor: int = 0
    win_minor: int = 0
    jackpot_minor: int = 0
    theoretical: float = 0.0
    variance: float = 0.0
    is_theoretical_known: bool = True
    """False when a round's rules have no analysis yet (the figures then read ``null``)."""
    handle_by_wager: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    theoretical_by_wager: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def add(self, other: Tally) -> None:
        self.rounds += other.rounds
        self.handle_minor += other.handle_minor
        self.drop_minor += other.drop_minor
        self.win_minor += other.win_minor
        self.jackpot_minor += other.jackpot_minor
        self.theoretical += other.theoretical
        self.variance += other.variance
        self.is_theoretical_known &= other.is_theoretical_known
        for wager, minor in other.handle_by_wager.items():
            self.handle_by_wager[wager] += minor
        for wager, value in other.theoretical_by_wager.items():
            self.theoretical_by_wager[wager] += value

    @property
    def theoretical_win_minor(self) -> int | None:
        return round(self.theoretical) if self.is_theoretical_known else None

    @property
    def played_win_minor(self) -> int:
        """What the players lost: the house's win and what went into the table's progressive
        meter (the house's money until a player wins it: its seeding is no loss at play)."""
        return self.win_minor + self.jackpot_minor

    @property
    def hold(self) -> float | None:
        """What the players lost over the handle, a fraction of one (never percent): the
        win over the handle at every table without a progressive meter; ``None`` without
        handle."""
        return self.played_win_minor / self.handle_minor if self.handle_minor else None

    @property
    def theoretical_hold(self) -> float | None:
        if not self.handle_minor or not self.is_theoretical_known:
            return None
        return self.theoretical / self.handle_minor

    @property
    def z(self) -> float | None:
        """Standard deviations of the win from the theoretical win; ``None`` without play
        or without the analysis."""
        if not self.is_theoretical_known or self.variance <= 0:
            return None
        return (self.played_win_minor - self.theoretical) / math.sqrt(self.variance)

    @property
    def is_flagged(self) -> bool:
        z = self.z
        return z is not None and abs(z) > Z_99

    def as_json(self) -> dict[str, Any]:
        z = self.z
        known = self.is_theoretical_known and self.variance > 0
        return {
            "rounds": self.rounds,
            "handle_minor": self.handle_minor,
            "drop_minor": self.drop_minor,
            "win_minor": self.win_minor,
            "jackpot_minor": self.jackpot_minor,
            "hold": self.hold,
            "theoretical_win_minor": self.theoretical_win_minor,
            "theoretical_hold": self.theoretical_hold,
            "standard_deviation_minor": round(math.sqrt(self.variance), 2) if known else None,
            "z": None if z is None else round(z, 4),
            "flagged": self.is_flagged,
        }

    def wagers_json(self) -> list[dict[str, Any]]:
        return [
            {
                "wager": wager,
                "handle_minor": minor,
                "theoretical_win_minor": (
                    round(self.theoretical_by_wager[wager]) if self.is_theoretical_known else None
                ),
            }
            for wager, minor in sorted(self.handle_by_wager.items())
        ]


@dataclass(frozen=True)
class TableReport:
    table: int
    name: str
    profile: str
    game: str
    day: Tally
    month: Tally
    year: Tally

    def as_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "name": self.name,
            "profile": self.profile,
            "game": self.game,
            **self.day.as_json(),
            "wagers": self.day.wagers_json(),
            "month_to_date": self.month.as_json(),
            "year_to_date": self.year.as_json(),
        }


@dataclass(frozen=True)
class DailyReport:
    date: date
    gaming_day: GamingDay
    window: tuple[float, float]
    tables: tuple[TableReport, ...]
    disputes: tuple[dict[str, Any], ...]
    corrections: tuple[dict[str, Any], ...]
    voids: tuple[dict[str, Any], ...]
    pending_analysis: tuple[str, ...]
    """Profiles whose analysis was not ready: their tables' theoretical figures read null."""
    retention_years: int = DEFAULT_RETENTION_YEARS

    def totals(self) -> tuple[Tally, Tally, Tally]:
        day, month, year = Tally(), Tally(), Tally()
        for table in self.tables:
            day.add(table.day)
            month.add(table.month)
            year.add(table.year)
        return day, month, year

    def as_json(self) -> dict[str, Any]:
        day, month, year = self.totals()
        return {
            "date": self.date.isoformat(),
            "gaming_day": {
                "starts": self.gaming_day.start.strftime("%H:%M"),
                "time_zone": self.gaming_day.zone_name,
                "from": self.window[0],
                "to": self.window[1],
            },
            "tables": [table.as_json() for table in self.tables],
            "totals": {
                **day.as_json(),
                "month_to_date": month.as_json(),
                "year_to_date": year.as_json(),
            },
            "disputes": list(self.disputes),
            "corrections": list(self.corrections),
            "voids": list(self.voids),
            "pending_analysis": list(self.pending_analysis),
            "retention": retention.statement(self.date, self.retention_years),
            "model": {
                "hold": "(win + jackpot) / handle",
                "z": "(win + jackpot - theoretical win) / sqrt(sum over initial wagers of "
                "stake^2 x the wager's variance per unit)",
                "band": Z_99,
                "play": "blackjack: the basic strategy of croupier analyze, per initial bet",
            },
        }


# --- reading the records ------------------------------------------------------------------
@dataclass
class _Windows:
    day: tuple[float, float]
    month_from: float
    year_from: float

    def spans(self, at: float) -> tuple[bool, bool, bool]:
        """Whether ``at`` falls in the day, the month to date, the year to date."""
        end = self.day[1]
        return (
            self.day[0] <= at < end,
            self.month_from <= at < end,
            self.year_from <= at < end,
        )


def _minor(units: Fraction) -> int:
    minor = units * MINOR_PER_UNIT
    return minor.numerator // minor.denominator


def _round_tally(
    record: RoundRecord, back_bets: Iterable[BackBet], returns: TableReturns | None
) -> Tally:
    """One round's handle and theoretical win (the initial-bet model, module docstring)."""
    tally = Tally(rounds=1 if record.status == "complete" else 0)
    placed: dict[tuple[int, str], Fraction] = defaultdict(Fraction)
    settled: dict[tuple[int, str], Fraction] = defaultdict(Fraction)
    for event in record.events:
        kind = event.get("kind")
        if kind == "BetPlaced":
            placed[int(event["seat"]), str(event["wager"])] += Fraction(str(event["amount"]))
        elif kind == "Settled" and event.get("result") != "void":
            key = int(event["seat"]), str(event["wager"])
            settled[key] += Fraction(str(event["stake"]))
    backed: dict[tuple[int, str], int] = defaultdict(int)
    for back in back_bets:
        backed[back.seat, back.wager] += back.amount
    for (seat, wager), stake in settled.items():
        handle = _minor(stake) + backed[seat, wager]
        tally.handle_minor += handle
        tally.handle_by_wager[wager] += handle
        if returns is None:
            tally.is_theoretical_known = False
            continue
        figures = returns.wagers.get(wager)
        if figures is None:
            continue  # a wager a decision adds (the call): inside its initial wager's figures
        # What was staked at the start (insurance: its own stake), with the back bets that
        # share the box's fortune: one stake, so its variance is that of their sum.
        initial = _minor(placed[seat, wager]) if (seat, wager) in placed else _minor(stake)
        initial += backed[seat, wager]
        tally.theoretical += initial * figures.house_edge
        tally.theoretical_by_wager[wager] += initial * figures.house_edge
        tally.variance += initial * initial * figures.variance
    return tally


def _account_ids(session: Session, kind: str) -> dict[int, int]:
    """Table id -> its account of ``kind`` (escrow, jackpot)."""
    found: dict[int, int] = {}
    for account in session.scalars(select(Account).where(Account.kind == kind)):
        if account.owner.startswith("table:"):
            found[int(account.owner.removeprefix("table:"))] = account.id
    return found


def build(
    session: Session,
    day: date,
    gaming_day: GamingDay,
    returns_of: ReturnsOf,
    retention_years: int = DEFAULT_RETENTION_YEARS,
) -> DailyReport:
    """The report of gaming day ``day`` from the database ``session`` reads (nothing written)."""
    window = gaming_day.window(day)
    windows = _Windows(
        window,
        gaming_day.opening(day.replace(day=1)),
        gaming_day.opening(day.replace(month=1, day=1)),
    )
    tallies: dict[int, tuple[Tally, Tally, Tally]] = defaultdict(
        lambda: (Tally(), Tally(), Tally())
    )

    def add(table: int, at: float, tally: Tally) -> None:
        for inside, span in zip(windows.spans(at), tallies[table], strict=True):
            if inside:
                span.add(tally)

    pending = _collect(session, (windows.year_from, window[1]), returns_of, add)

    tables = []
    for table in session.scalars(select(GameTable).order_by(GameTable.id)):
        if table.id not in tallies and not table.is_open:
            continue  # a closed table with nothing in the year: not on the report
        day_tally, month_tally, year_tally = tallies[table.id]
        tables.append(
            TableReport(
                table.id,
                table.name,
                _table_profile(table),
                table.game,
                day_tally,
                month_tally,
                year_tally,
            )
        )
    return DailyReport(
        day,
        gaming_day,
        window,
        tuple(tables),
        tuple(_disputes(session, window)),
        tuple(_corrections(session, window)),
        tuple(_voids(session, window)),
        tuple(sorted(pending)),
        retention_years,
    )


MAX_RANGE_DAYS = 92
"""The longest span the range report reads at once (a quarter): it reads every record of the
span in one request, and a chart of more days than this is no longer read by eye."""


@dataclass(frozen=True)
class DailyRange:
    """Each table's figures day by day over ``first`` to ``last`` (both included): what the
    daily report says of each of those days, without the month and year to date (the
    operator's chart of win against theoretical, ``GET /operator/reports/daily-range``)."""

    first: date
    last: date
    gaming_day: GamingDay
    tables: tuple[tuple[GameTable, tuple[Tally, ...]], ...]
    pending_analysis: tuple[str, ...]

    @property
    def days(self) -> tuple[date, ...]:
        count = (self.last - self.first).days + 1
        return tuple(self.first + timedelta(days=offset) for offset in range(count))

    def as_json(self) -> dict[str, Any]:
        days = self.days
        totals = [Tally() for _ in days]
        for _, tallies in self.tables:
            for total, tally in zip(totals, tallies, strict=True):
                total.add(tally)

        def dated(tallies: Iterable[Tally]) -> list[dict[str, Any]]:
            return [
                {"date": day.isoformat(), **tally.as_json()}
                for day, tally in zip(days, tallies, strict=True)
            ]

        return {
            "from": self.first.isoformat(),
            "to": self.last.isoformat(),
            "gaming_day": {
                "starts": self.gaming_day.start.strftime("%H:%M"),
                "time_zone": self.gaming_day.zone_name,
            },
            "tables": [
                {
                    "table": table.id,
                    "name": table.name,
                    "profile": _table_profile(table),
                    "game": table.game,
                    "days": dated(tallies),
                }
                for table, tallies in self.tables
            ],
            "totals": dated(totals),
            "pending_analysis": list(self.pending_analysis),
        }


def build_range(
    session: Session, first: date, last: date, gaming_day: GamingDay, returns_of: ReturnsOf
) -> DailyRange:
    """Gaming days ``first`` to ``last`` (both included, at most ``MAX_RANGE_DAYS``), each
    day's figures per table as ``build`` gives them, from one read of the records."""
    if last < first:
        raise ValueError(f"the range ends ({last}) before it begins ({first})")
    if (last - first).days + 1 > MAX_RANGE_DAYS:
        raise ValueError(f"{first} to {last} is more than {MAX_RANGE_DAYS} days")
    count = (last - first).days + 1
    tallies: dict[int, list[Tally]] = defaultdict(lambda: [Tally() for _ in range(count)])

    def add(table: int, at: float, tally: Tally) -> None:
        tallies[table][(gaming_day.day_of(at) - first).days].add(tally)

    span = gaming_day.opening(first), gaming_day.window(last)[1]
    pending = _collect(session, span, returns_of, add)
    tables = tuple(
        (table, tuple(tallies[table.id]))
        for table in session.scalars(select(GameTable).order_by(GameTable.id))
        if table.id in tallies or table.is_open
    )
    return DailyRange(first, last, gaming_day, tables, tuple(sorted(pending)))


AddTally = Callable[[int, float, "Tally"], None]
"""Where a reading goes: (table id, when it happened in epoch seconds, its figures)."""


def _collect(
    session: Session, span: tuple[float, float], returns_of: ReturnsOf, add: AddTally
) -> set[str]:
    """Every figure of the records in ``span`` (``[from, to)``, epoch seconds), handed to
    ``add`` with its table and moment (the caller bins them by day, month, year); answers the
    profiles whose analysis was not ready."""
    # Rounds, handle, theoretical win: the rounds that ended in the span.
    rounds = list(
        session.scalars(
            select(RoundRecord).where(
                RoundRecord.status.in_(ENDED),
                RoundRecord.ended_at >= span[0],
                RoundRecord.ended_at < span[1],
            )
        )
    )
    back_bets: dict[int, list[BackBet]] = defaultdict(list)
    for back in session.scalars(
        select(BackBet)
        .join(RoundRecord, RoundRecord.id == BackBet.round_id)
        .where(
            BackBet.status == "settled",
            RoundRecord.ended_at >= span[0],
            RoundRecord.ended_at < span[1],
        )
    ):
        back_bets[back.round_id].append(back)
    profiles: dict[str, Profile] = {}
    pending: set[str] = set()
    for record in rounds:
        if record.rules_version not in profiles:
            profiles[record.rules_version] = table_rules.rules_of(session, record.rules_version)
        profile = profiles[record.rules_version]
        figures = returns_of(profile)
        if figures is None:
            pending.add(profile.name)
        assert record.ended_at is not None
        add(record.table_id, record.ended_at, _round_tally(record, back_bets[record.id], figures))

    # Win: the house account's movement, by the round each transaction names.
    table_of_round = {record.id: record.table_id for record in rounds}
    house = book.find_account(session, *book.HOUSE)
    postings = (
        session.execute(
            select(LedgerEntry.amount, LedgerTransaction.reference, LedgerTransaction.created_at)
            .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
            .where(
                LedgerEntry.account_id == house,
                LedgerTransaction.created_at >= span[0],
                LedgerTransaction.created_at < span[1],
            )
        ).all()
        if house is not None
        else []
    )
    named = {round_of_reference(reference) for _, reference, _ in postings} - {None}
    unknown = [round_id for round_id in named if round_id not in table_of_round]
    if unknown:  # a correction of a round that ended before the year began
        table_of_round |= {
            round_id: table_id
            for round_id, table_id in session.execute(
                select(RoundRecord.id, RoundRecord.table_id).where(RoundRecord.id.in_(unknown))
            ).all()
        }
    for amount, reference, at in postings:
        round_id = round_of_reference(reference)
        if round_id is None:
            # Every house posting names its round today (settlements, corrections); one that
            # does not would be missed by the tables and break the reconciliation test.
            raise LookupError(f"a house posting names no round: {reference!r}")
        add(table_of_round[round_id], at, Tally(win_minor=amount))

    # Drop and the progressive meter: the tables' escrow and jackpot accounts.
    for kind, kinds in (("escrow", ("stake", "back-bet")), ("jackpot", None)):
        accounts = _account_ids(session, kind)
        if not accounts:
            continue
        table_of_account = {account: table for table, account in accounts.items()}
        query = (
            select(LedgerEntry.account_id, LedgerEntry.amount, LedgerTransaction.created_at)
            .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
            .where(
                LedgerEntry.account_id.in_(list(table_of_account)),
                LedgerTransaction.created_at >= span[0],
                LedgerTransaction.created_at < span[1],
            )
        )
        if kinds is not None:
            query = query.where(LedgerTransaction.kind.in_(kinds))
        for account, amount, at in session.execute(query).all():
            moved = Tally(drop_minor=amount) if kind == "escrow" else Tally(jackpot_minor=amount)
            add(table_of_account[account], at, moved)
    return pending


def _table_profile(table: GameTable) -> str:
    if table.profile_document is not None and table.rules_version is not None:
        return table_rules.from_document(
            table.game, table.profile_document, table.rules_version
        ).name
    return table.profile


def _inside(at: float | None, window: tuple[float, float]) -> bool:
    return at is not None and window[0] <= at < window[1]


def _table_of(session: Session, round_id: int) -> int | None:
    record = session.get(RoundRecord, round_id)
    return None if record is None else record.table_id


def _disputes(session: Session, window: tuple[float, float]) -> Iterable[dict[str, Any]]:
    """Disputes opened or decided in the day, with what each decision paid (minor units)."""
    for dispute in session.scalars(select(DisputeRecord).order_by(DisputeRecord.id)):
        if not (_inside(dispute.created_at, window) or _inside(dispute.decided_at, window)):
            continue
        yield {
            "dispute": dispute.id,
            "round": dispute.round_id,
            "table": _table_of(session, dispute.round_id),
            "status": dispute.status,
            "opened_at": dispute.created_at,
            "decided_at": dispute.decided_at,
            "corrected_minor": sum(int(item["amount"]) for item in dispute.corrections or []),
        }


def _corrections(session: Session, window: tuple[float, float]) -> Iterable[dict[str, Any]]:
    """Payout corrections proposed or decided in the day."""
    rows = session.scalars(select(PayoutCorrectionRecord).order_by(PayoutCorrectionRecord.id))
    for row in rows:
        if not (_inside(row.proposed_at, window) or _inside(row.decided_at, window)):
            continue
        yield {
            "correction": row.id,
            "round": row.round_id,
            "table": _table_of(session, row.round_id),
            "status": row.status,
            "amount_minor": row.amount,
            "proposed_at": row.proposed_at,
            "decided_at": row.decided_at,
        }


def _voids(session: Session, window: tuple[float, float]) -> Iterable[dict[str, Any]]:
    """Rounds voided in the day (every stake still in play returned, R11), with the reason."""
    for record in session.scalars(
        select(RoundRecord)
        .where(
            RoundRecord.status == "interrupted",
            RoundRecord.ended_at >= window[0],
            RoundRecord.ended_at < window[1],
        )
        .order_by(RoundRecord.id)
    ):
        reasons = [e.get("reason") for e in record.events if e.get("kind") == "RoundVoided"]
        yield {
            "round": record.id,
            "table": record.table_id,
            "ended_at": record.ended_at,
            "reason": reasons[-1] if reasons else None,
        }
