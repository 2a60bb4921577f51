"""A physical-shoe table driven through the HTTP API: the operator opens it, a dealer makes
the shoe and enters each card where the round asks for it, the players bet and decide
(imported by name: tests/server is on sys.path). Also the physical-shoe tests' server on
SQLite (``sqlite_api``, a fixture that tests/server/conftest.py makes known) and their
closing check (``audited``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from server_support import OPERATOR_TOKEN, WAGERS, Api, make_api

from croupier.audit.verify import verify_database
from croupier.rules.registry import load_profile


@pytest.fixture
def sqlite_api(database_url_for: Callable[[str], Iterator[str]]) -> Iterator[tuple[Api, str]]:
    """A server on a fresh SQLite database, and that database's URL."""
    for url in database_url_for("sqlite"):
        for api in make_api(url):
            yield api, url


def audited(api: Api, url: str) -> None:
    """R9 and R15 after a physical-shoe test: the ledger sums to 0 with no problem, and
    ``croupier audit verify`` finds the chain and every row intact."""
    audit = api.audit()
    assert audit["sum"] == 0 and audit["problems"] == [], audit
    report = verify_database(url)
    assert report.is_intact, report.problems


def approved(api: Api, waiting: Any, inspector: str) -> Any:
    """A request that waits for a second inspector (202, issue 25: a void after a card is
    seen, a dispute decision beyond what the round owes): ``inspector``, a fresh account
    given the role, approves it; the answer is the approval's."""
    assert waiting.status_code == 202, waiting.text
    token = api.player(inspector)
    granted = api.post(
        "/operator/staff", OPERATOR_TOKEN, {"username": inspector, "role": "inspector"}
    )
    assert granted.status_code == 201, granted.text
    path = f"/inspector/approvals/{waiting.json()['approval']}/decision"
    answer = api.post(path, token, {"decision": "approved"})
    assert answer.status_code == 200, answer.text
    return answer


class PhysicalTable:
    """A table dealt by hand: ``cards`` queues, by where they go, what the dealer enters."""

    def __init__(
        self,
        api: Api,
        profile: str,
        players: list[str],
        *,
        dealer: str = "dora",
        credit_minor: int = 100_000,
    ) -> None:
        self.api = api
        self.profile = load_profile(profile)
        self.wager = WAGERS[self.profile.game]
        created = api.post(
            "/operator/tables",
            OPERATOR_TOKEN,
            {
                "name": f"p-{uuid.uuid4().hex[:8]}",
                "profile": profile,
                "betting_seconds": 60,
                "decision_seconds": 60,
                "shoe": "physical",
            },
        )
        assert created.status_code == 201, created.text
        self.id: int = created.json()["table"]
        self.dealer = api.player(dealer)
        granted = api.post(
            "/operator/staff", OPERATOR_TOKEN, {"username": dealer, "role": "dealer"}
        )
        assert granted.status_code == 201, granted.text
        assigned = api.post(
            f"/operator/tables/{self.id}/dealers", OPERATOR_TOKEN, {"username": dealer}
        )
        assert assigned.status_code in (200, 201), assigned.text
        self.credit = credit_minor
        self.tokens = {name: api.player(name, credit_minor) for name in players}
        self.seat_of: dict[str, int] = {}
        for seat, name in enumerate(players, start=1):
            answer = api.post(f"/tables/{self.id}/seats/{seat}", self.tokens[name])
            assert answer.status_code == 200, answer.text
            self.seat_of[name] = seat
        self.owner = {seat: name for name, seat in self.seat_of.items()}
        self.went: list[dict[str, Any]] = []
        """Where each entered card went, as the API answered."""

    # --- the dealer -------------------------------------------------------------------------
    def console(self) -> dict[str, Any]:
        answer = self.api.get(f"/dealer/tables/{self.id}", self.dealer)
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        return state

    def procedure(self, name: str) -> Any:
        return self.api.post(f"/dealer/tables/{self.id}/shoe", self.dealer, {"procedure": name})

    def card(self, card: str, token: str | None = None) -> Any:
        return self.api.post(
            f"/dealer/tables/{self.id}/cards", token or self.dealer, {"card": card}
        )

    def make_shoe(self, burns: list[str]) -> None:
        """Shuffle, cut, place the cut card (where the game has one), and burn ``burns``."""
        for step in ("shuffled", "cut", "cut_card_placed"):
            if self.console()["shoe"]["next_procedure"] == step:
                answer = self.procedure(step)
                assert answer.status_code == 200, answer.text
        for card in burns:
            assert self.console()["next_card"]["purpose"] == "burn"
            answer = self.card(card)
            assert answer.status_code == 200, answer.text
        assert self.console()["shoe"]["is_ready"], self.console()

    def deal(self, cards: dict[str, list[str]]) -> None:
        """Enter each card the round asks for from the queue of where it goes (``player``
        cards by seat as ``player:1``; ``hole`` from the dealer's queue), until none is asked."""
        while (needed := self.console()["next_card"]) is not None:
            place = needed["purpose"]
            if place == "player" and f"player:{needed['seat']}" in cards:
                place = f"player:{needed['seat']}"
            if place == "hole":
                place = "dealer"
            assert cards.get(place), f"no card queued for {needed}"
            answer = self.card(cards[place].pop(0))
            assert answer.status_code == 200, answer.text
            self.went.append(answer.json()["went"])
        left = {place: queue for place, queue in cards.items() if queue}
        assert not left, f"cards queued and never asked for: {left}"

    def deal_some(self, cards: list[str]) -> None:
        """Enter ``cards`` in order wherever the round asks for them."""
        for card in cards:
            answer = self.card(card)
            assert answer.status_code == 200, answer.text
            self.went.append(answer.json()["went"])

    # --- the players ------------------------------------------------------------------------
    def state(self, name: str | None = None) -> dict[str, Any]:
        answer = self.api.get(f"/tables/{self.id}", self.tokens[name] if name else OPERATOR_TOKEN)
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        return state

    def bet(self, name: str, amount: int, wager: str | None = None) -> int:
        answer = self.api.post(
            f"/tables/{self.id}/bets",
            self.tokens[name],
            {"seat": self.seat_of[name], "wager": wager or self.wager, "amount": amount},
        )
        assert answer.status_code == 200, answer.text
        round_id: int = answer.json()["round"]
        return round_id

    def ready(self) -> list[bool]:
        dealt = []
        for token in self.tokens.values():
            answer = self.api.post(f"/tables/{self.id}/ready", token)
            assert answer.status_code == 200, answer.text
            dealt.append(answer.json()["dealt"])
        return dealt

    def tick(self) -> None:
        """The server's clock: a deadline now due is applied (the deal, once the shoe is made).
        It waits for the server's own tick if one is running: that tick may have passed this
        table before its deadline fell due, and returning at once left the round betting."""
        self.api.server.casino.tick(wait=True)

    def act(self, name: str, action: str) -> Any:
        return self.api.post(
            f"/tables/{self.id}/actions",
            self.tokens[name],
            {"seat": self.seat_of[name], "action": action},
        )

    def balances(self) -> dict[str, int]:
        return {name: self.api.balance(token) for name, token in self.tokens.items()}
