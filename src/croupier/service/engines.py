"""How the table server reaches a game's engine, whatever the game (no game special cases).

Everything game-specific comes from the game's module (its ``GameRound`` subclass and its
new-shoe procedure) or from the profile's fields (``boxes``/``zones``, ``boxes_per_player``,
``back_betting``, ``min_players``, ``shoe``).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType
from typing import Any

from croupier.games import game_module
from croupier.games.base import Action, GameRound
from croupier.games.events import BetPlaced, BetsReturned, Event
from croupier.randomness import SeededRandomSource
from croupier.rules.base import Profile
from croupier.service import table_rules
from croupier.shoe import Shoe


def seat_count(profile: Profile) -> int:
    """Boxes (blackjack) or betting zones (baccarat, Casino Hold'em)."""
    count: Any = getattr(profile, "boxes", None) or getattr(profile, "zones", 1)
    return int(count)


def seats_per_player(profile: Profile) -> int:
    return int(getattr(profile, "boxes_per_player", 1))


def min_players(profile: Profile) -> int:
    return int(getattr(profile, "min_players", 1))


def allows_back_betting(profile: Profile) -> bool:
    return bool(getattr(profile, "back_betting", False))


def rules_version(profile: Profile) -> str:
    """The profile's name and a digest of every rule in it: what a round was dealt under."""
    return table_rules.version_of(profile.name, table_rules.document(profile))


def cut_card_from_bottom(profile: Profile) -> int | None:
    shoe = getattr(profile, "shoe", None)
    value = getattr(shoe, "cut_card_from_bottom", None)
    return None if value is None else int(value)


def decks(profile: Profile) -> int:
    return int(getattr(profile, "decks", 1))


def is_one_round_per_shoe(profile: Profile) -> bool:
    """A game without a cut card (Casino Hold'em: one deck) shuffles for every round."""
    return cut_card_from_bottom(profile) is None


@dataclass
class OpenedShoe:
    shoe: Shoe
    opening: list[dict[str, Any]]
    """Events of the new-shoe procedure (burns), as JSON."""


def module_of(profile: Profile) -> ModuleType:
    return game_module(profile.game)


def round_class(profile: Profile) -> type[GameRound]:
    return round_class_of(profile.game)


def round_class_of(game: str) -> type[GameRound]:
    """The ``GameRound`` subclass of ``game`` (a table's stored game name)."""
    module = game_module(game)
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, GameRound)
            and value is not GameRound
            and getattr(value, "game", None) == game
        ):
            return value
    raise LookupError(f"{module.__name__} has no round class for {game}")


def open_shoe(profile: Profile, seed: bytes) -> OpenedShoe:
    """The shoe shuffled from ``seed``, cut, with the game's new-shoe procedure applied."""
    source = SeededRandomSource(seed)
    shoe = Shoe.shuffled(decks(profile), source, cut_card_from_bottom=cut_card_from_bottom(profile))
    procedure = getattr(module_of(profile), "open_shoe", None)
    opening: Sequence[Event] = procedure(profile, shoe) if procedure is not None else ()
    return OpenedShoe(shoe, [event.to_json() for event in opening])


def shoe_order(profile: Profile, seed: bytes) -> list[str]:
    source = SeededRandomSource(seed)
    shoe = Shoe.shuffled(decks(profile), source, cut_card_from_bottom=cut_card_from_bottom(profile))
    return [str(card) for card in shoe.peek_order()]


def warm_up(profile: Profile) -> None:
    """Deal and settle one seeded round of ``profile`` off the record, so that what an engine
    loads on first use (the poker evaluator's compiled code: about a second) is ready before
    the first player at a live table waits on it."""
    source = SeededRandomSource(b"warm-up")
    shoe = Shoe.shuffled(decks(profile), source, cut_card_from_bottom=cut_card_from_bottom(profile))
    game_round: GameRound = module_of(profile).random_round(profile, shoe, source)
    for seat in range(seat_count(profile) + 1):
        game_round.view(seat or None)


