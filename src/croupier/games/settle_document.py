"""``croupier settle``: a round described in JSON, dealt and settled (the fixed contract).

``settle`` deals and plays the round a document describes (its shoe, each seat's bets and
decisions, the dealer's corrections) through the same engine as the live table;
``settle_document`` answers with the game's house part, each seat's own part with what it
staked, got back and netted, the game's closing part and the events. ``document_of`` writes
the document of a recorded round (a dispute's input).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from croupier.cards import FULL_DECK, Card
from croupier.errors import NotationError, SettleInputError, ShoeError
from croupier.games.base import GameRound, recorded_cards, round_class_of
from croupier.games.commands import (
    Act,
    Action,
    Bet,
    ConfusedDeal,
    Correction,
    Deal,
    DealtInError,
    Exposed,
    FaceUp,
    Void,
    parse_command,
)
from croupier.games.events import CardDealtInError, CardFoundFaceUp, Event, upgrade
from croupier.games.record import commands_of
from croupier.games.replay import start_of
from croupier.rules.base import Profile
from croupier.shoe import Shoe


def settle_document(document: Any, profile: Profile) -> dict[str, Any]:
    """Settle one round described as JSON (the fixed ``croupier settle`` contract), for any
    game: the game's house part (the dealer, or baccarat's Player and Banker), each seat's
    own part with what it staked, got back and netted, the game's closing part, the events."""
    game, listed = settle(document, profile)
    result = game.results()
    return {
        **game._house_document(),
        "seats": [
            {"seat": seat, **game._seat_document(seat, result)}
            for seat in game._document_seats(listed)
        ],
        **game._closing_document(result),
        "events": [item.to_json() for item in game.events],
    }


def settle(document: Any, profile: Profile) -> tuple[GameRound, list[int]]:
    """Deal and play the round a ``croupier settle`` document describes: its shoe (the cards
    in the order they leave it), each seat's bets (placed in the table's wager order) and the
    seat's decisions, given as the round asks for them. Returns the finished round and the
    seats in the order listed. Every bad input raises a ``CroupierError`` naming it. The
    document's fields are the game's ``document_keys`` and ``seat_keys``; the round is made
    by its ``from_document``.

    An optional ``corrections`` lists the dealer's corrections (docs/rules.md#D-GEN-14), each
    ``{"after": "bets" | N, "correction": "exposed hole"}``: made once every bet is placed,
    before the deal, or once ``N`` decisions have been given after it (0: right after the
    deal)."""
    if not isinstance(document, Mapping):
        raise SettleInputError("a round is a JSON object with 'game', 'rules', 'shoe' and 'seats'")
    cls = round_class_of(profile.game)
    fields, seat_fields = cls.document_keys, cls.seat_keys
    corrections = _settle_corrections(document.get("corrections", []))
    unknown = sorted(set(document) - set(fields) - {"corrections"})
    if unknown:
        raise SettleInputError(f"unknown field {unknown[0]!r} (fields: {', '.join(fields)})")
    listed = _shoe_cards(document.get("shoe"))
    if corrections:
        # A correction may void the round part-way, short of the cards its deal asks the
        # shoe to hold (Casino Hold'em counts them first): the rest of the decks stand
        # behind the listed cards, and drawing one of them is running out (checked below).
        Shoe.stacked(listed, profile.table.decks)  # the listed cards alone are a real shoe
        shoe = Shoe.stacked(
            [*listed, *_rest_of_decks(listed, profile.table.decks)], profile.table.decks
        )
    else:
        shoe = Shoe.stacked(listed, profile.table.decks)
    seats = document.get("seats")
    if not isinstance(seats, list):
        raise SettleInputError(f"'seats' must be a list of seats, not {seats!r}")
    game = cls.from_document(profile, shoe, document)
    if not seats and game.seat_noun == "seat":
        raise SettleInputError("'seats' must be a non-empty list of seats")
    actions: dict[int, list[Action]] = {}
    bets: dict[int, dict[str, Any]] = {}
    for entry in seats:
        if not isinstance(entry, dict):
            raise SettleInputError(f"a seat is an object with {', '.join(seat_fields)}: {entry!r}")
        unknown = sorted(set(entry) - set(seat_fields))
        if unknown:
            raise SettleInputError(f"seat {entry.get('seat')!r}: unknown field {unknown[0]!r}")
        seat = game.verify_seat(entry.get("seat"))
        if seat in actions:
            raise SettleInputError(f"seat {seat} is listed twice")
        bets[seat], listed_actions = entry.get("bets", {}), entry.get("actions", [])
        if not isinstance(bets[seat], dict):
            raise SettleInputError(f"seat {seat}: 'bets' must be an object of wager: amount")
        if not isinstance(listed_actions, list):
            raise SettleInputError(f"seat {seat}: 'actions' must be a list such as ['hit']")
        actions[seat] = [Action.parse(text) for text in listed_actions]
    order = list(profile.table.wagers)
    for seat, wagers in sorted(bets.items()):
        for wager in sorted(wagers, key=lambda name: order.index(name) if name in order else -1):
            game.place_bet(seat, wager, wagers[wager])

    def correct(after: str | int) -> None:
        while corrections and corrections[0][0] == after:
            game.correct(corrections.pop(0)[1])

    correct("bets")
    game.deal()
    made = 0
    correct(made)
    while (decision := game.pending()) is not None:
        queue = actions.get(decision.seat, [])
        if not queue:
            what = decision.question if decision.hand is None else f"hand {decision.hand}"
            legal = ", ".join(str(option) for option in decision.legal)
            raise SettleInputError(
                f"seat {decision.seat}: no action listed for {decision.question!r}: a decision "
                f"is needed on {what} ({legal}) but no action is left"
            )
        game.act(decision.seat, queue.pop(0))
        made += 1
        correct(made)
    if shoe.position > len(listed):
        raise ShoeError(f"the shoe is empty after {len(listed)} cards")
    if corrections:
        after, command = corrections[0]
        raise SettleInputError(
            f"correction {str(command)!r} after {after} decision(s) was not reached: the round "
            f"ended after {made}"
        )
    for seat, queue in actions.items():
        if queue:
            raise SettleInputError(
                f"seat {seat}: actions not asked for: {len(queue)} action(s) left over, "
                f"from {str(queue[0])!r}"
            )
    return game, list(actions)


