"""R9: double entry (GLI-19 2.8.5(j)). "every transaction's legs sum to zero; every balance =
its entries; each entry has an id and the balance before and after" - a hypothesis stateful
test of deposit, bet, settle, void, withdraw and restart against a model of the balances."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from croupier.clock import SystemClock
from croupier.errors import InsufficientFunds, LedgerError
from croupier.ledger import book
from croupier.ledger.book import Leg, bet_legs, check_balanced, settlement_legs
from croupier.service.database import make_engine, upgrade
from croupier.service.unit_of_work import UnitOfWork

PLAYERS = 3


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.url = f"sqlite:///{Path(self.folder.name) / 'ledger.sqlite'}"
        self._open()
        self.wallets = self.uow.run(
            lambda s: [book.open_account(s, "wallet", str(n)) for n in range(PLAYERS)]
        )
        self.ids = self.uow.run(
            lambda s: (
                book.open_account(s, "escrow", "table:1"),
                book.open_account(s, *book.HOUSE, may_go_negative=True),
                book.open_account(s, *book.CASHIER, may_go_negative=True),
            )
        )
        self.balance = [0] * PLAYERS
        self.staked = [0] * PLAYERS

    def _open(self) -> None:
        self.engine = make_engine(self.url)
        upgrade(self.engine)
        self.uow = UnitOfWork(self.engine, SystemClock())

    def _post(self, kind: str, legs: list[Leg] | tuple[Leg, ...]) -> bool:
        try:
            self.uow.run(lambda s: book.post(s, kind, "test", legs, 0.0))
        except InsufficientFunds:
            return False
        return True

    @rule(player=st.integers(0, PLAYERS - 1), amount=st.integers(1, 10_000))
    def deposit(self, player: int, amount: int) -> None:
        assert self._post("credit", [Leg(self.wallets[player], amount), Leg(self.ids[2], -amount)])
        self.balance[player] += amount

    @rule(player=st.integers(0, PLAYERS - 1), amount=st.integers(1, 10_000))
    def withdraw(self, player: int, amount: int) -> None:
        ok = self._post("debit", [Leg(self.wallets[player], -amount), Leg(self.ids[2], amount)])
        assert ok == (amount <= self.balance[player])
        if ok:
            self.balance[player] -= amount

    @rule(player=st.integers(0, PLAYERS - 1), amount=st.integers(1, 10_000))
    def bet(self, player: int, amount: int) -> None:
        ok = self._post(
            "stake", bet_legs(wallet=self.wallets[player], escrow=self.ids[0], minor=amount)
        )
        assert ok == (amount <= self.balance[player])
        if ok:
            self.balance[player] -= amount
            self.staked[player] += amount

    @precondition(lambda self: sum(self.staked) > 0)
    @rule(
        multipliers=st.lists(st.sampled_from([0, 1, 2, 3, 5]), min_size=PLAYERS, max_size=PLAYERS),
        halves=st.booleans(),
    )
    def settle(self, multipliers: list[int], halves: bool) -> None:
        payouts = {}
        for player, multiple in enumerate(multipliers):
            paid = self.staked[player] * multiple // (2 if halves else 1)
            payouts[self.wallets[player]] = paid
            self.balance[player] += paid
        legs = settlement_legs(
            escrow=self.ids[0], house=self.ids[1], held=sum(self.staked), payouts=payouts
        )
        assert self._post("settlement", legs)
        self.staked = [0] * PLAYERS

    @precondition(lambda self: sum(self.staked) > 0)
    @rule()
    def void(self) -> None:
        legs: list[Leg] = []
        for player, stake in enumerate(self.staked):
            if stake:
                legs += bet_legs(wallet=self.wallets[player], escrow=self.ids[0], minor=-stake)
                self.balance[player] += stake
        assert self._post("void", legs)
        self.staked = [0] * PLAYERS

    @rule()
    def restart(self) -> None:
        self.engine.dispose()
        self._open()

    @invariant()
    def books_balance(self) -> None:
        assert self.uow.read(book.audit) == []
        balances = self.uow.read(lambda s: [book.balance(s, w) for w in self.wallets])
        assert balances == self.balance
        assert self.uow.read(lambda s: book.balance(s, self.ids[0])) == sum(self.staked)

    def teardown(self) -> None:
        self.engine.dispose()
        self.folder.cleanup()


LedgerMachine.TestCase.settings = settings(max_examples=15, stateful_step_count=20, deadline=None)
test_r9_ledger_invariants_hold_through_any_sequence = LedgerMachine.TestCase


def test_unbalanced_legs_are_refused() -> None:
    with pytest.raises(LedgerError, match="sum to 1"):
        check_balanced([Leg(1, 5), Leg(2, -4)])
