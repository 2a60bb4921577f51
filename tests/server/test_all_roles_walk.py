"""No single account moves money or returns stakes after a card is seen (issue 25, "Done
when"; docs/rules.md#D-GEN-17 and #D-GEN-18).

One account holds every staff role at once (dealer and inspector) and is the assigned dealer
of the tables it attacks. It walks every money-moving route of the routers: a seat, a bet
and a back bet at its own table, a dispute decision beyond what the round owes and its
approval, a payout correction proposed and confirmed, a void after the cards are seen and its
approval. Each attempt is refused or waits for a second inspector, and after each the ledger
is exactly as it was: every account's balance and the number of its transactions. (The
operator's credits and debits are the cashier's, another account's duty, and not walked.)
"""

from __future__ import annotations

from typing import Any

from physical_support import PhysicalTable, audited
from server_support import OPERATOR_TOKEN, Api, Table
from sqlalchemy import func, select

from croupier.ledger.models import Account, LedgerTransaction


def _ledger(api: Api) -> tuple[int, list[tuple[int, int]]]:
    def read(session: Any) -> tuple[int, list[tuple[int, int]]]:
        count = session.scalar(select(func.count()).select_from(LedgerTransaction))
        balances = session.execute(select(Account.id, Account.balance).order_by(Account.id))
        return int(count), [(int(a), int(b)) for a, b in balances]

    result: tuple[int, list[tuple[int, int]]] = api.server.uow.read(read)
    return result


def test_one_account_with_every_staff_role_moves_no_money_alone(sqlite_api: Any) -> None:
    api, url = sqlite_api
    # omni deals the physical table (a stacked shoe: the cards are entered as chosen) ...
    dealt = PhysicalTable(api, "peru-2016", ["ann"], dealer="omni", credit_minor=100_000)
    omni = dealt.dealer
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": "omni", "role": "inspector"})
    assert granted.status_code == 201, granted.text
    # ... and a baccarat table whose ended round ben disputes.
    played = Table(api, "dragon-six-peru-2016", ["ben"], credit_minor=100_000)
    assigned = api.post(
        f"/operator/tables/{played.id}/dealers", OPERATOR_TOKEN, {"username": "omni"}
    )
    assert assigned.status_code == 200, assigned.text
    ended = played.play_round()
    dispute = api.post(f"/rounds/{ended}/disputes", played.tokens["ben"], {"text": "short"})
    assert dispute.status_code == 201, dispute.text
    round_id = dealt.bet("ann", 50)

    def attempt(method: str, path: str, body: dict[str, Any] | None, expected: int) -> Any:
        before = _ledger(api)
        if method == "POST":
            answer = api.post(path, omni, body)
        else:
            answer = api.client.request(
                method, path, json=body, headers=api.headers(omni, api.key())
            )
        assert answer.status_code == expected, (path, answer.text)
        assert _ledger(api) == before, path  # nothing moved
        return answer

    # Play at the table it deals: a seat, a bet, a back bet.
    attempt("POST", f"/tables/{dealt.id}/seats/2", None, 403)
    attempt("POST", f"/tables/{dealt.id}/bets", {"seat": 1, "wager": "main", "amount": 5}, 403)
    attempt("POST", f"/tables/{dealt.id}/back-bets", {"seat": 1, "wager": "main", "amount": 5}, 403)
    # A dispute decision paying beyond what the round owes waits; its own approval is refused.
    body = {
        "decision": "upheld",
        "reason": "mine",
        "corrections": [{"username": "ben", "amount": 1_000_000}],
    }
    waiting = attempt(
        "POST", f"/inspector/disputes/{dispute.json()['dispute']}/decision", body, 202
    )
    number = waiting.json()["approval"]
    attempt("POST", f"/inspector/approvals/{number}/decision", {"decision": "approved"}, 403)
    # A payout correction it proposes as the table's dealer, then confirms as an inspector.
    proposal = {"username": "ben", "amount": 1_000, "reason": "paid short"}
    proposed = attempt("POST", f"/rounds/{ended}/corrections", proposal, 201)
    correction = proposed.json()["correction"]
    attempt("POST", f"/inspector/corrections/{correction}/decision", {"decision": "confirmed"}, 403)
    # The cards are seen (13 against the dealer's Ace): a void waits, its own approval refused.
    assert dealt.ready() == [False]
    dealt.make_shoe(["2c"])
    dealt.tick()
    dealt.deal_some(["Td", "As", "3h", "9c"])
    # The console's void and confused deal (docs/rules.md#D-GEN-13) return the stakes too:
    # each waits; refused by another inspector, the round goes on.
    jon = api.player("jon")
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": "jon", "role": "inspector"})
    assert granted.status_code == 201, granted.text
    console = f"/dealer/tables/{dealt.id}/corrections"
    for correction in ({"kind": "void", "reason": "shoe fell"}, {"kind": "confused-deal"}):
        waiting = attempt("POST", console, correction, 202)
        number = waiting.json()["approval"]
        attempt("POST", f"/inspector/approvals/{number}/decision", {"decision": "approved"}, 403)
        refusal = {"decision": "refused", "reason": "play on"}
        refused = api.post(f"/inspector/approvals/{number}/decision", jon, refusal)
        assert refused.status_code == 200, refused.text
    voided = attempt("POST", f"/rounds/{round_id}/void", {"reason": "shoe fell"}, 202)
    void = voided.json()["approval"]
    attempt("POST", f"/inspector/approvals/{void}/decision", {"decision": "approved"}, 403)
    assert dealt.balances() == {"ann": 100_000 - 5_000}  # the stake still in escrow
    assert api.get("/inspector/approvals", omni).json()["approvals"][0]["status"] == "awaiting"
    audited(api, url)
