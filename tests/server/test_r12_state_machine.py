"""R12: a strict state machine at the live table (GLI-19 4.2.3, 4.11.1). "wrong seat, out of
turn, after stand or bust, double after hit, split beyond the limit, bet after 'no more
bets' are refused and change nothing" - hypothesis streams of actions from every seat,
through the HTTP API: an action is accepted only from the owner of the seat whose turn it
is, and only when the round lists it as legal; every refusal leaves state and money as
they were."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_support import Api, Table

from croupier.games.base import Action
from croupier.server.app import playable_profiles

PROFILES = [p for p in playable_profiles() if p in ("peru-2016", "spain-1979", "veintiuno-real")]
pytestmark = pytest.mark.skipif(not PROFILES, reason="blackjack has not landed yet")

VOCABULARY = [
    "hit",
    "stand",
    "double",
    "double 1",
    "double 3",
    "split",
    "insurance",
    "insurance 1",
    "no-insurance",
    "even-money",
    "surrender",
    "bet",
    "hit 2",
    "",
]


def allowed(pending: dict[str, Any], text: str, stake: int) -> bool:
    """Whether ``text`` is among the actions the round lists as legal (a ranged amount such as
    ``double 10`` admits 1..10, as ``Decision.allows`` reads it). A plain ``double`` is also
    written with the hand's whole bet (``double 1`` on a bet of 1: the full double, as the
    engine reads it), which a shoe that deals a double to the right seat at the right moment
    lets this test's stream try."""
    try:
        action = Action.parse(text)
    except ValueError:
        return False
    for option in (Action.parse(legal) for legal in pending["legal"]):
        if option.name == action.name:
            if option.amount is None:
                return action.amount is None or (option.name == "double" and action.amount == stake)
            return action.amount is None or 1 <= action.amount <= option.amount
    return False


@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    profile=st.sampled_from(PROFILES),
    stream=st.lists(
        st.tuples(st.integers(0, 2), st.integers(1, 3), st.sampled_from(VOCABULARY)),
        min_size=25,
        max_size=60,
    ),
)
def test_only_legal_actions_in_turn_from_the_seat_owner_are_accepted(
    sqlite_api: Api, profile: str, stream: list[tuple[int, int, str]]
) -> None:
    api = sqlite_api
    table = Table(api, profile, [f"p{n}{api.key()[-6:]}" for n in range(3)], credit_minor=100_000)
    names = list(table.tokens)
    round_id = table.bet_all()
    table.ready_all()
    # A bet after "no more bets" is refused and changes nothing.
    late = api.post(
        f"/tables/{table.id}/bets",
        table.tokens[names[0]],
        {"seat": 1, "wager": table.wager, "amount": table.stake},
    )
    assert late.status_code == 409
    accepted = 0
    for who, seat, text in stream:
        state = table.state()
        if state["round"]["id"] != round_id:
            break
        pending = state["round"]["pending"]
        balances = table.balances()
        name = names[who]
        answer = api.post(
            f"/tables/{table.id}/actions", table.tokens[name], {"seat": seat, "action": text}
        )
        owns = table.seat_of[name] == seat
        in_turn = pending["seat"] == seat
        if answer.status_code == 200:
            accepted += 1
            assert owns and in_turn and allowed(pending, text, table.stake), (
                name,
                seat,
                text,
                pending,
            )
        else:
            assert answer.status_code in (403, 409, 422), answer.text
            if not owns:
                assert answer.status_code == 403
            assert table.state()["round"] == state["round"]
            assert table.balances() == balances
    audit = api.audit()
    assert audit["problems"] == [] and audit["sum"] == 0


@pytest.fixture
def sqlite_api(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from server_support import make_api

    folder = tmp_path_factory.mktemp("r12")
    yield from make_api(f"sqlite:///{folder / 'r12.sqlite'}")
