"""The cashier's commands through ``Casino.handle``, on fakes: no database (issue 28, item 3).

``Credit`` and ``Debit`` move whole minor units between the player's wallet and the cashier
(R13) through the ledger the handler is given (``book.Ledger``: here ``FakeLedger``), in
one transaction with the answer stored (R8). A player's protection (issue 27) is read from
the fake session's rows: a deposit limit (``docs/player-protection.md``, "Limits") and a
break or self-exclusion ("Breaks and self-exclusion": no credit, a debit always). What a
period has used is summed from the database's ledger and is the real database's test
(``tests/server/test_player_protection.py``); here nothing was credited before.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from tests.service.fakes import FakeAnswers, FakeLedger, FakeRoundRows, FakeUnitOfWork

from croupier.errors import InsufficientFunds
from croupier.ledger import book
from croupier.service.accounts import Principal
from croupier.service.commands import Credit, Debit, Once
from croupier.service.errors import Conflict, NotFound
from croupier.service.models import User
from croupier.service.protection_models import PlayerLimitRecord, PlayerPauseRecord
from croupier.service.publishing import InProcessBroadcaster
from croupier.service.tables import Casino

OPERATOR = Principal(1, "operator", "operator")
ANA = 7


@dataclass
class Cashier:
    casino: Casino
    uow: FakeUnitOfWork
    answers: FakeAnswers
    ledger: FakeLedger
    keys: int = 0

    def handle(self, command: Credit | Debit, once: Once | None = None) -> object:
        if once is None:
            self.keys += 1
            once = Once(OPERATOR.user_id, f"key-{self.keys:08d}", f"request-{self.keys}")
        return self.casino.handle(command, once)

    def wallet(self) -> int:
        return self.ledger.balance_of("wallet", str(ANA))

    def cashier(self) -> int:
        return self.ledger.balance_of(*book.CASHIER)

    def kinds(self) -> list[str]:
        return [kind for kind, _reference, _legs in self.ledger.transactions]


@pytest.fixture
def desk() -> Cashier:
    """Ana (user 7), a player with no wallet yet, and the cashier's window."""
    uow, answers, ledger = FakeUnitOfWork(), FakeAnswers(), FakeLedger()
    casino = Casino(
        uow, uow.clock, InProcessBroadcaster(), answers, ledger=ledger, round_rows=FakeRoundRows()
    )
    uow.rows[(User, ANA)] = User(id=ANA, username="ana", role="player", password_hash="-")
    return Cashier(casino, uow, answers, ledger)


def test_a_credit_then_a_debit_move_exactly_their_minor_units(desk: Cashier) -> None:
    """R13: 12,345 minor units in, 2,345 out; each a balanced transaction (R9), wallet
    against cashier, referenced to the player."""
    assert desk.handle(Credit(OPERATOR, "ana", 12_345)) == (
        200,
        {"transaction": 1, "username": "ana", "amount": 12_345, "balance": 12_345},
    )
    assert desk.handle(Debit(OPERATOR, "ana", 2_345)) == (
        200,
        {"transaction": 2, "username": "ana", "amount": 2_345, "balance": 10_000},
    )
    assert (desk.wallet(), desk.cashier()) == (10_000, -10_000)
    assert [(kind, reference) for kind, reference, _ in desk.ledger.transactions] == [
        ("credit", "user:7"),
        ("debit", "user:7"),
    ]
    assert sum(account.balance for account in desk.ledger.accounts.values()) == 0


def test_a_debit_past_the_balance_is_refused_and_nothing_moves(desk: Cashier) -> None:
    """R7: the wallet may not go below zero; the transaction rolls back, no answer is kept
    (the client may fix the amount and retry with the same key)."""
    desk.handle(Credit(OPERATOR, "ana", 10_000))
    once = Once(OPERATOR.user_id, "key-the-debit", "the-debit")
    with pytest.raises(InsufficientFunds) as refused:
        desk.handle(Debit(OPERATOR, "ana", 10_001), once)
    assert (refused.value.code, refused.value.params["amount_minor"]) == ("balance_too_low", 10_001)
    assert (desk.wallet(), desk.cashier(), desk.kinds()) == (10_000, -10_000, ["credit"])
    assert (OPERATOR.user_id, "key-the-debit") not in desk.answers.rows


def test_a_repeated_key_credits_once_and_answers_as_the_first(desk: Cashier) -> None:
    """R8: the same key and request again is answered from the store; the money moved once."""
    once = Once(OPERATOR.user_id, "key-the-credit", "the-credit")
    first = desk.handle(Credit(OPERATOR, "ana", 5_000), once)
    assert desk.handle(Credit(OPERATOR, "ana", 5_000), once) == first
    assert (desk.wallet(), desk.kinds()) == (5_000, ["credit"])


def test_a_credit_past_the_deposit_limit_is_refused_and_nothing_moves(desk: Cashier) -> None:
    """Issue 27: Ana's deposit limit of 5,000 a gaming day refuses a credit of 5,001 with
    what is left (all of it: nothing credited yet); 5,000 itself is within it."""
    desk.uow.rows[(PlayerLimitRecord, 1)] = PlayerLimitRecord(
        id=1,
        user_id=ANA,
        setter="player",
        kind="deposit",
        period="day",
        amount=5_000,
        set_by=ANA,
        created_at=0.0,
        effective_at=0.0,
    )
    with pytest.raises(Conflict) as refused:
        desk.handle(Credit(OPERATOR, "ana", 5_001))
    assert (refused.value.code, refused.value.params) == (
        "deposit_limit_reached",
        {"period": "day", "limit_minor": 5_000, "left_minor": 5_000, "amount_minor": 5_001},
    )
    assert (desk.wallet(), desk.kinds()) == (0, [])
    assert desk.handle(Credit(OPERATOR, "ana", 5_000))[1]["balance"] == 5_000  # type: ignore[index]


@pytest.mark.parametrize(
    ("kind", "code"), [("break", "on_break"), ("self_exclusion", "self_excluded")]
)
def test_a_paused_player_is_credited_nothing_and_may_be_paid_out(
    desk: Cashier, kind: str, code: str
) -> None:
    """docs/player-protection.md, "Breaks and self-exclusion": while it lasts no credit (the
    409 a stake gets), but the cashier may pay the balance out."""
    desk.handle(Credit(OPERATOR, "ana", 3_000))
    now = desk.uow.clock.now()
    desk.uow.rows[(PlayerPauseRecord, 1)] = PlayerPauseRecord(
        id=1,
        user_id=ANA,
        kind=kind,
        starts_at=now,
        ends_at=now + 86_400.0,
        set_by=ANA,
        created_at=now,
    )
    with pytest.raises(Conflict) as refused:
        desk.handle(Credit(OPERATOR, "ana", 1_000))
    assert (refused.value.code, refused.value.params) == (code, {"until": int(now + 86_400)})
    assert desk.handle(Debit(OPERATOR, "ana", 3_000))[1]["balance"] == 0  # type: ignore[index]
    assert desk.kinds() == ["credit", "debit"]


def test_no_such_player(desk: Cashier) -> None:
    with pytest.raises(NotFound):
        desk.handle(Credit(OPERATOR, "nobody", 100))
    assert desk.kinds() == []
