"""The theoretical win and the z of the daily report come from the exact analysis of the
table's own rules (``croupier analyze``'s figures), by the initial-bet model; a table whose
win leaves its 99% band is flagged (issue 27, item 4)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from report_support import DAY_START, play, report, row
from server_support import Api, Table
from sqlalchemy import create_engine, text

from croupier.analysis.profile_analysis import analyse_profile
from croupier.reports.daily import Z_99, _round_tally
from croupier.reports.returns import Returns, TableReturns, WagerReturn
from croupier.rules import load_profile
from croupier.service.models import BackBet, RoundRecord

DRAGON_SIX = "dragon-six-peru-2016"


def _doctor_hold(database_url: str, round_id: int, minor: int, at: float) -> None:
    """A balanced posting that moves ``minor`` from the cashier to the house in the name of
    ``round_id``: what a skimmed or mis-set table's ledger would show."""
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            house, cashier = (
                connection.execute(
                    text("SELECT id, balance FROM accounts WHERE kind = :kind"), {"kind": kind}
                ).one()
                for kind in ("house", "cashier")
            )
            transaction = connection.execute(
                text(
                    "INSERT INTO ledger_transactions (kind, reference, created_at) "
                    "VALUES ('settlement', :reference, :at) RETURNING id"
                ),
                {"reference": f"round:{round_id}:doctored", "at": at},
            ).scalar_one()
            for account, balance, amount in (
                (house[0], house[1], minor),
                (cashier[0], cashier[1], -minor),
            ):
                connection.execute(
                    text(
                        "INSERT INTO ledger_entries (transaction_id, account_id, amount, "
                        "balance_before, balance_after) VALUES (:t, :a, :m, :b, :b + :m)"
                    ),
                    {"t": transaction, "a": account, "m": amount, "b": balance},
                )
                connection.execute(
                    text("UPDATE accounts SET balance = balance + :m WHERE id = :a"),
                    {"m": amount, "a": account},
                )
    finally:
        engine.dispose()


def test_an_honest_hold_lies_in_its_band_and_a_doctored_one_is_flagged(
    api: Api, database_url: str, cache: Path
) -> None:
    """Banker bets at Dragon Six: the theoretical win is the handle times Banker's exact
    house edge, the variance the stakes squared times Banker's variance per unit; the seeded
    day's win is within 2.576 standard deviations. Then the same day with a posting added to
    the house in a round's name: the table is flagged, and so are the totals."""
    profile = load_profile(DRAGON_SIX)
    banker = Returns().compute(profile).wagers["banker"]  # into this test's cache
    expected = analyse_profile(profile).bets["banker"]
    assert banker.house_edge == expected.house_edge
    assert banker.variance == expected.std_dev**2
    table = Table(api, DRAGON_SIX, ["banker-a", "banker-b"])
    rounds = play(table, 6)
    stake_minor = table.stake * 100

    line = row(report(api), table)
    handle = 12 * stake_minor
    assert line["handle_minor"] == handle
    assert line["wagers"] == [
        {
            "wager": "banker",
            "handle_minor": handle,
            "theoretical_win_minor": round(handle * banker.house_edge),
        }
    ]
    assert line["theoretical_win_minor"] == round(handle * banker.house_edge)
    standard_deviation = math.sqrt(12 * stake_minor**2 * banker.variance)
    z = (line["win_minor"] - handle * banker.house_edge) / standard_deviation
    assert line["z"] == round(z, 4)
    assert abs(z) <= Z_99 and line["flagged"] is False
    assert line["theoretical_hold"] == banker.house_edge

    _doctor_hold(database_url, rounds[-1], 4 * handle, DAY_START + 5 * 3600)
    doctored = report(api)
    line = row(doctored, table)
    assert line["z"] > Z_99 and line["flagged"] is True
    assert doctored["totals"]["flagged"] is True
    assert line["month_to_date"]["flagged"] is True


def _record(events: list[dict[str, Any]], status: str = "complete") -> RoundRecord:
    return RoundRecord(id=1, table_id=1, status=status, events=events)


def _bet(seat: int, wager: str, amount: int) -> dict[str, Any]:
    return {"kind": "BetPlaced", "seat": seat, "wager": wager, "amount": str(amount)}


def _settled(seat: int, wager: str, stake: int, payout: int, result: str) -> dict[str, Any]:
    return {
        "kind": "Settled",
        "seat": seat,
        "wager": wager,
        "stake": str(stake),
        "payout": str(payout),
        "result": result,
    }


BLACKJACK = TableReturns(
    "test",
    "blackjack",
    {
        "main": WagerReturn("main", 0.005, 1.3, exact=True),
        "insurance": WagerReturn("insurance", 0.074, 1.92, exact=True),
    },
)


def test_a_blackjack_round_is_theorised_by_its_initial_bets() -> None:
    """A 10 unit bet split, one hand doubled (30 units wagered on the box), insured for 5,
    with a 5 unit back bet on the box: the handle is all of it; the theoretical win is the
    initial bet and the back bet (one stake sharing one fortune) at the main edge, plus the
    insurance at its own edge; the variance is (10 + 5)^2 units^2 x main's, plus 5^2 x
    insurance's."""
    record = _record(
        [
            _bet(1, "main", 10),
            _settled(1, "insurance", 5, 0, "lose"),
            {**_settled(1, "main", 20, 40, "win"), "hand": 0},
            {**_settled(1, "main", 10, 0, "lose"), "hand": 1},
        ]
    )
    back = BackBet(round_id=1, seat=1, user_id=2, wager="main", amount=500, status="settled")
    tally = _round_tally(record, [back], BLACKJACK)
    assert tally.rounds == 1
    assert dict(tally.handle_by_wager) == {"main": 3000 + 500, "insurance": 500}
    assert math.isclose(tally.theoretical, 1500 * 0.005 + 500 * 0.074)
    assert math.isclose(tally.variance, 1500**2 * 1.3 + 500**2 * 1.92)


def test_a_voided_wager_is_no_handle_and_a_round_without_analysis_has_no_theory() -> None:
    """A round voided after its 21+3 settled: the side bet stands (handle), the main bet came
    back (none); the round is a void, not a round played. Without the analysis the round
    still counts its handle and says its theory is unknown."""
    record = _record(
        [
            _bet(1, "main", 10),
            _bet(1, "21+3", 1),
            _settled(1, "21+3", 1, 0, "lose"),
            {"kind": "RoundVoided", "reason": "deal confused"},
            _settled(1, "main", 10, 10, "void"),
        ],
        status="interrupted",
    )
    tally = _round_tally(record, [], None)
    assert tally.rounds == 0
    assert dict(tally.handle_by_wager) == {"21+3": 100}
    assert tally.is_theoretical_known is False and tally.theoretical_win_minor is None
    assert Fraction(tally.handle_minor) == 100
