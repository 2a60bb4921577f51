"""One blackjack round from the seat to the settlement through ``Casino.handle``, on fakes:
no database, a stacked shoe, exact balances (issue 28, item 3; cosmicpython's service tests).

The persistence the bet's path writes through is faked behind its repositories: the answers
(R8), the ledger (``book.Ledger``: the wallets, escrow, the house and each posting) and the
round's record (``rounds.RoundRows``); the rest of the rows (the table's, its shoe's, the
rounds opened) are the fake session's. Peru 2016 (the profile's own rules decide: the burn at
the shoe's start, the dealer's hole card, stands on 17, even money on a win).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from tests.service.fakes import (
    FakeAnswers,
    FakeLedger,
    FakeRoundRows,
    FakeUnitOfWork,
    live_table,
)

from croupier.cards import parse_cards
from croupier.errors import InsufficientFunds
from croupier.ledger import book
from croupier.ledger.book import Leg
from croupier.rules.registry import load_profile
from croupier.service.accounts import Principal
from croupier.service.commands import Decide, Once, PlaceBet, Ready, Sit
from croupier.service.errors import Forbidden
from croupier.service.live import LiveTable
from croupier.service.models import GameTable, RoundStatus, ShoeRecord
from croupier.service.publishing import InProcessBroadcaster
from croupier.service.tables import Casino
from croupier.shoe import Shoe

ANA = Principal(7, "ana", "player")
BEA = Principal(8, "bea", "player")
CREDIT = 10_000
"""Ana's wallet before the round, minor units."""
FILLER = "2c 3c 4c 5c 6c 7c 2d 3d 4d 5d 6d 7d " * 4


@dataclass
class Rig:
    casino: Casino
    uow: FakeUnitOfWork
    answers: FakeAnswers
    ledger: FakeLedger
    rows: FakeRoundRows
    live: LiveTable
    keys: int = 0

    def handle(self, command: object, user: int = ANA.user_id) -> tuple[int, dict[str, object]]:
        self.keys += 1
        once = Once(user, f"key-{self.keys:08d}", f"request-{self.keys}")
        return self.casino.handle(command, once)  # type: ignore[arg-type]

    def wallet(self, user: Principal = ANA) -> int:
        return self.ledger.balance_of("wallet", str(user.user_id))

    def escrow(self) -> int:
        return self.ledger.balance_of("escrow", "table:1")

    def house(self) -> int:
        return self.ledger.balance_of(*book.HOUSE)


def rig_for(cards: str) -> Rig:
    """Table 1 of Peru 2016 dealing ``cards`` (the shoe's burn first), its first round open
    for bets as the server opens one (``Rounds.new_round``); Ana's wallet holds ``CREDIT``."""
    uow, answers, ledger, rows = FakeUnitOfWork(), FakeAnswers(), FakeLedger(), FakeRoundRows()
    casino = Casino(uow, uow.clock, InProcessBroadcaster(), answers, ledger=ledger, round_rows=rows)
    profile = load_profile("peru-2016")
    shoe = Shoe.stacked(parse_cards(cards + " " + FILLER), decks=profile.table.decks)
    uow.rows[(GameTable, 1)] = GameTable(id=1, name="one", seats={})
    uow.rows[(ShoeRecord, 100)] = ShoeRecord(id=100, table_id=1, position=0, is_revealed=False)

    def open_table(session: object) -> LiveTable:
        wallet = ledger.open_account(session, "wallet", str(ANA.user_id))
        cashier = ledger.open_account(session, *book.CASHIER, may_go_negative=True)
        ledger.post(session, "credit", "user:7", [Leg(wallet, CREDIT), Leg(cashier, -CREDIT)], 0)
        escrow = ledger.open_account(session, "escrow", "table:1")
        live = live_table(profile, {}, escrow, shoe_id=100, shoe=shoe)
        casino.rounds.new_round(session, live)  # type: ignore[arg-type]
        return live

    live = uow.run(open_table)
    casino.tables[live.id] = live
    return Rig(casino, uow, answers, ledger, rows, live)


def test_a_round_sat_bet_dealt_stood_and_settled_pays_even_money():
    """Ana's 19 (Ts 9s) against the dealer's 17 (8d, hole 9d): her 10 units win 10 (Peru
    2016, Art. 13: a win is paid 1:1); every posting balances and the round's record reads
    complete."""
    rig = rig_for("9c Ts 8d 9s 9d")
    first = rig.live.round_id

    status, seated = rig.handle(Sit(1, ANA, 1))
    assert status == 200 and seated["table"]["seats"]["1"] == "ana"
    assert rig.uow.rows[(GameTable, 1)].seats == {"1": ANA.user_id}

    assert rig.handle(PlaceBet(1, ANA, 1, "main", 10)) == (
        200,
        {"round": first, "seat": 1, "wager": "main", "amount": 10, "held": 1_000},
    )
    assert (rig.wallet(), rig.escrow()) == (CREDIT - 1_000, 1_000)
    assert rig.rows.players == {(first, 1, ANA.user_id)}

    assert rig.handle(Ready(1, ANA)) == (200, {"round": first, "dealt": True})
    assert rig.rows.rounds[first]["status"] == str(RoundStatus.PLAYING)

    assert rig.handle(Decide(1, ANA, 1, "stand")) == (
        200,
        {"round": first, "seat": 1, "action": "stand", "timeout": False},
    )
    assert (rig.wallet(), rig.escrow(), rig.house()) == (CREDIT + 1_000, 0, -1_000)
    assert rig.rows.rounds[first]["status"] == str(RoundStatus.COMPLETE)
    assert rig.rows.rounds[first]["ended_at"] == rig.uow.clock.now()
    assert rig.live.round_id != first and rig.live.game_round.is_betting  # the next round
    assert [kind for kind, _reference, _legs in rig.ledger.transactions] == [
        "credit",
        "stake",
        "settlement",
    ]
    assert sum(account.balance for account in rig.ledger.accounts.values()) == 0  # R9


