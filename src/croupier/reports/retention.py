"""How long the records are kept (issue 27, item 7).

croupier deletes no round, no ledger entry or transaction and no audit-chain entry: not
after any time, not on any command. The retention period is therefore what the operator
declares to the regulator and the earliest date the operator's own archiving may remove a
record (docs/reports.md#retention): ``croupier serve --retention-years`` (default 7, the
longest the shipped profiles' regulators ask of a casino's accounting records), printed in
every daily report. A record that a dispute, a payout correction or a report refers to is
kept beyond it as long as that reference stands: croupier has no code that deletes it.
``tests/reports/test_retention.py`` checks that no module of croupier deletes those rows.
"""

from __future__ import annotations

from datetime import date

DEFAULT_RETENTION_YEARS = 7
"""Years rounds, ledger and audit records are kept unless the operator sets another period."""

KEPT_TABLES = (
    "rounds",
    "round_players",
    "back_bets",
    "shoes",
    "rule_sets",
    "ledger_transactions",
    "ledger_entries",
    "accounts",
    "audit_chain",
    "staff_actions",
    "disputes",
    "payout_corrections",
)
"""The tables no croupier code deletes from (the records a regulator may ask for)."""


def kept_until(day: date, years: int) -> date:
    """The first day a record of gaming day ``day`` may leave the operator's archive
    (29 February falls on 28 February in a year without it).

    >>> kept_until(date(2026, 12, 5), 7), kept_until(date(2024, 2, 29), 7)
    (datetime.date(2033, 12, 5), datetime.date(2031, 2, 28))
    """
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def statement(day: date, years: int) -> dict[str, object]:
    """What a report says of its records' keeping."""
    return {
        "years": years,
        "kept_until": kept_until(day, years).isoformat(),
        "deleted_by_croupier": "nothing: croupier never deletes a round, ledger or audit record",
    }
