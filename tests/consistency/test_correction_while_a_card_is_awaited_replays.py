"""A dealer's correction made while a physical shoe's round awaits a card (docs/rules.md
#D-GEN-11, #D-GEN-12) is a command of the round, stored where it was given: inside the deal
that stopped for the card. The record the release before this one stored (the same events,
then made by a mark on the shoe's card) still replays, recalls and settles to what was paid.
"""

from __future__ import annotations

from croupier.games.events import Event
from croupier.games.record import commands_of
from croupier.games.replay import replay, steps
from croupier.games.settle_document import document_of, settle_document
from croupier.rules import load_profile

RULES = load_profile("peru-2016")

STORED = [
    {"kind": "RoundStarted", "game": "blackjack", "profile": "peru-2016"},
    {"kind": "BetPlaced", "seat": 1, "wager": "main", "amount": 10},
    {"kind": "BetsClosed"},
    {"kind": "CardDrawn", "card": "Th", "purpose": "player", "seat": 1, "hand": 0},
    {"kind": "CardDrawn", "card": "5d", "purpose": "shown-burn"},
    {"kind": "CardFoundFaceUp", "card": "5d", "disposal": "burnt", "awaited": "dealer"},
    {"kind": "CardDrawn", "card": "9c", "purpose": "dealer"},
    {"kind": "CardDrawn", "card": "7d", "purpose": "player", "seat": 1, "hand": 0},
    {"kind": "CardDrawn", "card": "8h", "purpose": "hole"},
    {"kind": "Stood", "seat": 1, "hand": 0},
    {"kind": "HoleCardRevealed", "card": "8h"},
    {
        "kind": "Settled",
        "seat": 1,
        "wager": "main",
        "stake": 10,
        "payout": 10,
        "result": "push",
        "hand": 0,
    },
    {"kind": "RoundEnded"},
]
"""A Peru 2016 round at a physical shoe as the previous release stored it (printed by its
code): Th to box 1, then 5d found face up while the dealer's up card was awaited, burnt in
view; 9c up, 7d, hole 8h; 17 stands on 17: a push."""


def test_d_gen_11_a_stored_round_replays_with_the_correction_as_its_command() -> None:
    events = [Event.from_json(item) for item in STORED]
    rebuilt = replay(events, RULES)
    assert [item.to_json() for item in rebuilt.events] == STORED
    assert [str(command) for command in commands_of(events)] == [
        "bet 1 main 10",
        "deal",
        "face-up 5d",
        "act 1 stand",
    ]
    # The recall: the deal's step holds the card burnt while the up card was awaited.
    recalled = list(steps(events, 1, RULES))
    assert [str(step.command) for step in recalled[1:]] == ["bet 1 main 10", "deal", "act 1 stand"]
    assert [item.to_json() for item in recalled[2].events][2:4] == STORED[4:6]
    assert recalled[-1].view["corrections"] == [STORED[5]]


def test_d_gen_11_the_dispute_document_settles_to_what_was_paid() -> None:
    """The inspector's re-settlement (``document_of`` then ``croupier settle``) pays the
    push the table paid: the burnt 5d is no card of the deal (the previous release's document
    dealt it as the dealer's up card: box 1's Th 9c, 19, lost to 5d 7d 8h, 20)."""
    events = [Event.from_json(item) for item in STORED]
    document = document_of(events, RULES)
    assert document["shoe"] == ["Th", "9c", "7d", "8h"]
    assert "corrections" not in document
    seat = settle_document(document, RULES)["seats"][0]
    assert (seat["hands"][0]["result"], seat["staked"], seat["returned"]) == ("push", 10, 10)