def has_meter(profile: Profile) -> bool:
    """A game with a progressive meter (Casino Hold'em) takes it as ``meter=``."""
    return "meter" in inspect.signature(round_class(profile)).parameters


def new_round(profile: Profile, shoe: Shoe, meter: Fraction | None = None) -> GameRound:
    """A round dealt from ``shoe``. The first round of a shoe runs the game's new-shoe
    procedure (its burns), which the games take as ``new_shoe=True``; a game with a
    progressive meter starts from ``meter`` (``None``: the profile's seed)."""
    cls: Any = round_class(profile)
    parameters = inspect.signature(cls).parameters
    options: dict[str, Any] = {}
    if "new_shoe" in parameters:
        options["new_shoe"] = shoe.position == 0
    if "meter" in parameters:
        options["meter"] = meter
    return cls(profile, shoe, **options)  # type: ignore[no-any-return]


def apply_input(game_round: GameRound, step: dict[str, Any]) -> Sequence[Event]:
    """One recorded command, as the live table gave it to the engine."""
    op = step["op"]
    if op == "bet":
        return game_round.place_bet(int(step["seat"]), str(step["wager"]), int(step["amount"]))
    if op == "deal":
        return game_round.deal()
    if op == "act":
        return game_round.act(int(step["seat"]), Action.parse(str(step["action"])))
    if op == "return":
        return game_round.return_bets(int(step["seat"]), str(step["reason"]))
    raise ValueError(f"unknown recorded step {op!r}")


# Events that add to a seat's stake besides ``BetPlaced`` (doubles, splits, insurance, the
# Casino Hold'em call): the name of the event and how to read its amount. Games name them.
EXTRA_STAKE_FIELDS = ("amount", "stake")


def stakes_by_seat(game_round: GameRound) -> dict[int, Fraction]:
    """What each seat has at stake so far, from the round's events.

    ``BetPlaced`` sets a wager (a later one on the same seat, wager and hand replaces it; 0
    withdraws it); ``BetsReturned`` withdraws every wager of its seat. A game may mark other events as staking with a class attribute
    ``adds_stake = True`` and an ``amount`` or ``stake`` field. Once the round is done the
    engine's results are the authority.
    """
    if game_round.is_done:
        totals: dict[int, Fraction] = {}
        for wager in game_round.results().wagers:
            totals[wager.seat] = totals.get(wager.seat, Fraction(0)) + wager.stake
        return totals
    wagers: dict[tuple[int, str, int | None], Fraction] = {}
    extra: dict[int, Fraction] = {}
    for event in game_round.events:
        if isinstance(event, BetPlaced):
            wagers[(event.seat, event.wager, event.hand)] = Fraction(event.amount)
        elif isinstance(event, BetsReturned):
            wagers = {key: value for key, value in wagers.items() if key[0] != event.seat}
            extra.pop(event.seat, None)
        elif getattr(event, "adds_stake", False):
            seat = int(getattr(event, "seat"))  # noqa: B009 - a game's own event class
            for name in EXTRA_STAKE_FIELDS:
                value = getattr(event, name, None)
                if value is not None:
                    extra[seat] = extra.get(seat, Fraction(0)) + Fraction(value)
                    break
    totals = dict(extra)
    for (seat, _wager, _hand), amount in wagers.items():
        totals[seat] = totals.get(seat, Fraction(0)) + amount
    return {seat: amount for seat, amount in totals.items() if amount}


def engines_minimum(profile: Profile, wager: str) -> int:
    """The table minimum of ``wager``, from the profile's limits fields (for clients and bots)."""
    limits: Any = getattr(profile, "limits", None)
    if isinstance(limits, dict):
        limits = limits.get(wager) or next(iter(limits.values()))
    if limits is None:
        limits = getattr(profile, f"{wager}_limits")
    return int(limits.minimum)
