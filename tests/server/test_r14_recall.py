"""R14: recall (GLI-19 4.14, 2.8.2). "every round rebuildable from its stored record alone;
status (in progress, complete, interrupted, cancelled), rules version, table, seat; at least
the last 10 rounds per player at hand" - each stored round is replayed through the game's
engine from its events alone and its payouts diffed against the ledger."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from server_support import Api, Table, make_api
from sqlalchemy import select

from croupier.games.events import Event
from croupier.games.replay import replay
from croupier.ledger.book import to_minor
from croupier.server.app import playable_profiles
from croupier.service.models import Account, LedgerEntry, LedgerTransaction

PROFILES = playable_profiles()
pytestmark = pytest.mark.skipif(not PROFILES, reason="no game engine has landed yet")


def ledger_payouts(api: Api, round_id: int) -> dict[str, int]:
    """What the round's settlement paid into each wallet, read from the ledger."""

    def read(session):  # type: ignore[no-untyped-def]
        rows = session.execute(
            select(Account.owner, LedgerEntry.amount)
            .join(LedgerEntry, LedgerEntry.account_id == Account.id)
            .join(LedgerTransaction, LedgerTransaction.id == LedgerEntry.transaction_id)
            .where(
                LedgerTransaction.reference == f"round:{round_id}",
                LedgerTransaction.kind == "settlement",
                Account.kind == "wallet",
            )
        ).all()
        return {owner: amount for owner, amount in rows}

    result: dict[str, int] = api.server.uow.read(read)
    return result


@pytest.mark.parametrize("profile", PROFILES)
def test_every_round_replays_from_its_record_and_matches_the_ledger(api: Api, profile: str) -> None:
    replay_and_diff(api, profile, 12)