def _settle_corrections(listed: object) -> list[tuple[str | int, Correction]]:
    """A ``settle`` document's ``corrections``, checked and in the order they are made."""
    if not isinstance(listed, list):
        raise SettleInputError(
            '\'corrections\' must be a list such as [{"after": 0, "correction": "face-up"}]'
        )
    made: list[tuple[str | int, Correction]] = []
    for entry in listed:
        if not isinstance(entry, dict) or set(entry) != {"after", "correction"}:
            raise SettleInputError(
                f"a correction is an object with 'after' and 'correction', not {entry!r}"
            )
        after, text = entry["after"], entry["correction"]
        if after != "bets" and (not isinstance(after, int) or isinstance(after, bool) or after < 0):
            raise SettleInputError(
                f"correction 'after' is 'bets' or a count of decisions (0 or more), not {after!r}"
            )
        command = parse_command(text) if isinstance(text, str) else None
        if not isinstance(command, FaceUp | DealtInError | Exposed | ConfusedDeal | Void):
            raise SettleInputError(
                f"unknown correction {text!r}: expected 'face-up', 'dealt-in-error', "
                "'exposed PLACE', 'confused-deal' or 'void REASON'"
            )
        made.append((after, command))
    order = [-1 if after == "bets" else int(after) for after, _ in made]
    if order != sorted(order):
        raise SettleInputError("'corrections' must be listed in the order they are made")
    return made


def _shoe_cards(listed: object) -> list[Card]:
    if not isinstance(listed, list):
        raise SettleInputError(f"'shoe' must be a list of cards such as \"Th\", not {listed!r}")
    cards = []
    for position, text in enumerate(listed, start=1):
        if not isinstance(text, str):
            raise SettleInputError(
                f"'shoe' must be a list of cards such as \"Th\": "
                f"shoe card {position}: unknown card {text!r}"
            )
        try:
            cards.append(Card.parse(text))
        except NotationError as error:
            raise NotationError(f"shoe card {position}: {error}") from None
    return cards


def _rest_of_decks(used: Sequence[Card], decks: int) -> list[Card]:
    left = Counter({card: decks for card in FULL_DECK})
    left.subtract(used)
    return [card for card in FULL_DECK for _ in range(max(left[card], 0))]


def document_of(events: Iterable[Event], profile: Profile | None = None) -> dict[str, Any]:
    """The ``croupier settle`` document of a recorded round dealt mid-shoe (no opening burn):
    its cards as the shoe, each seat's bets and decisions in order, and what else the game's
    document holds (Casino Hold'em's ``jackpot``). A dispute is settled from it. ``profile``
    is needed only for rules that are not shipped (the record names them).

    A card found face up or dealt in error while a card was awaited is left out, card and
    correction: a document places a correction only between commands, and that card touched
    no hand (the round dealt on as if it never was), so the payouts are the round's."""
    record = upgrade(events)
    cls, profile = start_of(record, profile)
    aside = {
        at
        for index, item in enumerate(record)
        if isinstance(item, CardFoundFaceUp | CardDealtInError) and item.awaited is not None
        for at in (index - 1, index)
    }
    record = [item for index, item in enumerate(record) if index not in aside]
    seats: dict[int, dict[str, Any]] = {}
    corrections: list[dict[str, Any]] = []
    after: str | int = "bets"
    for command in commands_of(record):
        if isinstance(command, Bet):
            seats.setdefault(command.seat, {"seat": command.seat, "bets": {}})
            seats[command.seat]["bets"][command.wager] = command.amount
        elif isinstance(command, Deal):
            after = 0
        elif isinstance(command, Act):
            seats[command.seat].setdefault("actions", []).append(str(command.action))
            after = after + 1 if isinstance(after, int) else after
        elif isinstance(command, FaceUp | DealtInError | Exposed | ConfusedDeal):
            corrections.append({"after": after, "correction": str(command)})
    return {
        "game": profile.game,
        "rules": profile.name,
        "shoe": [str(card) for card in recorded_cards(record)],
        "seats": [seats[seat] for seat in sorted(seats)],
        **cls.document_fields(record),
        **({"corrections": corrections} if corrections else {}),
    }