def test_a_double_moves_its_second_stake_and_is_paid_on_both():
    """Ana's 11 (5h 6h) doubled against the dealer's 6 (hole Td): the double's stake leaves
    her wallet with the decision, she draws Th (21), the dealer's 16 draws 9c and busts: 20
    units staked win 20."""
    rig = rig_for("9c 5h 6d 6h Td Th 9c")
    first = rig.live.round_id
    rig.handle(Sit(1, ANA, 1))
    rig.handle(PlaceBet(1, ANA, 1, "main", 10))
    rig.handle(Ready(1, ANA))
    assert (rig.wallet(), rig.escrow()) == (CREDIT - 1_000, 1_000)
    rig.handle(
        Decide(1, ANA, 1, "double 10")
    )  # the notation: doubled for 10 more units  # the notation: doubled for 10 more units
    assert rig.rows.rounds[first]["status"] == str(RoundStatus.COMPLETE)
    assert (rig.wallet(), rig.escrow(), rig.house()) == (CREDIT + 2_000, 0, -2_000)
    assert [reference for _kind, reference, _legs in rig.ledger.transactions] == [
        "user:7",
        f"round:{first}:bet",
        f"round:{first}:decision",
        f"round:{first}",
    ]


def test_a_repeated_bet_is_answered_from_the_store_and_moves_nothing_twice():
    """R8: the same key and request again answers as the first did; the ledger is untouched."""
    rig = rig_for("9c Ts 8d 9s 9d")
    rig.handle(Sit(1, ANA, 1))
    once = Once(ANA.user_id, "key-the-bet-0001", "the-bet")
    first = rig.casino.handle(PlaceBet(1, ANA, 1, "main", 10), once)
    assert rig.casino.handle(PlaceBet(1, ANA, 1, "main", 10), once) == first
    assert (rig.wallet(), rig.escrow()) == (CREDIT - 1_000, 1_000)
    assert [kind for kind, _reference, _legs in rig.ledger.transactions] == ["credit", "stake"]


def test_a_stake_the_wallet_cannot_cover_is_refused_and_nothing_moves():
    """R7: 101 units against a wallet of 100 (the table's maximum allows it): the ledger
    refuses the stake, the transaction rolls back, no answer is stored."""
    rig = rig_for("9c Ts 8d 9s 9d")
    rig.handle(Sit(1, ANA, 1))
    with pytest.raises(InsufficientFunds):
        rig.handle(PlaceBet(1, ANA, 1, "main", 101))
    assert (rig.wallet(), rig.escrow()) == (CREDIT, 0)
    assert rig.rows.players == set()
    assert len(rig.answers.rows) == 1  # the seat's


def test_a_stranger_bets_on_no_seat_of_theirs():
    rig = rig_for("9c Ts 8d 9s 9d")
    rig.handle(Sit(1, ANA, 1))
    with pytest.raises(Forbidden) as refused:
        rig.handle(PlaceBet(1, BEA, 1, "main", 10), user=BEA.user_id)
    assert refused.value.code == "seat_not_yours"
    assert (rig.wallet(), rig.escrow()) == (CREDIT, 0)


# --- the fake ledger keeps the book's contract (STYLE: a second implementation's consistency) --
def _script(run, ledger) -> list[object]:
    """Open three accounts, credit, stake, then a stake the wallet cannot cover: what each
    step answers, and the balances after."""
    seen: list[object] = []

    def opened(session):
        return (
            ledger.open_account(session, "wallet", "7"),
            ledger.open_account(session, *book.CASHIER, may_go_negative=True),
            ledger.open_account(session, "escrow", "table:1"),
        )

    wallet, cashier, escrow = run(opened)
    assert run(lambda s: ledger.open_account(s, "wallet", "7")) == wallet
    for legs in ([Leg(wallet, 500), Leg(cashier, -500)], [Leg(wallet, -300), Leg(escrow, 300)]):
        run(lambda s, legs=legs: ledger.post(s, "move", "ref", legs, 1.0))
    try:
        run(lambda s: ledger.post(s, "stake", "ref", [Leg(wallet, -300), Leg(escrow, 300)], 1.0))
    except InsufficientFunds as refused:
        seen.append((refused.code, refused.params["amount_minor"]))
    seen.append([run(lambda s, a=a: ledger.balance(s, a)) for a in (wallet, cashier, escrow)])
    return seen


def test_the_fake_ledger_answers_as_the_book_does():
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from croupier.ledger.models import Account, LedgerEntry, LedgerTransaction
    from croupier.storage import Base

    engine = create_engine("sqlite://")
    tables = [Account.__table__, LedgerTransaction.__table__, LedgerEntry.__table__]
    Base.metadata.create_all(engine, tables=tables)

    def in_the_database(work):
        with Session(engine) as session, session.begin():
            return work(session)

    expected = [("balance_too_low", 300), [200, -500, 300]]
    assert _script(in_the_database, book) == expected
    assert _script(FakeUnitOfWork().run, FakeLedger()) == expected