@pytest.mark.slow
@pytest.mark.parametrize("profile", PROFILES)
def test_ten_thousand_rounds_replay_from_their_records_and_match_the_ledger(
    tmp_path: Path, profile: str
) -> None:
    # R14's full form: 10,002 rounds over the six profiles, on SQLite.
    for api in make_api(f"sqlite:///{tmp_path}/recall.sqlite"):
        replay_and_diff(api, profile, -(-10_000 // len(PROFILES)))


def replay_and_diff(api: Api, profile: str, count: int) -> None:
    table = Table(api, profile, ["ann", "ben"], credit_minor=max(1_000_000, count * 2_000))
    user_ids = {name: api.get("/me", token).json()["user"] for name, token in table.tokens.items()}
    rounds = [table.play_round(lambda pending: pending["legal"][0]) for _ in range(count)]
    for round_id in rounds:
        document = table.recall(round_id)  # the inspector's recall: every card
        assert document["status"] == "complete"
        assert document["table"] and document["rules_version"].startswith(f"{table.profile.name}@")
        assert [s["seat"] for s in document["seats"]] == [1, 2]
        rebuilt = replay([Event.from_json(e) for e in document["events"]])
        paid: dict[str, int] = defaultdict(int)
        for wager in rebuilt.results().wagers:
            paid[str(user_ids[table.owner[wager.seat]])] += to_minor(wager.payout)
        assert {k: v for k, v in paid.items() if v} == ledger_payouts(api, round_id)
    history = api.get("/me/rounds?limit=10", table.tokens["ben"]).json()["rounds"]
    assert [r["round"] for r in history] == sorted(rounds, reverse=True)[:10]
    assert all(r["status"] == "complete" and r["events"] for r in history)


def test_an_interrupted_round_is_recalled_as_such_with_its_stakes_returned(api: Api) -> None:
    """A round whose record cannot be rebuilt is voided on restart: status interrupted,
    RoundVoided in its events, every stake back in its wallet (R11)."""
    table = Table(api, PROFILES[0], ["ann", "ben"], credit_minor=10_000)
    round_id = table.bet_all()
    from croupier.service.models import RoundRecord

    def corrupt(session):  # type: ignore[no-untyped-def]
        record = session.get(RoundRecord, round_id)
        record.events = [*record.events, {"kind": "RoundEnded"}]

    api.server.uow.run(corrupt)
    notes = api.server.casino.load()
    assert any("voided" in note for note in notes)
    document = table.recall(round_id)
    assert document["status"] == "interrupted"
    assert document["events"][-1]["kind"] == "RoundVoided"
    # Its recall ends on the void: the round's view with every stake returned.
    last = document["steps"][-1]
    assert last["command"].startswith("void") and last["view"]["done"]
    assert {wager["result"] for wager in last["view"]["results"]} == {"void"}
    assert table.balances() == {"ann": 10_000, "ben": 10_000}
    assert api.audit()["problems"] == [] and api.audit()["sum"] == 0


def _live_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The round as the table pushed it to ``seat``'s player (the engine's view)."""
    view: dict[str, Any] = state["round"]["mine"][str(seat)]
    return view


@pytest.mark.parametrize("profile", ["peru-2016", "veintiuno-real", "casino-holdem-peru-2007"])
def test_the_recall_serves_each_step_as_the_player_saw_it_at_the_table(
    api: Api, profile: str
) -> None:
    """R14 and R6: the recall is the engine's views step by step, masked exactly as live.
    Every view a player was shown at the table during the round is one of the steps the
    recall serves that player, in the same order; the dealer's hole card (Peru 2016 Art. 13,
    Veintiuno Real item 10) is face down in every step before the engine turns it and face
    up, counted in the total, at the end; another zone's hole cards (Casino Hold'em Art. 9d)
    never show; and the inspector's last step is the replayed round with every card."""
    if profile not in PROFILES:
        pytest.skip(f"no engine for {profile}")
    table = Table(api, profile, ["ann", "ben"])
    round_id = table.bet_all()
    table.ready_all()
    shown: dict[str, list[dict[str, Any]]] = {name: [] for name in table.tokens}
    for _ in range(50):
        if table.state()["round"]["id"] != round_id:
            break
        for name, seat in table.seat_of.items():
            shown[name].append(_live_view(table.state(name), seat))
        pending = table.state()["round"]["pending"]
        answer = api.post(
            f"/tables/{table.id}/actions",
            table.tokens[table.owner[pending["seat"]]],
            {"seat": pending["seat"], "action": pending["legal"][-1]},
        )
        assert answer.status_code == 200, answer.text
    inspector = table.recall(round_id)
    events = [Event.from_json(e) for e in inspector["events"]]
    final = replay(events).view(None, everything=True)
    assert inspector["steps"][-1]["view"] == final
    for name, seat in table.seat_of.items():
        steps = table.recall(round_id, name)["steps"]
        views = [step["view"] for step in steps]
        assert all(view["viewer"] == seat for view in views)
        later = iter(views)
        assert all(any(view == step for step in later) for view in shown[name]), name
        last = views[-1]
        if table.profile.game == "blackjack":
            assert last["dealer"] == final["dealer"] and "??" not in last["dealer"]["cards"]
            turned = next(
                i
                for i, step in enumerate(steps)
                if any(e["kind"] == "HoleCardRevealed" for e in step["events"])
            )
            dealt = [step["command"] for step in steps].index("deal")
            assert turned > dealt
            assert all("??" in view["dealer"]["cards"] for view in views[dealt:turned])
        else:
            others = [entry for entry in last["seats"] if entry["seat"] != seat]
            assert others and all(h["cards"] == ["??", "??"] for o in others for h in o["hands"])
            own = next(entry for entry in last["seats"] if entry["seat"] == seat)
            hole = [
                e["card"]
                for e in inspector["events"]
                if e["kind"] == "CardDrawn" and e.get("seat") == seat
            ]
            assert own["hands"][0]["cards"] == hole
            assert last["dealer"] == final["dealer"] and last["board"] == final["board"]
