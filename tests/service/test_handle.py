"""``Casino.handle``, the one handler of every table command, on fakes: no database.

The contract every command meets (issue 28, item 1; R8, R10, R17): the table is found first
(404), then the request's key (400), then the fail safe (503); under the table's lock and in
one transaction a repeat finds its stored answer and changes nothing, the caller is checked,
the engine carries the command out, and the answer is stored with it; a refusal stores
nothing; a failure after memory changed leaves the table to be rebuilt from the database.
"""

from __future__ import annotations

import pytest
from tests.service.fakes import DatabaseAwayError, FakeAnswers, FakeUnitOfWork, live_table

from croupier.cards import parse_cards
from croupier.errors import IllegalActionError
from croupier.games.commands import Bet, Deal
from croupier.rules.registry import load_profile
from croupier.service import approvals, engines
from croupier.service.accounts import Principal
from croupier.service.commands import CreateTable, Decide, Once, Ready, VoidRound
from croupier.service.errors import (
    Forbidden,
    IdempotencyError,
    IdempotencyKeyReused,
    NotFound,
)
from croupier.service.fail_safe import FailSafeEngaged, Fault
from croupier.service.live import LiveTable
from croupier.service.publishing import InProcessBroadcaster
from croupier.service.tables import Casino, _status_of
from croupier.shoe import Shoe

ANA = Principal(7, "ana", "player")
BEA = Principal(8, "bea", "player")
# The burn 9c; seat 1 holds 2c 3s against the dealer's 8d (the hole card 5c): no natural, no
# insurance; a hit draws 4h, and seat 1 decides again.
CARDS = "9c 2c 8d 3s 5c 4h 2d 3h 4c 5d 6h 2s"


@pytest.fixture
def rig() -> tuple[Casino, FakeUnitOfWork, FakeAnswers, LiveTable]:
    uow, answers = FakeUnitOfWork(), FakeAnswers()
    casino = Casino(uow, uow.clock, InProcessBroadcaster(), answers)
    profile = load_profile("peru-2016")
    shoe = Shoe.stacked(parse_cards(CARDS) * 4, decks=profile.table.decks)
    game = engines.new_round(profile, shoe)
    game.apply(Bet(1, "main", 10))
    game.apply(Deal())
    seats = {1: ANA.user_id, 2: BEA.user_id}
    held = {1: {"user": ANA.user_id, "minor": 1000}}
    live = live_table(profile, seats, 1, shoe=shoe, round_id=5, round=game, held=held)
    casino.tables[live.id] = live
    return casino, uow, answers, live


def once(key: str | None = "key-00000001", request: str = "hash-a", user: int = 7) -> Once:
    return Once(user, key, request)


def test_a_decision_is_carried_out_once_and_its_answer_stored(rig):
    casino, uow, answers, live = rig
    command = Decide(1, ANA, 1, "hit")
    answer = casino.handle(command, once())
    assert answer == (200, {"round": 5, "seat": 1, "action": "hit", "timeout": False})
    events = len(live.game_round.events)
    assert answers.rows[(7, "key-00000001")] == ("hash-a", answer)
    # R8: the same request again is answered from the store; the engine is not asked again.
    assert casino.handle(command, once()) == answer
    assert len(live.game_round.events) == events
    assert uow.commits == 2


def test_a_key_used_for_another_request_is_refused(rig):
    casino, _uow, _answers, live = rig
    casino.handle(Decide(1, ANA, 1, "hit"), once())
    events = len(live.game_round.events)
    with pytest.raises(IdempotencyKeyReused):
        casino.handle(Decide(1, ANA, 1, "stand"), once(request="hash-b"))
    assert len(live.game_round.events) == events


def test_the_table_comes_before_the_key_and_the_key_before_the_fail_safe(rig):
    casino, uow, _answers, _live = rig
    with pytest.raises(NotFound):
        casino.handle(Decide(99, ANA, 1, "hit"), once(key=None))
    with pytest.raises(IdempotencyError):
        casino.handle(Decide(1, ANA, 1, "hit"), once(key=None))
    casino.fail_safe.engage(Fault.DATABASE, "the test took it away")
    with pytest.raises(FailSafeEngaged):  # R17: refused before any transaction
        casino.handle(Decide(1, ANA, 1, "hit"), once())
    assert uow.commits == uow.rollbacks == 0


def test_the_caller_is_checked_before_the_engine(rig):
    casino, uow, answers, live = rig
    events = len(live.game_round.events)
    with pytest.raises(Forbidden) as refused:
        casino.handle(Decide(1, BEA, 1, "hit"), once(user=8))
    assert refused.value.code == "seat_not_yours"
    assert len(live.game_round.events) == events
    assert answers.rows == {} and uow.rollbacks == 1


def test_whose_turn_it_is_is_the_engines_to_say(rig):
    """The service checks no rule of the round (issue 28, item 2): seat 2's player asks to
    decide at seat 2, which has no bet: the engine refuses it, naming whose turn it is."""
    casino, _uow, answers, live = rig
    with pytest.raises(IllegalActionError) as refused:
        casino.handle(Decide(1, BEA, 2, "stand"), once(user=8))
    assert refused.value.code == "not_your_turn"
    assert refused.value.params == {"seat": 2, "turn": 1}
    assert answers.rows == {}
    assert not live.is_stale  # a refusal before anything changed needs no rebuild


def test_after_a_failed_commit_the_table_waits_to_be_rebuilt(rig):
    """Memory equals the database after any failure (issue 10, item 3): the engine moved,
    the database refused the write, and the table cannot be rebuilt while it is away: it is
    marked stale, rebuilt before its next command, and no answer is stored."""
    casino, uow, answers, live = rig
    uow.is_away = True
    with pytest.raises(DatabaseAwayError):
        casino.handle(Decide(1, ANA, 1, "hit"), once())
    assert live.is_stale
    assert answers.rows == {}


def test_ready_is_refused_once_the_cards_are_dealt(rig):
    casino, _uow, _answers, live = rig
    with pytest.raises(IllegalActionError) as refused:
        casino.handle(Ready(1, ANA), once())
    assert refused.value.code == "bets_closed"
    assert live.ready == set()


def test_four_eyes_answer_202_in_one_place():
    """What waits for a second inspector (issue 25) is told apart once, for every command."""
    void = VoidRound(5, ANA, "the shoe fell")
    assert _status_of(void, {"status": approvals.AWAITING, "approval": 3}) == 202
    assert _status_of(void, {"status": "voided"}) == 200
    assert _status_of(CreateTable("t", "peru-2016", 15, 20), {"table": 2}) == 201
